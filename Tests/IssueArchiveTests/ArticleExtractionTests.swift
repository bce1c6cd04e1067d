import Foundation
import Testing
@testable import IssueArchive

/// The full-text extractor on pages written here: the article's text without the page
/// around it, its title, byline, date and picture from the head, and a page that has no
/// article saying so.
@Suite struct ArticleExtractionTests {
    static let url = URL(string: "https://lamp.example/news/2026/harbour.html")!

    static let paragraphs = [
        "The harbour reopened on Tuesday after three months of repairs to the old stone quay, which had been closed since the autumn storms washed away part of its wall.",
        "Fishing boats, the ferry to the islands and a dozen yachts were back at their moorings by noon, and the harbour master said the work had cost less than feared.",
        "Engineers replaced the broken blocks with granite from the same quarry, so that the quay looks, from the water, much as it did when it was built in 1820.",
        "The town council will vote next month on whether to light the new walkway at night, a question that has divided residents for years.",
    ]

    /// An article inside the usual page: navigation, a share bar, a sidebar of headlines,
    /// related links, comments and a footer, each with enough words to tempt a scorer.
    static func clutteredPage(head: String = "") -> String {
        let links = (1...8).map { "<li><a href=\"/news/\($0).html\">Another headline number \($0) about the town</a></li>" }.joined()
        return """
            <!DOCTYPE html><html><head><title>Harbour reopens | The Daily Lamp</title>\(head)</head><body>
            <nav class="site-nav"><ul>\(links)</ul></nav>
            <div id="page"><div class="layout">
            <div class="share-bar"><a href="/share/x">Share on the bird site</a> <a href="/share/f">Share with friends</a></div>
            <article class="story">
              <h1>Harbour reopens after repairs</h1>
              <div class="byline">By Ann Quay</div>
              <figure><img src="/img/quay.jpg" alt="The quay at dawn"><figcaption>The quay at dawn.</figcaption></figure>
              \(paragraphs.map { "<p>\($0)</p>" }.joined(separator: "\n"))
              <div class="related-stories"><h3>Related</h3><ul>\(links)</ul></div>
            </article>
            <aside class="sidebar"><h2>Most read</h2><p>A long paragraph in the sidebar, about the weather, the tides, the ferry timetable, and all the other news, that is not this article.</p></aside>
            <section id="comments"><h2>Comments</h2>
              <div class="comment"><p>What a wonderful day for the town, and about time too, said a reader who wrote at length, with commas, many commas, in the comments.</p></div>
              <div class="comment"><p>I remember when the quay was first damaged, and I wrote to the council, twice, and nobody answered me, so this is welcome news indeed.</p></div>
            </section>
            </div></div>
            <footer><p>© The Daily Lamp. All rights reserved. Contact us, advertise with us, privacy, terms and conditions, cookies.</p></footer>
            <script>var tracker = "Tracking text that is no article";</script>
            </body></html>
            """
    }

    @Test func keepsOnlyTheArticleTextOfAClutteredPage() throws {
        let article = try ArticleExtraction.extract(html: Self.clutteredPage(), url: Self.url)
        let texts = article.blocks.compactMap(\.text)
        #expect(Array(texts.drop { !$0.hasPrefix("The harbour reopened") }) == Self.paragraphs, "\(texts)")
        for unwanted in ["Another headline", "Share on", "Most read", "sidebar", "commas", "nobody answered", "rights reserved", "Tracking",
                         "Related"] {
            #expect(!article.text.contains(unwanted), "\(unwanted) in \(article.text)")
        }
        #expect(article.title == "Harbour reopens after repairs")
        #expect(article.byline == "Ann Quay")
        // The picture inside the article is its lead picture, made absolute.
        #expect(article.leadPicture == URL(string: "https://lamp.example/img/quay.jpg"))
        #expect(article.blocks.contains(.picture(URL(string: "https://lamp.example/img/quay.jpg")!, alt: "The quay at dawn")))
        #expect(article.html.contains("<p>The harbour reopened on Tuesday"))
    }

