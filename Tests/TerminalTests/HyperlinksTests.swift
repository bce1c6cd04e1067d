import Testing
@testable import Terminal

/// OSC 8 hyperlinks: which terminals get them, what a URL becomes in the escape, and the
/// bytes written after ncurses.
@Suite struct HyperlinksTests {
    static let supporting: [[String: String]] = [
        ["TERM": "xterm-kitty"],
        ["TERM": "xterm-256color", "KITTY_WINDOW_ID": "3"],
        ["TERM": "foot"],
        ["TERM": "foot-extra"],
        ["TERM": "xterm-256color", "TERM_PROGRAM": "WezTerm"],
        ["TERM": "xterm-256color", "TERM_PROGRAM": "iTerm.app"],
        ["TERM": "xterm-256color", "VTE_VERSION": "5000"],
        ["TERM": "xterm-256color", "VTE_VERSION": "7600"],
    ]

    static let refusing: [[String: String]] = [
        [:],
        ["TERM": "xterm-256color"],
        ["TERM": "linux"],
        ["TERM": "xterm-256color", "VTE_VERSION": "4803"],
        ["TERM": "xterm-256color", "VTE_VERSION": "new"],
        ["TERM": "xterm-256color", "KITTY_WINDOW_ID": ""],
        // Inside tmux or screen, whatever terminal holds them.
        ["TERM": "tmux-256color", "TMUX": "/tmp/tmux-1000/default,123,0", "KITTY_WINDOW_ID": "1"],
        ["TERM": "xterm-kitty", "TMUX": "/tmp/tmux-1000/default,123,0"],
        ["TERM": "screen-256color", "TERM_PROGRAM": "tmux", "KITTY_WINDOW_ID": "1"],
        ["TERM": "screen-256color", "VTE_VERSION": "7600"],
        ["TERM": "xterm-kitty", "STY": "4242.pts-0.host"],
        ["TERM": "foot", "TERM_PROGRAM": "tmux"],
    ]

    /// A canvas with each text drawn in `style` at its place and made a link to its URL.
    static func linked(width: Int, height: Int, style: Style = .plain, _ texts: [(text: String, x: Int, y: Int, url: String)]) -> Canvas {
        var canvas = Canvas(width: width, height: height)
        for item in texts {
            let end = canvas.put(item.text, x: item.x, y: item.y, style: style)
            canvas.link(x: item.x, y: item.y, width: end - item.x, url: item.url)
        }
        return canvas
    }

    /// What is written after ncurses for `canvas`'s links, on a terminal of `size` (default: the canvas's).
    static func written(_ canvas: Canvas, size: (width: Int, height: Int)? = nil, colors: TerminalColors,
                        showable: (Unicode.Scalar) -> Bool = { _ in true }) -> [UInt8] {
        var mapper = ColorMapper(colors: colors)
        return Hyperlinks.sequence(for: canvas.links, in: canvas, size: size ?? (canvas.width, canvas.height), mapper: &mapper,
                                   showable: showable)
    }

    @Test(arguments: supporting)
    func knownTerminalsGetHyperlinksUnlessTheSettingSaysOff(environment: [String: String]) {
        #expect(Hyperlinks.supported(environment: environment, choice: .auto))
        #expect(!Hyperlinks.supported(environment: environment, choice: .off))
    }

    @Test(arguments: refusing)
    func otherTerminalsTmuxAndScreenGetNone(environment: [String: String]) {
        #expect(!Hyperlinks.supported(environment: environment, choice: .auto))
    }

