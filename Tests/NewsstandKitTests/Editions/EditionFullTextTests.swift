import Foundation
import Testing
import IssueArchive
@testable import NewsstandKit

/// A publication set to full text reads each summary-only article from its page, served
/// here on 127.0.0.1; a page that cannot be had leaves the summary, without a long wait.
@Suite(.serialized) struct EditionFullTextTests {
    static let paragraphs = [
        "The harbour reopened on Tuesday after three months of repairs to the old stone quay, which the autumn storms had broken.",
        "Fishing boats, the ferry to the islands and a dozen yachts were back at their moorings by noon, the harbour master said.",
        "Engineers replaced the broken blocks with granite from the same quarry, so the quay looks much as it did in 1820.",
        "The council will vote next month on whether to light the new walkway at night, a question that divides the town.",
    ]

    /// An article's page: the article among navigation, related links and comments.
    static func page(title: String) -> String {
        let links = (1...8).map { "<li><a href=\"/n/\($0).html\">Another headline number \($0) about the town</a></li>" }.joined()
        return """
            <html><head><title>\(title) | Lamp</title><meta name="author" content="Ann Quay"></head><body>
            <nav><ul>\(links)</ul></nav>
            <article><h1>\(title)</h1>\(paragraphs.map { "<p>\($0)</p>" }.joined())
            <div class="related"><ul>\(links)</ul></div></article>
            <section id="comments"><p>A reader's comment, long enough, with commas, many commas, to look like text, but not the article.</p></section>
            </body></html>
            """
    }

    /// An RSS feed whose items carry only a one-line summary and a link to their page.
    static func feed(_ items: [(id: String, link: String)]) -> String {
        let entries = items.map { item in
            """
            <item><title>Story \(item.id)</title><guid isPermaLink="false">\(item.id)</guid><link>\(item.link)</link>
            <pubDate>Tue, 24 Nov 2026 12:00:00 +0000</pubDate><description>&lt;p&gt;Summary of \(item.id).&lt;/p&gt;</description></item>
            """
        }.joined(separator: "\n")
        return "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>The Daily Lamp</title>\(entries)</channel></rss>"
    }

    static func articleText(_ file: URL, in root: URL, number: Int) throws -> String {
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let (_, content) = try IssueReader.read(archive: file, in: root)
        return try String(contentsOf: content.appendingPathComponent("OEBPS/text/a\(number).xhtml"), encoding: .utf8)
    }