    @Test func titleBylineDateAndPictureComeFromMetaTags() throws {
        let head = """
            <meta property="og:title" content="Harbour reopens: the full story">
            <meta name="author" content="Ann Quay">
            <meta property="article:published_time" content="2026-11-24T08:30:00Z">
            <meta property="og:image" content="../../img/lead.jpg">
            <meta property="og:site_name" content="The Daily Lamp">
            """
        let article = try ArticleExtraction.extract(html: Self.clutteredPage(head: head), url: Self.url)
        #expect(article.title == "Harbour reopens: the full story")
        #expect(article.byline == "Ann Quay")
        #expect(article.date == "2026-11-24T08:30:00Z")
        #expect(article.leadPicture == URL(string: "https://lamp.example/img/lead.jpg"))
        #expect(article.siteName == "The Daily Lamp")
    }

    @Test func jsonLDWinsOverMetaTags() throws {
        let head = """
            <meta property="og:title" content="Meta title">
            <meta name="author" content="Meta Author">
            <script type="application/ld+json">
            {"@context": "https://schema.org", "@graph": [
              {"@type": "WebSite", "name": "The Daily Lamp"},
              {"@type": ["NewsArticle"], "headline": "Harbour &amp; quay reopen",
               "author": [{"@type": "Person", "name": "Ann Quay"}, {"@type": "Person", "name": "Bo Pier"}],
               "datePublished": "2026-11-24T09:00:00+01:00",
               "image": {"@type": "ImageObject", "url": "https://cdn.lamp.example/quay-wide.jpg"},
               "publisher": {"@type": "Organization", "name": "Lamp Media"}}
            ]}
            </script>
            """
        let article = try ArticleExtraction.extract(html: Self.clutteredPage(head: head), url: Self.url)
        #expect(article.title == "Harbour & quay reopen")
        #expect(article.byline == "Ann Quay, Bo Pier")
        #expect(article.date == "2026-11-24T09:00:00+01:00")
        #expect(article.leadPicture == URL(string: "https://cdn.lamp.example/quay-wide.jpg"))
        #expect(article.siteName == "Lamp Media")
    }

    @Test func aPageOfLinksHasNoArticle() throws {
        let links = (1...30).map { "<li><a href=\"/news/\($0).html\">Headline number \($0), about the town and its harbour</a></li>" }.joined()
        let page = "<html><head><title>Index</title></head><body><nav><a href=\"/\">Home</a></nav><ul class=\"headlines\">\(links)</ul>"
            + "<footer><p>© The Daily Lamp</p></footer></body></html>"
        #expect(throws: NoArticleFound(page: Self.url.absoluteString)) {
            try ArticleExtraction.extract(html: page, url: Self.url)
        }
        #expect(throws: NoArticleFound.self) { try ArticleExtraction.extract(html: "", url: nil) }
    }

    @Test func textSpreadOverSeveralBoxesIsGatheredWhole() throws {
        // Some sites cut the article into boxes between advertisements.
        let boxes = Self.paragraphs.map { "<div class=\"article-body\"><p>\($0)</p></div><div class=\"ad-slot\"><a href=\"/ad\">Advertisement</a></div>" }
        let page = "<html><body><div id=\"main\">\(boxes.joined())</div><div class=\"footer-links\"><a href=\"/a\">About</a></div></body></html>"
        let article = try ArticleExtraction.extract(html: page, url: Self.url)
        #expect(article.blocks.compactMap(\.text) == Self.paragraphs)
    }

    @Test func listItemsInARowMakeOneListInTheHTML() {
        let article = ExtractedArticle(blocks: [.paragraph("Tides:"), .listItem("High at noon"), .listItem("Low at six & a half"),
                                                .paragraph("Fair winds.")])
        #expect(article.html == "<p>Tides:</p>\n<ul>\n<li>High at noon</li>\n<li>Low at six &amp; a half</li>\n</ul>\n<p>Fair winds.</p>")
        #expect(article.text == "Tides:\n\nHigh at noon\n\nLow at six & a half\n\nFair winds.")
    }
}
