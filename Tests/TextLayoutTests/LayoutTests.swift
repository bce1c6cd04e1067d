import Testing
@testable import TextLayout

@Suite struct LayoutTests {
    func lines(_ blocks: [Block], width: Int) -> [LayoutLine] {
        Layout.lines(for: TextDocument(blocks: blocks), width: width)
    }

    func texts(_ blocks: [Block], width: Int) -> [String] {
        lines(blocks, width: width).map(\.text)
    }

    func texts(html: String, width: Int) -> [String] {
        Layout.lines(for: HTMLReader.document(html: html), width: width).map(\.text)
    }

    @Test func englishParagraph() {
        let paragraph = Block.paragraph([StyledSpan(
            "The quick brown fox jumps over the lazy dog. It was a bright cold day in April.")])
        #expect(texts([paragraph], width: 20) == [
            "The quick brown fox",
            "jumps over the lazy",
            "dog. It was a bright",
            "cold day in April.",
        ])
        #expect(texts([paragraph], width: 80) == [
            "The quick brown fox jumps over the lazy dog. It was a bright cold day in April.",
        ])
    }

    @Test func stylesSurviveWrapping() {
        let paragraph = Block.paragraph([
            StyledSpan("Read the "), StyledSpan("full harbour report", style: .link, link: "r.html"),
            StyledSpan(" today."),
        ])
        let result = lines([paragraph], width: 14)
        #expect(result.map(\.text) == ["Read the full", "harbour report", "today."])
        #expect(result[0].spans == [StyledSpan("Read the "), StyledSpan("full", style: .link, link: "r.html")])
        #expect(result[1].spans == [StyledSpan("harbour report", style: .link, link: "r.html")])
        #expect(result[2].spans == [StyledSpan("today.")])
    }

    @Test func japaneseWrapsBetweenCharacters() {
        let text = "朝の港は静かだった。漁船がゆっくりと戻ってくる。"
        let result = texts([.paragraph([StyledSpan(text)])], width: 10)
        #expect(result == ["朝の港は静", "かだった。", "漁船がゆっ", "くりと戻っ", "てくる。"])
        for width in 2...30 {
            let wrapped = lines([.paragraph([StyledSpan(text)])], width: width)
            #expect(wrapped.allSatisfy { $0.width <= width }, "width \(width)")
            #expect(wrapped.map(\.text).joined() == text, "width \(width)")
        }
    }

    @Test func japaneseLineStartRules() {
        // `。` may not begin a line: `う` moves down with it.
        #expect(texts([.paragraph([StyledSpan("あいう。えお")])], width: 6) == ["あい", "う。え", "お"])
        // `「` may not end a line.
        #expect(texts([.paragraph([StyledSpan("あい「うえ」")])], width: 6) == ["あい", "「うえ", "」"] ||
                texts([.paragraph([StyledSpan("あい「うえ」")])], width: 6) == ["あい", "「う", "え」"])
    }

    @Test func mixedJapaneseAndLatin() {
        let text = "今日はSwiftの話をします。Newsstand for terminals"
        let result = lines([.paragraph([StyledSpan(text)])], width: 12)
        #expect(result.allSatisfy { $0.width <= 12 })
        #expect(result.map(\.text) == ["今日はSwift", "の話をしま", "す。", "Newsstand", "for", "terminals"])
    }

    @Test func emojiSequencesStayWhole() {
        let family = "👨‍👩‍👧‍👦"
        let result = texts([.paragraph([StyledSpan(family + family + family)])], width: 5)
        #expect(result == [family + family, family])
        let flags = texts([.paragraph([StyledSpan("🇯🇵🇫🇷🇩🇪")])], width: 3)
        #expect(flags == ["🇯🇵", "🇫🇷", "🇩🇪"])
        let skin = texts([.paragraph([StyledSpan("Thumbs 👍🏽👍🏿 up")])], width: 7)
        #expect(skin == ["Thumbs", "👍🏽👍🏿 up"])
    }

    @Test func combiningMarksStayWithTheirLetter() {
        let word = String(repeating: "e\u{301}", count: 10)
        let result = texts([.paragraph([StyledSpan(word)])], width: 4)
        #expect(result == [String(repeating: "e\u{301}", count: 4), String(repeating: "e\u{301}", count: 4),
                           String(repeating: "e\u{301}", count: 2)])
        let hangul = String(repeating: "\u{1100}\u{1161}\u{11A8}", count: 3)
        #expect(texts([.paragraph([StyledSpan(hangul)])], width: 4) == [
            "\u{1100}\u{1161}\u{11A8}\u{1100}\u{1161}\u{11A8}", "\u{1100}\u{1161}\u{11A8}",
        ])
    }

    @Test func longURLBreaksAfterSeparators() {
        let url = "https://example.com/harbour/reports/2026/november/morning-tides.html?edition=3&lang=en"
        let result = texts([.paragraph([StyledSpan("See " + url + " for more.")])], width: 30)
        #expect(result == [
            "See",
            "https://example.com/harbour/",
            "reports/2026/november/morning-",
            "tides.html?edition=3&lang=en",
            "for more.",
        ])
    }

    @Test func longWordWithoutSeparatorsIsCutAtTheWidth() {
        let word = String(repeating: "x", count: 25)
        #expect(texts([.paragraph([StyledSpan("a " + word)])], width: 10) == [
            "a", "xxxxxxxxxx", "xxxxxxxxxx", "xxxxx",
        ])
    }

    @Test func hyphensAndSoftHyphens() {
        #expect(texts([.paragraph([StyledSpan("a well-known fact")])], width: 8) == ["a well-", "known", "fact"])
        #expect(texts([.paragraph([StyledSpan("extra\u{AD}ordinary things")])], width: 8) == [
            "extra-", "ordinary", "things",
        ])
        #expect(texts([.paragraph([StyledSpan("extra\u{AD}ordinary")])], width: 20) == ["extraordinary"])
    }

    @Test func hardBreaks() {
        let result = texts(html: "<p>Line one<br>line two<br><br>after a gap</p>", width: 40)
        #expect(result == ["Line one", "line two", "", "after a gap"])
    }

    @Test func headingsAreBoldWithABlankLineAfter() {
        let result = lines([
            .heading(level: 1, [StyledSpan("Morning tides", style: [.bold, .heading])]),
            .paragraph([StyledSpan("Calm.")]),
        ], width: 30)
        #expect(result.map(\.text) == ["Morning tides", "", "Calm."])
        #expect(result[0].spans.allSatisfy { $0.style.contains(.bold) })
        #expect(result[1].kind == .blank)
        #expect(result.map(\.blockIndex) == [0, 0, 1])
    }

    @Test func quotesGetABar() {
        let html = "<p>He said:</p><blockquote><p>The sea was calm and the boats came home early.</p><p>Then the fog.</p><blockquote>Deeper</blockquote></blockquote>"
        let result = Layout.lines(for: HTMLReader.document(html: html), width: 24)
        #expect(result.map(\.text) == [
            "He said:",
            "",
            "│ The sea was calm and",
            "│ the boats came home",
            "│ early.",
            "│",
            "│ Then the fog.",
            "│",
            "│ │ Deeper",
        ])
        #expect(result[2].spans.first == StyledSpan("│ ", style: [.quote, .marker]))
        #expect(result[2].spans.last?.style == .quote)
        #expect(result[5].kind == .blank)
        #expect(result.allSatisfy { $0.width <= 24 })
    }

    @Test func nestedListsHangTheirText() {
        let html = """
        <ul><li>First item with text that wraps around<ul><li>inner one</li><li>inner two wraps as well</li></ul></li>
        <li>Second</li></ul><ol><li>One</li><li>Two</li></ol>
        """
        let result = texts(html: html, width: 24)
        #expect(result == [
            "• First item with text",
            "  that wraps around",
            "  ◦ inner one",
            "  ◦ inner two wraps as",
            "    well",
            "• Second",
            "",
            "1. One",
            "2. Two",
        ])
        let lines = Layout.lines(for: HTMLReader.document(html: html), width: 24)
        #expect(lines[1].indent == 2)
        #expect(lines[4].indent == 4)
        #expect(lines[2].spans.first == StyledSpan("◦ ", style: .marker))
    }

    @Test func orderedListNumbersAlign() {
        let items = (1...10).map { [Block.paragraph([StyledSpan("item \($0)")])] }
        let result = texts([.list(ordered: true, items: items)], width: 30)
        #expect(result.first == " 1. item 1")
        #expect(result.last == "10. item 10")
    }

    @Test func listInsideQuote() {
        let html = "<blockquote><ul><li>alpha beta gamma delta</li></ul></blockquote>"
        #expect(texts(html: html, width: 16) == ["│ • alpha beta", "│   gamma delta"])
    }

    @Test func codeIsClippedNotWrapped() {
        let code = Block.code("let harbour = Harbour(name: \"Quiet\")\n\nprint(harbour)")
        #expect(texts([code], width: 30) == ["  let harbour = Harbour(name:", "", "  print(harbour)"])
        #expect(texts([code], width: 12) == ["let harbour", "", "print(harbou"])
        let styled = lines([code], width: 30)
        #expect(styled[0].spans == [StyledSpan("let harbour = Harbour(name:", style: .code)])
    }

    @Test func rules() {
        let result = lines([.paragraph([StyledSpan("a")]), .rule], width: 10)
        #expect(result.map(\.text) == ["a", "", "──────────"])
        #expect(result[2].kind == .rule)
    }

    @Test func imagesTakeRowsProportionalToWidth() {
        let document = TextDocument(blocks: [.image(source: "a.png", alt: "A")])
        let plain = Layout.lines(for: document, width: 40)
        #expect(plain.count == 15, "unknown size: 3:4, half-block rows")
        #expect(plain[0].kind == .image(source: "a.png", alt: "A", rows: 15, row: 0))
        #expect(plain[14].kind == .image(source: "a.png", alt: "A", rows: 15, row: 14))
        #expect(plain.allSatisfy { $0.width == 40 && $0.imageColumns == 40 })

        var options = LayoutOptions(width: 40)
        options.imageSizes = ["a.png": PixelSize(width: 800, height: 400)]
        #expect(Layout.lines(for: document, options: options).count == 10)
        options.imageSizes = ["a.png": PixelSize(width: 16, height: 16)]
        let icon = Layout.lines(for: document, options: options)
        #expect(icon.count == 8)
        #expect(icon[0].imageColumns == 16, "a small picture is not stretched")
        options.imageSizes = ["a.png": PixelSize(width: 100, height: 1000)]
        options.maximumImageRows = 20
        let tall = Layout.lines(for: document, options: options)
        #expect(tall.count == 20)
        #expect(tall[0].imageColumns == 4, "narrowed to keep its shape")
    }

    @Test func figureCaptionFollowsTheImage() {
        let figure = Block.figure(image: .image(source: "b.png", alt: "B"), caption: [StyledSpan("The boats")])
        var options = LayoutOptions(width: 20)
        options.imageSizes = ["b.png": PixelSize(width: 20, height: 8)]
        let result = Layout.lines(for: TextDocument(blocks: [figure]), options: options)
        #expect(result.count == 5, "four rows of picture, then the caption")
        #expect(result[4].text == "The boats")
        #expect(result[4].spans.allSatisfy { $0.style.contains(.caption) })
    }

    @Test func imageInsideQuoteKeepsTheBar() {
        var options = LayoutOptions(width: 20)
        options.imageSizes = ["c.png": PixelSize(width: 100, height: 20)]
        let result = Layout.lines(for: TextDocument(blocks: [.quote([.image(source: "c.png", alt: "")])]), options: options)
        #expect(result.count == 2)
        #expect(result[0].spans == [StyledSpan("│ ", style: [.quote, .marker])])
        #expect(result[0].imageColumns == 18)
        #expect(result[0].width == 20)
    }

    @Test func simpleTables() {
        let html = "<table><tr><th>Day</th><th>High water</th></tr><tr><td>Mon</td><td>6:02</td></tr><tr><td>Tuesday</td><td>6:48 and again at 19:10</td></tr></table>"
        #expect(texts(html: html, width: 30) == [
            "Day     │ High water",
            "────────┼─────────────────────",
            "Mon     │ 6:02",
            "Tuesday │ 6:48 and again at",
            "        │ 19:10",
        ])
        let narrow = texts(html: html, width: 20)
        #expect(narrow == [
            "Day     │ High water",
            "────────┼───────────",
            "Mon     │ 6:02",
            "Tuesday │ 6:48 and",
            "        │ again at",
            "        │ 19:10",
        ])
    }

    @Test func columnWidthsShareTheRoom() {
        #expect(Layouter.columnWidthsForTests(natural: [3, 40, 5], room: 30) == [3, 22, 5])
        #expect(Layouter.columnWidthsForTests(natural: [3, 4], room: 30) == [3, 4])
        #expect(Layouter.columnWidthsForTests(natural: [30, 30], room: 20) == [10, 10])
        for room in 12...40 {
            let widths = Layouter.columnWidthsForTests(natural: [1, 50, 2, 40, 9, 1], room: room)
            #expect(widths.reduce(0, +) <= room, "room \(room): \(widths)")
            #expect(widths.allSatisfy { $0 >= 1 })
        }
    }

    @Test func blockIndexesFollowTopLevelBlocks() {
        let html = "<h2 id=a>A</h2><p>one two three four five six</p><ul><li>x</li><li id=y>y</li></ul><p id=z>end</p>"
        let document = HTMLReader.document(html: html)
        let result = Layout.lines(for: document, width: 10)
        #expect(result.map(\.text) == ["A", "", "one two", "three four", "five six", "", "• x", "• y", "", "end"])
        #expect(result.map(\.blockIndex) == [0, 0, 1, 1, 1, 1, 2, 2, 2, 3])
        let target = document.anchors["z"].flatMap { anchor in result.firstIndex { $0.blockIndex == anchor } }
        #expect(target == 9)
        #expect(document.anchors["y"] == 2)
    }

    @Test func linesNeverExceedTheWidth() {
        let mixed = """
        <h1>見出し Heading 👨‍👩‍👧‍👦</h1>
        <p>Plain words, e\u{301}, 日本語のテキスト、and 🇯🇵🇫🇷 flags; https://example.com/a/b/c/d/e/f/g/h?i=j&k=l
        supercalifragilisticexpialidocious 한국어 문장입니다 ｶﾀｶﾅ ＡＢＣ</p>
        <blockquote><ul><li><p>nested 中文标点，测试。</p><ol><li>deeper 👍🏽 text</li></ol></li></ul></blockquote>
        <pre>code\tline that is quite long 日本語</pre>
        <table><tr><td>a</td><td>日本語のセル</td><td>https://example.com/x</td></tr></table>
        """
        let document = HTMLReader.document(html: mixed)
        for width in 1...60 {
            let result = Layout.lines(for: document, width: width)
            for line in result where width >= 2 {
                #expect(line.width <= width, "width \(width): \(line.text)")
            }
            #expect(!result.isEmpty)
        }
    }
}