    @Test func aURLInTheEscapeIsPrintableASCIIOnly() {
        #expect(Hyperlinks.escaped("https://a.example/p?q=1&r=a;b#top") == "https://a.example/p?q=1&r=a;b#top")
        #expect(Hyperlinks.escaped("mailto:ed@example.org") == "mailto:ed@example.org")
        // An escape that would end ours and start another, BEL (OSC's other terminator).
        #expect(Hyperlinks.escaped("https://e.example/\u{1B}]8;;https://evil.example\u{1B}\\x")
                == "https://e.example/%1B]8;;https://evil.example%1B\\x")
        #expect(Hyperlinks.escaped("https://e.example/\u{07}\u{1B}[2J") == "https://e.example/%07%1B[2J")
        #expect(Hyperlinks.escaped("https://e.example/a\nb\rc\td e\u{7F}") == "https://e.example/a%0Ab%0Dc%09d%20e%7F")
        // C1 controls: CSI, ST and OSC as single characters.
        #expect(Hyperlinks.escaped("https://e.example/\u{9B}2J\u{9C}\u{9D}") == "https://e.example/%C2%9B2J%C2%9C%C2%9D")
        // Direction overrides and isolates, and other text outside ASCII.
        #expect(Hyperlinks.escaped("https://e.example/\u{202E}fdp.exe\u{2066}") == "https://e.example/%E2%80%AEfdp.exe%E2%81%A6")
        #expect(Hyperlinks.escaped("https://café.example/") == "https://caf%C3%A9.example/")
        #expect(Hyperlinks.escaped("") == nil)
    }

    @Test func everyCharacterBecomesPrintableASCII() {
        // Every scalar up to U+00FF (C0, DEL, C1), marks that reorder text, a BOM, an emoji.
        var hostile = "https://e.example/"
        for value in UInt32(0)...0xFF { hostile.unicodeScalars.append(Unicode.Scalar(value)!) }
        for value: UInt32 in [0x061C, 0x200E, 0x200F, 0x202A, 0x202E, 0x2066, 0x2069, 0xFEFF, 0x1F600] {
            hostile.unicodeScalars.append(Unicode.Scalar(value)!)
        }
        let escaped = Hyperlinks.escaped(hostile)
        #expect(escaped != nil)
        #expect(escaped?.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F } == true)
    }

    @Test func aURLLongerThan2000BytesIsNotLinked() {
        let base = "https://e.example/"
        let longest = base + String(repeating: "a", count: Hyperlinks.longestURL - base.utf8.count)
        #expect(Hyperlinks.escaped(longest) == longest)
        #expect(Hyperlinks.escaped(longest + "a") == nil)
        // Counted as sent: 700 "é" are 4,200 bytes once encoded.
        #expect(Hyperlinks.escaped(base + String(repeating: "é", count: 700)) == nil)
        let canvas = Self.linked(width: 20, height: 2, [("long", 0, 0, longest + "a")])
        #expect(canvas.links.count == 1)
        #expect(Self.written(canvas, colors: .palette256).isEmpty)
    }

    @Test func aSpanIsItsGlyphsAgainInTheirColoursInsideTheLinkBetweenSaveAndRestore() {
        let canvas = Self.linked(width: 20, height: 3, style: Style(foreground: .indexed(4), background: .indexed(231)),
                                 [("go here", 2, 1, "https://a.example/?q=1 2")])
        #expect(String(decoding: Self.written(canvas, colors: .palette256), as: UTF8.self)
                == "\u{1B}7\u{1B}[2;3H\u{1B}[0;34;48;5;231m\u{1B}]8;id=1;https://a.example/?q=1%202\u{1B}\\go here\u{1B}]8;;\u{1B}\\\u{1B}[0m\u{1B}8")
    }

    @Test func wideCharactersAreEachPlacedAndOneURLKeepsOneID() {
        var canvas = Self.linked(width: 20, height: 3, [("ab", 0, 1, "https://c.example/"), ("cd", 0, 2, "https://b.example/")])
        canvas.put("日本x", x: 0, y: 0, style: Style(foreground: .rgb(200, 100, 50), attributes: [.bold, .underline]))
        canvas.link(x: 0, y: 0, width: 5, url: "https://b.example/")
        let text = String(decoding: Self.written(canvas, colors: .direct), as: UTF8.self)
        #expect(text == "\u{1B}7"
                + "\u{1B}[2;1H\u{1B}[0m\u{1B}]8;id=1;https://c.example/\u{1B}\\ab\u{1B}]8;;\u{1B}\\"
                + "\u{1B}[3;1H\u{1B}[0m\u{1B}]8;id=2;https://b.example/\u{1B}\\cd\u{1B}]8;;\u{1B}\\"
                + "\u{1B}[1;1H\u{1B}[0;1;4;38;2;200;100;50m\u{1B}]8;id=2;https://b.example/\u{1B}\\日\u{1B}[1;3H本\u{1B}[1;5Hx\u{1B}]8;;\u{1B}\\"
                + "\u{1B}[0m\u{1B}8")
    }

    @Test func aHostileURLAndHostileCellsAddNoEscapeOfTheirOwn() {
        var canvas = Self.linked(width: 20, height: 2, [("evil", 0, 0, "https://e.example/\u{1B}]8;;x\u{07}\u{9B}\u{1B}\\\n")])
        // Set past Canvas.put's own filter, as a careless view might.
        canvas[1, 0] = Cell(glyph: "\u{1B}")
        canvas[2, 0] = Cell(glyph: "\u{202E}\u{301}")
        let bytes = Self.written(canvas, colors: .palette16, showable: { $0.value >= 0x20 && $0.value < 0x7F })
        let text = String(decoding: bytes, as: UTF8.self)
        // ESC 7, the two moves, the SGR, the link's open and close, the reset and ESC 8: nothing else.
        #expect(bytes.filter { $0 == 0x1B }.count == 10, "\(text.debugDescription)")
        #expect(!bytes.contains(0x07))
        #expect(!bytes.contains { $0 == 0x0A || $0 == 0x0D })
        #expect(text.contains("\u{1B}]8;id=1;https://e.example/%1B]8;;x%07%C2%9B%1B\\%0A\u{1B}\\"))
        // The ESC cell is a blank; the override goes and the lone mark left (not showable
        // here) is the replacement mark, after which the next glyph is placed.
        #expect(text.contains("e \u{FFFD}\u{1B}[1;4Hl"))
    }

    @Test func spansOutsideTheTerminalAreLeftOutAndClipped() {
        let canvas = Self.linked(width: 20, height: 3, [("abcdefgh", 0, 0, "https://a.example/"), ("below", 0, 2, "https://b.example/")])
        // The terminal is 4 columns by 2 rows.
        let text = String(decoding: Self.written(canvas, size: (4, 2), colors: .monochrome), as: UTF8.self)
        #expect(text == "\u{1B}7\u{1B}[1;1H\u{1B}[0m\u{1B}]8;id=1;https://a.example/\u{1B}\\abcd\u{1B}]8;;\u{1B}\\\u{1B}[0m\u{1B}8")
    }
}

