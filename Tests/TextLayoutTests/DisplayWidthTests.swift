import Testing
import TextWidth

@Suite struct DisplayWidthTests {
    @Test func asciiAndLatin() {
        #expect(DisplayWidth.of("hello") == 5)
        #expect(DisplayWidth.of("") == 0)
        #expect(DisplayWidth.of("café") == 4)
        #expect(DisplayWidth.of("naïve résumé") == 12)
        #expect(DisplayWidth.of("Ωμέγα") == 5)
        #expect(DisplayWidth.of("Привет") == 6)
    }

    @Test func controlsTakeNoColumns() {
        #expect(DisplayWidth.of("a\u{7}b") == 2)
        #expect(DisplayWidth.of("\u{1B}") == 0)
        #expect(DisplayWidth.of("\u{9B}") == 0)
        #expect(DisplayWidth.of("\r\n") == 0)
        #expect(DisplayWidth.width(of: "\u{7F}") == 0)
    }

    @Test func eastAsianWideAndFullwidth() {
        #expect(DisplayWidth.of("日本語") == 6)
        #expect(DisplayWidth.of("ひらがな") == 8)
        #expect(DisplayWidth.of("カタカナ") == 8)
        #expect(DisplayWidth.of("ｶﾀｶﾅ") == 4, "halfwidth katakana is narrow")
        #expect(DisplayWidth.of("ＡＢＣ") == 6, "fullwidth Latin is wide")
        #expect(DisplayWidth.of("한국어") == 6)
        #expect(DisplayWidth.of("中文，标点。") == 12)
        #expect(DisplayWidth.of("\u{3000}") == 2, "ideographic space")
        #expect(DisplayWidth.width(of: "\u{20000}") == 2, "CJK Extension B")
        #expect(DisplayWidth.width(of: "\u{2A6DF}") == 2)
        #expect(DisplayWidth.width(of: "\u{30000}") == 2, "plane 3")
        #expect(DisplayWidth.width(of: "〈") == 2)
        #expect(DisplayWidth.width(of: "⌚") == 2, "watch has emoji presentation")
    }

    @Test func ambiguousAndNarrowSymbolsAreOneColumn() {
        #expect(DisplayWidth.of("…") == 1)
        #expect(DisplayWidth.of("—") == 1)
        #expect(DisplayWidth.of("│") == 1)
        #expect(DisplayWidth.of("▀") == 1)
        #expect(DisplayWidth.of("☺") == 1, "text-presentation emoji without VS16")
        #expect(DisplayWidth.of("♥") == 1)
        #expect(DisplayWidth.width(of: "\u{1F321}") == 1, "thermometer defaults to text presentation")
    }

    @Test func emojiPresentation() {
        #expect(DisplayWidth.of("😀") == 2)
        #expect(DisplayWidth.of("🚀") == 2)
        #expect(DisplayWidth.of("🥰") == 2)
        #expect(DisplayWidth.of("🫠") == 2, "Unicode 14 emoji")
        #expect(DisplayWidth.of("🫨") == 2, "Unicode 15 emoji, newer than the table")
        #expect(DisplayWidth.of("☺️") == 2, "VS16 asks for emoji presentation")
        #expect(DisplayWidth.of("❤️") == 2)
        #expect(DisplayWidth.of("1️⃣") == 2, "keycap")
        #expect(DisplayWidth.of("#️⃣") == 2)
    }

    @Test func emojiSequencesAreOnePicture() {
        let family: Character = "👨‍👩‍👧‍👦"
        #expect(DisplayWidth.of(family) == 2)
        #expect(DisplayWidth.of("👩‍💻") == 2)
        #expect(DisplayWidth.of("🏳️‍🌈") == 2)
        #expect(DisplayWidth.of("🧑🏽‍🚀") == 2)
        #expect(DisplayWidth.of("👍🏽") == 2, "skin tone modifier")
        #expect(DisplayWidth.of("✋🏿") == 2)
        #expect(DisplayWidth.of("☝🏻") == 2, "text-default base with a modifier")
        #expect(DisplayWidth.of("🇯🇵") == 2, "flag")
        #expect(DisplayWidth.of("🇯🇵🇫🇷") == 4, "two flags")
        #expect(DisplayWidth.of("🏴󠁧󠁢󠁳󠁣󠁴󠁿") == 2, "subdivision flag")
        #expect(DisplayWidth.of("I ❤️ 🇯🇵!") == 8)
    }

