import Foundation
import IssueArchive
@testable import NewsstandKit
import Testing

/// What a file's package shares with calibre's books, read as calibre reads it (the real
/// server finding the books: CalibreSyncEndToEndTests).
@Suite("Books of one's own found on calibre's content server") struct CalibreBookMatchTests {
    let uuid = "0d7c3a52-9f1e-4b8a-a6d2-5c1e7f3b9a40"

    @Test func calibresUUIDIsReadInEveryFormCalibreWritesIt() {
        for written in [EPUBIdentifier(value: uuid, scheme: "uuid"), EPUBIdentifier(value: "uuid:\(uuid)"),
                        EPUBIdentifier(value: "urn:uuid:\(uuid.uppercased())"), EPUBIdentifier(value: "urn:uuid:\(uuid)", scheme: "UUID"),
                        EPUBIdentifier(value: uuid)] {
            let read = CalibreIdentifiers([written])
            #expect(read.uuids == [uuid] && read.typed.isEmpty, "\(written)")
        }
        // The book's id in the library that wrote it, an address, a uuid cut short: nothing to ask.
        let nothing = CalibreIdentifiers([EPUBIdentifier(value: "calibre:3"), EPUBIdentifier(value: "3", scheme: "calibre"),
                                          EPUBIdentifier(value: "https://example.org/book"), EPUBIdentifier(value: "uuid:0d7c3a52-9f1e")])
        #expect(nothing.isEmpty)
    }

    @Test func anISBNIsComparedByItsDigitsAndAskedForAsWritten() throws {
        let dashed = CalibreIdentifiers([EPUBIdentifier(value: "978-0-306-40615-7", scheme: "ISBN")])
        #expect(dashed.typed == [.init(type: "isbn", value: "9780306406157", written: "978-0-306-40615-7")])
        #expect(CalibreIdentifiers([EPUBIdentifier(value: "urn:isbn:0-306-40615-2")]).typed.map(\.value) == ["0306406152"])
        #expect(CalibreIdentifiers([EPUBIdentifier(value: "isbn:080442957X")]).typed.map(\.value) == ["080442957X"])
        // A wrong check digit, a placeholder, an X inside: not ISBNs.
        for wrong in ["978-0-306-40615-8", "0000000000", "9780306X06157"] {
            #expect(CalibreIdentifiers([EPUBIdentifier(value: wrong, scheme: "ISBN")]).isEmpty, "\(wrong)")
        }
        let isbn = try #require(dashed.typed.first)
        #expect(isbn.isIn(["isbn": "9780306406157"]) && isbn.isIn(["isbn": "978-0-306-40615-7"]))
        #expect(!isbn.isIn(["isbn": "9783161484100"]) && !isbn.isIn(["doi": "9780306406157"]))
        // Other types as calibre keeps them, compared as written.
        let doi = CalibreIdentifiers([EPUBIdentifier(value: "urn:doi:10.1000/182"), EPUBIdentifier(value: "B00ABC", scheme: "AMAZON")])
        #expect(doi.typed == [.init(type: "doi", value: "10.1000/182", written: "10.1000/182"), .init(type: "amazon", value: "B00ABC", written: "B00ABC")])
    }

    @Test func aValueIsSearchedForByARegularExpressionThatMatchesItAlone() throws {
        #expect(CalibreBookFinder.pattern("978-0-306-40615-7") == "978-0-306-40615-7")
        let doi = try #require(CalibreBookFinder.pattern("10.1000/(182)+x?"))
        #expect(doi == "10[.]1000/[(]182[)][+]x[?]")
        #expect(try Regex("^(?:\(doi))$").wholeMatch(in: "10.1000/(182)+x?") != nil)
        #expect(try Regex("^(?:\(doi))$").wholeMatch(in: "10x1000/(182)+x?") == nil)
        // What calibre's search language or its regular expressions would read otherwise: not asked.
        for value in ["say \"hi\"", "a\\b", "[x]", "^x", ""] { #expect(CalibreBookFinder.pattern(value) == nil, "\(value)") }
    }

    @Test func theIdentifiersAreReadFromTheBookAsInstalled() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("calibre-match-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("META-INF"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("OEBPS"), withIntermediateDirectories: true)
        try #"<container xmlns="urn:oasis:names:tc:opendocument:xmlns:container" version="1.0"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>"#
            .write(to: root.appendingPathComponent("META-INF/container.xml"), atomically: true, encoding: .utf8)
        try """
            <package xmlns="http://www.idpf.org/2007/opf" version="2.0" unique-identifier="uuid_id"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:opf="http://www.idpf.org/2007/opf">
            <dc:identifier opf:scheme="calibre" id="calibre_id">3</dc:identifier><dc:identifier opf:scheme="uuid" id="uuid_id"> \(uuid) </dc:identifier>
            <dc:identifier opf:scheme="ISBN">978-0-306-40615-7</dc:identifier><dc:identifier></dc:identifier></metadata><manifest/><spine/></package>
            """.write(to: root.appendingPathComponent("OEBPS/content.opf"), atomically: true, encoding: .utf8)
        #expect(EPUBIdentifier.of(book: root) == [EPUBIdentifier(value: "3", scheme: "calibre"), EPUBIdentifier(value: uuid, scheme: "uuid"),
                                                  EPUBIdentifier(value: "978-0-306-40615-7", scheme: "ISBN")])
        #expect(EPUBIdentifier.of(book: root.appendingPathComponent("META-INF")).isEmpty)  // no package
    }
}
