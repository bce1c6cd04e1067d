import Feeds
import Foundation
import IssueArchive
import Markup
import Testing
import TextLayout

/// README promises that a reference decodes the same in a feed title and in an article:
/// RSS and Atom titles, an article read for the screen and an article written into an EPUB
/// all go through `CharacterReferences`, with HTML5's rules.
@Suite struct CharacterReferenceAgreementTests {
    /// HTML as a feed or an article carries it: named references old and new, one written
    /// twice over, numbers (a C1 one meaning Windows-1252's dash), old names without their
    /// semicolon (decoded in text even before a letter), and an unknown name.
    static let html = "Caf&eacute; &hellip; &NotEqualTilde; &amp;amp; &#x1F600;&#128512; &#150; &copy 2026 &copyx &notit; &bogus;"
    static let text = "Café … \u{2242}\u{338} &amp; 😀😀 – © 2026 ©x ¬it; &bogus;"
    /// In an attribute an old name before `=` or a letter stays as written (a link's query).
    static let href = "https://x.example/?a=1&copy=2&amp;b=3&#x41;"
    static let decodedHref = "https://x.example/?a=1&copy=2&b=3A"

    @Test func rssAndAtomTitlesReadTheArticlesHTML() throws {
        let rss = """
            <rss version="2.0"><channel><title><![CDATA[\(Self.html)]]></title>
            <item><guid>1</guid><title><![CDATA[\(Self.html)]]></title><enclosure url="a.epub"/></item></channel></rss>
            """
        let rssDocument = try FeedParser.parse(Data(rss.utf8), url: try #require(URL(string: "https://f.example/rss")))
        #expect(rssDocument.publication.title == Self.text)
        #expect(rssDocument.entries.first?.title == Self.text)

        let atom = """
            <feed xmlns="http://www.w3.org/2005/Atom"><id>f</id><title type="html"><![CDATA[\(Self.html)]]></title>
            <entry><id>1</id><title type="html"><![CDATA[<b>\(Self.html)</b>]]></title>
            <link rel="enclosure" type="application/epub+zip" href="a.epub"/></entry></feed>
            """
        let atomDocument = try FeedParser.parse(Data(atom.utf8), url: try #require(URL(string: "https://f.example/atom")))
        #expect(atomDocument.publication.title == Self.text)
        #expect(atomDocument.entries.first?.title == Self.text)
    }

    @Test func xmlTitlesDecodeHTML5NamesWithTheirSemicolon() throws {
        // Written straight into the XML, a reference is read by the XML reader: HTML5's names
        // and numbers, but only with their semicolon (XML has no other spelling).
        let rss = """
            <rss version="2.0"><channel><title>Caf&eacute; &hellip; &NotEqualTilde; &#150; &amp;amp; &copy 2026</title>
            <item><guid>1</guid><title>x</title><enclosure url="a.epub"/></item></channel></rss>
            """
        let document = try FeedParser.parse(Data(rss.utf8), url: try #require(URL(string: "https://f.example/rss")))
        // `&amp;amp;` is `&amp;` in the title's HTML, then `&`; `&copy` without `;` is not
        // XML, so it stays for the HTML, which reads it.
        #expect(document.publication.title == "Café … \u{2242}\u{338} – & © 2026")
    }

    @Test func anArticleOnScreenReadsTheSame() {
        let document = HTMLReader.document(html: "<p>\(Self.html) <a href=\"\(Self.href)\">link</a></p>")
        #expect(document.blocks.first?.plainText == Self.text + " link")
        guard case .paragraph(let spans) = document.blocks.first else {
            Issue.record("expected a paragraph")
            return
        }
        #expect(spans.last?.link == Self.decodedHref)
    }

    @Test func anArticleInAnEPUBReadsTheSame() throws {
        let base = try #require(URL(string: "https://x.example/"))
        let pieces = ArticleHTML.clean("<p>\(Self.html) <a href=\"\(Self.href)\">link</a></p>", base: base)
        let expected = "<p>" + ArticleHTML.escape(Self.text) + " <a href=\"" + ArticleHTML.escape(Self.decodedHref) + "\">link</a></p>"
        #expect(pieces == [.markup(expected)])
    }

    @Test func oneDecoderForEveryContext() {
        #expect(CharacterReferences.decode(Self.html) == Self.text)
        #expect(CharacterReferences.decode(Self.href, in: .attribute) == Self.decodedHref)
        // XML wants every semicolon and refuses control characters even as numbers.
        #expect(CharacterReferences.decode("&copy; &copy &#1; &#x41 &amp;", in: .xml) == "© &copy \u{FFFD} &#x41 &")
    }
}
