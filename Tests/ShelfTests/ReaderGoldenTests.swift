import Foundation
import Imaging
import Testing
import Terminal
import TextLayout
import NewsstandKit
@testable import Shelf

/// Golden screens (after ratatui's `Buffer::with_lines`) of the reader, compared whole
/// against `Goldens/<screen>-<width>x<height>.txt` (see `Golden` for recording them).
@Suite(.serialized) struct ReaderGoldenTests {
    init() {
        TestDocument.register()
        TestPageRenderer.register()
    }

    // MARK: The reader's view alone

    /// The reader's own 80×24 canvas from a fixed fixture: the two bottom rows are the
    /// app's status and hint bars, drawn by the shelf, so the reader leaves them blank.
    @Test func anArticlesFirstPageAt80By24() throws {
        let files = try OpenReader(ReaderFixture.magazine())
        let reader = try files.open(width: 80, height: 24)
        _ = reader.update(.key(.right))
        let screen = files.screen(reader)
        expectGolden(screen, "reader-view-article-80x24")
        // The title bar in its colours, the heading in the heading's.
        #expect(screen[1, 0].style == Theme.classic.statusLine.with(.bold) && screen[79, 0].style == Theme.classic.statusLine)
        #expect(screen[2, 2].style.foreground == Theme.classic.readerHeading.foreground)
        #expect(screen[2, 4].style == Theme.classic.readerText)
    }

    @Test func theContentsListAt80By24() throws {
        let files = try OpenReader(ReaderFixture.magazine())
        let reader = try files.open(width: 80, height: 24)
        _ = reader.update(.key(.right))
        _ = reader.update(.key(.character("t")))
        let screen = files.screen(reader)
        expectGolden(screen, "reader-view-contents-80x24")
        #expect(screen[4, 5].style == Theme.classic.selection, "the article being read is chosen")
    }

    // MARK: The whole app's screen while reading

    static let sizes = [(80, 24), (120, 40)]

    /// Each screen by name: the harness reading a fixture at a size, and the screen once
    /// the keys are answered (and the pictures drawn).
    static let screens: [(name: String, make: @Sendable (Int, Int) throws -> Canvas)] = [
        ("reader-article", { w, h in
            let app = try ShelfHarness.reading(ReaderFixture.magazine(), name: "article-\(w)", width: w, height: h)
            return app.key(.right)
        }),
        ("reader-contents", { w, h in
            let app = try ShelfHarness.reading(ReaderFixture.magazine(), name: "contents-\(w)", width: w, height: h)
            _ = app.key(.right)
            return app.key(.character("t"))
        }),
        ("reader-search-typing", { w, h in
            let app = try ShelfHarness.reading(ReaderFixture.magazine(), name: "typing-\(w)", width: w, height: h)
            _ = app.key(.right)
            app.type("/keep")
            return app.settle()
        }),
        ("reader-search-match", { w, h in
            let app = try ShelfHarness.reading(ReaderFixture.magazine(), name: "match-\(w)", width: w, height: h)
            _ = app.key(.right)
            app.type("/keeper")
            return app.key(.enter)
        }),
        ("reader-selecting", { w, h in
            // Words chosen from the start of the first paragraph: drawn in the selection's colours.
            let app = try ShelfHarness.reading(ReaderFixture.magazine(), name: "selecting-\(w)", width: w, height: h)
            _ = app.key(.right)
            app.type("s}swww")
            return app.settle()
        }),
        ("comic-page", { w, h in
            let app = try ShelfHarness.reading(try ReaderFixture.comic(manga: false), name: "comic-\(w)", width: w, height: h)
            return app.waitFor { !$0.cells(near: ReaderFixture.red).isEmpty && !$0.cells(near: ReaderFixture.blue).isEmpty }
        }),
        ("pdf-page", { w, h in
            // The pages view, in half blocks: the cover page, red over blue, fitted whole.
            let app = try ShelfHarness.reading(["issue.pdf": TestDocument.magazine().data], name: "pdf-page-\(w)", width: w, height: h)
            return app.waitFor { !$0.cells(near: ReaderFixture.red).isEmpty && !$0.cells(near: ReaderFixture.blue).isEmpty }
        }),
        ("pdf-page-match", { w, h in
            // A search in the pages view: the page with the word, the match marked over the
            // picture (in colour) and by ▶ in the margin beside its row.
            let app = try ShelfHarness.reading(["issue.pdf": TestDocument.magazine().data], name: "pdf-match-\(w)", width: w, height: h)
            app.type("/zebra")
            _ = app.key(.enter)
            return app.waitFor { $0.text.contains("▶") && !$0.cells(near: ReaderFixture.blue).isEmpty }
        }),
        ("pdf-page-highlight", { w, h in
            // Words highlighted green in the text view of page 4, marked over the page back in
            // the pages view (in colour: the golden's glyphs are the page's).
            let app = try ShelfHarness.reading(["issue.pdf": TestDocument.magazine().data], name: "pdf-hl-\(w)", width: w, height: h)
            app.type("v")
            _ = app.key(.right); _ = app.key(.right); _ = app.key(.right)
            app.type("s}sw2v")
            return app.waitFor { !ReaderGoldenTests.greenOverRed(in: $0).isEmpty }
        }),
        ("pdf-text", { w, h in
            let app = try ShelfHarness.reading(["issue.pdf": TestDocument.magazine().data], name: "pdf-\(w)", width: w, height: h)
            app.type("v")
            _ = app.key(.right); _ = app.key(.right); _ = app.key(.right)
            return app.settle()
        }),
    ]

