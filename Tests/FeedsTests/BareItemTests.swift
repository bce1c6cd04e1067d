import Foundation
import Testing
@testable import Feeds

/// RSS lets an item have only a title or only a description, and newsboat shows such items:
/// they are articles of an edition, and a feed of articles reports no problem for being one
/// (issue #30, item 19).
@Suite struct BareItemTests {
    static let feed = """
        <?xml version="1.0"?>
        <rss version="2.0"><channel><title>Bare Notes</title><link>https://bare.example/</link>
        <item><title>Only a title</title></item>
        <item><description>&lt;p&gt;Only a description, long enough to need cutting before it makes a title of more than eighty characters.&lt;/p&gt;</description></item>
        <item><title>Linked</title><link>https://bare.example/linked</link><description>Text</description></item>
        <item></item>
        </channel></rss>
        """

    static func parse() throws -> FeedDocument {
        try FeedParser.parse(Data(feed.utf8), url: URL(string: "https://bare.example/rss")!)
    }

    @Test func itemsWithOnlyATitleOrOnlyADescriptionAreArticles() throws {
        let doc = try Self.parse()
        #expect(doc.entries.isEmpty)
        #expect(doc.articles.count == 3, "\(doc.articles.map(\.title))")
        #expect(doc.articles.first?.title == "Only a title")
        #expect(doc.articles.first?.html == nil)
        let described = try #require(doc.articles.dropFirst().first)
        #expect(described.title.hasPrefix("Only a description, long enough") && described.title.hasSuffix("…"), "\(described.title)")
        #expect(described.title.count <= 81, "\(described.title)")
        #expect(described.html?.contains("Only a description") == true)
        #expect(doc.articles.last?.name == "https://bare.example/linked")
    }

    @Test func aBareItemKeepsItsNameFromOneReadingToTheNext() throws {
        let first = try Self.parse().articles.map(\.name)
        let again = try Self.parse().articles.map(\.name)
        #expect(first == again)
        #expect(Set(first).count == 3)
    }

    @Test func inspectFeedListsThemAsArticlesAndNamesOnlyTheEmptyItemAsAProblem() throws {
        let text = FeedReport.text(try Self.parse(), formatSize: { "\($0) B" })
        #expect(text.contains("Articles (3), gathered into editions:"), "\(text)")
        #expect(text.contains("Only a title"), "\(text)")
        #expect(text.contains("Problems (1):\n  1 items carry no content link"), "\(text)")
        #expect(!text.contains("gathered into editions\n"), "\(text)")
    }

    @Test func aFeedOfArticlesAloneHasNoProblems() throws {
        let doc = try FeedParser.parse(Data("""
            <rss version="2.0"><channel><title>Wire</title>
            <item><title>One</title><guid>w1</guid></item><item><description>Two, untitled</description></item>
            </channel></rss>
            """.utf8), url: URL(string: "https://wire.example/rss")!)
        #expect(doc.articles.map(\.title) == ["One", "Two, untitled"])
        #expect(doc.problems.isEmpty, "\(doc.problems)")
        #expect(!FeedReport.text(doc, formatSize: { "\($0) B" }).contains("Problems"))
    }
}
