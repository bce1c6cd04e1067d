import Foundation
import IssueArchive
import Testing
import TextLayout
@testable import NewsstandKit
@testable import Shelf

/// A highlight is anchored in the issue's text, not in cells: the reader finds it again at
/// any width, in the same issue downloaded again, and says it is gone when its words are.
@Suite struct HighlightAnchorTests {
    let h: ShelfHarness
    let issue: NewsstandKit.Issue

    init() throws {
        h = try ShelfHarness(samples: false)
        issue = try ReaderFixture.install(ReaderFixture.magazine(), in: h, name: "harbour-monthly")
    }

    var directory: URL { h.library.downloads.contentDirectory(for: issue) }

    /// The resource's text as the reader lays it out: its document's blocks, one a line.
    func readerText(_ resource: String) throws -> (TextDocument, String) {
        let document = try ArticleDocument.load(Resource(path: resource, mediaType: "application/xhtml+xml"), in: directory)
        return (document, HighlightTexts.text(of: document))
    }

    /// Where `range` of `text` (the blocks one a line) is as the reader's anchor: the block,
    /// and the visible characters of the block before it.
    func anchor(of range: Range<String.Index>, in text: String, blocks: [Block]) -> TextAnchor {
        var start = text.startIndex
        for (index, block) in blocks.enumerated() {
            let end = text.index(start, offsetBy: block.plainText.count)
            if range.lowerBound < end || index == blocks.count - 1 {
                return TextAnchor(block: index, offset: ArticleText.visibleCharacters(String(text[start..<range.lowerBound])))
            }
            start = text.index(after: end)
        }
        return TextAnchor(block: 0, offset: 0)
    }

    @Test func aQuotedPassageIsHighlightedInItsChapterWithItsCFI() throws {
        let made = try h.library.highlights.add(quote: "Fresh coffee at the CAFÉ", in: issue, texts: HighlightTexts(), note: "Try it")
        #expect(made.resource == "OEBPS/ch1.xhtml")
        #expect(made.chapter == "Harbour News")
        #expect(made.quote.prefix.hasSuffix("The old Lighthouse was painted.\n"))
        #expect(made.quote.suffix == " on the quay.")
        #expect(made.cfi == "epubcfi(/6/2!/4/18,/1:0,/1:24)")
        #expect(made.locator.progression > 0.5 && made.locator.totalProgression < 0.25)
        #expect(try h.library.highlights.list(for: issue).map(\.id) == [made.id])
    }

    @Test func aQuoteThatIsNotThereOrIsThereTwiceIsRefusedInOneLine() throws {
        #expect(throws: HighlightError.quoteNotFound(issue: "Fixture", chapter: nil)) {
            try h.library.highlights.add(quote: "low tide at noon", in: issue, texts: HighlightTexts())
        }
        #expect(throws: HighlightError.quoteAmbiguous(issue: "Fixture", places: 2, chapters: [2, 4])) {
            try h.library.highlights.add(quote: "lighthouse", in: issue, texts: HighlightTexts())
        }
        #expect("\(HighlightError.quoteAmbiguous(issue: "Fixture", places: 2, chapters: [2, 4]))".contains("--chapter N"))
        let fourth = try h.library.highlights.add(quote: "lighthouse", in: issue, texts: HighlightTexts(), chapter: 4)
        #expect(fourth.resource == "OEBPS/ch4.xhtml")
        #expect(throws: HighlightError.noSuchChapter(issue: "Fixture", chapter: 9, chapters: 4)) {
            try h.library.highlights.add(quote: "lighthouse", in: issue, texts: HighlightTexts(), chapter: 9)
        }
        #expect(try h.library.highlights.list(for: issue).count == 1)
    }

    @Test func aHighlightIsFoundAgainAtAnotherWidthOnTheSameWords() throws {
        let made = try h.library.highlights.add(quote: "bp30w5 bp30w6 bp30w7", in: issue, texts: HighlightTexts())
        let (document, text) = try readerText(made.resource)
        let range = try #require(h.library.highlights.resolve(made, in: text).range)
        let place = anchor(of: range, in: text, blocks: document.blocks)
        var lines: [Int] = []
        for width in [28, 60, 110] {
            let laidOut = ArticleText(document: document, width: width)
            let line = laidOut.line(for: place)
            lines.append(line)
            let shown = laidOut.lines[line].spans.map(\.text).joined()
            #expect(shown.contains("bp30w5"), "width \(width): line \(line) shows \(shown)")
        }
        #expect(Set(lines).count == 3)
    }

    @Test func aHighlightIsFoundAgainInTheIssueDownloadedAgain() throws {
        let made = try h.library.highlights.add(quote: "Calm seas", in: issue, texts: HighlightTexts())
        try FileManager.default.removeItem(at: directory)
        for (path, data) in ReaderFixture.magazine() {
            let file = directory.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: file)
        }
        let text = try #require(try HighlightTexts().parts(ofContentIn: directory).first { $0.resource == made.resource }).text
        let range = try #require(h.library.highlights.resolve(made, in: text).range)
        #expect(text.utf8.distance(from: text.startIndex, to: range.lowerBound) == made.textOffset)
        #expect(HighlightCFI.range(of: made.quote, document: made.resource, book: directory)?.cfi == made.cfi)
    }

    @Test func aHighlightWhoseWordsChangedInANewCopyIsGone() throws {
        let made = try h.library.highlights.add(quote: "Calm seas and light winds", in: issue, texts: HighlightTexts())
        let file = directory.appendingPathComponent(made.resource)
        let changed = try String(contentsOf: file, encoding: .utf8).replacingOccurrences(of: "Calm seas and light", with: "Rough seas and strong")
        try changed.write(to: file, atomically: true, encoding: .utf8)
        let (_, text) = try readerText(made.resource)
        #expect(h.library.highlights.resolve(made, in: text) == .gone)
        #expect(HighlightCFI.range(of: made.quote, document: made.resource, book: directory) == nil)
    }

    @Test func aPDFPageIsHighlightedInItsTextViewsWords() throws {
        TestDocument.register()
        let pdf = try ReaderFixture.install(["issue.pdf": TestDocument.magazine().data], in: h, name: "test-monthly")
        let made = try h.library.highlights.add(quote: "zebra was seen", in: pdf, texts: HighlightTexts())
        #expect(made.resource == "issue.pdf#page=4")
        #expect(made.locator.page == 3 && made.position == 3)
        #expect(made.chapter == "Wildlife")
        #expect(made.cfi == nil)
        let page = try ArticleDocument.load(Resource(path: made.resource, mediaType: "application/pdf"),
                                            in: h.library.downloads.contentDirectory(for: pdf))
        let text = HighlightTexts.text(of: page)
        #expect(h.library.highlights.resolve(made, in: text).range.map { String(text[$0]) } == "zebra was seen")
    }
}
