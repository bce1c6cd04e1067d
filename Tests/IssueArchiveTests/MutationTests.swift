import Foundation
import Testing
@testable import IssueArchive

/// Damaged archives by the hundred: every one either extracts or is refused with an
/// `ArchiveError`, never a crash, a hang or a file outside the scratch folder.
@Suite struct MutationTests {
    @Test func randomlyDamagedArchivesAreExtractedOrRefusedCleanly() throws {
        let scratch = try Scratch()
        let original = ZipFixture([
            .init("mimetype", "application/epub+zip", method: 0),
            .init("OEBPS/a.xhtml", String(repeating: "<p>paragraph of text</p>\n", count: 200)),
            .init("OEBPS/b.txt", "short", method: 0),
            .init("c/d/e.bin", String(repeating: "xyz", count: 50)),
        ]).bytes()
        var generator = SeededGenerator(seed: 4)
        var refused = 0, accepted = 0
        for round in 0..<400 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let at = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[at] = UInt8.random(in: 0...255, using: &generator)
                case 1: bytes[at] ^= 1 << UInt8.random(in: 0..<8, using: &generator)
                default: bytes[at] = [0x00, 0xFF, 0x2F, 0x2E, 0x5C][Int.random(in: 0..<5, using: &generator)]
                }
            }
            if round % 10 == 0 { bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &generator))) }
            let archive = scratch.file("m\(round).zip")
            try Data(bytes).write(to: archive)
            let destination = scratch.file("out\(round)")
            do {
                try SafeExtractor.extract(archive: archive, to: destination)
                accepted += 1
            } catch is ArchiveError {
                refused += 1
                #expect(!FileManager.default.fileExists(atPath: destination.path))
            }
            try? FileManager.default.removeItem(at: destination)
            try FileManager.default.removeItem(at: archive)
        }
        #expect(refused + accepted == 400)
        #expect(refused > 200)
        #expect(scratch.listing().isEmpty)
    }
}

/// xorshift64*, so the damage is the same on every run.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }
    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 2_685_821_657_736_338_717
    }
}
