import Foundation
import Testing
@testable import NewsstandKit

/// Short names a person types for an issue (issue #30, item 18): the publication's slug and
/// the issue's number in it, oldest first, so new issues never renumber the old.
@Suite struct IssueShortNamesTests {
    static func issue(_ id: Int64, of publication: Int64, _ name: String, day: Int) -> NewsstandKit.Issue {
        var issue = NewsstandKit.Issue(publicationId: publication, name: name, date: Date(timeIntervalSince1970: TimeInterval(day) * 86_400), title: name)
        issue.id = id
        return issue
    }

    @Test func slugsAreLowerCaseWordsJoinedByHyphens() {
        #expect(IssueShortNames.slug("The Ferrybridge Courier") == "the-ferrybridge-courier")
        #expect(IssueShortNames.slug("  Salt & Pepper: Zine #3 ") == "salt-pepper-zine-3")
        #expect(IssueShortNames.slug("Café Süd") == "café-süd")
        #expect(IssueShortNames.slug("!!!") == "publication")
    }

    @Test func issuesAreNumberedOldestFirstWithinTheirPublication() {
        let publications = [Publication(id: 1, feedURL: "a", title: "Tidewater"), Publication(id: 2, feedURL: "b", title: "Wendle Valley Wire")]
        let issues = [Self.issue(10, of: 1, "tidewater-2026-11", day: 30), Self.issue(11, of: 1, "tidewater-2026-10", day: 20),
                      Self.issue(12, of: 2, "edition:2:2026-11-28", day: 25)]
        let names = IssueShortNames.names(publications: publications, issues: issues)
        #expect(names == [11: "tidewater/1", 10: "tidewater/2", 12: "wendle-valley-wire/1"])
        // A newer issue takes the next number; the others keep theirs.
        let more = IssueShortNames.names(publications: publications, issues: issues + [Self.issue(13, of: 1, "tidewater-2026-12", day: 40)])
        #expect(more[11] == "tidewater/1" && more[10] == "tidewater/2" && more[13] == "tidewater/3")
    }

    @Test func twoPublicationsOfOneTitleAreToldApart() {
        let publications = [Publication(id: 3, feedURL: "a", title: "News"), Publication(id: 7, feedURL: "b", title: "news!")]
        let names = IssueShortNames.names(publications: publications, issues: [Self.issue(1, of: 3, "a", day: 1), Self.issue(2, of: 7, "b", day: 1)])
        #expect(names == [1: "news/1", 2: "news-7/1"])
    }
}

/// Unsubscribing keeps a publication's issues (issue #30, item 1), so they keep their short
/// names: `issues` shows them and every command still takes them.
@Suite struct UnsubscribedShortNamesTests {
    @Test func anUnsubscribedPublicationsIssuesKeepTheirShortNames() throws {
        let temp = try TemporaryLibrary()
        let library = temp.library
        let tidewater = try library.store.save(Publication(feedURL: "file:///feeds/tidewater.xml", title: "Tidewater"))
        let older = try library.store.addIssue(name: "tidewater-2026-10", date: Date(timeIntervalSince1970: 1_790_000_000), publicationID: tidewater.id)
        let newer = try library.store.addIssue(name: "tidewater-2026-11", date: Date(timeIntervalSince1970: 1_792_000_000), publicationID: tidewater.id)
        let other = try library.store.save(Publication(feedURL: "file:///feeds/wire.xml", title: "Wire"))
        let wire = try library.store.addIssue(name: "wire-1", date: Date(timeIntervalSince1970: 1_791_000_000), publicationID: other.id)
        let before = try library.shortNames()

        try library.subscriptions.removePublication(tidewater, removeIssues: false)
        #expect(try library.store.publications().map(\.title) == ["Wire"])
        let after = try library.shortNames()
        #expect(after == before)
        let (olderID, newerID, wireID) = (try #require(older.id), try #require(newer.id), try #require(wire.id))
        #expect(after[olderID] == "tidewater/1" && after[newerID] == "tidewater/2")
        #expect(after[wireID] == "wire/1")
        #expect(try library.shortNames(of: try library.store.issues()) == after)
        #expect(try library.issue(matching: "tidewater/2").name == "tidewater-2026-11")
        #expect(try library.issue(matching: "Tidewater/1").name == "tidewater-2026-10")
    }
}
