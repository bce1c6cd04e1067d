import Foundation
import Testing
@testable import IssueArchive

/// Issue #21, item 14: names stored without the UTF-8 flag (bit 11).
@Suite struct ZipNameEncodingTests {
    func extractedNames(_ entries: [ZipFixture.Entry]) throws -> [String] {
        let scratch = try Scratch()
        let archive = try scratch.zip("names.zip", entries)
        let destination = scratch.file("out")
        try SafeExtractor.extract(archive: archive, to: destination)
        let enumerator = FileManager.default.enumerator(atPath: destination.path)
        var names: [String] = []
        while let next = enumerator?.nextObject() as? String { names.append(next) }
        return names.sorted()
    }

    func unflagged(_ name: [UInt8], _ content: String) -> ZipFixture.Entry {
        var entry = ZipFixture.Entry(bytes: name, content: Array(content.utf8))
        entry.flags = 0
        return entry
    }

    @Test func utf8NamesWithoutTheFlagAreReadAsUTF8() throws {
        // What macOS's Archive Utility and many scripts write: UTF-8 bytes, no flag.
        let names = try extractedNames([
            unflagged(Array("Benoît.txt".utf8), "bonjour"),
            unflagged(Array("日本/ページ.txt".utf8), "page"),
        ])
        #expect(names == ["Benoît.txt", "日本", "日本/ページ.txt"])
        #expect(!names.contains("Beno├«t.txt"))
    }

    @Test func namesThatAreNotValidUTF8AreCodePage437() throws {
        // 0x8C is î in code page 437; a lone 0xC3 before '.' is not UTF-8 (├ in code page 437).
        let names = try extractedNames([
            unflagged([0x42, 0x65, 0x6E, 0x6F, 0x8C, 0x74, 0x2E, 0x74, 0x78, 0x74], "dos"),
            unflagged([0xC3, 0x2E, 0x74, 0x78, 0x74], "box"),
        ])
        #expect(names == ["Benoît.txt", "├.txt"])
    }

    @Test func theDirectoryReaderDecodesEachNameOnce() throws {
        let scratch = try Scratch()
        let archive = try scratch.zip("names.zip", [unflagged(Array("Zoë.txt".utf8), "z"), unflagged([0x5A, 0x6F, 0x89, 0x2E, 0x6D, 0x64], "z")])
        let file = try ArchiveFile(url: archive)
        let directory = try ZipDirectory.read(file, label: "names.zip", limits: .standard)
        #expect(directory.entries.map(\.name) == ["Zoë.txt", "Zoë.md"])
    }
}
