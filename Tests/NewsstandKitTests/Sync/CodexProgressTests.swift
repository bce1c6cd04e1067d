import Feeds
import Foundation
import Testing
import TestSupport
@testable import NewsstandKit

/// Places kept by a catalog, against Codex itself (PyPI `codex` 1.9.24, which `./dev test`
/// installs; Tests/Servers/codex_server.py starts it over comics it makes): a comic streamed
/// page by page (OPDS-PSE) tells Codex the page left at, and a comic taken from its OPDS 2
/// catalog reads and writes Codex's progression, the newest place winning.
@Suite("Places kept by Codex's OPDS catalogs", .serialized)
struct CodexProgressTests {
    @Test func aStreamedComicReadToPage5ShowsPage5InCodex() throws {
        let codex = try CodexTestServer()
        defer { codex.stop() }
        let feed = try CatalogParser.parse(try Self.get(codex.url("/opds/v1.2/s/0/1?topGroup=s")), url: codex.url("/opds/v1.2/s/0/1?topGroup=s"))
        let book = try #require(feed.allBooks.first { $0.title.contains("Gull") && $0.title.contains("1") }, "\(feed.allBooks.map(\.title))")
        let stream = try #require(book.stream)
        #expect(stream.count == 9)
        #expect(OPDSProgress.streamKeepsPlace(stream), "\(stream.template)")
        let position = try Self.position(of: book, in: codex)

        let temp = try TemporaryLibrary(access: HTTPAccess(client: nil) { _ in .basic(user: CodexTestServer.user, password: CodexTestServer.password) })
        let comic = StreamedComic(stream: stream, title: book.title, maxWidth: 600,
                                  folder: temp.library.paths.streamedPagesDirectory.appendingPathComponent("codex"),
                                  access: temp.library.http, readAhead: 2, onChange: {})
        comic.read(page: 4)  // page 5, and pages 6 and 7 fetched ahead
        comic.finishFetching()
        for page in 4...6 {
            guard case .fetched = comic.state(ofPage: page) else { Issue.record("page \(page + 1): \(comic.state(ofPage: page))"); return }
        }
        // Codex lets anyone read and keeps an anonymous place from the pages fetched (no
        // sign-in goes with them until it asks): the admin's place is untouched.
        #expect(try position() == nil)

        comic.close()
        try comic.tellPlace(through: Self.progress(for: codex))
        #expect(waitUntil(timeout: 60) { (try? position()) == 5 }, "\(String(describing: try? position()))")
    }

