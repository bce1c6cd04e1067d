import Foundation
import Testing
@testable import IssueArchive

/// A disk that accepts `room` bytes through `write`, then says ENOSPC.
final class FillingDisk: Storage, @unchecked Sendable {
    private let lock = NSLock()
    private var room: Int
    private(set) var refused = 0
    init(room: Int) { self.room = room }

    func write(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        let allowed: Int = lock.withLock {
            let n = min(room, count)
            room -= n
            if n == 0 { refused += 1 }
            return n
        }
        guard allowed > 0 else { return -Int(ENOSPC) }
        let result = Glibc.write(descriptor, bytes, allowed)
        return result < 0 ? -Int(errno) : result
    }
    func freeBytes(in directory: URL) -> Int64? { Int64(lock.withLock { room }) }
    func totalBytes(in directory: URL) -> Int64? { 1 << 30 }
}

@Suite struct FullDiskTests {
    static func pages(_ count: Int, size: Int) -> [ZipFixture.Entry] {
        (1...count).map { n in ZipFixture.Entry(bytes: Array("p\(n).html".utf8), content: Array(repeating: UInt8(ascii: "a") + UInt8(n % 20), count: size), method: 0) }
    }

    @Test func aFullDiskDuringAnInstallKeepsTheOldContentAndLeavesNothingBehind() throws {
        let scratch = try Scratch()
        let issues = scratch.file("issues")
        let content = issues.appendingPathComponent("one")
        try FileManager.default.createDirectory(at: content, withIntermediateDirectories: true)
        try Data("<p>old</p>".utf8).write(to: content.appendingPathComponent("a.html"))
        let archive = try scratch.zip("new.zip", Self.pages(4, size: 50_000))
        #expect(try IssueInstaller.installedSize(of: archive) == 200_000)

        let disk = FillingDisk(room: 120_000)                   // two pages and a half fit
        let error = try #require(throws: ArchiveError.self) {
            try IssueInstaller.install(download: archive, into: content, storage: disk)
        }
        #expect(error.isOutOfSpace)
        #expect(error.kind == .io)
        #expect(error.message.contains("No space left on device"))
        #expect(disk.refused == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: issues.path) == ["one"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: content.path) == ["a.html"])
        #expect(try String(contentsOf: content.appendingPathComponent("a.html"), encoding: .utf8) == "<p>old</p>")

        // With room, the same archive installs.
        _ = try IssueInstaller.install(download: archive, into: content, storage: FillingDisk(room: 200_000))
        #expect(try FileManager.default.contentsOfDirectory(atPath: content.path).sorted() == ["p1.html", "p2.html", "p3.html", "p4.html"])
    }

    @Test func aDamagedArchiveIsNotMistakenForAFullDisk() throws {
        let scratch = try Scratch()
        var bad = ZipFixture.Entry("b.html", "<p>damaged</p>")
        bad.crc = 1
        let broken = try scratch.zip("broken.zip", [.init("a.html", "<p>fine</p>"), bad])
        let error = try #require(throws: ArchiveError.self) {
            try IssueInstaller.install(download: broken, into: scratch.file("one"), storage: FillingDisk(room: 1 << 20))
        }
        #expect(!error.isOutOfSpace)
    }
}
