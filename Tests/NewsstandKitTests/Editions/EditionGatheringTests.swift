import Foundation
import Testing
@testable import NewsstandKit

/// A feed's articles become editions: one per local day by default, archives stay issues
/// of their own, and an edition once built or opened never changes.
@Suite struct EditionGatheringTests {
    struct Fixture {
        let server: FeedTestServer
        let temporary: TemporaryLibrary
        var library: Library { temporary.library }

        init() throws {
            server = try FeedTestServer()
            temporary = try TemporaryLibrary(inMemory: true)
        }

        func publish(_ items: [EditionFeed.Item]) throws {
            try server.put("lamp.xml", EditionFeed(items: items).xml)
        }

        func editions(_ publication: Publication) throws -> [NewsstandKit.Issue] {
            try library.store.issues(publicationID: publication.id!).filter(Library.isEdition).sorted { ($0.date, $0.id!) < ($1.date, $1.id!) }
        }

        func articleNames(_ edition: NewsstandKit.Issue) throws -> [String] {
            try library.store.articles(ofEdition: edition.id).map(\.name).sorted()
        }

        func build(_ edition: NewsstandKit.Issue) throws {
            try library.downloads.enqueue(edition)
            #expect(try Agent(library: library).run() == .finished)
        }
    }

    @Test func twoDaysOfArticlesMakeTwoEditionsAndAnArchiveStaysAnIssueOfItsOwn() throws {
        let f = try Fixture()
        defer { f.server.stop() }
        try f.publish([
            .init(id: "a1", title: "Harbour reopens", when: (2026, 11, 24, 9)),
            .init(id: "a2", title: "Ferry late", when: (2026, 11, 24, 21)),
            .init(id: "a3", title: "Bridge vote", when: (2026, 11, 25, 10)),
            .init(id: "i1", title: "The monthly", when: (2026, 11, 1, 0), archive: "i1.zip"),
        ])
        let (publication, result) = try f.library.subscriptions.subscribe(feedURL: f.server.url("lamp.xml"))
        let editions = try f.editions(publication)
        #expect(editions.map(\.title) == ["Tuesday 24 November 2026", "Wednesday 25 November 2026"])
        #expect(Set(result.added) == Set(["i1"] + editions.map(\.name)))
        #expect(try editions.map(f.articleNames) == [["a1", "a2"], ["a3"]])
        #expect(editions[0].summary == "2 articles: Ferry late · Harbour reopens")
        #expect(editions.allSatisfy { $0.status == .none && $0.contentURL?.hasPrefix("newsstand-edition:") == true })
        #expect(try f.library.store.issue(named: "i1")?.contentURL == f.server.url("i1.zip").absoluteString)
        // A refresh that brings nothing new changes nothing.
        try f.server.put("lamp.xml", EditionFeed(items: [.init(id: "a1", title: "Harbour reopens", when: (2026, 11, 24, 9))]).xml + " ")
        #expect(try f.library.subscriptions.refresh(f.library.store.publication(id: publication.id!)!).added.isEmpty)
        #expect(try f.editions(publication).count == 2)
    }

    @Test func aLateArticleGoesIntoTheNextEditionAndTheBuiltOneStaysAsItWas() throws {
        let f = try Fixture()
        defer { f.server.stop() }
        try f.publish([.init(id: "a1", title: "Harbour reopens", when: (2026, 11, 24, 9))])
        let (publication, _) = try f.library.subscriptions.subscribe(feedURL: f.server.url("lamp.xml"))
        let first = try #require(try f.editions(publication).first)
        try f.build(first)
        let built = f.library.downloads.contentDirectory(for: first).appendingPathComponent("OEBPS/package.opf")
        let before = try Data(contentsOf: built)

        // A late article of the same day, then one of the next day and another late one.
        try f.publish([.init(id: "a1", title: "Harbour reopens", when: (2026, 11, 24, 9)),
                       .init(id: "a2", title: "Late news", when: (2026, 11, 24, 11))])
        let late = try f.library.subscriptions.refresh(try f.library.store.publication(id: publication.id!)!)
        var editions = try f.editions(publication)
        #expect(editions.count == 2)
        #expect(late.added == [editions[1].name])
        #expect(editions[1].name == first.name + "#2")
        #expect(editions[1].title == "Tuesday 24 November 2026, edition 2")
        #expect(try f.articleNames(editions[0]) == ["a1"])
        #expect(try f.articleNames(editions[1]) == ["a2"])
        #expect(try Data(contentsOf: built) == before)
        #expect(try f.library.store.issue(id: first.id!)?.status == .available)

        try f.build(editions[1])
        try f.publish([.init(id: "a3", title: "Bridge vote", when: (2026, 11, 25, 10)),
                       .init(id: "a4", title: "Even later", when: (2026, 11, 24, 23))])
        _ = try f.library.subscriptions.refresh(try f.library.store.publication(id: publication.id!)!)
        editions = try f.editions(publication)
        // Both editions of the 24th are built: the late one joins the next open edition.
        #expect(editions.count == 3)
        #expect(try f.articleNames(editions[2]) == ["a3", "a4"])
    }