    static var cases: [(String, Int, Int)] {
        screens.flatMap { screen in sizes.map { (screen.name, $0.0, $0.1) } }
    }

    @Test(arguments: cases)
    func theScreen(_ name: String, _ width: Int, _ height: Int) throws {
        let make = try #require(Self.screens.first { $0.name == name }?.make)
        let canvas = try make(width, height)
        #expect(canvas.width == width && canvas.height == height)
        expectGolden(canvas, "\(name)-\(width)x\(height)")
        // What the text cannot show: the match's colours and the page's.
        switch name {
        case "reader-search-match":
            #expect(Self.words(in: canvas, styled: Theme.classic.selection, rows: 1..<height - 2) == ["Keeper"], "the current match")
            #expect(Self.words(in: canvas, styled: Theme.classic.readerMatch, rows: 1..<height - 2) == ["keeper"], "the other match")
        case "reader-selecting":
            #expect(Self.words(in: canvas, styled: Theme.classic.selection, rows: 1..<height - 2) == ["The LIGHTHOUSE stood "],
                     "the words chosen so far")
            #expect(Self.words(in: canvas, styled: Theme.classic.selection.with(.underline), rows: 1..<height - 2) == ["tall;"],
                     "the cursor's word, underlined")
        case "pdf-page-match":
            let marker = try #require((0..<height).lazy.compactMap { y in (0..<width).first { canvas[$0, y].glyph == "▶" }.map { ($0, y) } }.first)
            let edge = canvas[marker.0 + 1, marker.1].style.background
            // The one match is the current one, in its own colour.
            let marked = PageMarks.marked(edge, by: PageMarks.currentTint)
            let over = (marker.0 + 1..<width).filter { canvas[$0, marker.1].style.background == marked }
            #expect(marked != edge && over.count >= 3 && over.first ?? 0 > marker.0 + 2,
                    "the match's cells, a few columns into the page, are marked; the page's edge is not")
        case "pdf-page-highlight":
            let marked = Self.greenOverRed(in: canvas)
            let rows = Set(marked.map(\.y)), columns = Set(marked.map(\.x))
            #expect(marked.count >= 3 && rows.count <= 2 && columns.count < width / 8,
                    "the two words' cells, on their line only, seen through green: \(marked)")
            #expect(!canvas.text.contains("▶"), "a highlight has no margin mark")
        case "comic-page", "pdf-page":
            let red = canvas.cells(near: ReaderFixture.red), blue = canvas.cells(near: ReaderFixture.blue)
            #expect(!red.isEmpty && !blue.isEmpty && red.allSatisfy { cell in blue.allSatisfy { cell.y <= $0.y } },
                    "red on the page's top, blue below")
        default:
            break
        }
    }

    /// The cells of the page's red paper seen through a green highlight.
    static func greenOverRed(in canvas: Canvas) -> [(x: Int, y: Int)] {
        let ink = Highlight.Color.green.tint ?? (0, 0, 0), red = ReaderFixture.red
        let marked = PageMarks.marked(.rgb(red.0, red.1, red.2), by: .rgb(ink.0, ink.1, ink.2))
        return (0..<canvas.height).flatMap { y in (0..<canvas.width).filter { canvas[$0, y].style.background == marked }.map { (x: $0, y: y) } }
    }

    /// The runs of cells drawn in `style` on `rows`, left to right, top to bottom.
    static func words(in canvas: Canvas, styled style: Style, rows: Range<Int>) -> [String] {
        var words: [String] = []
        for y in rows {
            var word = ""
            for x in 0..<canvas.width {
                if canvas[x, y].style == style { word += canvas[x, y].glyph; continue }
                if !word.isEmpty { words.append(word); word = "" }
            }
            if !word.isEmpty { words.append(word) }
        }
        return words
    }
}

/// Draws a `TestDocument`'s pages as a PDF's would be drawn (the tests have no PDF worker):
/// a page 2:3, its top third red, the rest blue; a region the same.
struct TestPageRenderer: DocumentRenderer {
    static func register() { _ = registered }
    private static let registered: Void = { DocumentRenderers.shared.register(TestPageRenderer(), for: .pdf) }()

    func render(_ page: DocumentPage, fitting size: (width: Int, height: Int)?) throws -> RGBAImage {
        let (width, height) = (200, 300)
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 4)
        for y in 0..<height {
            let (r, g, b) = y < height / 3 ? ReaderFixture.red : ReaderFixture.blue
            for _ in 0..<width { pixels += [r, g, b, 255] }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }
}
