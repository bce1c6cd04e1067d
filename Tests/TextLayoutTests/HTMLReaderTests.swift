import Testing
import Markup
@testable import TextLayout

@Suite struct HTMLReaderTests {
    func text(_ spans: [StyledSpan]) -> String { spans.map(\.text).joined() }

    @Test func paragraphsHeadingsAndEmphasis() {
        let html = """
        <!DOCTYPE html>
        <html><head><title>The  Quiet
         Harbour</title><meta charset="utf-8"><style>p { color: red }</style>
        <script>document.write("<p>no</p>")</script></head>
        <body>
        <h1>Morning</h1>
        <p>The <em>boats</em> came in <strong>early</strong>,
           before the <a href="fog.html#top">fog</a>.</p>
        <p>Second   paragraph.</p>
        </body></html>
        """
        let document = HTMLReader.document(html: html)
        #expect(document.title == "The Quiet Harbour")
        #expect(document.blocks.count == 3)
        #expect(document.blocks[0] == .heading(level: 1, [StyledSpan("Morning", style: [.bold, .heading])]))
        #expect(document.blocks[1] == .paragraph([
            StyledSpan("The "),
            StyledSpan("boats", style: .italic),
            StyledSpan(" came in "),
            StyledSpan("early", style: .bold),
            StyledSpan(", before the "),
            StyledSpan("fog", style: .link, link: "fog.html#top"),
            StyledSpan("."),
        ]))
        #expect(document.blocks[2] == .paragraph([StyledSpan("Second paragraph.")]))
    }

    @Test func badMarkupNeverThrowsAndStillReads() {
        let html = """
        <p>one<p>two</b></i></p></p></div>
        <p class=lead id=intro>three<br>four<br/>five
        <ul><li>a<li>b</ul>
        <p>unclosed <b>bold <i>both
        """
        let document = HTMLReader.document(html: html)
        let texts = document.blocks.map(\.plainText)
        #expect(texts == ["one", "two", "three\nfour\nfive", "a\nb", "unclosed bold both"])
        #expect(document.anchors["intro"] == 2)
        guard case .paragraph(let spans) = document.blocks[4] else {
            Issue.record("expected a paragraph")
            return
        }
        #expect(spans == [
            StyledSpan("unclosed "), StyledSpan("bold ", style: .bold), StyledSpan("both", style: [.bold, .italic]),
        ])
    }

    @Test func hostileFragmentsDoNotCrash() {
        let inputs = [
            "", "<", "<<<>>>", "</", "</>", "<!", "<!--", "<!-- never closed", "<![CDATA[", "<?xml",
            "<p", "<p attr", "<p a='x", "<a href=\"x", "&", "&#", "&#x;", "&#99999999999999;", "&amp",
            "<table><td>x", "<li>orphan", "</p></p></p>", "<br></br>", "<script>never closed",
            "<style>", "<title>only", "<svg><image href='c.png'/>", "<pre>", "<ol><ol><ol>",
            String(repeating: "<div>", count: 5000) + "deep" + String(repeating: "</div>", count: 5000),
            String(repeating: "<blockquote>", count: 3000) + "deep",
            String(repeating: "<ul><li>", count: 3000) + "deep",
            String(repeating: "<b><i>", count: 3000) + "deep",
        ]
        for input in inputs {
            let document = HTMLReader.document(html: input)
            let lines = Layout.lines(for: document, width: 40)
            #expect(lines.allSatisfy { $0.width <= 40 }, "\(input.prefix(40))")
        }
        let deep = HTMLReader.document(html: inputs[inputs.count - 4])
        #expect(deep.blocks.map(\.plainText) == ["deep"])
    }

    @Test func entities() {
        let html = "<p>Fish &amp; chips &lt;3 &mdash; &ldquo;caf&eacute;&rdquo; &hellip; &#233;&#xE9; &nbsp;x &copy; 2026 &unknown; &amp &#150;</p>"
        let document = HTMLReader.document(html: html)
        #expect(document.blocks.first?.plainText == "Fish & chips <3 — “café” … éé \u{A0}x © 2026 &unknown; & –")
    }

    @Test func declaredEntitiesAreNeverExpanded() {
        let html = """
        <?xml version="1.0"?>
        <!DOCTYPE html [
          <!ENTITY secret SYSTEM "file:///etc/passwd">
          <!ENTITY lol "lol">
          <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
          <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
        ]>
        <html xmlns="http://www.w3.org/1999/xhtml"><body><p>&secret; and &lol3;</p></body></html>
        """
        let document = HTMLReader.document(html: html)
        #expect(document.blocks == [.paragraph([StyledSpan("&secret; and &lol3;")])])
    }

    @Test func numericReferencesToControlsAreCleaned() {
        let html = "<p>a&#27;[2Jb&#x1b;]52;c;QUFB&#7;c&#x9B;31md&#x202E;e&#0;f</p>"
        let document = HTMLReader.document(html: html)
        let text = document.blocks.first?.plainText ?? ""
        #expect(SanitizerTests.isSafe(text))
        #expect(text == "abc›31md\u{FFFD}f" || text == "abcd\u{FFFD}f" || text.hasPrefix("ab"))
        #expect(!text.contains("\u{1B}"))
    }

    @Test func rawEscapesInTextAndAttributesAreCleaned() {
        let html = "<title>\u{1B}]0;owned\u{7}Real title</title><p>x\u{1B}[2Jy \u{9B}1mz</p><img src=\"a.png\" alt=\"al\u{1B}[5mt\">"
        let document = HTMLReader.document(html: html)
        #expect(document.title == "Real title")
        #expect(document.blocks[0].plainText == "xy z")
        #expect(document.blocks[1] == .image(source: "a.png", alt: "alt"))
    }

    @Test func linkTargetsAreCleaned() {
        let html = "<p><a href=\"https://x.example/&#27;]52;c;QUFB&#7;\u{202E}\">link</a></p>"
        let document = HTMLReader.document(html: html)
        guard case .paragraph(let spans) = document.blocks.first else {
            Issue.record("expected a paragraph")
            return
        }
        #expect(spans.first?.link == "https://x.example/")
        let markdown = MarkdownReader.document(markdown: "[link](https://x.example/&#27;[2J)")
        guard case .paragraph(let markdownSpans) = markdown.blocks.first else {
            Issue.record("expected a paragraph")
            return
        }
        #expect(markdownSpans.first?.link == "https://x.example/")
    }

    @Test func commentsCDATAAndProcessingInstructions() {
        let html = "<p>a<!-- hidden <p>not a paragraph</p> -->b<![CDATA[ <c> & ]]>d<?php echo 1 ?>e</p>"
        let document = HTMLReader.document(html: html)
        #expect(document.blocks == [.paragraph([StyledSpan("ab <c> & de")])])
    }

    @Test func headIsIgnoredExceptTitle() {
        let html = "<head><title>T</title><meta name=x content=y><link rel=stylesheet href=s.css>Stray</head><body><p>Body</p>"
        let document = HTMLReader.document(html: html)
        #expect(document.title == "T")
        #expect(document.blocks.map(\.plainText) == ["Stray", "Body"], "text in head starts the body, as browsers do")
        let withoutBody = HTMLReader.document(html: "<html><head><title>T</title></head><p>x</p>")
        #expect(withoutBody.blocks.map(\.plainText) == ["x"])
    }

    @Test func scriptStyleAndHiddenContentIsDropped() {
        let html = """
        <p>a<script type="text/javascript">if (a < b) { alert("</p>") }</script>b</p>
        <style>.x{}</style><noscript>fallback</noscript>
        <div hidden>secret</div><span style="display: none">gone</span><p aria-hidden="true">icon</p>
        <template><p>tpl</p></template><p>end</p>
        """
        let document = HTMLReader.document(html: html)
        #expect(document.blocks.map(\.plainText) == ["ab", "fallback", "end"])
    }

    @Test func nestedListsAndQuotes() {
        let html = """
        <ol><li>First<ul><li>inner one</li><li>inner two</li></ul></li><li><p>Second</p></li></ol>
        <blockquote><p>Quoted</p><blockquote>Deeper</blockquote></blockquote>
        """
        let document = HTMLReader.document(html: html)
        #expect(document.blocks == [
            .list(ordered: true, items: [
                [.paragraph([StyledSpan("First")]),
                 .list(ordered: false, items: [[.paragraph([StyledSpan("inner one")])], [.paragraph([StyledSpan("inner two")])]])],
                [.paragraph([StyledSpan("Second")])],
            ]),
            .quote([.paragraph([StyledSpan("Quoted")]), .quote([.paragraph([StyledSpan("Deeper")])])]),
        ])
    }

    @Test func listWithStrayNestedListJoinsPreviousItem() {
        let document = HTMLReader.document(html: "<ul><li>a</li><ul><li>b</li></ul><li>c</li></ul>")
        #expect(document.blocks == [
            .list(ordered: false, items: [
                [.paragraph([StyledSpan("a")]), .list(ordered: false, items: [[.paragraph([StyledSpan("b")])]])],
                [.paragraph([StyledSpan("c")])],
            ]),
        ])
    }

    @Test func preformattedCodeKeepsWhitespace() {
        let html = "<p>Run:</p><pre>\n  let x = 1\n\tif x &lt; 2 {\n      <b>go</b>()\n  }\n\n</pre>"
        let document = HTMLReader.document(html: html)
        #expect(document.blocks[1] == .code("  let x = 1\n        if x < 2 {\n      go()\n  }"))
    }

    @Test func imagesFiguresAndSVGCovers() {
        let html = """
        <p>Before<img src="pics/a.jpg" alt="A harbour">after</p>
        <figure id="f1"><img src="b.png" alt="B"/><figcaption>The <em>second</em> picture</figcaption></figure>
        <svg xmlns:xlink="http://www.w3.org/1999/xlink"><title>not the title</title><image xlink:href="cover.jpeg"/></svg>
        """
        let document = HTMLReader.document(html: html)
        #expect(document.title == nil)
        #expect(document.blocks == [
            .paragraph([StyledSpan("Before")]),
            .image(source: "pics/a.jpg", alt: "A harbour"),
            .paragraph([StyledSpan("after")]),
            .figure(image: .image(source: "b.png", alt: "B"), caption: [
                StyledSpan("The ", style: .caption), StyledSpan("second", style: [.caption, .italic]),
                StyledSpan(" picture", style: .caption),
            ]),
            .image(source: "cover.jpeg", alt: ""),
        ])
        #expect(document.anchors["f1"] == 3)
    }

    @Test func tables() {
        let html = """
        <table><caption>Tides</caption>
        <thead><tr><th>Day<th>High</thead>
        <tbody><tr><td>Mon<td>6:02<tr><td>Tue<td><i>6:48</i></tbody></table>
        """
        let document = HTMLReader.document(html: html)
        #expect(document.blocks == [
            .paragraph([StyledSpan("Tides", style: .caption)]),
            .table([
                [[StyledSpan("Day", style: .bold)], [StyledSpan("High", style: .bold)]],
                [[StyledSpan("Mon")], [StyledSpan("6:02")]],
                [[StyledSpan("Tue")], [StyledSpan("6:48", style: .italic)]],
            ]),
        ])
    }

    @Test func layoutTablesReadAsBlocks() {
        let html = "<table><tr><td><p>Column text</p><p>More</p></td></tr></table>"
        let document = HTMLReader.document(html: html)
        #expect(document.blocks.map(\.plainText) == ["Column text", "More"])
    }

    @Test func anchorsPointAtTopLevelBlocks() {
        let html = """
        <h2 id="one">One</h2><p>Text <a name="mid">here</a></p>
        <blockquote><p id="inner">quoted</p></blockquote><a id="empty"/><p>after</p>
        """
        let document = HTMLReader.document(html: html)
        #expect(document.anchors["one"] == 0)
        #expect(document.anchors["mid"] == 1)
        #expect(document.anchors["inner"] == 2)
        #expect(document.anchors["empty"] == 3)
    }

    @Test func xhtmlSelfClosingAndNamespaces() {
        let html = """
        <?xml version="1.0" encoding="UTF-8"?>
        <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">
        <body><section epub:type="chapter"><a id="start"/><p>Chapter <span/>one.</p><hr/><p>Two</p></section></body></html>
        """
        let document = HTMLReader.document(html: html)
        #expect(document.blocks == [.paragraph([StyledSpan("Chapter one.")]), .rule, .paragraph([StyledSpan("Two")])])
        #expect(document.anchors["start"] == 0)
    }

    @Test func unquotedAndOddAttributes() {
        let html = "<a href=page.html title=x>link</a> <img src=x.png alt=Hi there> <a HREF='q.html'>q</a>"
        let document = HTMLReader.document(html: html)
        #expect(document.blocks == [
            .paragraph([StyledSpan("link", style: .link, link: "page.html")]),
            .image(source: "x.png", alt: "Hi"),
            .paragraph([StyledSpan("q", style: .link, link: "q.html")]),
        ])
    }

    @Test func whitespaceCollapsesAcrossInlineElements() {
        let html = "<p>  a <b> b </b> c\n\n d  </p>"
        let document = HTMLReader.document(html: html)
        #expect(document.blocks == [.paragraph([StyledSpan("a "), StyledSpan("b ", style: .bold), StyledSpan("c d")])])
    }

    @Test func rubyReadsAsParentheses() {
        let document = HTMLReader.document(html: "<p><ruby>漢<rp>(</rp><rt>かん</rt><rp>)</rp>字</ruby></p>")
        #expect(document.blocks.first?.plainText == "漢(かん)字")
    }

    @Test func japaneseArticle() {
        let html = "<h1>港の朝</h1><p>朝の港は静かだった。漁船がゆっくりと戻ってくる。</p>"
        let document = HTMLReader.document(html: html)
        #expect(document.blocks.map(\.plainText) == ["港の朝", "朝の港は静かだった。漁船がゆっくりと戻ってくる。"])
    }
}

