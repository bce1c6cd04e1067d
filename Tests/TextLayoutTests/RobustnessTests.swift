import Testing
@testable import TextLayout

/// Random documents assembled from the pieces that break parsers: every one must read,
/// lay out within the width and come out free of terminal controls.
@Suite struct RobustnessTests {
    static let htmlPieces = [
        "<p>", "</p>", "<div>", "</div>", "<ul>", "<li>", "</li>", "</ul>", "<ol>", "<blockquote>",
        "</blockquote>", "<pre>", "</pre>", "<table>", "<tr>", "<td>", "<th>", "</table>", "<img src=x.png alt=pic>",
        "<figure>", "<figcaption>", "</figure>", "<h2>", "</h2>", "<br>", "<hr>", "<a href='u'>", "</a>",
        "<b>", "</i>", "<!--", "-->", "<![CDATA[", "]]>", "<!DOCTYPE x [<!ENTITY e 'boom'>]>", "&e;",
        "&amp;", "&#27;", "&#x9b;", "&#x202E;", "&", "<", ">", "\"", "'", "=", "<script>", "</script>",
        "<svg><image href='c.png'/></svg>", "<title>", "</title>", "\u{1B}[2J", "\u{1B}]52;c;AAAA\u{7}",
        "\u{9B}1m", "\u{202E}", "\u{7}", "\t", "\n", " ", "text", "more words here", "日本語の文章",
        "👨‍👩‍👧‍👦", "🇯🇵", "e\u{301}", "\u{1100}\u{1161}\u{11A8}", "https://example.com/a/very/long/path?x=1",
        "supercalifragilisticexpialidocious", "\u{AD}", "\u{200B}", "<wbr>", "&nbsp;", "<q>", "</q>",
    ]
    static let markdownPieces = [
        "# ", "## ", "\n", "\n\n", "> ", "- ", "1. ", "  ", "    ", "```", "~~~", "*", "**", "_", "__",
        "~~", "`", "[", "]", "(", ")", "![", "<", ">", "|", "---", "===", "\\", "&amp;", "&#27;",
        "text", "more words", "日本語", "👍🏽", "e\u{301}", "\u{1B}[2J", "\u{9B}", "\u{202E}", "<div>",
        "[r]: http://x", "[r]", "https://example.com/long/path/segment",
    ]

    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(truncatingIfNeeded: (state >> 33) % UInt64(bound))
        }
    }

    static func check(_ document: TextDocument, widths: [Int]) {
        if let title = document.title { #expect(SanitizerTests.isSafe(title)) }
        for width in widths {
            let lines = Layout.lines(for: document, width: width)
            for line in lines {
                #expect(line.width <= width, "width \(width): \(line.text)")
                #expect(SanitizerTests.isSafe(line.text) && !line.text.contains("\n"), "\(line.text.unicodeScalars.map(\.value))")
            }
        }
    }

    @Test func randomHTML() {
        var generator = Generator(state: 7)
        for _ in 0..<150 {
            var html = ""
            for _ in 0..<(1 + generator.next(120)) {
                html += Self.htmlPieces[generator.next(Self.htmlPieces.count)]
            }
            Self.check(HTMLReader.document(html: html), widths: [3, 17, 80])
        }
    }

    @Test func randomMarkdown() {
        var generator = Generator(state: 11)
        for _ in 0..<150 {
            var markdown = ""
            for _ in 0..<(1 + generator.next(120)) {
                markdown += Self.markdownPieces[generator.next(Self.markdownPieces.count)]
            }
            Self.check(MarkdownReader.document(markdown: markdown), widths: [3, 17, 80])
        }
    }

    @Test func randomPlainText() {
        var generator = Generator(state: 13)
        for _ in 0..<100 {
            var text = ""
            for _ in 0..<(1 + generator.next(80)) {
                text += (Self.markdownPieces + Self.htmlPieces)[generator.next(Self.markdownPieces.count + Self.htmlPieces.count)]
            }
            Self.check(PlainTextReader.document(text: text), widths: [3, 40])
        }
    }

    @Test func randomScalarsThroughTheSanitizer() {
        var generator = Generator(state: 17)
        for _ in 0..<300 {
            var text = ""
            for _ in 0..<(1 + generator.next(60)) {
                let ranges: [ClosedRange<UInt32>] = [0...0x7F, 0x80...0xFF, 0x2000...0x206F, 0xFE00...0xFFFF, 0x1F300...0x1F6FF]
                let range = ranges[generator.next(ranges.count)]
                let value = range.lowerBound + UInt32(generator.next(Int(range.upperBound - range.lowerBound) + 1))
                if let scalar = Unicode.Scalar(value) { text.unicodeScalars.append(scalar) }
            }
            #expect(SanitizerTests.isSafe(Sanitizer.clean(text)) && !Sanitizer.clean(text).contains("\n"))
            #expect(SanitizerTests.isSafe(Sanitizer.clean(text, multiline: true)))
            let truncated = DisplayWidth.truncate(Sanitizer.clean(text), to: 10)
            #expect(DisplayWidth.of(truncated) <= 10)
        }
    }
}
