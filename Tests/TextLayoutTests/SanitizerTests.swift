import Testing
@testable import TextLayout

@Suite struct SanitizerTests {
    /// No control or escape can reach the terminal from `text`.
    static func isSafe(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { scalar in
            let v = scalar.value
            if v == 0x0A { return true }
            if v < 0x20 || (v >= 0x7F && v < 0xA0) { return false }
            if (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v) || v == 0xFEFF { return false }
            return true
        }
    }

    @Test func plainTextIsUnchanged() {
        let text = "Hello, 世界! 👍🏽 café"
        #expect(Sanitizer.clean(text) == text)
        #expect(Sanitizer.clean("") == "")
    }

    @Test func clearScreenCSI() {
        #expect(Sanitizer.clean("before\u{1B}[2Jafter") == "beforeafter")
        #expect(Sanitizer.clean("\u{1B}[1;31mred\u{1B}[0m") == "red")
        #expect(Sanitizer.clean("\u{1B}[?1049h\u{1B}[H") == "")
        #expect(Sanitizer.clean("x\u{1B}[38;2;255;0;0my") == "xy")
    }

    @Test func oscClipboardWriteGoesWithItsPayload() {
        let bel = "copy\u{1B}]52;c;ZWNobyBwd25lZAo=\u{7}done"
        #expect(Sanitizer.clean(bel) == "copydone")
        let st = "copy\u{1B}]52;c;ZWNobyBwd25lZAo=\u{1B}\\done"
        #expect(Sanitizer.clean(st) == "copydone")
        let c1st = "copy\u{1B}]52;c;ZWNobyBwd25lZAo=\u{9C}done"
        #expect(Sanitizer.clean(c1st) == "copydone")
    }

    @Test func oscHyperlinkKeepsOnlyTheVisibleText() {
        let link = "\u{1B}]8;;https://evil.example/\u{1B}\\click here\u{1B}]8;;\u{1B}\\ now"
        #expect(Sanitizer.clean(link) == "click here now")
        let title = "\u{1B}]0;pwned title\u{7}Article"
        #expect(Sanitizer.clean(title) == "Article")
    }

    @Test func unterminatedOSCIsDroppedToTheEndOfTheLine() {
        #expect(Sanitizer.clean("a\u{1B}]52;c;AAAA") == "a")
        #expect(Sanitizer.clean("a\u{1B}]0;x\nb", multiline: true) == "a\nb")
    }

    @Test func belAndOtherC0() {
        #expect(Sanitizer.clean("ding\u{7}dong") == "dingdong")
        #expect(Sanitizer.clean("a\u{0}b\u{8}c\u{C}d\u{1F}e") == "abcde")
        #expect(Sanitizer.clean("a\u{7F}b") == "ab")
    }

    @Test func c1ControlsIncludingSingleByteCSI() {
        #expect(Sanitizer.clean("a\u{9B}2Jb") == "ab", "0x9B CSI with its parameters")
        #expect(Sanitizer.clean("a\u{9B}31mred") == "ared")
        #expect(Sanitizer.clean("a\u{9D}52;c;AAAA\u{7}b") == "ab", "0x9D OSC")
        #expect(Sanitizer.clean("a\u{85}b\u{80}c\u{9F}") == "abc")
        #expect(Sanitizer.clean("\u{90}q\u{9C}x") == "x", "DCS string")
    }

    @Test func bidiOverridesAndIsolates() {
        #expect(Sanitizer.clean("abc\u{202E}fed") == "abcfed", "RLO")
        #expect(Sanitizer.clean("\u{202A}\u{202B}\u{202C}\u{202D}x") == "x")
        #expect(Sanitizer.clean("\u{2066}\u{2067}\u{2068}y\u{2069}") == "y")
        #expect(Sanitizer.clean("\u{FEFF}title") == "title")
        // Right-to-left text itself is kept.
        #expect(Sanitizer.clean("שלום") == "שלום")
    }

    @Test func otherEscapes() {
        #expect(Sanitizer.clean("a\u{1B}cb") == "ab", "RIS")
        #expect(Sanitizer.clean("a\u{1B}(Bb") == "ab", "charset designation")
        #expect(Sanitizer.clean("a\u{1B}Pq#0;2;0;0;0\u{1B}\\b") == "ab", "DCS sixel")
        #expect(Sanitizer.clean("a\u{1B}_Gf=100;AAAA\u{1B}\\b") == "ab", "APC kitty graphics")
        #expect(Sanitizer.clean("a\u{1B}") == "a")
        #expect(Sanitizer.clean("\u{1B}\u{1B}[2Jz") == "z")
    }

    @Test func lineBreaksAndTabs() {
        #expect(Sanitizer.clean("one\ntwo") == "one two")
        #expect(Sanitizer.clean("one\r\ntwo", multiline: true) == "one\ntwo")
        #expect(Sanitizer.clean("one\rtwo", multiline: true) == "one\ntwo")
        #expect(Sanitizer.clean("a\tb") == "a b")
        #expect(Sanitizer.clean("a\tb", multiline: true) == "a       b")
        #expect(Sanitizer.clean("abc\td\n\tx", multiline: true) == "abc     d\n        x")
        #expect(Sanitizer.clean("日本\tx", multiline: true) == "日本    x", "tab stops count display columns")
        #expect(Sanitizer.clean("a\u{2028}b", multiline: true) == "a\nb")
    }

    @Test func everythingHostileAtOnce() {
        var hostile = ""
        for v in 0..<0xA0 { hostile.unicodeScalars.append(Unicode.Scalar(UInt8(v))) }
        // The trailing C1 OSC (0x9D) opens a string that BEL ends.
        hostile += "\u{7}\u{202E}\u{2066}\u{FEFF}ok"
        let single = Sanitizer.clean(hostile)
        #expect(Self.isSafe(single))
        #expect(!single.contains("\n"))
        #expect(single.hasSuffix("ok"))
        #expect(Self.isSafe(Sanitizer.clean(hostile, multiline: true)))
    }

    @Test func isCleanAgreesWithClean() {
        for text in ["plain", "a\nb", "a\u{1B}[2J", "x\u{85}", "\u{202E}", "日本"] {
            #expect(Sanitizer.isClean(text) == (Sanitizer.clean(text) == text))
            #expect(Sanitizer.isClean(text, multiline: true) == (Sanitizer.clean(text, multiline: true) == text))
        }
    }
}