    @Test func aCorrectedArticleChangesItsEditionOnlyWhileTheEditionIsOpen() throws {
        let f = try Fixture()
        defer { f.server.stop() }
        try f.publish([.init(id: "a1", title: "Harbour reopns", when: (2026, 11, 24, 9)),
                       .init(id: "a2", title: "Bridge vote", when: (2026, 11, 24, 10))])
        let (publication, _) = try f.library.subscriptions.subscribe(feedURL: f.server.url("lamp.xml"))
        let edition = try #require(try f.editions(publication).first)
        try f.publish([.init(id: "a1", title: "Harbour reopens", when: (2026, 11, 24, 9)),
                       .init(id: "a2", title: "Bridge vote", when: (2026, 11, 24, 10))])
        #expect(try f.library.subscriptions.refresh(try f.library.store.publication(id: publication.id!)!).added.isEmpty)
        #expect(try f.library.store.articles(ofEdition: edition.id).map(\.title) == ["Bridge vote", "Harbour reopens"])
        #expect(try f.library.store.issue(id: edition.id!)?.summary == "2 articles: Bridge vote · Harbour reopens")

        try f.build(edition)
        try f.publish([.init(id: "a1", title: "Harbour reopens again", when: (2026, 11, 24, 9)),
                       .init(id: "a2", title: "Bridge vote", when: (2026, 11, 24, 10))])
        _ = try f.library.subscriptions.refresh(try f.library.store.publication(id: publication.id!)!)
        #expect(try f.library.store.articles(ofEdition: edition.id).map(\.title) == ["Bridge vote", "Harbour reopens"])
        #expect(try f.editions(publication).count == 1)
    }

    @Test func anEditionOpenedBeforeItWasBuiltTakesNoMoreArticles() throws {
        let f = try Fixture()
        defer { f.server.stop() }
        try f.publish([.init(id: "a1", title: "One", when: (2026, 11, 24, 9))])
        let (publication, _) = try f.library.subscriptions.subscribe(feedURL: f.server.url("lamp.xml"))
        let first = try #require(try f.editions(publication).first)
        try f.library.store.markOpened(first, at: f.library.clock.now())
        try f.publish([.init(id: "a2", title: "Two", when: (2026, 11, 24, 10))])
        _ = try f.library.subscriptions.refresh(try f.library.store.publication(id: publication.id!)!)
        let editions = try f.editions(publication)
        #expect(try editions.map(f.articleNames) == [["a1"], ["a2"]])
    }

    @Test func undatedArticlesGoByWhenTheyWereFirstSeenAndTheScheduleIsThePublications() throws {
        let seen = EditionFeed.date((2026, 11, 26, 8))
        let server = try FeedTestServer()
        defer { server.stop() }
        let temporary = try TemporaryLibrary(clock: .fixed(seen), inMemory: true)
        try server.put("lamp.xml", EditionFeed(items: [.init(id: "u1", title: "Undated", when: nil),
                                                       .init(id: "d1", title: "Monday", when: (2026, 11, 23, 10))]).xml)
        let (publication, _) = try temporary.library.subscriptions.subscribe(feedURL: server.url("lamp.xml"), editions: .weekly)
        #expect(try temporary.library.store.editionSchedule(of: publication) == .weekly)
        let editions = try temporary.library.store.issues(publicationID: publication.id!).filter(Library.isEdition)
        // The 23rd and the 26th are in one week (Monday to Sunday).
        #expect(editions.map(\.title) == ["week of 23 November 2026"])
        #expect(try temporary.library.store.articles(ofEdition: editions[0].id).map(\.name) == ["u1", "d1"])
        #expect(try temporary.library.store.articles(ofEdition: editions[0].id).first?.date == nil)
    }

