import Foundation
import Testing
import Feeds
@testable import NewsstandKit

/// "Summary only" is judged from what real feeds show: a content element, a truncation
/// mark, the length; and, when the page was read, whether it is the same article, longer.
@Suite struct ArticleCompletenessTests {
    /// `count` words of plausible prose (a sentence repeated with its number, so words differ).
    static func prose(_ count: Int, topic: String = "harbour") -> String {
        let sentence = "The \(topic) committee met on Tuesday evening and agreed the winter plan for the quay"
        var words: [String] = []
        var n = 0
        while words.count < count {
            n += 1
            words += (sentence + " number \(n).").split(separator: " ").map(String.init)
        }
        return words.prefix(count).joined(separator: " ")
    }

    typealias C = ArticleCompleteness

    @Test func wordPressExcerptsEndingInAnEllipsisAreSummaries() {
        // WordPress's RSS description: the first 55 words and " [&#8230;]".
        #expect(C.verdict(html: Self.prose(55) + " [&#8230;]", hasContent: false) == .summary)
        #expect(C.verdict(html: "<p>" + Self.prose(120) + "&hellip;</p>", hasContent: false) == .summary)
        #expect(C.verdict(html: Self.prose(120) + "...", hasContent: true) == .summary)
    }

    @Test func aReadMoreLinkAtTheEndIsASummaryEvenInAContentElement() {
        let teaser = "<p>\(Self.prose(150))</p><p><a href=\"https://lamp.example/quay\">Continue reading <span>→</span></a></p>"
        #expect(C.verdict(html: teaser, hasContent: true) == .summary)
        #expect(C.verdict(html: "<p>\(Self.prose(90))</p><a href=\"x\">Read more &raquo;</a>", hasContent: false) == .summary)
        #expect(C.verdict(html: "<p>\(Self.prose(90)) <a href=\"x\">Weiterlesen</a></p>", hasContent: false) == .summary)
        // A word that merely ends the same way is not a mark.
        #expect(!C.endsTruncated("The tide came in, the gulls cried nevermore"))
        #expect(C.endsTruncated("The tide came in. Read more"))
    }

    @Test func aLongDescriptionOrAContentElementIsTheArticleWhole() {
        // Many RSS 2.0 feeds put the whole article in <description>.
        #expect(C.verdict(html: "<p>" + Self.prose(450) + ".</p>", hasContent: false) == .whole)
        #expect(C.verdict(html: "<p>" + Self.prose(120) + ".</p>", hasContent: true) == .whole)
        // Neither long nor marked nor content: the page decides.
        #expect(C.verdict(html: "<p>" + Self.prose(200) + ".</p>", hasContent: false) == .uncertain)
        // A one-line summary, or none at all.
        #expect(C.verdict(html: "<p>Summary of a1.</p>", hasContent: false) == .summary)
        #expect(C.verdict(html: nil, hasContent: false) == .summary)
        // A short note given as content: only its page can say whether there is more.
        #expect(C.verdict(html: "<p>" + Self.prose(40) + ".</p>", hasContent: true) == .uncertain)
    }

    @Test func thePageReplacesTheFeedsTextOnlyWhenItIsTheSameArticleLonger() {
        let feed = "<p>" + Self.prose(200) + ".</p>"
        // The same article, three times as long: better.
        #expect(C.pageIsBetter(feed: feed, page: Self.prose(600), verdict: .uncertain))
        // A cookie wall or another story, however long, is not.
        let wall = Array(repeating: "We value your privacy and use cookies to improve your experience, accept all to continue", count: 40)
            .joined(separator: " ")
        #expect(!C.pageIsBetter(feed: feed, page: wall, verdict: .uncertain))
        // Hardly longer: the feed's text stays.
        #expect(!C.pageIsBetter(feed: feed, page: Self.prose(230), verdict: .uncertain))
        // A summary gives way to a longer page of the same story, or to any longer page when it is a line.
        #expect(C.pageIsBetter(feed: "<p>\(Self.prose(55)) [&#8230;]</p>", page: Self.prose(300), verdict: .summary))
        #expect(!C.pageIsBetter(feed: "<p>\(Self.prose(55)) [&#8230;]</p>", page: wall, verdict: .summary))
        #expect(C.pageIsBetter(feed: "<p>Summary of a1.</p>", page: wall, verdict: .summary))
        #expect(!C.pageIsBetter(feed: feed, page: Self.prose(900), verdict: .whole))
    }

    @Test func feedsSayWhetherTheyGaveTheContentOrOnlyASummary() throws {
        func articles(_ text: String) throws -> [String: Bool] {
            let doc = try FeedParser.parse(Data(text.utf8), url: URL(string: "https://lamp.example/feed")!)
            return Dictionary(uniqueKeysWithValues: doc.articles.map { ($0.name, $0.hasContent) })
        }
        #expect(try articles("""
            <rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel><title>L</title>
            <item><guid>r1</guid><title>A</title><description>Short.</description><content:encoded>&lt;p&gt;Long.&lt;/p&gt;</content:encoded></item>
            <item><guid>r2</guid><title>B</title><description>Short.</description></item></channel></rss>
            """) == ["r1": true, "r2": false])
        #expect(try articles("""
            <feed xmlns="http://www.w3.org/2005/Atom"><title>L</title><id>urn:l</id><updated>2026-11-24T12:00:00Z</updated>
            <entry><id>e1</id><title>A</title><updated>2026-11-24T12:00:00Z</updated><summary>S</summary><content type="html">C</content></entry>
            <entry><id>e2</id><title>B</title><updated>2026-11-24T12:00:00Z</updated><summary>S</summary></entry></feed>
            """) == ["e1": true, "e2": false])
        #expect(try articles("""
            {"version": "https://jsonfeed.org/version/1.1", "title": "L", "items": [
              {"id": "j1", "title": "A", "content_text": "Long."}, {"id": "j2", "title": "B", "summary": "Short."}]}
            """) == ["j1": true, "j2": false])
    }
}