    @Test func summaryOnlyArticlesAreReadFromTheirPages() throws {
        let server = try FeedTestServer()
        defer { server.stop() }
        try FileManager.default.createDirectory(at: server.root.appendingPathComponent("articles"), withIntermediateDirectories: true)
        try server.put("articles/a1.html", Self.page(title: "Harbour reopens"))
        try server.put("lamp.xml", Self.feed([(id: "a1", link: server.url("articles/a1.html").absoluteString)]))
        let temporary = try TemporaryLibrary()
        let (publication, _) = try temporary.library.subscriptions.subscribe(feedURL: server.url("lamp.xml"))
        let edition = try #require(try temporary.library.store.issues(publicationID: publication.id!).first(where: Library.isEdition))

        // Without the setting, the summary is the article.
        #expect(try temporary.library.store.fullText(publicationID: publication.id) == false)
        let plain = temporary.root.appendingPathComponent("plain.epub")
        try temporary.library.downloads.editionBuilder.build(edition, into: plain)
        let summary = try Self.articleText(plain, in: temporary.root.appendingPathComponent("plain"), number: 1)
        #expect(summary.contains("Summary of a1.") && !summary.contains("granite"))

        try temporary.library.store.setFullText(true, for: publication)
        #expect(try temporary.library.store.fullText(publicationID: publication.id))
        let file = temporary.root.appendingPathComponent("full.epub")
        try temporary.library.downloads.editionBuilder.build(edition, into: file)
        let text = try Self.articleText(file, in: temporary.root.appendingPathComponent("full"), number: 1)
        for paragraph in Self.paragraphs { #expect(text.contains("<p>\(paragraph)</p>"), "\(text)") }
        #expect(!text.contains("Another headline") && !text.contains("commas") && !text.contains("Summary of a1."), "\(text)")
        // The page's byline stands in for the feed's missing author.
        #expect(text.contains("By Ann Quay"))
    }

    @Test func aPageThatCannotBeHadKeepsTheSummaryWithinBoundedTime() throws {
        let server = try FeedTestServer()
        defer { server.stop() }
        let stalls = try TestHTTPServer.shared()
        // The stalled page's server holds its answer for two minutes and logs it only then.
        let stallKey = TestHTTPServer.uniqueKey("page-stall")
        let stalled = stalls.url("/file/\(stallKey)?size=4000&stall_after=0&stall_ms=120000").absoluteString
        let refused = "http://127.0.0.1:\(EditionBuildTests.closedPort())/story.html"
        try server.put("lamp.xml", Self.feed([(id: "s1", link: stalled), (id: "s2", link: refused),
                                              (id: "s3", link: server.url("missing.html").absoluteString)]))
        let temporary = try TemporaryLibrary()
        let (publication, _) = try temporary.library.subscriptions.subscribe(feedURL: server.url("lamp.xml"))
        try temporary.library.store.setFullText(true, for: publication)
        let edition = try #require(try temporary.library.store.issues(publicationID: publication.id!).first(where: Library.isEdition))
        var builder = temporary.library.downloads.editionBuilder
        builder.pageLimits.timeout = 1
        let file = temporary.root.appendingPathComponent("edition.epub")
        try builder.build(edition, into: file)
        // Given up at its timeout: the stall has not ended at the server (a state, not a time).
        #expect(stalls.requests(for: stallKey, atLeast: 0).isEmpty, "the build waited for the stalled page")
        let (_, root) = try IssueReader.read(archive: file, in: temporary.root)
        let texts = try (1...3).map { try String(contentsOf: root.appendingPathComponent("OEBPS/text/a\($0).xhtml"), encoding: .utf8) }
        for id in ["s1", "s2", "s3"] {
            #expect(texts.contains { $0.contains("Summary of \(id).") }, "\(id) lost its summary")
        }
    }

    @Test func aWholeArticleInTheFeedIsNotFetchedAndATeaserEndingInAnEllipsisIs() throws {
        let server = try FeedTestServer()
        defer { server.stop() }
        try FileManager.default.createDirectory(at: server.root.appendingPathComponent("articles"), withIntermediateDirectories: true)
        try server.put("articles/teaser.html", Self.page(title: "Harbour reopens"))
        try server.put("articles/whole.html", Self.page(title: "Harbour reopens"))
        let whole = ArticleCompletenessTests.prose(450)
        let teaser = Self.paragraphs[0].split(separator: " ").prefix(12).joined(separator: " ") + " [&#8230;]"
        let escape = { (html: String) in html.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;") }
        try server.put("lamp.xml", """
            <?xml version="1.0"?><rss version="2.0"><channel><title>The Daily Lamp</title>
            <item><title>Whole</title><guid isPermaLink="false">w1</guid><link>\(server.url("articles/whole.html").absoluteString)</link>
            <pubDate>Tue, 24 Nov 2026 12:00:00 +0000</pubDate><description>\(escape("<p>" + whole + ".</p>"))</description></item>
            <item><title>Teaser</title><guid isPermaLink="false">t1</guid><link>\(server.url("articles/teaser.html").absoluteString)</link>
            <pubDate>Tue, 24 Nov 2026 11:00:00 +0000</pubDate><description>\(escape("<p>" + teaser + "</p>"))</description></item>
            </channel></rss>
            """)
        let temporary = try TemporaryLibrary()
        let (publication, _) = try temporary.library.subscriptions.subscribe(feedURL: server.url("lamp.xml"))
        try temporary.library.store.setFullText(true, for: publication)
        let edition = try #require(try temporary.library.store.issues(publicationID: publication.id!).first(where: Library.isEdition))
        let file = temporary.root.appendingPathComponent("edition.epub")
        try temporary.library.downloads.editionBuilder.build(edition, into: file)
        #expect(server.requests(path: "articles/teaser.html", atLeast: 1).count == 1)
        #expect(server.requests(path: "articles/whole.html").isEmpty)
        let first = try Self.articleText(file, in: temporary.root.appendingPathComponent("out"), number: 1)
        let second = try Self.articleText(file, in: temporary.root.appendingPathComponent("out2"), number: 2)
        #expect(first.contains(whole), "the whole article stays as the feed gave it")
        for paragraph in Self.paragraphs { #expect(second.contains("<p>\(paragraph)</p>"), "\(second)") }
    }
}
