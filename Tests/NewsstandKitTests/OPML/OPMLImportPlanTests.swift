import Feeds
import Foundation
import Testing
@testable import NewsstandKit

/// What `opml import` decides before it fetches anything (issue #30, item 22): each feed once,
/// those already followed named, newsboat's commands refused and never run, folders noticed.
@Suite struct OPMLImportPlanTests {
    static func feed(_ url: String, _ title: String, in folders: [String] = []) -> OPMLDocument.Feed {
        OPMLDocument.Feed(title: title, xmlURL: url, folders: folders)
    }

    @Test func feedsAlreadyFollowedAreNamedAndNotSubscribedAgain() {
        let followed = Publication(id: 1, feedURL: "https://harbour.example/feed.xml", title: "The Harbour Gazette")
        let document = OPMLDocument(title: nil, feeds: [
            Self.feed("https://harbour.example/feed.xml", "Harbour"),
            Self.feed("https://new.example/rss", "New"),
            Self.feed("https://new.example/rss", "New again", in: ["Elsewhere"]),
            // The same feed with a user name in it: credentials are kept apart, the feed is one.
            Self.feed("https://reader@harbour.example/feed.xml", "Harbour signed in"),
        ])
        let plan = OPMLImportPlan(document, subscribed: [followed])
        #expect(plan.toSubscribe.map(\.xmlURL) == ["https://new.example/rss"])
        #expect(plan.alreadySubscribed == ["The Harbour Gazette"])
        #expect(plan.refused.isEmpty)
        #expect(plan.folders == ["Elsewhere"])
    }

    @Test func commandsAndOtherSchemesAreRefusedOneLineEach() {
        let document = OPMLDocument(title: nil, feeds: [
            Self.feed("exec:~/bin/make-feed.sh", "Script"),
            Self.feed("filter:~/bin/clean.sh:https://dirty.example/rss", "Filtered"),
            Self.feed("filtercmd:sed s/a/b/", "Filtercmd"),
            Self.feed("|curl -s https://x.example", "Piped"),
            Self.feed("query:Unread:unread = \"yes\"", "Unread"),
            Self.feed("ftp://old.example/feed.xml", "Old"),
            Self.feed("https://fine.example/feed.xml", "Fine", in: ["News", "Local"]),
        ])
        let plan = OPMLImportPlan(document, subscribed: [])
        #expect(plan.toSubscribe.map(\.xmlURL) == ["https://fine.example/feed.xml"])
        #expect(plan.refused.count == 6, "\(plan.refused)")
        #expect(plan.refused.allSatisfy { !$0.contains("\n") && $0.contains("refused") }, "\(plan.refused)")
        #expect(plan.refused[0].hasPrefix("exec:~/bin/make-feed.sh (Script) is refused") && plan.refused[0].contains("not run"))
        #expect(plan.refused[3].contains("|command"), "\(plan.refused[3])")
        #expect(plan.refused[5].contains("ftp:"), "\(plan.refused[5])")
        #expect(plan.folders == ["News/Local"])
    }
}
