import Foundation
import Testing
@testable import NewsstandKit

/// A quote is found again by its words, told apart from the same words elsewhere by what
/// surrounds it, and said to be gone rather than moved when the text no longer holds it.
@Suite struct TextQuoteSelectorTests {
    static let chapter = """
        The tide came in at dusk and the herons left the marsh.
        Under the pier the tide came in again, slower, and the herons stayed.
        Nobody on the harbour wall said a word about the tide.
        """

    func range(of words: String, occurrence: Int = 0, in text: String = chapter) throws -> Range<String.Index> {
        var start = text.startIndex
        var found: [Range<String.Index>] = []
        while let next = text.range(of: words, range: start..<text.endIndex) {
            found.append(next)
            start = next.upperBound
        }
        return try #require(found.indices.contains(occurrence) ? found[occurrence] : nil)
    }

    @Test func aQuoteKeepsItsWordsAndUpToThirtyTwoCharactersEachSide() throws {
        let quote = try #require(TextQuoteSelector(try range(of: "the tide came in again"), in: Self.chapter))
        #expect(quote.exact == "the tide came in again")
        #expect(quote.prefix == " left the marsh.\nUnder the pier ")
        #expect(quote.suffix == ", slower, and the herons stayed.")
    }

    @Test func aQuoteAtTheStartHasNoPrefixAndAnEmptySelectionIsNoQuote() throws {
        let quote = try #require(TextQuoteSelector(try range(of: "The tide"), in: Self.chapter))
        #expect(quote.prefix.isEmpty)
        let start = Self.chapter.startIndex
        #expect(TextQuoteSelector(start..<start, in: Self.chapter) == nil)
    }

    @Test func wordsUsedTwiceAreToldApartByWhatSurroundsThem() throws {
        for occurrence in 0..<2 {
            let selected = try range(of: "the herons", occurrence: occurrence)
            let quote = try #require(TextQuoteSelector(selected, in: Self.chapter))
            #expect(quote.resolve(in: Self.chapter) == .found(selected))
        }
    }

    @Test func aQuoteIsFoundAgainInTheSameTextMadeAgain() throws {
        let selected = try range(of: "said a word")
        let quote = try #require(TextQuoteSelector(selected, in: Self.chapter))
        let again = String(Self.chapter.unicodeScalars.map(Character.init))   // another copy of the same text
        let found = try #require(quote.resolve(in: again).range)
        #expect(again[found] == "said a word")
        #expect(again.distance(from: again.startIndex, to: found.lowerBound) == Self.chapter.distance(from: Self.chapter.startIndex, to: selected.lowerBound))
    }

    @Test func aQuoteWhoseWordsChangedIsGone() throws {
        let quote = try #require(TextQuoteSelector(try range(of: "said a word"), in: Self.chapter))
        let edited = Self.chapter.replacingOccurrences(of: "said a word", with: "spoke")
        #expect(quote.resolve(in: edited) == .gone)
    }

    @Test func repeatedWordsWhoseContextNoLongerDecidesAreGoneNotMoved() throws {
        let quote = try #require(TextQuoteSelector(try range(of: "the herons", occurrence: 1), in: Self.chapter))
        // Both occurrences now have the same surroundings: neither is more likely.
        let twins = "x the herons y\nx the herons y\n"
        #expect(quote.resolve(in: twins) == .gone)
    }

    @Test func aLoneOccurrenceIsFoundEvenWhenItsSurroundingsChanged() throws {
        let quote = try #require(TextQuoteSelector(try range(of: "harbour wall"), in: Self.chapter))
        let text = "A new first line.\nOn the harbour wall, gulls."
        let found = try #require(quote.resolve(in: text).range)
        #expect(text[found] == "harbour wall")
    }

    @Test func aMatchInsideALetterWithAnAccentIsNotTheQuote() throws {
        let quote = TextQuoteSelector(exact: "cafe")
        #expect(quote.resolve(in: "un cafe\u{301} noir") == .gone)
        let text = "un café noir, un cafe"
        #expect(quote.resolve(in: text).range.map { String(text[$0]) } == "cafe")
    }

    @Test func anEmptyQuoteIsNeverFound() {
        #expect(TextQuoteSelector(exact: "").resolve(in: Self.chapter) == .gone)
    }

    @Test func quotesInOtherScriptsAreFoundByTheirCharacters() throws {
        let text = "港の朝。潮が満ちて、鷺が飛んだ。潮が引いた。"
        let selected = try #require(text.range(of: "潮が引いた"))
        let quote = try #require(TextQuoteSelector(selected, in: text))
        #expect(quote.resolve(in: text) == .found(selected))
    }
}