@Suite struct LongDocumentLayoutTests {
    @Test func longDocumentsLayOutTheSameInParallel() {
        var blocks: [Block] = []
        for index in 0..<1000 {
            switch index % 5 {
            case 0: blocks.append(.heading(level: 2, [StyledSpan("Section \(index)", style: [.bold, .heading])]))
            case 1: blocks.append(.quote([.paragraph([StyledSpan("quoted words number \(index) here")])]))
            case 2: blocks.append(.list(ordered: true, items: [[.paragraph([StyledSpan("item \(index)")])]]))
            default: blocks.append(.paragraph([StyledSpan(String(repeating: "word \(index) ", count: 12))]))
            }
        }
        let document = TextDocument(blocks: blocks)
        let parallel = Layout.lines(for: document, width: 37)
        let sequential = Layout.lines(of: blocks, in: 0..<blocks.count, options: LayoutOptions(width: 37))
        #expect(parallel == sequential)
        #expect(parallel.first?.text == "Section 0")
        #expect(parallel.last?.blockIndex == 999)
        let blockStarts = Dictionary(grouping: parallel.indices, by: { parallel[$0].blockIndex }).mapValues { $0.min() ?? 0 }
        #expect(blockStarts.count == 1000)
        for index in 1..<1000 {
            // Every block starts right after its separator line.
            #expect(parallel[(blockStarts[index] ?? 0) - 1].kind == .blank)
        }
    }
}