    @Test func aComicTakenFromCodexsOPDS2CatalogReadsAndWritesItsPlaceThere() throws {
        let codex = try CodexTestServer()
        defer { codex.stop() }
        let feedURL = codex.url("/opds/v2.0/s/0/1?topGroup=s")
        let feed = try CatalogParser.parse(try Self.get(feedURL), url: feedURL)
        #expect(feed.format == .opds2)
        let book = try #require(feed.allBooks.first { $0.title == "Gull #2" }, "\(feed.allBooks.map(\.title))")
        let progression = try #require(book.progressionURL)
        #expect(progression.path.hasSuffix("/position"))
        let position = try Self.position(of: book, in: codex)

        let temp = try TemporaryLibrary()
        let taken = try temp.library.subscriptions.take(book)
        let id = try #require(taken.id)
        #expect(try temp.library.store.catalogPlaces().map(\.url) == [progression])
        let credentials = CredentialStore(file: temp.root.appendingPathComponent("credentials.json"), keyring: nil)
        try credentials.save(.basic(user: CodexTestServer.user, password: CodexTestServer.password), for: "127.0.0.1:\(codex.port)")
        let sync = PlaceSync(store: temp.library.store, paths: temp.library.paths, clock: .system,
                             transport: HTTPAccess.syncTransport(timeout: 20), credentials: { credentials })
        func issue() throws -> NewsstandKit.Issue { try #require(try temp.library.store.issue(id: id)) }

        // No place on either side: nothing moves, nothing fails.
        let none = sync.sync(issues: [id])
        #expect(none == PlaceSync.Report(), "\(none)")

        // A place set in Codex (its reader asks for page 7 with bookmark=1) shows here.
        _ = try Self.get(codex.url("/opds/bin/c/\(try Self.comicID(of: book))/6/page.jpg?bookmark=1"))
        #expect(waitUntil(timeout: 60) { (try? position()) == 7 })
        let first = sync.sync(issues: [id])
        #expect(first.received == 1 && first.problems.isEmpty, "\(first)")
        #expect(try issue().locator?.page == 6)

        // Ours, set later here (page 9): Codex shows it; synced again, nothing moves.
        try sync.setPlace(of: try issue(), page: 9)
        let sent = sync.sync(issues: [id])
        let hereNow = String(describing: try issue().locator), codexNow = String(decoding: try Self.get(progression), as: UTF8.self)
        #expect(sent.sent == 1 && sent.problems.isEmpty, "\(sent); here \(hereNow); Codex: \(codexNow)")
        #expect(waitUntil(timeout: 60) { (try? position()) == 9 })
        let again = sync.sync(issues: [id])
        #expect(again.sent == 0 && again.received == 0 && again.offered == 0 && again.problems.isEmpty, "\(again)")
        #expect(try issue().locator?.page == 8)

        // Codex goes back to page 2, later: offered, not taken; the place here stays.
        _ = try Self.get(codex.url("/opds/bin/c/\(try Self.comicID(of: book))/1/page.jpg?bookmark=1"))
        #expect(waitUntil(timeout: 60) { (try? position()) == 2 })
        let back = sync.sync()
        #expect(back.offered == 1 && back.problems.isEmpty, "\(back)")
        #expect(try temp.library.store.placeOffer(for: try issue())?.locator.page == 1)
        #expect(try issue().locator?.page == 8)
    }

    @Test func aCatalogThatIsDownLeavesThePlaceDueAndSaysSoOnce() throws {
        let temp = try TemporaryLibrary()
        let dead = URL(string: "http://127.0.0.1:\(try deadPort())/opds/v2.0/c/4/position")!
        let book = CatalogBook(id: "urn:gull-4", title: "Gull #4",
                               acquisitions: [CatalogAcquisition(url: URL(string: "http://127.0.0.1:1/gull-4.cbz")!, type: "application/vnd.comicbook+zip",
                                                                 rel: "http://opds-spec.org/acquisition")],
                               progressionURL: dead)
        let issue = try temp.library.subscriptions.take(book)
        let sync = PlaceSync(store: temp.library.store, paths: temp.library.paths, clock: .system,
                             transport: HTTPAccess.syncTransport(timeout: 5), credentials: { CredentialStore(file: temp.root.appendingPathComponent("c.json"), keyring: nil) })
        try sync.setPlace(of: issue, page: 3)
        #expect(sync.catalogs.hasDuePlaces())
        let report = sync.sync()
        #expect(report.sent == 0 && report.problems.count == 1, "\(report)")
        #expect(report.problems.first?.contains("could not be reached") == true, "\(report)")
        #expect(sync.catalogs.hasDuePlaces())  // still due: the agent tries again
    }

    // MARK: Codex through its own API

    /// Codex's place for the book as its progression API answers (the page from 1), nil when none.
    static func position(of book: CatalogBook, in codex: CodexTestServer) throws -> () throws -> Int? {
        let url = codex.url("/opds/v2.0/c/\(try comicID(of: book))/position")
        return {
            let answer = try HTTPAccess.syncTransport().send(SyncRequest(method: "GET", url: url, headers: ["Authorization": CodexTestServer.authorization], body: nil))
            guard answer.status == 200 else { return nil }
            let object = try JSONSerialization.jsonObject(with: answer.body) as? [String: Any]
            return ((object?["locator"] as? [String: Any])?["locations"] as? [String: Any])?["position"] as? Int
        }
    }

    /// Codex's id of a comic, from its download link (`/opds/bin/c/ID/download/…`).
    static func comicID(of book: CatalogBook) throws -> Int {
        let parts = try #require(book.acquisitions.first?.url.pathComponents)
        let index = try #require(parts.firstIndex(of: "c"))
        return try #require(Int(parts[index + 1]))
    }

    static func get(_ url: URL) throws -> Data {
        let answer = try HTTPAccess.syncTransport().send(SyncRequest(method: "GET", url: url, headers: ["Authorization": CodexTestServer.authorization], body: nil))
        guard answer.status == 200 else { throw SyncError.server(target: "codex", status: answer.status, message: url.absoluteString) }
        return answer.body
    }

    static func progress(for codex: CodexTestServer) -> OPDSProgress {
        OPDSProgress(transport: HTTPAccess.syncTransport(), credentials: { _ in .basic(user: CodexTestServer.user, password: CodexTestServer.password) })
    }
}

/// The progression API's bodies and PSE's place, without a server.
@Suite struct OPDSProgressWireTests {
    @Test func codexsProgressionReadsAsAPageAndAShareDatedByCodex() throws {
        // As Codex 1.9 answers (a camel-case renderer over its snake_case serializer fields).
        let body = Data("""
        {"modified":"2026-11-29T06:04:47.141891Z","device":{"id":"","name":""},
         "locator":{"title":"Page 4","href":"/opds/bin/c/1/4/page.jpg","type":"image/jpeg",
                    "locations":{"position":5,"progression":0.4444444444444444,"total_progression":0.4444444444444444}}}
        """.utf8)
        let place = try OPDSProgress.decode(body, from: URL(string: "http://127.0.0.1:9/p")!)
        #expect(place.position == 5)
        #expect(abs((place.totalProgression ?? 0) - 4.0 / 9) < 1e-9)
        #expect(place.device == nil)
        let modified = try #require(place.modified)
        #expect(abs(modified.timeIntervalSince1970 - 1_795_932_287.141891) < 0.001, "\(modified)")
        let locator = try #require(CatalogPlaceSync.locator(from: place))
        #expect(locator.page == 4 && locator.updated == modified)
        #expect(throws: SyncError.self) { try OPDSProgress.decode(Data("[1]".utf8), from: URL(string: "http://127.0.0.1:9/p")!) }
    }

