import Foundation
import IssueArchive
@testable import NewsstandKit
import Testing

/// What a file's package shares with calibre's books, read as calibre reads it (the real
/// server finding the books: CalibreSyncEndToEndTests).
@Suite("Books of one's own found on calibre's content server") struct CalibreBookMatchTests {
    let uuid = "0d7c3a52-9f1e-4b8a-a6d2-5c1e7f3b9a40"

    @Test func calibresUUIDIsReadInEveryFormCalibreWritesIt() {
        for written in [BookIdentifier(value: uuid, scheme: "uuid"), BookIdentifier(value: "uuid:\(uuid)"),
                        BookIdentifier(value: "urn:uuid:\(uuid.uppercased())"), BookIdentifier(value: "urn:uuid:\(uuid)", scheme: "UUID"),
                        BookIdentifier(value: uuid)] {
            let read = CalibreIdentifiers([written])
            #expect(read.uuids == [uuid] && read.typed.isEmpty, "\(written)")
        }
        // The book's id in the library that wrote it, an address, a uuid cut short: nothing to ask.
        let nothing = CalibreIdentifiers([BookIdentifier(value: "calibre:3"), BookIdentifier(value: "3", scheme: "calibre"),
                                          BookIdentifier(value: "https://example.org/book"), BookIdentifier(value: "uuid:0d7c3a52-9f1e")])
        #expect(nothing.isEmpty)
    }

