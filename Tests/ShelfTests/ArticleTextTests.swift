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
}
