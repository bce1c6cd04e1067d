import Testing
@testable import TextLayout

@Suite struct MarkdownReaderTests {
    @Test func headingsParagraphsAndEmphasis() {
        let markdown = """
        # The Quiet Harbour

        The *boats* came in **early**, before the [fog](fog.md#top).
        A second line of the same paragraph.

        Setext heading
        --------------

        ***both*** and ~~struck~~ and `code *not em*` and snake_case_name.
        """
        let document = MarkdownReader.document(markdown: markdown)
        #expect(document.title == "The Quiet Harbour")
        #expect(document.anchors["the-quiet-harbour"] == 0)
        #expect(document.anchors["setext-heading"] == 2)
        #expect(document.blocks == [
            .heading(level: 1, [StyledSpan("The Quiet Harbour", style: [.bold, .heading])]),
            .paragraph([
                StyledSpan("The "), StyledSpan("boats", style: .italic), StyledSpan(" came in "),
                StyledSpan("early", style: .bold), StyledSpan(", before the "),
                StyledSpan("fog", style: .link, link: "fog.md#top"),
                StyledSpan(". A second line of the same paragraph."),
            ]),
            .heading(level: 2, [StyledSpan("Setext heading", style: [.bold, .heading])]),
            .paragraph([
                StyledSpan("both", style: [.bold, .italic]), StyledSpan(" and "),
                StyledSpan("struck", style: .strike), StyledSpan(" and "),
                StyledSpan("code *not em*", style: .code), StyledSpan(" and snake_case_name."),
            ]),
        ])
    }

    @Test func nestedListsAndQuotes() {
        let markdown = """
        - one
        - two
          - inner a
          - inner b
        - three

        1. first
        2. second

        > quoted *text*
        continued lazily
        >
        > > deeper
        """
        let document = MarkdownReader.document(markdown: markdown)
        #expect(document.blocks == [
            .list(ordered: false, items: [
                [.paragraph([StyledSpan("one")])],
                [.paragraph([StyledSpan("two")]), .list(ordered: false, items: [
                    [.paragraph([StyledSpan("inner a")])], [.paragraph([StyledSpan("inner b")])],
                ])],
                [.paragraph([StyledSpan("three")])],
            ]),
            .list(ordered: true, items: [[.paragraph([StyledSpan("first")])], [.paragraph([StyledSpan("second")])]]),
            .quote([
                .paragraph([StyledSpan("quoted "), StyledSpan("text", style: .italic), StyledSpan(" continued lazily")]),
                .quote([.paragraph([StyledSpan("deeper")])]),
            ]),
        ])
        let lines = Layout.lines(for: document, width: 30).map(\.text)
        #expect(lines == [
            "• one", "• two", "  ◦ inner a", "  ◦ inner b", "• three", "",
            "1. first", "2. second", "",
            "│ quoted text continued lazily", "│", "│ │ deeper",
        ])
    }

    @Test func codeBlocks() {
        let markdown = """
        ```swift
        let x = 1
          indented()
        ```

            four spaces
            more

        ~~~
        tilde
        ~~~
        """
        let document = MarkdownReader.document(markdown: markdown)
        #expect(document.blocks == [.code("let x = 1\n  indented()"), .code("four spaces\nmore"), .code("tilde")])
    }

    @Test func imagesRulesAndLinks() {
        let markdown = """
        ![A harbour at dawn](pics/dawn.jpg "Dawn")

        ---

        Text with ![icon](i.png) inside, <https://example.com> and [ref link][r] and [Shortcut].

        [r]: https://example.com/r
        [shortcut]: <https://example.com/s>
        """
        let document = MarkdownReader.document(markdown: markdown)
        #expect(document.blocks == [
            .image(source: "pics/dawn.jpg", alt: "A harbour at dawn"),
            .rule,
            .paragraph([StyledSpan("Text with")]),
            .image(source: "i.png", alt: "icon"),
            .paragraph([
                StyledSpan("inside, "),
                StyledSpan("https://example.com", style: .link, link: "https://example.com"),
                StyledSpan(" and "), StyledSpan("ref link", style: .link, link: "https://example.com/r"),
                StyledSpan(" and "), StyledSpan("Shortcut", style: .link, link: "https://example.com/s"),
                StyledSpan("."),
            ]),
        ])
    }

    @Test func tables() {
        let markdown = """
        | Day | High water |
        |-----|-----------:|
        | Mon | 6:02 |
        | Tue | `6:48` |
        """
        let document = MarkdownReader.document(markdown: markdown)
        #expect(document.blocks == [.table([
            [[StyledSpan("Day", style: .bold)], [StyledSpan("High water", style: .bold)]],
            [[StyledSpan("Mon")], [StyledSpan("6:02")]],
            [[StyledSpan("Tue")], [StyledSpan("6:48", style: .code)]],
        ])])
    }

    @Test func breaksEscapesAndEntities() {
        let markdown = "Line one  \nline two\\\nline three \\*not em\\* &amp; &copy; &bogus;"
        let document = MarkdownReader.document(markdown: markdown)
        #expect(document.blocks == [.paragraph([StyledSpan("Line one\nline two\nline three *not em* & © &bogus;")])])
    }

    @Test func htmlBlocks() {
        let markdown = "Intro\n\n<div class=\"note\">\n<p>Inside <b>HTML</b></p>\n</div>\n\nAfter"
        let document = MarkdownReader.document(markdown: markdown)
        #expect(document.blocks == [
            .paragraph([StyledSpan("Intro")]),
            .paragraph([StyledSpan("Inside "), StyledSpan("HTML", style: .bold)]),
            .paragraph([StyledSpan("After")]),
        ])
    }

    @Test func unmatchedDelimitersAreText() {
        let document = MarkdownReader.document(markdown: "2 * 3 = 6, a*b, **open and `tick and [bracket and _under")
        #expect(document.blocks == [.paragraph([StyledSpan("2 * 3 = 6, a*b, **open and `tick and [bracket and _under")])])
    }

    @Test func hostileMarkdownIsBounded() {
        let inputs = [
            String(repeating: "*a ", count: 3000),
            String(repeating: "[", count: 2000) + String(repeating: "]", count: 2000),
            String(repeating: ">", count: 5000) + " deep",
            String(repeating: "- ", count: 2000) + "deep",
            String(repeating: "`", count: 3000),
            String(repeating: "**a ", count: 1000) + String(repeating: "b** ", count: 1000),
            "\u{1B}]52;c;AAAA\u{7}# Title\u{1B}[2J",
        ]
        for input in inputs {
            let document = MarkdownReader.document(markdown: input)
            let lines = Layout.lines(for: document, width: 40)
            #expect(lines.allSatisfy { $0.width <= 40 && SanitizerTests.isSafe($0.text) })
        }
    }

    @Test func plainTextReflowsProseAndKeepsVerse() {
        let text = """
        This is a hard-wrapped paragraph of prose that was written for a
        seventy-column terminal long ago and should flow again.

        Roses are red,
        violets are blue,
        this verse keeps its lines.

            indented code
        """
        let document = PlainTextReader.document(text: text)
        #expect(document.blocks == [
            .paragraph([StyledSpan("This is a hard-wrapped paragraph of prose that was written for a seventy-column terminal long ago and should flow again.")]),
            .paragraph([StyledSpan("Roses are red,\nviolets are blue,\nthis verse keeps its lines.")]),
            .code("indented code"),
        ])
        #expect(Layout.lines(for: document, width: 40).map(\.text)[4...7] == [
            "", "Roses are red,", "violets are blue,", "this verse keeps its lines.",
        ])
    }
}