    @Test func aNewScheduleRemakesTheEditionsNobodyHasSeenAndLeavesTheReadOneAsItWas() throws {
        let f = try Fixture()
        defer { f.server.stop() }
        try f.publish([.init(id: "a1", title: "Monday", when: (2026, 11, 23, 9)),
                       .init(id: "a2", title: "Tuesday", when: (2026, 11, 24, 9)),
                       .init(id: "a3", title: "Wednesday", when: (2026, 11, 25, 9))])
        let (publication, _) = try f.library.subscriptions.subscribe(feedURL: f.server.url("lamp.xml"))
        let daily = try f.editions(publication)
        #expect(daily.count == 3)
        try f.build(daily[0])
        try f.library.store.markOpened(try #require(try f.library.store.issue(id: daily[0].id!)), at: f.library.clock.now())
        let read = try f.library.downloads.contentDirectory(for: daily[0]).appendingPathComponent("OEBPS/package.opf")
        let before = try Data(contentsOf: read)

        let made = try f.library.subscriptions.setEditionSchedule(.weekly, for: publication)
        #expect(try f.library.store.editionSchedule(of: publication) == .weekly)
        let editions = try f.editions(publication)
        // The read Monday edition stays; Tuesday's and Wednesday's articles are one weekly edition.
        #expect(editions.map(\.name) == [daily[0].name, "edition:\(publication.id!):week-2026-11-23"])
        #expect(made == [editions[1].name])
        #expect(try editions.map(f.articleNames) == [["a1"], ["a2", "a3"]])
        #expect(editions[1].title == "week of 23 November 2026" && editions[1].summary == "2 articles: Wednesday · Tuesday")
        #expect(try Data(contentsOf: read) == before)
        #expect(try f.library.store.issue(id: daily[0].id!)?.status == .available)

        // New articles follow the new schedule; the same schedule again changes nothing.
        try f.publish([.init(id: "a4", title: "Thursday", when: (2026, 11, 26, 9))])
        #expect(try f.library.subscriptions.refresh(try f.library.store.publication(id: publication.id!)!).added.isEmpty)
        #expect(try f.articleNames(try f.editions(publication)[1]) == ["a2", "a3", "a4"])
        #expect(try f.library.subscriptions.setEditionSchedule(.weekly, for: publication).isEmpty)
        #expect(try f.editions(publication).map(\.id) == editions.map(\.id))
    }

    @Test func subscribingAgainWithEditionsRemakesTheOpenEditionsToo() throws {
        let f = try Fixture()
        defer { f.server.stop() }
        try f.publish([.init(id: "a1", title: "Early", when: (2026, 11, 24, 5)), .init(id: "a2", title: "Late", when: (2026, 11, 24, 9))])
        let (publication, _) = try f.library.subscriptions.subscribe(feedURL: f.server.url("lamp.xml"))
        #expect(try f.editions(publication).count == 1)
        _ = try f.library.subscriptions.subscribe(feedURL: f.server.url("lamp.xml"), editions: .daily(hour: 6))
        // Before 06:00 belongs to the edition that began the day before.
        let editions = try f.editions(publication)
        #expect(editions.map(\.title) == ["Monday 23 November 2026, 06:00", "Tuesday 24 November 2026, 06:00"])
        #expect(try editions.map(f.articleNames) == [["a1"], ["a2"]])
    }

    @Test func schedulesReadAsWrittenAndPlaceArticlesInTheirPeriod() {
        let calendar = Calendar.current
        for text in ["daily", "daily at 06", "weekly", "per refresh"] { #expect(EditionSchedule(text)?.description == text) }
        #expect(EditionSchedule("daily at 6") == .daily(hour: 6))
        #expect(EditionSchedule("daily at 24") == nil && EditionSchedule("hourly") == nil)
        let now = EditionFeed.date((2026, 11, 26, 12))
        // Before 06:00 an article belongs to the edition that began the day before.
        #expect(EditionSchedule.daily(hour: 6).start(of: EditionFeed.date((2026, 11, 25, 5)), now: now, calendar: calendar)
                == EditionFeed.date((2026, 11, 24, 6)))
        #expect(EditionSchedule.daily(hour: 6).start(of: EditionFeed.date((2026, 11, 25, 7)), now: now, calendar: calendar)
                == EditionFeed.date((2026, 11, 25, 6)))
        #expect(EditionSchedule.weekly.start(of: EditionFeed.date((2026, 11, 29, 23)), now: now, calendar: calendar)
                == EditionFeed.date((2026, 11, 23, 0)))
        #expect(EditionSchedule.perRefresh.start(of: EditionFeed.date((2026, 1, 1, 0)), now: now, calendar: calendar) == now)
    }

    @Test func anEmptyStoreSaysWhy() {
        var publication = Publication(feedURL: "https://x.example/feed", title: "X")
        #expect(EmptyStore.reason(for: publication).contains("not been read yet"))
        publication.lastRefresh = Date()
        #expect(EmptyStore.reason(for: publication) == "Its feed lists neither issue archives nor articles: nothing to read until it does.")
        publication.lastError = "feed at https://x.example/feed could not be read: it is empty"
        #expect(EmptyStore.reason(for: publication).hasPrefix("The last refresh failed: feed at"))
    }
}
