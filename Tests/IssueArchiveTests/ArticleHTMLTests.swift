import Foundation
import Testing
@testable import IssueArchive

/// A feed article's HTML as an EPUB can hold it: nothing active, nothing tracking, links
/// absolute, elements nested as XHTML allows.
@Suite struct ArticleHTMLTests {
    static let base = URL(string: "https://lamp.example/news/today/")!

    /// The markup, with each picture written as `{url|alt}`.
    static func cleaned(_ html: String, base: URL = base) -> String {
        ArticleHTML.clean(html, base: base).map { piece in
            switch piece {
            case .markup(let markup): return markup
            case .picture(let url, let alt): return "{\(url.absoluteString)|\(alt)}"
            }
        }.joined()
    }

    @Test func scriptsStylesFramesFormsAndEventHandlersAreDropped() {
        let out = Self.cleaned("""
            <p onclick="steal()" style="color:red" class="x">Kept<script>alert("<p>no</p>")</script></p>
            <style>p { display: none }</style><iframe src="https://ads.example/"><p>inside</p></iframe>
            <form><input name="q"><button>Go</button></form><noscript><img src="https://t.example/px.gif"></noscript>
            <p>After</p>
            """)
        #expect(out == "<p>Kept</p><p>After</p>")
    }

    @Test func relativeLinksAndPicturesResolveAgainstTheBaseAndOnlyWebLinksStay() {
        let out = Self.cleaned("""
            <p><a href="../story.html" target="_blank">Story</a> <a href="javascript:evil()">x</a>
            <img src="/img/a.png" alt="A &amp; B"> <img src="data:image/png;base64,AAAA" alt="Inline"></p>
            """)
        #expect(out == "<p><a href=\"https://lamp.example/news/story.html\">Story</a> <a>x</a> {https://lamp.example/img/a.png|A & B} Inline</p>")
    }

    @Test func thousandsOfNestedAndStrayTagsStayBalancedAndBounded() {
        let n = 60_000
        let hostile = String(repeating: "<b><blockquote>", count: n) + "deep" + String(repeating: "</i></q>", count: n)
        let out = Self.cleaned(hostile)
        #expect(out.contains("deep"))
        for tag in ["b", "blockquote", "p"] {
            #expect(out.components(separatedBy: "<\(tag)>").count == out.components(separatedBy: "</\(tag)>").count, "\(tag)")
        }
        #expect(out.components(separatedBy: "<blockquote>").count - 1 <= ArticleHTML.maximumDepth)
    }

    @Test func aLazyLoadedPictureIsTakenFromItsDataSource() {
        #expect(Self.cleaned("<img src=\"data:image/gif;base64,R0lG\" data-src=\"big.jpg\" alt=\"Big\">")
                == "<p>{https://lamp.example/news/today/big.jpg|Big}</p>")
    }

    @Test func trackerPicturesOfOnePixelAreDropped() {
        #expect(Self.cleaned("<p>Text<img src=\"https://t.example/p.gif\" width=\"1\" height=\"1\"></p>") == "<p>Text</p>")
    }

    @Test func entitiesAreDecodedOnceAndTextIsEscapedForXML() {
        let out = Self.cleaned("<p>caf&eacute; &#233;t&#xE9; &lt;b&gt; &amp;amp; &#0; 1 < 2 &unknown;</p>")
        #expect(out == "<p>café été &lt;b&gt; &amp;amp; \u{FFFD} 1 &lt; 2 &amp;unknown;</p>")
    }

    @Test func elementsNestAsXHTMLAllowsWhateverTheFeedWrote() {
        // Items end each other, blocks end paragraphs, text in a list becomes an item,
        // stray closing tags are ignored, what is open at the end is closed.
        #expect(Self.cleaned("<ul><li>One<li>Two</ul>") == "<ul><li><p>One</p></li><li><p>Two</p></li></ul>")
        #expect(Self.cleaned("<p>A <b>bold<div>B</div></b></p></i>") == "<p>A <b>bold</b></p><p>B</p>")
        #expect(Self.cleaned("<ol>loose<li>x</ol>") == "<ol><li><p>loose</p></li><li><p>x</p></li></ol>")
        #expect(Self.cleaned("<h1>Title</h1><li>orphan</li><p>open <em>end") == "<h2>Title</h2><p>orphan</p><p>open <em>end</em></p>")
        #expect(Self.cleaned("<a href=\"/a\">one <a href=\"/b\">two</a></a>") == "<p><a href=\"https://lamp.example/a\">one two</a></p>")
    }
}
