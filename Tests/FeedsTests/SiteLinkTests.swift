import Foundation
import Testing
@testable import Feeds

/// The publication's web site, which `opml export` writes as `htmlUrl` (issue #30, item 22):
/// RSS `<channel><link>`, Atom's HTML `<link rel="alternate">`, JSON Feed `home_page_url`.
@Suite struct SiteLinkTests {
    let url = URL(string: "https://site.example/feeds/main")!

    @Test func rssChannelLinkIsTheSiteNotAnAtomSelfLink() throws {
        let doc = try FeedParser.parse(Data("""
            <?xml version="1.0"?><rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel>
            <title>Tide</title><atom:link rel="self" href="https://site.example/feeds/main"/>
            <link>/home?a=1&amp;b=2</link><item><title>One</title><description>Hello</description></item>
            </channel></rss>
            """.utf8), url: url)
        #expect(doc.publication.siteURL?.absoluteString == "https://site.example/home?a=1&b=2")
    }

    @Test func atomTakesTheHTMLAlternateNotAnotherFormat() throws {
        let doc = try FeedParser.parse(Data("""
            <?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Tide</title><id>urn:t</id>
            <link rel="alternate" type="application/json" href="https://site.example/feed.json"/>
            <link href="https://site.example/blog/"/>
            <entry><title>One</title><id>urn:1</id><updated>2026-01-01T00:00:00Z</updated><content>Hi</content></entry>
            </feed>
            """.utf8), url: url)
        #expect(doc.publication.siteURL?.absoluteString == "https://site.example/blog/")
    }

    @Test func jsonFeedHomePageAndNoSiteThatIsNotAWebPage() throws {
        let json = try FeedParser.parse(Data("""
            {"version": "https://jsonfeed.org/version/1.1", "title": "Tide", "home_page_url": "https://site.example/",
             "items": [{"id": "1", "content_text": "Hi"}]}
            """.utf8), url: url)
        #expect(json.publication.siteURL?.absoluteString == "https://site.example/")
        let none = try FeedParser.parse(Data("""
            <?xml version="1.0"?><rss version="2.0"><channel><title>Tide</title><link>javascript:alert(1)</link>
            <item><title>One</title><description>Hello</description></item></channel></rss>
            """.utf8), url: url)
        #expect(none.publication.siteURL == nil)
    }
}
