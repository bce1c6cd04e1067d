import Foundation
import Testing
@testable import NewsstandKit

/// The document ids KOReader's sync names a book by, checked against a reimplementation in
/// Python of the published algorithm (KOReader's `util.partialMD5`), on files it makes.
@Suite("KOReader's document id, as KOReader computes it")
struct KOSyncDocumentTests {
    /// Makes one file of each size from a seeded generator, prints "path md5" for each:
    /// MD5 over 1,024-byte samples at LuaJIT's `lshift(1024, 2*i)`, i = -1…10 (the shift
    /// count taken mod 32 and the result kept to 32 bits, as LuaJIT's BitOp does).
    static let reference = """
        import hashlib, os, random, sys
        def lshift(x, n):
            return (x << (n & 31)) & 0xFFFFFFFF
        def partial_md5(path):
            h = hashlib.md5()
            with open(path, 'rb') as f:
                for i in range(-1, 11):
                    f.seek(lshift(1024, 2 * i))
                    sample = f.read(1024)
                    if not sample:
                        break
                    h.update(sample)
            return h.hexdigest()
        folder = sys.argv[1]
        for size in map(int, sys.argv[2:]):
            path = os.path.join(folder, 'book-%d.pdf' % size)
            with open(path, 'wb') as f:
                f.write(random.Random(size).randbytes(size))
            print(path, partial_md5(path), hashlib.md5(os.path.basename(path).encode()).hexdigest())
        """

    static let sizes = [0, 1, 1023, 1024, 1025, 2047, 2048, 2049, 4095, 4096, 4097, 5120, 5121, 16_383, 16_384, 17_408,
                        65_537, 262_143, 1_048_576 + 7, 4_194_304 + 1024, 20 * 1_048_576]

    @Test func thePartialMD5MatchesKOReadersAlgorithmOnFilesOfEverySize() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-kosync-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let lines = try Self.python(Self.reference, arguments: [folder.path] + Self.sizes.map(String.init))
        #expect(lines.count == Self.sizes.count)
        var seen = Set<String>()
        for line in lines {
            let fields = line.split(separator: " ").map(String.init)
            try #require(fields.count == 3)
            let file = URL(fileURLWithPath: fields[0])
            #expect(try KOSyncWire.partialMD5(of: file) == fields[1], "\(file.lastPathComponent)")
            #expect(try KOSyncWire.document(at: file, by: .binary) == fields[1])
            #expect(try KOSyncWire.document(at: file, by: .filename) == fields[2])
            seen.insert(fields[1])
        }
        // Different files, different ids: the samples are really read.
        #expect(seen.count == Self.sizes.count)
    }

    @Test func anEmptyFileIsTheMD5OfNothingAndBytesPastTheSamplesDoNotCount() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-kosync-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let empty = folder.appendingPathComponent("empty.epub")
        try Data().write(to: empty)
        #expect(try KOSyncWire.partialMD5(of: empty) == "d41d8cd98f00b204e9800998ecf8427e")
        // 2 KiB + 1 byte: samples at 0 and 1,024 only; a byte changed at 2,048 is not sampled,
        // one at 1,500 is.
        var bytes = Data((0..<2049).map { UInt8($0 & 0xFF) })
        let file = folder.appendingPathComponent("b.pdf")
        try bytes.write(to: file)
        let before = try KOSyncWire.partialMD5(of: file)
        bytes[2048] ^= 0xFF
        try bytes.write(to: file)
        #expect(try KOSyncWire.partialMD5(of: file) == before)
        bytes[1500] ^= 0xFF
        try bytes.write(to: file)
        #expect(try KOSyncWire.partialMD5(of: file) != before)
        #expect(throws: KOSyncIdentityError.self) { try KOSyncWire.partialMD5(of: folder.appendingPathComponent("none.pdf")) }
    }

    @Test func theUserKeyIsTheMD5OfThePassword() {
        #expect(KOSyncWire.userKey(password: "") == "d41d8cd98f00b204e9800998ecf8427e")
        #expect(KOSyncWire.userKey(password: "password") == "5f4dcc3b5aa765d61d8327deb882cf99")
    }

    /// Runs `script` with python3 and returns its output's lines.
    static func python(_ script: String, arguments: [String]) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
