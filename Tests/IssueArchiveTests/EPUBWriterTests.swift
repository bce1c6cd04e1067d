import Foundation
import Testing
@testable import IssueArchive

@Suite struct EPUBWriterTests {
    static func book() -> EPUBWriter {
        var book = EPUBWriter(identifier: "urn:test:book", title: "The Test & Book", language: "en", creator: "Tester",
                              date: Date(timeIntervalSince1970: 1_780_000_000), modified: Date(timeIntervalSince1970: 1_780_000_100))
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        book.coverImage = EPUBWriter.Resource(path: "images/cover.png", mediaType: "image/png", data: png)
        book.front = [EPUBWriter.Document(path: "text/cover.xhtml", xhtml: EPUBWriter.xhtml(
            title: "Cover", language: "en", body: "<p><img src=\"../images/cover.png\" alt=\"Cover\"/></p>"))]
        for n in 1...2 {
            book.documents.append(EPUBWriter.Document(path: "text/a\(n).xhtml", xhtml: EPUBWriter.xhtml(
                title: "Article \(n)", language: "en", body: "<h1>Article \(n)</h1><p>Words of article \(n).</p>")))
        }
        book.contents = [EPUBWriter.ContentsEntry(title: "Section", path: "text/a1.xhtml", children: [
            EPUBWriter.ContentsEntry(title: "Article 1", path: "text/a1.xhtml"),
            EPUBWriter.ContentsEntry(title: "Article 2", path: "text/a2.xhtml"),
        ])]
        return book
    }

    @Test func theMimetypeComesFirstStoredWithoutExtraFields() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("epub-writer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("book.epub")
        try Self.book().write(to: file)
        let bytes = [UInt8](try Data(contentsOf: file).prefix(80))
        #expect(bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]))
        #expect(bytes[8] == 0 && bytes[9] == 0, "the mimetype is stored, not compressed")
        #expect(bytes[26] == 8 && bytes[27] == 0 && bytes[28] == 0 && bytes[29] == 0, "name 'mimetype', no extra field")
        #expect(String(decoding: bytes[30..<38], as: UTF8.self) == "mimetype")
        #expect(String(decoding: bytes[38..<58], as: UTF8.self) == "application/epub+zip")
        // Nothing is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["book.epub"])
    }

    @Test func theBookOpensThroughTheIssueReaderWithItsOrderContentsAndCover() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("epub-writer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("book.epub")
        try Self.book().write(to: file)
        let (content, root) = try IssueReader.read(archive: file, in: directory)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(content.format == .epub)
        #expect(content.readingOrder.map(\.path) == ["OEBPS/text/cover.xhtml", "OEBPS/nav.xhtml", "OEBPS/text/a1.xhtml", "OEBPS/text/a2.xhtml"])
        #expect(content.tableOfContents.map(\.title) == ["Section"])
        #expect(content.tableOfContents.first?.children.map(\.title) == ["Article 1", "Article 2"])
        #expect(content.tableOfContents.first?.children.map(\.path) == ["OEBPS/text/a1.xhtml", "OEBPS/text/a2.xhtml"])
        #expect(content.coverImage == "OEBPS/images/cover.png")
        #expect(content.metadata.title == "The Test & Book")
    }
}