@Suite struct HTMLEntityTests {
    @Test func everyReferenceIsAtMostAFifthShorterThanItsText() {
        // The tokenizer decodes text in place on this promise: `&nGt;` and `&nLt;` are the
        // only references shorter than their text, by one byte.
        var longer: [String] = []
        for (name, characters) in HTMLNamedCharacters.table {
            let reference = name.utf8.count + 2
            #expect(reference + reference / 5 >= characters.utf8.count, "&\(name);")
            if reference < characters.utf8.count { longer.append(name) }
        }
        #expect(longer.sorted() == ["nGt", "nLt"])
        for name in HTMLNamedCharacters.withoutSemicolon {
            #expect(name.utf8.count + 1 >= (HTMLNamedCharacters.characters(named: name)?.utf8.count ?? 99), "&\(name)")
        }
        for value: UInt32 in [0, 1, 9, 0x80, 0x9F, 0x7FF, 0x800, 0xD800, 0xFFFF, 0x10000, 0x10FFFF, 0x110000] {
            let scalar = CharacterReferences.numeric(value)
            #expect("&#\(value)".utf8.count >= UTF8.width(scalar))
            #expect("&#x\(String(value, radix: 16))".utf8.count >= UTF8.width(scalar))
        }
    }

    @Test func anArticleDecodesNamesOnlyFeedsUsedToKnowAndHTML5Names() {
        // `&weierp;` and `&alefsym;` were in the feed table only; `&NotEqualTilde;` in neither.
        let document = HTMLReader.document(html: "<p>&weierp; &alefsym; &NotEqualTilde; &nGt;&nGt;&nGt;&nGt;&nGt;</p>")
        #expect(document.blocks.first?.plainText == "℘ ℵ \u{2242}\u{338} " + String(repeating: "\u{226B}\u{20D2}", count: 5))
    }

