import Foundation
import Testing
@testable import Feeds

@Suite struct FeedLinksTests {
    // The resolution examples of RFC 3986 section 5.4.1 and a few of 5.4.2.
    @Test(arguments: [
        ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"), ("/g", "http://a/g"),
        ("//g", "http://g"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"), ("#s", "http://a/b/c/d;p?q#s"),
        ("g#s", "http://a/b/c/g#s"), ("g?y#s", "http://a/b/c/g?y#s"), (";x", "http://a/b/c/;x"), ("", "http://a/b/c/d;p?q"),
        (".", "http://a/b/c/"), ("./", "http://a/b/c/"), ("..", "http://a/b/"), ("../", "http://a/b/"), ("../g", "http://a/b/g"),
        ("../..", "http://a/"), ("../../g", "http://a/g"), ("../../../g", "http://a/g"), ("/./g", "http://a/g"),
        ("g.", "http://a/b/c/g."), ("..g", "http://a/b/c/..g"), ("./../g", "http://a/b/g"), ("g/./h", "http://a/b/c/g/h"),
        ("g/../h", "http://a/b/c/h"), ("https://other.example/x", "https://other.example/x"),
    ])
    func resolvesLikeRFC3986(_ reference: String, _ expected: String) throws {
        let base = LinkBase(try #require(URL(string: "http://a/b/c/d;p?q")))
        #expect(base.absolute(reference) == expected)
    }

    @Test func refusesSchemesAFeedMayNotUse() throws {
        let web = LinkBase(try #require(URL(string: "https://feed.example/a/feed.xml")))
        for href in ["javascript:alert(1)", "data:text/html,x", "file:///etc/passwd", "ftp://x.example/f.zip", "http://", "  "] {
            #expect(FeedLinks.resolve(href, against: web) == nil, "\(href)")
        }
        #expect(FeedLinks.resolve(" issues/a b.epub ", against: web)?.absoluteString == "https://feed.example/a/issues/a%20b.epub")
        let local = LinkBase(URL(fileURLWithPath: "/srv/feeds/feed.xml"))
        #expect(FeedLinks.resolve("../covers/c.png", against: local) == URL(fileURLWithPath: "/srv/covers/c.png"))
    }
}