/// A canvas's link spans: recorded beside the cells, and gone where the cells are drawn over.
@Suite struct CanvasLinkTests {
    @Test func aSpanIsClippedToTheCanvasAndJoinsTheOneItContinues() {
        var canvas = Canvas(width: 10, height: 2)
        canvas.link(x: -2, y: 0, width: 5, url: "https://a/")
        canvas.link(x: 3, y: 0, width: 2, url: "https://a/")
        canvas.link(x: 5, y: 0, width: 9, url: "https://b/")
        canvas.link(x: 0, y: 2, width: 3, url: "https://c/")
        canvas.link(x: 0, y: 1, width: 0, url: "https://d/")
        canvas.link(x: 0, y: 1, width: 2, url: "")
        #expect(canvas.links == [LinkSpan(x: 0, y: 0, width: 5, url: "https://a/"), LinkSpan(x: 5, y: 0, width: 5, url: "https://b/")])
    }

    @Test func drawingOverASpanTakesThoseCellsOutOfIt() {
        var canvas = Canvas(width: 20, height: 3)
        canvas.put("a long link", x: 0, y: 0, style: .plain)
        canvas.link(x: 0, y: 0, width: 11, url: "https://a/")
        canvas.put("X", x: 2, y: 0, style: .plain)
        #expect(canvas.links == [LinkSpan(x: 0, y: 0, width: 2, url: "https://a/"), LinkSpan(x: 3, y: 0, width: 8, url: "https://a/")])
        canvas.fill(Rect(x: 0, y: 0, width: 4, height: 1), with: .blank)
        #expect(canvas.links == [LinkSpan(x: 4, y: 0, width: 7, url: "https://a/")])
        canvas.place(PicturePlacement(picture: 1, rect: Rect(x: 9, y: 0, width: 3, height: 2)))
        #expect(canvas.links == [LinkSpan(x: 4, y: 0, width: 5, url: "https://a/")])
        // Restyling a cell (a search match painted over a link) keeps it a link.
        canvas[5, 0] = Cell(glyph: canvas[5, 0].glyph, style: Style(background: .indexed(3)))
        // Text on another row leaves it alone.
        canvas.put("other row", x: 0, y: 1, style: .plain)
        #expect(canvas.links == [LinkSpan(x: 4, y: 0, width: 5, url: "https://a/")])
        canvas.fill(canvas.bounds, with: .blank)
        #expect(canvas.links.isEmpty)
    }
}

@Suite struct MemoryBackendLinkTests {
    @Test func theMemoryBackendShowsTheLastFramesLinks() {
        let terminal = MemoryBackend(width: 20, height: 2)
        #expect(terminal.links.isEmpty)
        var canvas = Canvas(width: 20, height: 2)
        canvas.put("here", x: 1, y: 1, style: .plain)
        canvas.link(x: 1, y: 1, width: 4, url: "https://a/")
        terminal.draw(canvas)
        #expect(terminal.links == [LinkSpan(x: 1, y: 1, width: 4, url: "https://a/")])
        #expect(terminal.written.isEmpty)
    }
}
