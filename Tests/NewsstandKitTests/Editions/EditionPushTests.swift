import Foundation
import Testing
@testable import NewsstandKit

/// A new edition is a new issue like any other: polling and pushes refresh the feed, the
/// edition appears, automatic download builds it, and it is NEW once built; articles that
/// arrive late for an edition already read go into the next one.
@Suite(.serialized) struct EditionPushTests {
    final class Fixture {
        let temporary: TemporaryLibrary
        let feed: URL
        let publication: Publication
        let clock = TestClock(EditionFeed.date((2026, 11, 24, 20)))
        var library: Library { temporary.library }

        init(_ items: [EditionFeed.Item], editions: EditionSchedule? = nil) throws {
            temporary = try TemporaryLibrary()
            feed = temporary.root.appendingPathComponent("wire.xml")
            try FileManager.default.createDirectory(at: temporary.root, withIntermediateDirectories: true)
            try EditionFeed(items: items).xml.write(to: feed, atomically: true, encoding: .utf8)
            (publication, _) = try temporary.library.subscriptions.subscribe(feedURL: feed, autoDownload: true, editions: editions)
        }

        func publish(_ items: [EditionFeed.Item]) throws {
            try EditionFeed(items: items).xml.write(to: feed, atomically: true, encoding: .utf8)
        }

        var delivery: PushDelivery { PushDelivery(library: library, config: Config(), now: clock.function, isShelfOpen: { true }) }

        func editions() throws -> [NewsstandKit.Issue] {
            try library.store.issues(publicationID: publication.id!).filter(Library.isEdition).sorted { ($0.date, $0.id!) < ($1.date, $1.id!) }
        }

        func articles(_ edition: NewsstandKit.Issue) throws -> [String] { try library.store.articles(ofEdition: edition.id).map(\.name).sorted() }

        /// The first edition built by the agent and opened by the reader.
        func buildAndRead(_ edition: NewsstandKit.Issue) throws -> Data {
            try library.downloads.enqueue(edition)
            #expect(try Agent(library: library).run() == .finished)
            try library.store.markOpened(try #require(try library.store.issue(id: edition.id!)), at: library.clock.now())
            return try Data(contentsOf: library.downloads.contentDirectory(for: edition).appendingPathComponent("OEBPS/package.opf"))
        }

        func unreadCount() throws -> Int {
            try ShelfReader(library: library).summaries().first { $0.publication.id == publication.id }?.unreadCount ?? -1
        }
    }

    static let monday: [EditionFeed.Item] = [.init(id: "m1", title: "Monday morning", when: (2026, 11, 23, 9))]
    static let later: [EditionFeed.Item] = monday + [
        .init(id: "m2", title: "Monday, late", when: (2026, 11, 23, 22)),
        .init(id: "t1", title: "Tuesday", when: (2026, 11, 24, 10)),
    ]

    @Test func pollingBringsANewEditionThatIsBuiltAndNewAndTakesTheLateArticle() throws {
        let f = try Fixture(Self.monday)
        let first = try #require(try f.editions().first)
        let read = try f.buildAndRead(first)
        #expect(try f.unreadCount() == 0)

        try f.publish(Self.later)
        let report = f.delivery.poll(f.publication)
        let editions = try f.editions()
        #expect(editions.count == 2)
        #expect(report.refresh?.added == [editions[1].name])
        #expect(report.autoDownload == .queued(editions[1].name))
        // The read edition is as it was; its late article is in the next one.
        #expect(try f.articles(editions[0]) == ["m1"])
        #expect(try f.articles(editions[1]) == ["m2", "t1"])
        #expect(try Data(contentsOf: f.library.downloads.contentDirectory(for: first).appendingPathComponent("OEBPS/package.opf")) == read)

        #expect(try Agent(library: f.library).run() == .finished)
        let built = try #require(try f.library.store.issue(id: editions[1].id!))
        #expect(built.status == .available && built.unread)
        #expect(try f.unreadCount() == 1)
    }

    @Test func aPushBringsANewEditionLikeAnyIssueAndAnotherWithinTheDayIsThrottledAsAnyIssuesWouldBe() throws {
        let f = try Fixture(Self.monday)
        let first = try #require(try f.editions().first)
        _ = try f.buildAndRead(first)

        try f.publish(Self.later)
        let pushed = f.delivery.deliver(.newContent, to: f.publication)
        var editions = try f.editions()
        #expect(pushed.refresh?.added == [editions[1].name])
        #expect(pushed.autoDownload == .queued(editions[1].name))
        #expect(try f.articles(editions[1]) == ["m2", "t1"])
        #expect(try Agent(library: f.library).run() == .finished)
        #expect(try f.library.store.issue(id: editions[1].id!)?.unread == true)

        // Two hours later another article: a third edition, listed, but its automatic
        // download waits for the day's allowance, as any issue's would.
        f.clock.advance(hours: 2)
        try f.publish(Self.later + [.init(id: "w1", title: "Wednesday", when: (2026, 11, 25, 7))])
        let again = f.delivery.deliver(.newContent, to: f.publication)
        editions = try f.editions()
        #expect(editions.count == 3 && again.refresh?.added == [editions[2].name])
        guard case .throttled(let throttle)? = again.autoDownload else {
            Issue.record("expected a throttled download, got \(String(describing: again.autoDownload))")
            return
        }
        #expect(throttle.issueName == editions[2].name)
        #expect(try f.library.store.issue(id: editions[2].id!)?.status == NewsstandKit.Issue.Status.none)
    }

    @Test func withOneEditionPerRefreshEveryPushThatBringsArticlesMakesANewIssue() throws {
        let f = try Fixture(Self.monday, editions: .perRefresh)
        let first = try #require(try f.editions().first)
        _ = try f.buildAndRead(first)
        try f.publish(Self.later)
        let pushed = f.delivery.deliver(.newContent, to: f.publication)
        let editions = try f.editions()
        #expect(editions.count == 2 && pushed.refresh?.added == [editions[1].name])
        #expect(try f.articles(editions[1]) == ["m2", "t1"])
        // A push that brings nothing new makes no edition.
        let quiet = f.delivery.deliver(.newContent, to: f.publication)
        #expect(quiet.refresh?.added.isEmpty == true)
        #expect(try f.editions().count == 2)
    }
}
