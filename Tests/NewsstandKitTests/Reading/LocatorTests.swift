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
        let locator = try #require(Locator(legacyPosition: "{\"article\":2,\"line\":31,\"block\":5,\"offset\":120,\"width\":72}",
                                           readingOrder: order, progress: 0.6, updated: when))
        #expect(locator.resource == "c.xhtml")
        #expect(locator.text == Locator.TextPlace(block: 5, offset: 120))
        #expect(locator.page == nil)
        #expect(locator.totalProgression == 0.6)
        #expect(locator.updated == when)
    }

    @Test func anOldComicPlaceKeepsItsPage() throws {
        let order = (0..<10).map { String(format: "%03d.png", $0) }
        let locator = try #require(Locator(legacyPosition: "{\"article\":0,\"page\":7}", readingOrder: order, progress: nil, updated: when))
        #expect(locator.resource == "007.png")
        #expect(locator.page == 7)
        #expect(locator.text == nil)
        // Without a saved progress, how far through the pages it is.
        #expect(locator.totalProgression == 0.7)
    }

    @Test func savingALocatorSetsTheReadingProgressToItsTotalProgression() throws {
        let temp = try TemporaryLibrary()
        let (_, issue) = try temp.publicationWithIssue()
        let locator = Locator(resource: "b.xhtml", progression: 0.5, totalProgression: 0.35, text: .init(block: 3, offset: 9), updated: when)
        try temp.library.saveLocator(locator, for: issue)
        let stored = try #require(try temp.library.issue(id: issue.id ?? 0))
        #expect(stored.locator == locator)
        #expect(stored.readingProgress == 0.35)
    }

    @Test func aLibraryFromBeforeLocatorsMigratesAndKeepsTheOldPlace() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-test-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let paths = Paths(environment: ["NEWSSTAND_HOME": root.path])
        try paths.createAll()
        // The library as the version before locators left it: a place saved as its JSON.
        let old = try DatabaseQueue(path: paths.database.path)
        try Library.migrator.migrate(old, upTo: "v3-shelf: a counter of issue updates")
        #expect(try old.read { db in try db.columns(in: "issue").map(\.name) }.contains("locator") == false)
        try old.write { db in
            try db.execute(sql: """
                INSERT INTO issue(name, date, title, readingPosition, readingProgress) VALUES ('old-1', ?, 'Old One', ?, 0.5)
                """, arguments: [when, "{\"article\":1,\"line\":4,\"block\":2,\"offset\":30}"])
        }
        try old.close()

        let library = try Library(paths: paths)
        let issue = try #require(try library.issue(named: "old-1"))
        #expect(issue.locator == nil)
        #expect(issue.readingProgress == 0.5)
        let position = try #require(issue.readingPosition)
        let place = try #require(Locator(legacyPosition: position, readingOrder: ["one.xhtml", "two.xhtml", "three.xhtml"],
                                         progress: issue.readingProgress, updated: when))
        #expect(place.resource == "two.xhtml")
        #expect(place.text == Locator.TextPlace(block: 2, offset: 30))
        #expect(place.totalProgression == 0.5)
    }
}