    @Test func attributeAndTextDecoding() {
        #expect(CharacterReferences.decode("a&amp;b&lt;&gt;&quot;&apos;&#39;&#x41;&#65") == "a&b<>\"''AA")
        #expect(CharacterReferences.decode("&#xD800;&#0;&#x110000;") == "\u{FFFD}\u{FFFD}\u{FFFD}")
        // HTML5: in text an old name is read before a letter too; in an attribute it is not.
        #expect(CharacterReferences.decode("&ampx &amp x") == "&x & x")
        #expect(CharacterReferences.decode("&ampx &amp x &amp=", in: .attribute) == "&ampx & x &amp=")
        #expect(CharacterReferences.decode("&notanentity; & &; &#; &#x;") == "¬anentity; & &; &#; &#x;")
        #expect(CharacterReferences.decode("&bogus; & &; &#; &#x;") == "&bogus; & &; &#; &#x;")
    }

    @Test func anArticleReadsOldNamesAsHTML5Does() {
        let document = HTMLReader.document(html: "<p title=\"&copy=1\">&copy 2026 &copyx <a href=\"?a=1&copy=2&amp;b\">l</a></p>")
        #expect(document.blocks.first?.plainText == "© 2026 ©x l")
        guard case .paragraph(let spans) = document.blocks.first else {
            Issue.record("expected a paragraph")
            return
        }
        #expect(spans.last?.link == "?a=1&copy=2&b")
    }
}

@Suite struct NoteReferenceTests {
    @Test func shortSuperscriptsAreBracketed() {
        let html = "<p>the nets.<a href=\"#fn1\"><sup>12</sup></a> E = mc<sup>2</sup>, x<sup>(n + 1)</sup> and y<sup><a href='#b'>b</a></sup></p>"
        let document = HTMLReader.document(html: html)
        #expect(document.blocks.first?.plainText == "the nets.¹² E = mc², x(n + 1) and y[b]")
        guard case .paragraph(let spans) = document.blocks.first else {
            Issue.record("expected a paragraph")
            return
        }
        #expect(spans[1] == StyledSpan("¹²", style: [.link, .dim], link: "#fn1"))
        #expect(spans.last == StyledSpan("[b]", style: [.link, .dim], link: "#b"))
    }
}
