import Foundation
import GRDB
import Testing
@testable import NewsstandKit

/// Unsubscribing keeps the publication, hidden and not refreshed; subscribing to its feed
/// again brings it back whole, and no issue ever belongs to no publication.
@Suite struct ResubscribeTests {
    static let tidewater = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("sample-feed/tidewater-monthly/feed.xml")
    let place = Locator(resource: "chapter-2.xhtml", progression: 0.5, totalProgression: 0.4, text: .init(block: 3, offset: 9),
                        updated: Date(timeIntervalSince1970: 1_790_000_000))

    func orphans(_ library: Library) throws -> Int {
        try library.store.writer.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM issue WHERE publicationId IS NULL") ?? -1 }
    }

    @Test func theSampleFeedSubscribedAgainComesBackWithItsIssuesDownloadsPlacesAndNewMarks() throws {
        let temp = try TemporaryLibrary()
        let library = temp.library
        let (publication, first) = try library.subscriptions.subscribe(feedURL: Self.tidewater)
        let id = try #require(publication.id)
        #expect(first.added.count == 4)
        let downloaded = try #require(try library.store.issue(named: "tidewater-2026-11"))
        try library.downloads.enqueue(downloaded)
        #expect(try Agent(library: library).run() == .finished)
        #expect(try library.store.issue(named: "tidewater-2026-11")?.status == .available)
        #expect(try library.store.issue(named: "tidewater-2026-11")?.unread == true)
        try library.store.saveLocator(place, for: try #require(try library.store.issue(named: "tidewater-2026-10")))

        try library.subscriptions.removePublication(publication, removeIssues: false)
        #expect(try library.store.publications().contains { $0.id == id } == false)
        #expect(try ShelfReader(library: library).summaries().contains { $0.publication.id == id } == false)
        #expect(try orphans(library) == 0)
        #expect(try library.store.publicationTitles()[id] == "Tidewater")
        #expect(try library.store.issues(publicationID: id).count == 4)
        #expect(throws: LibraryError.self) { try library.store.publication(matching: "Tidewater") }
        #expect(try library.store.publication(matching: "Tidewater", includingUnsubscribed: true).id == id)

        let (again, second) = try library.subscriptions.subscribe(feedURL: Self.tidewater)
        #expect(again.id == id)
        #expect(second.added.isEmpty)
        #expect(try library.store.publications().map(\.id) == [id])
        let issues = try library.store.issues(publicationID: id)
        #expect(issues.map(\.name) == ["tidewater-2026-11", "tidewater-2026-10", "tidewater-2026-09", "tidewater-2026-08"])
        let back = try #require(issues.first)
        #expect(back.status == .available && back.unread)
        #expect(FileManager.default.fileExists(atPath: library.downloads.contentDirectory(for: back).path))
        #expect(issues[1].locator == place)
        #expect(try ShelfReader(library: library).summaries().first { $0.publication.id == id }?.unreadCount == 1)
    }

    @Test func aNewsFeedSubscribedAgainKeepsItsEditionsRatherThanMakingASecondSet() throws {
        let temp = try TemporaryLibrary(inMemory: true)
        let feed = temp.root.appendingPathComponent("lamp.xml")
        try EditionFeed(items: [
            .init(id: "a1", title: "Harbour reopens", when: (2026, 11, 24, 9)),
            .init(id: "a2", title: "Bridge vote", when: (2026, 11, 25, 10)),
        ]).xml.write(to: feed, atomically: true, encoding: .utf8)
        let (publication, _) = try temp.library.subscriptions.subscribe(feedURL: feed)
        let id = try #require(publication.id)
        let editions = try temp.library.store.issues(publicationID: id)
        #expect(editions.count == 2 && editions.allSatisfy(Library.isEdition))
        try temp.library.store.markOpened(editions[0], at: temp.library.clock.now())

        try temp.library.subscriptions.removePublication(publication, removeIssues: false)
        let (again, result) = try temp.library.subscriptions.subscribe(feedURL: feed)
        #expect(again.id == id)
        #expect(result.added.isEmpty)
        let after = try temp.library.store.issues(publicationID: id)
        #expect(after.map(\.name) == editions.map(\.name))
        #expect(after[0].lastOpenedAt != nil)
        #expect(try temp.library.store.issues().count == 2)
        #expect(try temp.library.store.articles(ofEdition: after[1].id).map(\.name) == ["a1"])
    }

    @Test func unsubscribingWithItsIssuesRemovesThePublicationAndLeavesNoIssueBehind() throws {
        let temp = try TemporaryLibrary(inMemory: true)
        let (publication, _) = try temp.library.subscriptions.subscribe(feedURL: Self.tidewater)
        try temp.library.subscriptions.removePublication(publication, removeIssues: true)
        #expect(try temp.library.store.issues().isEmpty)
        #expect(try temp.library.store.publicationTitles().isEmpty)
        let (again, result) = try temp.library.subscriptions.subscribe(feedURL: Self.tidewater)
        #expect(result.added.count == 4)
        #expect(try temp.library.store.issues(publicationID: #require(again.id)).count == 4)
    }

    @Test func aLibraryWithIssuesLeftWithoutAPublicationGetsThemBackIntoOneAndTheirFeedTakesThemBack() throws {
        let before = try LibraryAtV12()
        defer { before.remove() }
        let (paths, old) = (before.paths, before.database)
        // The library as an unsubscribe of the version before left it: the publication gone,
        // its issues (one downloaded and unread, one with a place) under none.
        try old.write { db in
            let when = Date(timeIntervalSince1970: 1_790_000_000)
            try db.execute(sql: "INSERT INTO issue(name, date, title, status, unread) VALUES ('tidewater-2026-11', ?, 'No. 31', 'available', 1)",
                           arguments: [when])
            try db.execute(sql: "INSERT INTO issue(name, date, title, locator) VALUES ('tidewater-2026-10', ?, 'No. 30', ?)",
                           arguments: [when, place])
        }
        try old.close()

        let library = try Library(paths: paths)
        #expect(try orphans(library) == 0)
        let kept = try #require(try library.store.publications().first)
        #expect(kept.title == "Kept issues")
        #expect(try library.store.issues(publicationID: #require(kept.id)).count == 2)
        #expect(try library.subscriptions.refresh(kept).added.isEmpty)

        let (tidewater, result) = try library.subscriptions.subscribe(feedURL: Self.tidewater)
        #expect(result.added.sorted() == ["tidewater-2026-08", "tidewater-2026-09"])
        let issues = try library.store.issues(publicationID: #require(tidewater.id))
        #expect(issues.count == 4)
        #expect(issues.first { $0.name == "tidewater-2026-11" }.map { $0.status == .available && $0.unread } == true)
        #expect(issues.first { $0.name == "tidewater-2026-10" }?.locator == place)
        #expect(try library.store.publications().map(\.title) == ["Tidewater"])
        #expect(try orphans(library) == 0)
    }
}