@Suite struct ClusterBoundaryTests {
    /// Lines of unspaced text, joined, give the text back, and every break falls on a
    /// grapheme cluster boundary of the original.
    @Test func breaksFallBetweenClusters() {
        let pieces = ["日", "本", "語", "。", "「", "」", "ー", "が", "か\u{3099}", "ｶ", "ﾞ", "한", "\u{1100}\u{1161}\u{11A8}",
                      "é", "e\u{301}", "ñ", "Ω", "ж", "—", "…", "“", "”", "©", "©\u{FE0F}", "❤\u{FE0F}", "☝🏽", "👍🏿",
                      "👨‍👩‍👧", "🇯🇵", "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "a", "b", "1", "-", "/", "\u{A0}", "\u{600}1", "क्ष", "ि", "\u{302E}"]
        var state: UInt64 = 99
        for _ in 0..<200 {
            var text = ""
            for _ in 0..<40 {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                text += pieces[Int((state >> 33) % UInt64(pieces.count))]
            }
            let boundaries = Set(text.indices.map { text.utf8.distance(from: text.utf8.startIndex, to: $0) })
                .union([text.utf8.count])
            for width in [2, 5, 9] {
                let lines = LineBreaker(spans: [StyledSpan(text)], columns: width).lines()
                let texts = lines.map { $0.map(\.text).joined() }
                #expect(texts.joined() == text)
                var offset = 0
                for line in texts {
                    offset += line.utf8.count
                    #expect(boundaries.contains(offset), "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
                    #expect(DisplayWidth.of(line) <= width || line.count == 1)
                }
            }
        }
    }
}
