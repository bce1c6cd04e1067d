import Foundation
import Testing

/// Full text through the real program (issue #23): `inspect article` shows what the
/// extractor finds, and `subscribe --full-text` makes editions from the articles' pages.
@Suite struct FullTextEndToEndTests {
    let sandbox = Sandbox(["NEWSSTAND_RESOURCES=/nonexistent"])

    static let paragraphs = [
        "The harbour reopened on Tuesday after three months of repairs to the old stone quay, which the storms had broken.",
        "Fishing boats, the ferry to the islands and a dozen yachts were back at their moorings by noon, the harbour master said.",
    ]

    /// A page with the article between navigation and comments, written into the sandbox.
    func page() throws -> URL {
        let folder = sandbox.home.appendingPathComponent("pages")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let links = (1...6).map { "<li><a href=\"/n/\($0).html\">Another headline number \($0) about the town</a></li>" }.joined()
        let file = folder.appendingPathComponent("harbour.html")
        try Data("""
            <html><head><title>Harbour reopens | Lamp</title>
            <meta property="og:title" content="Harbour reopens"><meta name="author" content="Ann Quay">
            <meta property="article:published_time" content="2026-11-24T08:30:00Z"></head><body>
            <nav><ul>\(links)</ul></nav><article>\(Self.paragraphs.map { "<p>\($0)</p>" }.joined())</article>
            <div id="comments"><p>A reader's comment, long enough, with commas, many commas, to look like text to a scorer.</p></div>
            </body></html>
            """.utf8).write(to: file)
        return file
    }

    @Test func inspectArticleShowsWhatTheExtractorFinds() throws {
        let file = try page()
        let json = try sandbox.run("inspect", "article", file.path, "--json")
        #expect(json.status == 0, "\(json.output)")
        let found = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
        #expect(found?["title"] as? String == "Harbour reopens")
        #expect(found?["byline"] as? String == "Ann Quay")
        #expect(found?["date"] as? String == "2026-11-24T08:30:00Z")
        #expect(found?["text"] as? String == Self.paragraphs.joined(separator: "\n\n"))
        let text = try sandbox.run("inspect", "article", file.path, "--text")
        #expect(text.output == Self.paragraphs.joined(separator: "\n\n") + "\n", "\(text.output)")

        try Data("<html><body><nav><a href=\"/\">Home</a></nav></body></html>".utf8).write(to: file)
        let empty = try sandbox.run("inspect", "article", file.path)
        #expect(empty.status == 1 && empty.output.hasPrefix("newsstand: ") && empty.output.contains("has no article text"), "\(empty.output)")
    }

    @Test func subscribeFullTextBuildsEditionsFromTheArticlesPages() throws {
        let page = try page()
        let feed = sandbox.home.appendingPathComponent("pages/lamp.xml")
        try Data("""
            <?xml version="1.0"?>
            <rss version="2.0"><channel><title>The Daily Lamp</title>
            <item><title>Harbour reopens</title><guid>a1</guid><link>\(page.absoluteString)</link>
            <pubDate>Tue, 24 Nov 2026 12:00:00 +0000</pubDate><description>A summary.</description></item>
            </channel></rss>
            """.utf8).write(to: feed)
        let subscribed = try sandbox.run("subscribe", feed.path, "--full-text")
        #expect(subscribed.status == 0, "\(subscribed.output)")
        #expect(try sandbox.sql("SELECT fullText FROM publication WHERE feedURL = '\(feed.absoluteString)'") == "1")
        let name = try sandbox.sql("""
            SELECT name FROM issue WHERE contentType = 'application/x-newsstand-edition'
            AND publicationId = (SELECT id FROM publication WHERE feedURL = '\(feed.absoluteString)')
            """)
        let downloaded = try sandbox.run("download", name, "--wait")
        #expect(downloaded.status == 0, "\(downloaded.output)")
        let plain = try sandbox.run("read", name, "--plain")
        // The reader wraps lines at the terminal's width.
        let words = plain.output.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        for paragraph in Self.paragraphs { #expect(words.contains(paragraph), "\(plain.output)") }
        #expect(!plain.output.contains("A summary.") && !plain.output.contains("Another headline"), "\(plain.output)")

        let off = try sandbox.run("subscribe", feed.path, "--no-full-text")
        #expect(off.status == 0 && off.output.contains("settings updated"), "\(off.output)")
        #expect(try sandbox.sql("SELECT fullText FROM publication WHERE feedURL = '\(feed.absoluteString)'") == "0")
    }
}