    @Test func anISBNIsComparedByItsDigitsAndAskedForAsWritten() throws {
        let dashed = CalibreIdentifiers([BookIdentifier(value: "978-0-306-40615-7", scheme: "ISBN")])
        #expect(dashed.typed == [.init(type: "isbn", value: "9780306406157", written: "978-0-306-40615-7")])
        #expect(CalibreIdentifiers([BookIdentifier(value: "urn:isbn:0-306-40615-2")]).typed.map(\.value) == ["0306406152"])
        #expect(CalibreIdentifiers([BookIdentifier(value: "isbn:080442957X")]).typed.map(\.value) == ["080442957X"])
        // A wrong check digit, a placeholder, an X inside: not ISBNs.
        for wrong in ["978-0-306-40615-8", "0000000000", "9780306X06157"] {
            #expect(CalibreIdentifiers([BookIdentifier(value: wrong, scheme: "ISBN")]).isEmpty, "\(wrong)")
        }
        let isbn = try #require(dashed.typed.first)
        #expect(isbn.isIn(["isbn": "9780306406157"]) && isbn.isIn(["isbn": "978-0-306-40615-7"]))
        #expect(!isbn.isIn(["isbn": "9783161484100"]) && !isbn.isIn(["doi": "9780306406157"]))
        // Other types as calibre keeps them, compared as written.
        let doi = CalibreIdentifiers([BookIdentifier(value: "urn:doi:10.1000/182"), BookIdentifier(value: "B00ABC", scheme: "AMAZON")])
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
        #expect(BookIdentifier.of(epub: root) == [BookIdentifier(value: "3", scheme: "calibre"), BookIdentifier(value: uuid, scheme: "uuid"),
                                                  BookIdentifier(value: "978-0-306-40615-7", scheme: "ISBN")])
        #expect(BookIdentifier.of(epub: root.appendingPathComponent("META-INF")).isEmpty)  // no package
    }

    /// calibre's content server in memory, as far as finding books goes: its library, the
    /// books by uuid, a search that finds every book (calibre finds fewer: what is kept must
    /// still be checked here) and the books by id. `libraryInfo` 500: a server that will not look.
    final class Calibre: SyncTransport, @unchecked Sendable {  // @unchecked: every field under `lock`.
        private let lock = NSLock()
        let books: [Int: [String: Any]]
        var libraryInfo = 200
        private var asked: [String] = []
        var searches: [String] { lock.withLock { asked } }

        init(books: [Int: [String: Any]]) { self.books = books }

        func send(_ request: SyncRequest) throws -> SyncResponse {
            let parts = try #require(URLComponents(url: request.url, resolvingAgainstBaseURL: false))
            let query = Dictionary((parts.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
            func answer(_ object: Any, status: Int = 200) throws -> SyncResponse {
                SyncResponse(status: status, body: try JSONSerialization.data(withJSONObject: object))
            }
            switch parts.path {
            case "/ajax/library-info":
                return try answer(["library_map": ["library": "library"], "default_library": "library"], status: libraryInfo)
            case "/ajax/search/library":
                lock.withLock { asked.append(query["query"] ?? "") }
                return try answer(["book_ids": books.keys.sorted()])
            case "/ajax/books/library":
                let wanted = Set((query["ids"] ?? "").split(separator: ",").map(String.init))
                let found = books.filter { id, book in
                    query["id_is_uuid"] == "true" ? wanted.contains(book["uuid"] as? String ?? "") : wanted.contains(String(id))
                }
                return try answer(Dictionary(uniqueKeysWithValues: found.map { (String($0.key), $0.value) }))
            default:
                return SyncResponse(status: 404, body: Data())
            }
        }
    }

    @Test func theBookSharingTheMostInTheFilesFormatIsFoundNeverOneOfSeveralAlike() throws {
        let calibre = Calibre(books: [
            5: ["uuid": uuid, "identifiers": ["isbn": "978-0-306-40615-7", "doi": "10.1/y"], "formats": ["epub", "pdf"]],
            6: ["uuid": "6f1d2b7e-0c4a-4e59-9b3d-2a8f5e7c1d90", "identifiers": ["isbn": "9783161484100"], "formats": ["pdf"]],
            7: ["uuid": "11111111-2222-3333-4444-555555555555", "identifiers": ["doi": "10.1/x"], "formats": ["epub"]],
            8: ["uuid": "11111111-2222-3333-4444-666666666666", "identifiers": ["doi": "10.1/x"], "formats": ["epub"]],
            9: ["uuid": "11111111-2222-3333-4444-777777777777", "identifiers": ["doi": "10.1/y"], "formats": ["epub"]],
        ])
        let server = CalibreContentServer(server: URL(string: "http://127.0.0.1:1")!, user: nil, password: nil, name: "calibre", transport: calibre)
        func wanted(_ identifiers: BookIdentifier...) -> CalibreBookFinder.Wanted { .init(format: "EPUB", identifiers: CalibreIdentifiers(identifiers)) }
        let found = try CalibreBookFinder(server: server).books(for: [
            1: wanted(BookIdentifier(value: "urn:isbn:9780306406157")),                 // its ISBN, written otherwise
            2: wanted(BookIdentifier(value: "urn:uuid:\(uuid)")),                       // calibre's uuid
            3: wanted(BookIdentifier(value: "urn:isbn:9783161484100")),                 // a book in PDF only
            4: wanted(BookIdentifier(value: "urn:doi:10.1/x")),                         // two books alike
            5: wanted(BookIdentifier(value: "urn:isbn:9780306406157"), BookIdentifier(value: "urn:doi:10.1/y")),  // two shared beat one
            7: wanted(BookIdentifier(value: "urn:isbn:9780306406157"), BookIdentifier(value: "urn:doi:10.1/x")),  // one each: alike
            6: wanted(BookIdentifier(value: "urn:isbn:9781861972712")),                 // nothing shared
        ])
        #expect(found.mapValues(\.document) == [1: "library/5/EPUB", 2: "library/5/EPUB", 5: "library/5/EPUB"])
        // One regular expression a type, never a term a value.
        #expect(calibre.searches.sorted() == [#"identifiers:"=doi:~^(?:10[.]1/x|10[.]1/y)$""#,
                                              #"identifiers:"=isbn:~^(?:9780306406157|9781861972712|9783161484100)$""#].sorted(), "\(calibre.searches)")
    }

    @Test func aServerThatWillNotLookLeavesTheFilesUnnamedAndTheSyncGoingOn() throws {
        let temp = try TemporaryLibrary(inMemory: true)
        let book = temp.root.appendingPathComponent("book")
        try Self.writeBook(at: book, isbn: "9780306406157")
        let calibre = Calibre(books: [5: ["uuid": uuid, "identifiers": ["isbn": "9780306406157"], "formats": ["epub"]]])
        let server = CalibreContentServer(server: URL(string: "http://127.0.0.1:1")!, user: nil, password: nil, name: "calibre", transport: calibre)
        let target = SyncTarget(id: 1, name: "calibre", url: URL(string: "http://127.0.0.1:1")!, kind: .calibre, user: nil, identity: .binary,
                                device: "newsstand", deviceID: "ABCDEF0123456789")
        var issue = Issue(id: 9, publicationId: 1, name: "file:///books/guide.epub", date: Date(), title: "Guide",
                          contentURL: "file:///books/guide.epub", contentType: "application/epub+zip")
        issue.status = .available
        let row = SyncPlaceRow(targetID: 1, issueID: 9, document: nil, pending: true, attempts: 0)
        func places() -> CalibrePlaces {
            CalibrePlaces(server: server, target: target, contentDirectory: { _ in book }, highlights: CalibreHighlights(store: temp.library.store, server: server))
        }

        calibre.libraryInfo = 500
        let refused = places()
        try refused.findBooks([(issue, row)])
        #expect(refused.document(of: issue) == nil)
        calibre.libraryInfo = 200
        let answered = places()
        try answered.findBooks([(issue, row)])
        #expect(answered.document(of: issue) == "library/5/EPUB")
        // Named already (kept in syncPlace): not looked for again.
        let before = calibre.searches.count
        try places().findBooks([(issue, SyncPlaceRow(targetID: 1, issueID: 9, document: "library/5/EPUB", pending: false, attempts: 0))])
        #expect(calibre.searches.count == before)
    }

    /// A PDF's identifiers are the worker's to read: what a content gives is kept, read again
    /// only once the issue is installed again.
    @Test func aContentsIdentifiersAreReadOnceUntilItIsInstalledAgain() throws {
        let temp = try TemporaryLibrary(inMemory: true)
        let book = temp.root.appendingPathComponent("book")
        try Self.writeBook(at: book, isbn: "9780306406157")
        var (_, issue) = try temp.publicationWithIssue(named: "guide")
        issue.contentURL = "file:///books/guide.epub"
        issue.contentType = "application/epub+zip"
        issue.status = .available
        issue = try temp.library.store.save(issue)
        let id = try #require(issue.id)
        let calibre = Calibre(books: [5: ["uuid": uuid, "identifiers": ["isbn": "9780306406157"], "formats": ["epub"]],
                                      6: ["uuid": UUID().uuidString.lowercased(), "identifiers": ["isbn": "9781861972712"], "formats": ["epub"]]])
        calibre.libraryInfo = 200
        let server = CalibreContentServer(server: URL(string: "http://127.0.0.1:1")!, user: nil, password: nil, name: "calibre", transport: calibre)
        let target = SyncTarget(id: 1, name: "calibre", url: URL(string: "http://127.0.0.1:1")!, kind: .calibre, user: nil, identity: .binary,
                                device: "newsstand", deviceID: "ABCDEF0123456789")
        let row = SyncPlaceRow(targetID: 1, issueID: id, document: nil, pending: true, attempts: 0)
        func found() throws -> String? {
            let places = CalibrePlaces(server: server, target: target, contentDirectory: { _ in book },
                                       highlights: CalibreHighlights(store: temp.library.store, server: server))
            try places.findBooks([(issue, row)])
            return places.document(of: issue)
        }

        #expect(try found() == "library/5/EPUB")
        #expect(try temp.library.store.contentIdentifiers(of: [id]) == [id: [BookIdentifier(value: "urn:isbn:9780306406157")]])
        // The file now names another book: what was read is kept, the file not read again.
        try Self.writeBook(at: book, isbn: "9781861972712")
        #expect(try found() == "library/5/EPUB")
        // Installed again: read afresh.
        _ = try temp.library.store.recordContentDetails(title: nil, authors: nil, cover: nil, issueID: id)
        #expect(try temp.library.store.contentIdentifiers(of: [id]).isEmpty)
        #expect(try found() == "library/6/EPUB")
    }

    /// An EPUB extracted at `book` whose package names one ISBN.
    static func writeBook(at book: URL, isbn: String) throws {
        try FileManager.default.createDirectory(at: book.appendingPathComponent("META-INF"), withIntermediateDirectories: true)
        try #"<container xmlns="urn:oasis:names:tc:opendocument:xmlns:container" version="1.0"><rootfiles><rootfile full-path="content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>"#
            .write(to: book.appendingPathComponent("META-INF/container.xml"), atomically: true, encoding: .utf8)
        try #"<package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier>urn:isbn:\#(isbn)</dc:identifier></metadata></package>"#
            .write(to: book.appendingPathComponent("content.opf"), atomically: true, encoding: .utf8)
    }
}