    @Test func ourPlaceGoesOutAsAReadiumLocatorWithItsTime() throws {
        let when = Date(timeIntervalSince1970: 1_795_932_287.5)
        let data = OPDSProgress.encode(.init(position: 9, totalProgression: 1.4, modified: when), device: (id: "d1", name: "newsstand on test"))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["modified"] as? String == "2026-11-29T06:04:47.500Z")
        #expect((object["device"] as? [String: String]) == ["id": "d1", "name": "newsstand on test"])
        let locations = try #require((object["locator"] as? [String: Any])?["locations"] as? [String: Any])
        #expect(locations["position"] as? Int == 9)
        #expect(locations["totalProgression"] as? Double == 1)  // clamped to the whole book
        let back = try OPDSProgress.decode(data, from: URL(string: "http://127.0.0.1:9/p")!)
        #expect(back == OPDSProgress.Place(position: 9, totalProgression: 1, modified: when, device: "newsstand on test"))
    }

    @Test func onlyAStreamThatAsksToBookmarkIsToldThePlace() {
        func stream(_ template: String) -> PageStream { PageStream(template: template, count: 9) }
        #expect(OPDSProgress.streamKeepsPlace(stream("http://h/opds/bin/c/1/{pageNumber}/page.jpg?bookmark=1")))
        #expect(OPDSProgress.streamKeepsPlace(stream("http://h/p/{pageNumber}?width={maxWidth}&bookmark=true")))
        #expect(!OPDSProgress.streamKeepsPlace(stream("http://h/p/{pageNumber}?bookmark=0")))
        #expect(!OPDSProgress.streamKeepsPlace(stream("http://h/p/{pageNumber}?width={maxWidth}")))
        #expect(!OPDSProgress.streamKeepsPlace(stream("http://h/bookmark/{pageNumber}")))
    }
}
