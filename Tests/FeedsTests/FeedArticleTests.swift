import Foundation
import Testing
@testable import Feeds

/// Entries without an issue archive are articles, kept whole for the editions built from them.
@Suite struct FeedArticleTests {
    static func parse(_ text: String, url: String) throws -> FeedDocument {
        try FeedParser.parse(Data(text.utf8), url: URL(string: url)!)
    }

    @Test func rssItemsWithoutArchivesAreArticlesWithTheirEscapedHTMLLinksAuthorsCategoriesAndPictures() throws {
        let doc = try Self.parse("""
            <?xml version="1.0"?>
            <rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/"
                 xmlns:media="http://search.yahoo.com/mrss/">
            <channel><title>The Daily Lamp</title>
            <item><title>Harbour reopens</title><link>news/harbour.html</link><guid isPermaLink="false">a1</guid>
              <pubDate>Wed, 25 Nov 2026 09:00:00 +0000</pubDate><category>Local</category><category>Sea</category>
              <dc:creator>Ann Reporter</dc:creator>
              <description>&lt;p&gt;Short.&lt;/p&gt;</description>
              <content:encoded><![CDATA[<p>The harbour &amp; quay <img src="pic.png" alt="Quay"></p>]]></content:encoded>
              <enclosure url="/img/lead.jpg" type="image/jpeg" length="100"/>
              <media:content url="https://cdn.example/extra.png" medium="image"/></item>
            <item><title>No date, no id</title><link>https://lamp.example/undated</link><description>Plain</description></item>
            <item><title>An issue</title><guid>i1</guid><enclosure url="/i1.zip" type="application/zip"/></item>
            </channel></rss>
            """, url: "https://lamp.example/feeds/rss.xml")
        #expect(doc.entries.map(\.name) == ["i1"])
        #expect(doc.articles.map(\.name) == ["a1", "https://lamp.example/undated"])
        let first = doc.articles[0]
        #expect(first.title == "Harbour reopens")
        #expect(first.link?.absoluteString == "https://lamp.example/feeds/news/harbour.html")
        #expect(first.author == "Ann Reporter")
        #expect(first.categories == ["Local", "Sea"])
        // The full content wins over the summary, as HTML (its entities still to decode).
        #expect(first.html == "<p>The harbour &amp; quay <img src=\"pic.png\" alt=\"Quay\"></p>")
        #expect(first.baseURL.absoluteString == "https://lamp.example/feeds/rss.xml")
        #expect(first.pictures.map(\.absoluteString) == ["https://lamp.example/img/lead.jpg", "https://cdn.example/extra.png"])
        #expect(first.date == ISO8601DateFormatter().date(from: "2026-11-25T09:00:00Z"))
        // Undated stays undated: an edition goes by when it was first seen, not the feed's date.
        #expect(doc.articles[1].date == nil)
        // Articles are what such a feed is made of, not a problem (issue #30, item 19).
        #expect(!doc.problems.contains { $0.contains("carry no") }, "\(doc.problems)")
    }

    @Test func atomContentKeepsItsOwnXMLBaseForRelativeLinks() throws {
        let doc = try Self.parse("""
            <?xml version="1.0"?>
            <feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://zine.example/blog/">
            <title>Zine</title><id>urn:zine</id><updated>2026-11-26T00:00:00Z</updated>
            <entry><id>urn:e1</id><title>Kelp</title><updated>2026-11-26T08:00:00Z</updated>
              <author><name>Kit</name></author><category term="science" label="Science"/>
              <link rel="alternate" href="posts/kelp"/>
              <summary>Short</summary>
              <content type="html" xml:base="https://static.example/kelp/">&lt;img src="k.png" alt="Kelp"&gt;</content></entry>
            </feed>
            """, url: "https://zine.example/feed.atom")
        let article = try #require(doc.articles.first)
        #expect(article.link?.absoluteString == "https://zine.example/blog/posts/kelp")
        #expect(article.author == "Kit")
        #expect(article.categories == ["Science"])
        #expect(article.html == "<img src=\"k.png\" alt=\"Kelp\">")
        #expect(article.baseURL.absoluteString == "https://static.example/kelp/")
    }

    @Test func jsonFeedItemsAreArticlesAndPlainTextBecomesParagraphs() throws {
        let doc = try Self.parse("""
            {"version": "https://jsonfeed.org/version/1.1", "title": "Notes",
             "items": [{"id": "n1", "url": "/n1", "title": "One", "content_text": "a < b\\n\\nsecond",
                        "tags": ["Maths"], "authors": [{"name": "Ada"}], "image": "/n1.png"},
                       {"id": "n2", "content_html": "<p>Two</p>", "date_published": "2026-11-26T10:00:00Z"}]}
            """, url: "https://notes.example/feed.json")
        #expect(doc.articles.map(\.name) == ["n1", "n2"])
        #expect(doc.articles[0].html == "<p>a &lt; b</p>\n<p>second</p>")
        #expect(doc.articles[0].link?.absoluteString == "https://notes.example/n1")
        #expect(doc.articles[0].pictures.map(\.absoluteString) == ["https://notes.example/n1.png"])
        #expect(doc.articles[0].categories == ["Maths"] && doc.articles[0].author == "Ada")
        #expect(doc.articles[1].html == "<p>Two</p>")
    }

    @Test func aNewsstandFeedHasNoArticlesItsEntriesAreIssues() throws {
        let doc = try Self.parse("""
            <?xml version="1.0"?>
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:news="http://itunes.apple.com/2011/Newsstand">
            <title>Mag</title><updated>2026-11-26T00:00:00Z</updated>
            <entry><id>m1</id><title>Soon</title><updated>2026-11-26T00:00:00Z</updated><link rel="alternate" href="/m1"/></entry>
            </feed>
            """, url: "https://mag.example/feed")
        #expect(doc.format == .newsstandAtom)
        #expect(doc.entries.map(\.name) == ["m1"])
        #expect(doc.articles.isEmpty)
    }
}

@Suite struct FeedArticleReportTests {
    @Test func inspectFeedListsTheArticlesThatMakeEditions() throws {
        let doc = try FeedArticleTests.parse("""
            <rss version="2.0"><channel><title>Lamp</title>
            <item><title>Dated</title><guid>d1</guid><pubDate>Tue, 24 Nov 2026 12:00:00 +0000</pubDate></item>
            <item><title>Undated</title><guid>u1</guid></item></channel></rss>
            """, url: "https://lamp.example/rss")
        let text = FeedReport.text(doc, formatSize: { "\($0) B" })
        #expect(text.contains("Articles (2), gathered into editions:\n  2026-11-24  Dated  [d1]\n  undated     Undated  [u1]\n"), "\(text)")
    }
}
