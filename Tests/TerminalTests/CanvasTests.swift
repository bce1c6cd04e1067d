import Testing
@testable import Terminal

@Suite struct CanvasTests {
    let red = Style(foreground: .rgb(255, 0, 0))

    @Test func putWritesTextAndStyleAndReturnsNextColumn() {
        var canvas = Canvas(width: 10, height: 2)
        let end = canvas.put("abc", x: 2, y: 1, style: red)
        #expect(end == 5)
        #expect(canvas.text(row: 1) == "  abc     ")
        #expect(canvas[2, 1].style == red)
        #expect(canvas[5, 1].style == .plain)
        #expect(canvas.text(row: 0) == "          ")
    }

    @Test func putClipsAtTheRightEdgeAndAtALimit() {
        var canvas = Canvas(width: 5, height: 1)
        canvas.put("abcdefgh", x: 2, y: 0, style: .plain)
        #expect(canvas.text == "  abc")
        var limited = Canvas(width: 10, height: 1)
        limited.put("abcdefgh", x: 0, y: 0, style: .plain, limit: 4)
        #expect(limited.text == "abcd")
    }

    @Test func putOutsideTheCanvasWritesNothing() {
        var canvas = Canvas(width: 4, height: 2)
        canvas.put("xy", x: 0, y: 5, style: .plain)
        canvas.put("xy", x: 0, y: -1, style: .plain)
        #expect(canvas.text == "\n")
        canvas.put("abcdef", x: -2, y: 0, style: .plain)
        #expect(canvas.text(row: 0) == "cdef")
    }

    @Test func wideCharactersTakeTwoCellsWithAContinuation() {
        var canvas = Canvas(width: 6, height: 1)
        let end = canvas.put("日本", x: 0, y: 0, style: red)
        #expect(end == 4)
        #expect(canvas[0, 0].glyph == "日")
        #expect(canvas[1, 0].isContinuation)
        #expect(canvas[2, 0].glyph == "本")
        #expect(canvas[3, 0].isContinuation)
        #expect(canvas.text(row: 0) == "日本  ")
    }

    @Test func aWideCharacterThatWouldStraddleTheEdgeBecomesASpace() {
        var canvas = Canvas(width: 3, height: 1)
        canvas.put("a日本", x: 0, y: 0, style: .plain)
        // "a" + "日" fill three columns; "本" has no room.
        #expect(canvas.text(row: 0) == "a日")
        var tight = Canvas(width: 2, height: 1)
        tight.put("a日", x: 0, y: 0, style: .plain)
        #expect(tight[1, 0].glyph == " ")
        #expect(!tight[1, 0].isContinuation)
    }

    @Test func combiningMarksStayWithTheirBase() {
        var canvas = Canvas(width: 4, height: 1)
        let end = canvas.put("e\u{301}x", x: 0, y: 0, style: .plain)
        #expect(end == 2)
        #expect(canvas[0, 0].glyph == "e\u{301}")
        #expect(canvas[1, 0].glyph == "x")
    }

    @Test func controlCharactersAreNeverWritten() {
        var canvas = Canvas(width: 8, height: 1)
        canvas.put("a\u{1B}[31mb\u{07}", x: 0, y: 0, style: .plain)
        #expect(!canvas.cells.contains { $0.glyph.unicodeScalars.contains { $0.value < 0x20 } })
        #expect(canvas.text(row: 0).hasPrefix("a[31mb"))
    }

    @Test func fillClipsToTheCanvas() {
        var canvas = Canvas(width: 3, height: 2)
        canvas.fill(Rect(x: 1, y: -1, width: 10, height: 2), with: Cell(glyph: "#", style: red))
        #expect(canvas.text == " ##\n")
        #expect(canvas[1, 0].style == red)
        #expect(canvas[1, 1] == .blank)
    }
}

@Suite struct CanvasLocateTests {
    @Test func locateGivesTheScreenColumnOfText() {
        var canvas = Canvas(width: 20, height: 3)
        canvas.put("日本 Daily", x: 2, y: 1, style: .plain)
        canvas.put("e\u{301}te\u{301}", x: 0, y: 2, style: .plain)
        #expect(canvas.locate("Daily")! == (x: 7, y: 1))
        #expect(canvas.locate("本")! == (x: 4, y: 1))
        #expect(canvas.locate("te\u{301}")! == (x: 1, y: 2))
        #expect(canvas.locate("Weekly") == nil)
        #expect(canvas.locate("") == nil)
    }
}
