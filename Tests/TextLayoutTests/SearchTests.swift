import Testing
@testable import TextLayout

@Suite struct SearchTests {
    func lines(_ html: String, width: Int) -> [LayoutLine] {
        Layout.lines(for: HTMLReader.document(html: html), width: width)
    }

    @Test func caseInsensitiveMatchesWithColumns() {
        let result = lines("<p>The Harbour at dawn. harbour lights. HARBOUR!</p>", width: 80)
        let matches = Search.matches(of: "harbour", in: result)
        #expect(matches.map(\.line) == [0, 0, 0])
        #expect(matches.map(\.column) == [4, 21, 37])
        #expect(matches.map(\.length) == [7, 7, 7])
    }

    @Test func columnsCountIndentMarkersAndWideCharacters() {
        let result = lines("<ul><li>日本の港 harbour</li></ul>", width: 40)
        let matches = Search.matches(of: "港", in: result)
        #expect(matches.count == 1)
        #expect(matches.first?.column == 8, "two for the bullet, six for 日本の")
        #expect(matches.first?.length == 2)
        let latin = Search.matches(of: "HARBOUR", in: result)
        #expect(latin.first?.column == 11)
    }

    @Test func matchesAreFoundOnEveryLineButNotAcrossLines() {
        let result = lines("<p>one fish two fish red fish blue fish</p>", width: 9)
        #expect(result.map(\.text) == ["one fish", "two fish", "red fish", "blue fish"])
        #expect(Search.matches(of: "fish", in: result).map(\.line) == [0, 1, 2, 3])
        #expect(Search.matches(of: "fish two", in: result).isEmpty)
    }

    @Test func emojiAndCombiningMarksMatchWhole() {
        let result = lines("<p>café cafe\u{301} 👍🏽 done</p>", width: 40)
        let precomposed = Search.matches(of: "café", in: result)
        #expect(precomposed.count == 2, "é and e + combining acute are the same character")
        let emoji = Search.matches(of: "👍🏽", in: result)
        #expect(emoji.count == 1)
        #expect(emoji.first?.length == 2)
        #expect(emoji.first?.column == 10)
        #expect(Search.matches(of: "👍", in: result).isEmpty, "a modifier sequence is one character")
    }

    @Test func noBreakSpaceMatchesASpace() {
        let result = lines("<p>New&nbsp;York</p>", width: 40)
        #expect(Search.matches(of: "new york", in: result).count == 1)
    }

    @Test func emptyAndMissingQueries() {
        let result = lines("<p>text</p>", width: 40)
        #expect(Search.matches(of: "", in: result).isEmpty)
        #expect(Search.matches(of: "absent", in: result).isEmpty)
        #expect(Search.matches(of: "x", in: []).isEmpty)
    }

    @Test func overlappingOccurrencesAreCountedOnce() {
        let result = lines("<p>aaaa</p>", width: 40)
        #expect(Search.matches(of: "aa", in: result).map(\.column) == [0, 2])
    }
}
