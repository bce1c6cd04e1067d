import Foundation
import GRDB
import Testing
@testable import NewsstandKit

@Suite struct LocatorTests {
    let when = Date(timeIntervalSince1970: 1_790_000_000)

    @Test func aLocatorComesBackFromItsJSONAsItWent() throws {
        let article = Locator(resource: "articles/02.xhtml", progression: 0.25, totalProgression: 0.4,
                              text: .init(block: 12, offset: 340), updated: when)
        let page = Locator(resource: "pages/007.jpg", progression: 0, totalProgression: 0.7, page: 6, updated: when)
        for locator in [article, page] {
            #expect(Locator.decoded(json: locator.json) == locator)
        }
        #expect(Locator.decoded(json: "{\"line\":7}") == nil)
    }

    @Test func anOldArticlePlaceKeepsItsArticleBlockAndOffset() throws {
        let order = ["a.xhtml", "b.xhtml", "c.xhtml", "d.xhtml"]
        let migrated = try #require(Locator(legacyPosition: "{\"article\":2,\"line\":31,\"block\":5,\"offset\":120,\"width\":72}",
                                            progress: 0.6, updated: when))
        #expect(migrated.resource == "" && migrated.resourceIndex == 2)
        #expect(Locator.decoded(json: migrated.json) == migrated)
        let locator = try #require(migrated.resolved(in: order))
        #expect(locator.resource == "c.xhtml")
        #expect(locator.resourceIndex == nil)
        #expect(locator.text == Locator.TextPlace(block: 5, offset: 120))
        #expect(locator.page == nil)
        #expect(locator.totalProgression == 0.6)
        #expect(locator.updated == when)
        #expect(locator.resolved(in: ["x.xhtml"]) === locator, "a named resource stays as it is")
    }

    @Test func anOldComicPlaceKeepsItsPageWithinTheReadingOrder() throws {
        let order = (0..<10).map { String(format: "%03d.png", $0) }
        let migrated = try #require(Locator(legacyPosition: "{\"article\":0,\"page\":7}", progress: nil, updated: when))
        let locator = try #require(migrated.resolved(in: order))
        #expect(locator.resource == "007.png")
        #expect(locator.page == 7)
        #expect(locator.text == nil)
        #expect(locator.totalProgression == 0)
        let shorter = try #require(migrated.resolved(in: Array(order.prefix(5))))
        #expect(shorter.resource == "004.png" && shorter.page == 4, "a page past the end is the last")
        #expect(migrated.resolved(in: []) == nil)
        #expect(Locator(legacyPosition: "{\"line\":7}", progress: 0.5, updated: when) == nil)
    }

    @Test func savingALocatorKeepsItsTotalProgressionAsTheIssuesProgress() throws {
        let temp = try TemporaryLibrary()
        let (_, issue) = try temp.publicationWithIssue()
        let locator = Locator(resource: "b.xhtml", progression: 0.5, totalProgression: 0.35, text: .init(block: 3, offset: 9), updated: when)
        try temp.library.store.saveLocator(locator, for: issue)
        let stored = try #require(try temp.library.store.issue(id: issue.id ?? 0))
        #expect(stored.locator == locator)
        #expect(stored.locator?.totalProgression == 0.35)
    }

    @Test func aLibraryWithPlacesSavedBeforeLocatorsOpensWithThePlaceAndPercentageInLocators() throws {
        let before = try LibraryAtV12()
        defer { before.remove() }
        let (paths, old) = (before.paths, before.database)
        // The library as the version before this one left it: old places as their JSON and a
        // progress beside them, newer ones as locators (with the same progress beside).
        let opened = Date(timeIntervalSince1970: 1_780_000_000)
        let newer = Locator(resource: "b.xhtml", progression: 0.5, totalProgression: 0.8, updated: when)
        try old.write { db in
            try db.execute(sql: """
                INSERT INTO issue(name, date, title, readingPosition, readingProgress, lastOpenedAt) VALUES ('old-1', ?, 'Old One', ?, 0.5, ?);
                INSERT INTO issue(name, date, title, readingPosition, readingProgress) VALUES ('comic', ?, 'Comic', '{"article":0,"page":3}', 0.25);
                INSERT INTO issue(name, date, title, readingPosition, readingProgress) VALUES ('garbled', ?, 'Garbled', '{"line":2}', 0.1);
                INSERT INTO issue(name, date, title, locator, readingProgress) VALUES ('newer', ?, 'Newer', ?, 0.8);
                INSERT INTO issue(name, date, title) VALUES ('unread', ?, 'Unread');
                """, arguments: [when, "{\"article\":1,\"line\":4,\"block\":2,\"offset\":30}", opened, when, when, when, newer, when])
        }
        try old.close()

        let library = try Library(paths: paths)
        let columns = try library.store.writer.read { db in try db.columns(in: "issue").map(\.name) }
        #expect(!columns.contains("readingPosition") && !columns.contains("readingProgress"))

        let migrated = try #require(try library.store.issue(named: "old-1")?.locator)
        #expect(migrated.totalProgression == 0.5)
        #expect(migrated.updated == opened)
        let place = try #require(migrated.resolved(in: ["one.xhtml", "two.xhtml", "three.xhtml"]))
        #expect(place.resource == "two.xhtml")
        #expect(place.text == Locator.TextPlace(block: 2, offset: 30))
        #expect(place.totalProgression == 0.5)

        let comic = try #require(try library.store.issue(named: "comic")?.locator?.resolved(in: (0..<8).map { "p\($0).png" }))
        #expect(comic.resource == "p3.png" && comic.page == 3 && comic.totalProgression == 0.25)
        #expect(comic.updated == Date(timeIntervalSince1970: 0), "never opened: older than any place saved since")
        #expect(try library.store.issue(named: "garbled")?.locator == nil, "a place the reader could not read is not made up")
        #expect(try library.store.issue(named: "newer")?.locator == newer)
        #expect(try library.store.issue(named: "unread")?.locator == nil)
    }
}
