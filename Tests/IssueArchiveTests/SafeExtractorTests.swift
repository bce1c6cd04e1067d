import Foundation
import Testing
import ZIPFoundation
@testable import IssueArchive

@Suite struct SafeExtractorTests {
    /// Extraction must fail with `kind`, leave no destination and write nothing at all beside
    /// the archive (the scratch folder holds exactly what it held before).
    func expectRefused(_ archive: URL, in scratch: Scratch, kind: ArchiveError.Kind, mentioning text: String? = nil,
                       limits: ExtractionLimits = .standard) {
        let before = scratch.listing()
        let destination = scratch.file("out")
        do {
            try SafeExtractor.extract(archive: archive, to: destination, limits: limits)
            Issue.record("archive was accepted, expected \(kind)")
        } catch let error as ArchiveError {
            #expect(error.kind == kind, "\(error)")
            if let text { #expect(error.description.contains(text), "\(error)") }
            #expect(!error.description.isEmpty && !error.description.contains("\n"))
        } catch {
            Issue.record("unexpected error type: \(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: destination.path))
        #expect(scratch.listing() == before)
    }

    @Test func extractsStoredAndDeflatedEntriesIntoFolders() throws {
        let scratch = try Scratch()
        let big = String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 5000)
        let archive = try scratch.zip("issue.zip", [
            .init("mimetype", "application/epub+zip", method: 0),
            .init("OEBPS/", "", method: 0),
            .init("OEBPS/text/chapter1.xhtml", big),
            .init("./OEBPS//style.css", "p { margin: 0 }", method: 0),
        ])
        let destination = scratch.file("out")
        try SafeExtractor.extract(archive: archive, to: destination)
        #expect(try String(contentsOf: destination.appendingPathComponent("OEBPS/text/chapter1.xhtml"), encoding: .utf8) == big)
        #expect(try String(contentsOf: destination.appendingPathComponent("OEBPS/style.css"), encoding: .utf8) == "p { margin: 0 }")
        #expect(try String(contentsOf: destination.appendingPathComponent("mimetype"), encoding: .utf8) == "application/epub+zip")
        // Nothing but the archive and the destination: the staging folder was renamed, not copied.
        #expect(scratch.listing().filter { !$0.contains("/") } == ["issue.zip", "out"])
    }

    @Test func extractsWhatZIPFoundationWrites() throws {
        let scratch = try Scratch()
        let url = scratch.file("written.zip")
        let archive = try Archive(url: url, accessMode: .create)
        let payload = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 5) })
        try archive.addEntry(with: "pages/page 1.bin", type: .file, uncompressedSize: Int64(payload.count),
                             compressionMethod: .deflate) { (position: Int64, size: Int) -> Data in
            payload.subdata(in: Int(position)..<Int(position) + size)
        }
        try archive.addEntry(with: "notes.txt", type: .file, uncompressedSize: 5, compressionMethod: .none) { (_: Int64, _: Int) -> Data in
            Data("hello".utf8)
        }
        let destination = scratch.file("out")
        try SafeExtractor.extract(archive: url, to: destination)
        #expect(try Data(contentsOf: destination.appendingPathComponent("pages/page 1.bin")) == payload)
        #expect(try Data(contentsOf: destination.appendingPathComponent("notes.txt")) == Data("hello".utf8))
    }

    @Test(arguments: [
        ("/etc/evil", "absolute path"), ("../evil", "escapes the destination"), ("a/../../evil", "escapes the destination"),
        ("a\\..\\..\\evil", "backslash"), ("C:/evil", "drive letter"), ("c:evil", "drive letter"),
        ("a\u{0}b", "NUL"), ("title\u{1B}[2J.txt", "control character"), ("/", "absolute path"), ("", "empty name"),
    ])
    func refusesUnsafeNames(name: String, reason: String) throws {
        let scratch = try Scratch()
        let archive = try scratch.zip("hostile.zip", [.init("ok.txt", "fine"), .init(name, "pwned")])
        expectRefused(archive, in: scratch, kind: .unsafePath, mentioning: reason)
        #expect(!FileManager.default.fileExists(atPath: scratch.url.deletingLastPathComponent().appendingPathComponent("evil").path))
    }

    @Test func refusesTheSymlinkEscapeThatFooledUnzipItem() throws {
        // y → . followed by y/../evil wrote outside the destination with FileManager.unzipItem.
        let scratch = try Scratch()
        var link = ZipFixture.Entry("y", ".", method: 0)
        link.externalAttributes = 0o120777 << 16
        let archive = try scratch.zip("link.zip", [link, .init("y/evil", "pwned")])
        expectRefused(archive, in: scratch, kind: .unsafeEntryType, mentioning: "symbolic link")
    }

    @Test func refusesDeviceFilesAndFifos() throws {
        let scratch = try Scratch()
        var device = ZipFixture.Entry("dev", "", method: 0)
        device.externalAttributes = 0o020644 << 16
        expectRefused(try scratch.zip("dev.zip", [device]), in: scratch, kind: .unsafeEntryType)
        var fifo = ZipFixture.Entry("fifo", "", method: 0)
        fifo.externalAttributes = 0o010644 << 16
        expectRefused(try scratch.zip("fifo.zip", [fifo]), in: scratch, kind: .unsafeEntryType)
    }

    @Test func refusesTwoEntriesWithOneName() throws {
        let scratch = try Scratch()
        expectRefused(try scratch.zip("dup.zip", [.init("a.txt", "one"), .init("a.txt", "two")]),
                      in: scratch, kind: .duplicateEntry, mentioning: "two entries named 'a.txt'")
        expectRefused(try scratch.zip("dup2.zip", [.init("a/b.txt", "one"), .init("./a//b.txt", "two")]),
                      in: scratch, kind: .duplicateEntry)
        expectRefused(try scratch.zip("fileanddir.zip", [.init("a", "file"), .init("a/b.txt", "inside a file")]),
                      in: scratch, kind: .duplicateEntry)
        expectRefused(try scratch.zip("dirandfile.zip", [.init("a/b.txt", "x"), .init("a", "file over folder")]),
                      in: scratch, kind: .duplicateEntry)
    }

    @Test func refusesAZipBombByRatioBeforeWritingAnything() throws {
        let scratch = try Scratch()
        let zeros = [UInt8](repeating: 0, count: 20 << 20)
        let archive = try scratch.zip("bomb.zip", [.init(bytes: Array("zeros.bin".utf8), content: zeros)])
        #expect(try FileManager.default.attributesOfItem(atPath: archive.path)[.size] as? Int ?? 0 < 100_000)
        expectRefused(archive, in: scratch, kind: .limitExceeded, mentioning: "zip bomb")
    }

    @Test func enforcesTotalSizeAndEntryCountLimits() throws {
        let scratch = try Scratch()
        let archive = try scratch.zip("many.zip", (0..<20).map { .init("f\($0).txt", String(repeating: "x", count: 1000)) })
        var small = ExtractionLimits.standard
        small.maxEntries = 10
        expectRefused(archive, in: scratch, kind: .limitExceeded, mentioning: "20 entries", limits: small)
        small = .standard
        small.maxTotalBytes = 10_000
        expectRefused(archive, in: scratch, kind: .limitExceeded, mentioning: "10000 bytes", limits: small)
        small.maxTotalBytes = 20_000
        try SafeExtractor.extract(archive: archive, to: scratch.file("out"), limits: small)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.file("out").path).count == 20)
    }

    @Test func refusesAnEntryThatInflatesPastItsDeclaredSize() throws {
        let scratch = try Scratch()
        var liar = ZipFixture.Entry("small.txt", String(repeating: "A", count: 100_000))
        liar.declaredSize = 1000
        liar.crc = ZipFixture.crc(Array(repeating: UInt8(ascii: "A"), count: 1000))
        expectRefused(try scratch.zip("liar.zip", [liar]), in: scratch, kind: .limitExceeded, mentioning: "declares")
    }

    @Test func refusesOverlappingEntries() throws {
        // The non-recursive zip bomb: entry A's data contains entry B's local header and data,
        // so B's bytes are counted twice.
        let scratch = try Scratch()
        var inner = ZipFixture.Entry("b.txt", String(repeating: "B", count: 5000))
        inner.method = 0
        let innerBytes = ZipFixture.localHeader(inner, compressedSize: 5000) + inner.content
        var outer = ZipFixture.Entry(bytes: Array("a.txt".utf8), content: innerBytes, method: 0)
        outer.flags = 0x0800
        let outerLocal = ZipFixture.localHeader(outer, compressedSize: UInt32(innerBytes.count))
        let body = outerLocal + innerBytes
        let central = ZipFixture.centralRecord(outer, compressedSize: UInt32(innerBytes.count), offset: 0)
            + ZipFixture.centralRecord(inner, compressedSize: 5000, offset: UInt32(outerLocal.count))
        let archive = scratch.file("overlap.zip")
        try Data(body + central + ZipFixture.end(count: 2, size: central.count, offset: body.count)).write(to: archive)
        expectRefused(archive, in: scratch, kind: .overlappingEntries, mentioning: "overlap")
    }

    @Test func refusesABadCRC() throws {
        let scratch = try Scratch()
        var entry = ZipFixture.Entry("page.txt", "some text that was damaged in transit")
        entry.crc = 0xDEAD_BEEF
        expectRefused(try scratch.zip("crc.zip", [.init("first.txt", "fine"), entry]), in: scratch,
                      kind: .checksumMismatch, mentioning: "CRC-32")
    }

    @Test func refusesEncryptedEntries() throws {
        let scratch = try Scratch()
        var entry = ZipFixture.Entry("secret.txt", "hidden")
        entry.flags |= 1
        expectRefused(try scratch.zip("enc.zip", [entry]), in: scratch, kind: .encrypted, mentioning: "encrypted")
        var aes = ZipFixture.Entry("aes.txt", "hidden")
        aes.method = 99
        aes.payload = Array("opaque".utf8)
        expectRefused(try scratch.zip("aes.zip", [aes]), in: scratch, kind: .encrypted)
    }

    @Test func refusesUnknownCompressionMethods() throws {
        let scratch = try Scratch()
        var entry = ZipFixture.Entry("page.txt", "text")
        entry.method = 14
        entry.payload = [1, 2, 3, 4]
        expectRefused(try scratch.zip("lzma.zip", [entry]), in: scratch, kind: .unsupportedMethod, mentioning: "LZMA")
    }

    @Test func refusesLocalHeaderThatDisagreesWithTheCentralDirectory() throws {
        let scratch = try Scratch()
        var renamed = ZipFixture.Entry("safe.txt", "text")
        renamed.localName = Array("../ev.txt".utf8)
        expectRefused(try scratch.zip("names.zip", [renamed]), in: scratch, kind: .inconsistent, mentioning: "disagree")
        var method = ZipFixture.Entry("m.txt", "text", method: 0)
        method.localMethod = 8
        expectRefused(try scratch.zip("method.zip", [method]), in: scratch, kind: .inconsistent)
    }

    @Test func refusesTruncatedArchives() throws {
        let scratch = try Scratch()
        let whole = ZipFixture([.init("a.txt", String(repeating: "text ", count: 4000)), .init("b.txt", "end")]).bytes()
        for cut in [whole.count / 2, whole.count - 10, 40] {
            let archive = scratch.file("cut-\(cut).zip")
            try Data(whole[0..<cut]).write(to: archive)
            expectRefused(archive, in: scratch, kind: .truncated, mentioning: "truncated")
        }
    }

    @Test func refusesADeflateStreamThatEndsEarlyWithoutHanging() throws {
        // Headers are consistent but the compressed data stops mid-stream: zlib wants more input
        // than the entry has. It must end with an error, never wait for bytes past the entry.
        let scratch = try Scratch()
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let content = (0..<200_000).map { _ -> UInt8 in
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        }
        #expect(ZipFixture.deflate(content).count > 150_000)
        var entry = ZipFixture.Entry(bytes: Array("noise.bin".utf8), content: content)
        entry.payload = Array(ZipFixture.deflate(content).prefix(50_000))
        expectRefused(try scratch.zip("short.zip", [entry]), in: scratch, kind: .truncated, mentioning: "ends early")
    }

    @Test func refusesCorruptDeflateData() throws {
        let scratch = try Scratch()
        var entry = ZipFixture.Entry("x.txt", String(repeating: "abc", count: 100))
        entry.payload = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        expectRefused(try scratch.zip("corrupt.zip", [entry]), in: scratch, kind: .checksumMismatch, mentioning: "corrupt")
    }

    @Test func namesARARFileThatPretendsToBeACBZ() throws {
        let scratch = try Scratch()
        let archive = scratch.file("comic.cbz")
        try Data([0x52, 0x61, 0x72, 0x21, 0x1A, 0x07, 0x01, 0x00] + [UInt8](repeating: 0, count: 100)).write(to: archive)
        expectRefused(archive, in: scratch, kind: .wrongFormat, mentioning: "this .cbz is a RAR archive, not a zip")
        let text = scratch.file("notes.zip")
        try Data("just some text, no zip here".utf8).write(to: text)
        expectRefused(text, in: scratch, kind: .notAZip, mentioning: "not a zip")
    }

    @Test func decodesNamesWithoutTheUTF8FlagAsCodePage437() throws {
        let scratch = try Scratch()
        // "été.txt" and "Ä/ñ.txt" in code page 437: 0x82 é, 0x8E Ä, 0xA4 ñ; none of these bytes is valid UTF-8 here.
        var french = ZipFixture.Entry(bytes: [0x82, 0x74, 0x82, 0x2E, 0x74, 0x78, 0x74], content: Array("summer".utf8))
        french.flags = 0
        french.versionMadeBy = 0x0014 // MS-DOS
        french.externalAttributes = 0
        var nested = ZipFixture.Entry(bytes: [0x8E, 0x2F, 0xA4, 0x2E, 0x74, 0x78, 0x74], content: Array("n".utf8))
        nested.flags = 0
        let archive = try scratch.zip("dos.zip", [french, nested])
        let destination = scratch.file("out")
        try SafeExtractor.extract(archive: archive, to: destination)
        #expect(try String(contentsOf: destination.appendingPathComponent("été.txt"), encoding: .utf8) == "summer")
        #expect(FileManager.default.fileExists(atPath: destination.appendingPathComponent("Ä/ñ.txt").path))
    }

    @Test func usesTheInfoZIPUnicodePathWhenItMatchesTheName() throws {
        let scratch = try Scratch()
        func unicodePath(_ name: String, for raw: [UInt8]) -> [UInt8] {
            let body: [UInt8] = [1] + ZipFixture.le32(ZipFixture.crc(raw)) + Array(name.utf8)
            return ZipFixture.le16(0x7075) + ZipFixture.le16(UInt16(body.count)) + body
        }
        let raw = Array("caf?.txt".utf8)
        var matching = ZipFixture.Entry(bytes: raw, content: Array("coffee".utf8))
        matching.flags = 0
        matching.centralExtra = unicodePath("café.txt", for: raw)
        let stale = Array("old.txt".utf8)
        var mismatched = ZipFixture.Entry(bytes: stale, content: Array("tea".utf8))
        mismatched.flags = 0
        mismatched.centralExtra = unicodePath("renamed.txt", for: Array("something else".utf8))
        try SafeExtractor.extract(archive: try scratch.zip("u.zip", [matching, mismatched]), to: scratch.file("out"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.file("out").path).sorted() == ["café.txt", "old.txt"])
    }

    @Test func refusesAnExistingDestinationAndLeavesItAlone() throws {
        let scratch = try Scratch()
        let archive = try scratch.zip("ok.zip", [.init("a.txt", "a")])
        let destination = scratch.file("out")
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: false)
        try Data("keep".utf8).write(to: destination.appendingPathComponent("mine.txt"))
        #expect(throws: ArchiveError.self) { try SafeExtractor.extract(archive: archive, to: destination) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: destination.path) == ["mine.txt"])
        #expect(scratch.listing() == ["ok.zip", "out", "out/mine.txt"])
    }

    @Test func readsZIP64Archives() throws {
        let scratch = try Scratch()
        let text = String(repeating: "sixty-four ", count: 3000)
        let archive = scratch.file("z64.zip")
        try ZipFixture([.init("a/one.txt", text), .init("two.bin", "stored", method: 0)], zip64: true).write(to: archive)
        try SafeExtractor.extract(archive: archive, to: scratch.file("out"))
        #expect(try String(contentsOf: scratch.file("out/a/one.txt"), encoding: .utf8) == text)
        #expect(try String(contentsOf: scratch.file("out/two.bin"), encoding: .utf8) == "stored")
    }

    @Test func readsStreamedEntriesWithDataDescriptors() throws {
        let scratch = try Scratch()
        var first = ZipFixture.Entry("first.txt", String(repeating: "stream ", count: 500))
        first.streamed = true
        var second = ZipFixture.Entry("second.txt", "tail")
        second.streamed = true
        try SafeExtractor.extract(archive: try scratch.zip("s.zip", [first, second]), to: scratch.file("out"))
        #expect(try String(contentsOf: scratch.file("out/second.txt"), encoding: .utf8) == "tail")
        var lying = ZipFixture.Entry("x.txt", "descriptor disagrees")
        lying.streamed = true
        var archiveBytes = ZipFixture([lying]).bytes()
        // Damage the descriptor's CRC (it sits right after the data).
        let descriptorAt = 30 + 5 + lying.data.count
        archiveBytes[descriptorAt + 4] ^= 0xFF
        // A writer that left the central CRC zero: the descriptor's CRC is the one checked.
        var zeroCentral = ZipFixture.Entry("z.txt", "checked against the descriptor")
        zeroCentral.streamed = true
        var zeroBytes = ZipFixture([zeroCentral]).bytes()
        let centralCRCAt = zeroBytes.count - 22 - (46 + 5) + 16
        zeroBytes.replaceSubrange(centralCRCAt..<(centralCRCAt + 4), with: [0, 0, 0, 0])
        let zeroArchive = scratch.file("zero.zip")
        try Data(zeroBytes).write(to: zeroArchive)
        try SafeExtractor.extract(archive: zeroArchive, to: scratch.file("zero"))
        #expect(try String(contentsOf: scratch.file("zero/z.txt"), encoding: .utf8) == "checked against the descriptor")

        let other = try Scratch()
        let damaged = other.file("d.zip")
        try Data(archiveBytes).write(to: damaged)
        expectRefused(damaged, in: other, kind: .inconsistent)
    }

    @Test func anEndRecordHiddenInTheCommentMakesTheArchiveAmbiguous() throws {
        let scratch = try Scratch()
        let real = ZipFixture([.init("real.txt", "real")]).bytes()
        // The comment holds a second end record (pointing at an empty directory) that also ends
        // exactly at the end of the file: readers would disagree about what the archive holds.
        let fake = ZipFixture.end(count: 0, size: 0, offset: 0)
        let archive = scratch.file("comment.zip")
        try Data(Array(real.dropLast(2)) + ZipFixture.le16(UInt16(fake.count)) + fake).write(to: archive)
        expectRefused(archive, in: scratch, kind: .inconsistent, mentioning: "two end records")
        // An ordinary comment and trailing bytes after the record are fine.
        let commented = scratch.file("commented.zip")
        try Data(Array(real.dropLast(2)) + ZipFixture.le16(5) + Array("hello".utf8) + Array("junk".utf8)).write(to: commented)
        try SafeExtractor.extract(archive: commented, to: scratch.file("out2"))
        #expect(FileManager.default.fileExists(atPath: scratch.file("out2/real.txt").path))
    }

    @Test func anEmptyArchiveExtractsToAnEmptyFolder() throws {
        let scratch = try Scratch()
        let archive = try scratch.zip("empty.zip", [])
        try SafeExtractor.extract(archive: archive, to: scratch.file("out"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.file("out").path).isEmpty)
    }
}