    @Test func combiningMarks() {
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.of("a\u{300}\u{316}\u{35C}") == 1, "stacked marks")
        #expect(DisplayWidth.of("Z\u{351}\u{34B}\u{357}\u{312}\u{35B}a\u{33F}\u{36B}") == 2, "zalgo")
        #expect(DisplayWidth.of("\u{301}") == 0, "a lone mark")
        #expect(DisplayWidth.of("x\u{20DD}") == 1, "enclosing mark")
        #expect(DisplayWidth.of("\u{5D0}\u{5B8}") == 1, "Hebrew point")
        #expect(DisplayWidth.of("के") == 1, "Devanagari vowel sign")
    }

    @Test func hangulJamo() {
        // Conjoining jamo: a leading consonant is wide, vowels and finals join it.
        let syllable = "\u{1100}\u{1161}\u{11A8}"
        #expect(syllable.count == 1)
        #expect(DisplayWidth.of(syllable) == 2)
        #expect(DisplayWidth.of("\u{1100}\u{1161}") == 2)
        #expect(DisplayWidth.width(of: "\u{1161}") == 0)
        #expect(DisplayWidth.width(of: "\u{11A8}") == 0)
        #expect(DisplayWidth.width(of: "\u{D7B0}") == 0, "Jamo Extended-B vowel")
        #expect(DisplayWidth.width(of: "\u{A960}") == 2, "Jamo Extended-A leading consonant")
        #expect(DisplayWidth.of("각") == 2, "precomposed syllable")
    }

    @Test func formatCharacters() {
        #expect(DisplayWidth.of("a\u{200B}b") == 2, "zero-width space")
        #expect(DisplayWidth.of("a\u{200D}b") == 2, "ZWJ between letters")
        #expect(DisplayWidth.of("a\u{AD}b") == 2, "soft hyphen")
        #expect(DisplayWidth.of("\u{FEFF}") == 0)
        #expect(DisplayWidth.of("\u{2060}") == 0)
    }

    @Test func truncateFitsAndMarksTheCut() {
        #expect(DisplayWidth.truncate("Hello, world", to: 20) == "Hello, world")
        #expect(DisplayWidth.truncate("Hello, world", to: 12) == "Hello, world")
        #expect(DisplayWidth.truncate("Hello, world", to: 8) == "Hello,…")
        #expect(DisplayWidth.truncate("Hello world", to: 7) == "Hello…", "no space before the ellipsis")
        #expect(DisplayWidth.truncate("abc", to: 0) == "")
        #expect(DisplayWidth.truncate("abc", to: -3) == "")
        #expect(DisplayWidth.truncate("abcdef", to: 1) == "…")
        #expect(DisplayWidth.truncate("abcdef", to: 4, ellipsis: "...") == "a...")
        #expect(DisplayWidth.truncate("abcdef", to: 2, ellipsis: "...") == "")
    }

    @Test func truncateWideText() {
        let cut = DisplayWidth.truncate("日本語のテキスト", to: 7)
        #expect(cut == "日本語…")
        #expect(DisplayWidth.of(cut) <= 7)
        // A wide character that does not fit is left out whole.
        let odd = DisplayWidth.truncate("日本語のテキスト", to: 6)
        #expect(odd == "日本…")
        #expect(DisplayWidth.of(odd) == 5)
    }

    @Test func truncateKeepsClustersWhole() {
        let family = "👨‍👩‍👧‍👦👨‍👩‍👧‍👦👨‍👩‍👧‍👦"
        let cut = DisplayWidth.truncate(family, to: 5)
        #expect(cut == "👨‍👩‍👧‍👦👨‍👩‍👧‍👦…")
        let flags = DisplayWidth.truncate("🇯🇵🇫🇷🇩🇪", to: 4)
        #expect(flags == "🇯🇵…")
        let marks = DisplayWidth.truncate("e\u{301}e\u{301}e\u{301}e\u{301}", to: 3)
        #expect(marks == "e\u{301}e\u{301}…")
        for columns in 0...12 {
            let text = DisplayWidth.truncate("A 😀 日本 🇯🇵 e\u{301} z", to: columns)
            #expect(DisplayWidth.of(text) <= max(0, columns))
        }
    }

    @Test func clipCutsWithoutMark() {
        #expect(DisplayWidth.clip("abcdef", to: 3) == "abc")
        #expect(DisplayWidth.clip("日本語", to: 5) == "日本")
        #expect(DisplayWidth.clip("ab", to: 5) == "ab")
        #expect(DisplayWidth.clip("ab", to: 0) == "")
    }
}
