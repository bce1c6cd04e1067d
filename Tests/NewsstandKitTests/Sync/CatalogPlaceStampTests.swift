import Feeds
import Foundation
import Testing
@testable import NewsstandKit

/// A catalog that dates each place with its own clock, as Codex does (it stamps a bookmark
/// when its batch is written, and may stamp one again, unmoved, seconds later): a place that
/// has not moved since it was last seen is not news, however new its time.
@Suite struct CatalogPlaceStampTests {
    /// A progression link in memory: a PUT keeps the position and stamps it with `now`;
    /// `stampAgain` dates the same place anew without moving it.
    final class StampingCatalog: SyncTransport, @unchecked Sendable {  // @unchecked: every field under `lock`.
        private let lock = NSLock()
        private var position: Int?
        private var stamped = Date.distantPast
        private var puts = 0
        var now = Date()

        func set(position: Int, at date: Date) { lock.withLock { (self.position, stamped) = (position, date) } }
        func stampAgain(at date: Date) { lock.withLock { stamped = date } }
        var state: (position: Int?, puts: Int) { lock.withLock { (position, puts) } }

        func send(_ request: SyncRequest) throws -> SyncResponse {
            try lock.withLock {
                if request.method == "PUT" {
                    let object = try #require(try JSONSerialization.jsonObject(with: request.body ?? Data()) as? [String: Any])
                    let locations = (object["locator"] as? [String: Any])?["locations"] as? [String: Any]
                    position = (locations?["position"] as? NSNumber)?.intValue
                    stamped = now
                    puts += 1
                    return SyncResponse(status: 200, body: Data())
                }
                guard let position else { return SyncResponse(status: 204, body: Data()) }
                let body: [String: Any] = ["modified": ISOTime.string(stamped), "device": ["id": "", "name": ""],
                                           "locator": ["locations": ["position": position]]]
                return SyncResponse(status: 200, body: try JSONSerialization.data(withJSONObject: body))
            }
        }
    }

    @Test func aPlaceStampedAgainWithoutMovingDoesNotBeatTheOneSetHere() throws {
        let temp = try TemporaryLibrary()
        let url = URL(string: "http://127.0.0.1:1/opds/v2.0/c/4/position")!
        let book = CatalogBook(id: "urn:gull-4", title: "Gull #4",
                               acquisitions: [CatalogAcquisition(url: URL(string: "http://127.0.0.1:1/gull-4.cbz")!,
                                                                 type: "application/vnd.comicbook+zip", rel: "http://opds-spec.org/acquisition")],
                               progressionURL: url)
        let id = try #require(try temp.library.subscriptions.take(book).id)
        let catalog = StampingCatalog()
        let sync = PlaceSync(store: temp.library.store, paths: temp.library.paths, clock: .system, transport: catalog,
                             credentials: { CredentialStore(file: temp.root.appendingPathComponent("c.json"), keyring: nil) })
        func issue() throws -> NewsstandKit.Issue { try #require(try temp.library.store.issue(id: id)) }

        // The catalog's page 7, a minute ago, is taken.
        catalog.set(position: 7, at: Date().addingTimeInterval(-60))
        let first = sync.sync(issues: [id])
        #expect(first.received == 1, "\(first)")
        #expect(try issue().locator?.page == 6)

        // Page 9 is set here; then the catalog dates its unmoved page 7 anew, later still.
        try sync.setPlace(of: try issue(), page: 9)
        catalog.stampAgain(at: Date().addingTimeInterval(60))
        let sent = sync.sync(issues: [id])
        #expect(sent.sent == 1 && sent.offered == 0, "ours is sent, the old place not offered: \(sent)")
        #expect(catalog.state.position == 9)
        #expect(try issue().locator?.page == 8)

        // Our own place, dated by the catalog when it kept it: nothing moves.
        catalog.now = Date().addingTimeInterval(120)
        let again = sync.sync(issues: [id])
        #expect(again.sent == 0 && again.received == 0 && again.offered == 0, "\(again)")

        // The catalog's reader really moves (back to page 2), later: offered, not taken.
        catalog.set(position: 2, at: Date().addingTimeInterval(180))
        let back = sync.sync(issues: [id])
        #expect(back.offered == 1, "\(back)")
        #expect(try issue().locator?.page == 8)
    }

    /// `place --set 10%` after reading chapter 3 is a place known only by how far it is: it
    /// does not keep chapter 3 (which a reader would open at its top, and a server send as
    /// chapter 3 at 10 %).
    @Test func aPercentageSetReplacesTheChapterReadBefore() throws {
        let temp = try TemporaryLibrary()
        let book = CatalogBook(id: "urn:gull-5", title: "Gull #5",
                               acquisitions: [CatalogAcquisition(url: URL(string: "http://127.0.0.1:1/gull-5.epub")!,
                                                                 type: "application/epub+zip", rel: "http://opds-spec.org/acquisition")])
        let id = try #require(try temp.library.subscriptions.take(book).id)
        var issue = try #require(try temp.library.store.issue(id: id))
        try temp.library.store.saveLocator(Locator(resource: "OEBPS/ch3.xhtml", progression: 0.5, totalProgression: 0.6,
                                                   updated: Date()), for: issue)
        issue = try #require(try temp.library.store.issue(id: id))
        let sync = PlaceSync(store: temp.library.store, paths: temp.library.paths, clock: .system, transport: StampingCatalog(),
                             credentials: { CredentialStore(file: temp.root.appendingPathComponent("c.json"), keyring: nil) })
        try sync.setPlace(of: issue, percentage: 0.1)
        let place = try #require(try temp.library.store.issue(id: id)?.locator)
        #expect(place.resource == "" && place.totalProgression == 0.1, "\(place)")
    }
}
