import Testing
import TextLayout
@testable import Shelf

/// An article laid out lazily at one width, and places in it that survive a new width.
@Suite struct ArticleTextTests {
    static let document: TextDocument = {
        var blocks: [Block] = [.heading(level: 1, [StyledSpan("Title")])]
        for paragraph in 0..<400 {
            blocks.append(.paragraph([StyledSpan((0..<30).map { "p\(paragraph)w\($0)" }.joined(separator: " "))]))
        }
        return TextDocument(blocks: blocks)
    }()

    @Test func onlyWhatIsAskedForIsLaidOutAndItMatchesTheWholeLayout() {
        let text = ArticleText(document: Self.document, width: 60)
        text.ensureLines(40)
        #expect(text.lines.count >= 40)
        #expect(text.laidOutBlocks < 40, "a screen needs a few blocks, not \(text.laidOutBlocks)")
        #expect(!text.isComplete)
        let whole = Layout.lines(for: Self.document, width: 60)
        #expect(Array(whole.prefix(text.lines.count)) == text.lines)
        text.layoutAll()
        #expect(text.lines == whole)
    }

    /// The progress figure's root: how far a place is, the same whether the article was laid
    /// out a screen at a time or whole (a search lays it all out), rising to 1 at the end.
    @Test func howFarAPlaceIsDoesNotDependOnWhatWasLaidOut() {
        let lazy = ArticleText(document: Self.document, width: 60)
        let places = [0, 36, 37, 120]
        let shares = places.map { lazy.share(beforeLine: $0) }
        #expect(!lazy.isComplete)
        let whole = ArticleText(document: Self.document, width: 60)
        whole.layoutAll()
        #expect(places.map { whole.share(beforeLine: $0) } == shares)
        #expect(shares == shares.sorted() && shares[0] == 0 && shares[3] < 0.1, "\(shares)")
        #expect(whole.share(beforeLine: whole.lines.count) == 1)
        let nearEnd = whole.share(beforeLine: whole.lines.count - 1)
        #expect(nearEnd > 0.99 && nearEnd < 1)
    }

    @Test func anAnchorFindsTheSameWordAtAnotherWidth() throws {
        let wide = ArticleText(document: Self.document, width: 90)
        wide.ensureLines(2000)
        for index in [0, 1, 57, 333, 1200] {
            let line = wide.lines[index]
            guard let word = line.text.split(separator: " ").first.map(String.init) else { continue }
            let anchor = wide.anchor(ofLine: index)
            for width in [30, 47, 200] {
                let other = ArticleText(document: Self.document, width: width)
                let found = other.line(for: anchor)
                #expect(other.lines[found].text.split(separator: " ").map(String.init).contains(word),
                        "line \(index) '\(word)' at width \(width): '\(other.lines[found].text)'")
            }
        }
    }

    @Test func matchesCoverTheWholeArticle() {
        let text = ArticleText(document: Self.document, width: 50)
        let matches = text.matches(of: "P399W29")
        #expect(text.isComplete)
        #expect(matches.count == 1)
        #expect(text.lines[matches[0].line].text.contains("p399w29"))
        #expect(text.firstLine(ofBlock: 400).map { text.lines[$0].text.hasPrefix("p399w0") } == true)
    }

    /// The progress figure counts visible characters; ASCII is counted by bytes, and must
    /// agree with counting `Character`s that are not whitespace, whatever the text holds.
    @Test func visibleCharactersAgreeWithCountingCharacters() {
        let texts = ["", "plain words here", " \t\n\r\u{0B}\u{0C}x\r\ny ", "\u{1C}\u{1F}\u{7F}!~",
                     "caf\u{E9} na\u{EF}ve", "e\u{301}e\u{301} \u{A0}\u{2003}z", "\u{1F469}\u{200D}\u{1F4BB} \u{1F1EB}\u{1F1F7}",
                     "\u{2028}\u{85}a", "\u{5B57} \u{5B57}", " \u{301}x", "a \u{301} b", "\u{600} a", "ab\u{301}c d\u{2014}e",
                     "1\u{FE0F}\u{20E3} x", "\r\n\u{301}", "\t\u{301}y", "word\u{A0}\u{2014}word more words"]
        for text in texts {
            #expect(ArticleText.visibleCharacters(text) == text.filter { !$0.isWhitespace }.count, "\(text.debugDescription)")
        }
        #expect(ArticleText.visibleCharacters("a b\tc\r\nd") == 4)
        #expect(ArticleText.visibleCharacters("e\u{301} x") == 2)
    }

    /// The reader counts each block's characters where it reads the article (#29: a 2 MB
    /// article's count cost the first position save 19 ms of the run loop), so the layout it
    /// makes weighs by those counts: the same figures as counting on the spot, pictures
    /// described or not.
    @Test func weightsCountedWithTheArticleGiveTheSameShares() {
        var blocks = Self.document.blocks
        blocks.insert(.image(source: "tides.png", alt: "a chart of the tides"), at: 3)
        blocks.insert(.figure(image: .image(source: "map.png", alt: ""), caption: [StyledSpan("The bay")]), at: 40)
        blocks.insert(.quote([.image(source: "tides.png", alt: "again"), .paragraph([StyledSpan("quoted words")])]), at: 80)
        let document = TextDocument(blocks: blocks)
        let article = LoadedArticle(document: document, pictures: [:])
        #expect(article.blockWeights == ArticleText.blockWeights(of: document))
        for undrawable in [Set<String>(), ["tides.png"], ["tides.png", "map.png"]] {
            let key = LayoutKey(resource: "a.html", isWhole: true, width: 60, undrawable: undrawable)
            let made = ArticleLayouts().text(for: key, of: article)
            let counted = ArticleText(document: document.describingPictures(undrawable), width: 60)
            let places = [0, 5, 37, 120, 400]
            #expect(places.map { made.share(beforeLine: $0) } == places.map { counted.share(beforeLine: $0) }, "\(undrawable)")
        }
        let described = document.describingPictures(["tides.png"])
        #expect(ArticleText.blockWeights(of: described, from: document, weights: article.blockWeights)
                == ArticleText.blockWeights(of: described))
        #expect(ArticleText.blockWeights(of: described)[3] == "[image: a chart of the tides]".count - 5)
    }

    /// The layouts weigh by the counts that came with the article, and count nothing again.
    @Test func theLayoutsWeighByTheArticlesCounts() {
        var article = LoadedArticle(document: Self.document, pictures: [:])
        article.blockWeights = article.blockWeights.indices.map { $0 == 0 ? 1_000_000 : 1 }
        let text = ArticleLayouts().text(for: LayoutKey(resource: "a.html", isWhole: true, width: 60), of: article)
        let afterTitle = text.firstLine(ofBlock: 1) ?? 0
        #expect(text.share(beforeLine: afterTitle) > 0.99)
        #expect(ArticleText(document: Self.document, width: 60).share(beforeLine: afterTitle) < 0.01)
    }
}
