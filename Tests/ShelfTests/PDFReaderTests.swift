import Foundation
import Imaging
import IssueArchive
import Pictures
import Terminal
import Testing
import TextLayout
@testable import NewsstandKit
@testable import Shelf

/// A PDF issue in the reader, through the in-memory terminal: two views and `v` between
/// them, kept per issue; page labels; search over the whole document; the outline as
/// contents; the password an encrypted PDF asks for.
@Suite(.serialized) struct PDFReaderTests {
    init() { TestDocument.register() }

    static func reading(_ document: TestDocument = .magazine(), name: String = "monthly-1") throws -> ShelfHarness {
        try ShelfHarness.reading(["issue.pdf": document.data], name: name, width: 80, height: 24)
    }

    @Test func aPDFOpensOnItsPagesWithThePageLabelInTheTitleBar() throws {
        let h = try Self.reading()
        let reader = try #require(h.app.reader)
        #expect(reader.view == .pages)
        #expect(h.settle().row(0).contains("page i · 1 of 5"))
        h.type("  ")
        #expect(h.settle().row(0).contains("page 1 · 3 of 5"), "the PDF's label, then the place in the file")
        #expect(h.settle().row(23).contains("v text view"))
    }

    @Test func switchingViewsAndBackKeepsThePage() throws {
        let h = try Self.reading()
        h.type("  ")
        var screen = h.send(.key(.character("v")))
        #expect(h.app.reader?.view == .text)
        #expect(screen.row(0).contains("3 of 5"))
        #expect(screen.text.contains("The tide tables for the month ahead."), "the page's words, reflowed")
        screen = h.key(.right)
        #expect(screen.text.contains("A zebra was seen near the lighthouse."))
        screen = h.send(.key(.character("v")))
        #expect(h.app.reader?.view == .pages)
        #expect(screen.row(0).contains("page 2 · 4 of 5"), "back in the pages view on the page the text view was on")
    }

    @Test func backInTheTextViewOnTheSamePageTheSameWordsAreOnTop() throws {
        var document = TestDocument.magazine()
        document.pages[0].text = (0..<60).map { "Line \($0) of a long page." }.joined(separator: "\n")
        let h = try Self.reading(document, name: "long-1")
        h.type("v")
        for _ in 0..<9 { _ = h.key(.down) }
        let page = { (screen: Canvas) in (1..<22).map(screen.row) }
        let before = page(h.settle())
        #expect(before[2].contains("Line 5 of a long page."), "\(before)")
        h.type("v")
        #expect(h.settle().row(0).contains("1 of 5"))
        h.type("v")
        #expect(page(h.settle()) == before)
    }

    @Test func theViewIsKeptForTheIssueAfterReopening() throws {
        let h = try Self.reading()
        h.type("v")
        _ = h.key(.character("q"))
        let issue = try #require(try h.library.store.issue(named: "monthly-1"))
        #expect(h.library.store.readerView(for: issue) == .text)

        let again = try h.restart(reading: "monthly-1", width: 80, height: 24)
        #expect(again.reader?.view == .text)
        #expect(again.render().text.contains("The harbour at dawn."))
    }

    @Test func searchInTheTextViewFindsAWordOnALaterPage() throws {
        let h = try Self.reading()
        h.type("v/ZEBRA")
        let screen = h.key(.enter)
        #expect(screen.row(0).contains("4 of 5"))
        #expect(screen.text.contains("“ZEBRA”: match 1 of 1 on page 4"))
        #expect(h.key(.character("n")).text.contains("(from the start of the issue)"), "round the document to the one match")
        #expect(h.app.reader?.pager.index == 3)
    }

    @Test func searchInThePagesViewTurnsToThePageWithTheWord() throws {
        let h = try Self.reading()
        h.type("/zebra")
        let screen = h.key(.enter)
        #expect(screen.row(0).contains("4 of 5"))
        #expect(screen.text.contains("“zebra”: match 1 of 1 on page 4"))
        h.type("/walrus")
        #expect(h.key(.enter).text.contains("No match for “walrus”"))
    }

    @Test func aPageWithoutTextSaysSoAndOffersThePages() throws {
        let h = try Self.reading()
        h.type(" v")
        let screen = h.settle()
        #expect(screen.row(0).contains("page ii · 2 of 5"))
        #expect(screen.text.contains("Page 2 has no text layer: v shows the page."))
    }

    @Test func theOutlineIsTheContentsInBothViews() throws {
        let h = try Self.reading()
        var screen = h.key(.character("t"))
        #expect(screen.text.contains("Cover story") && screen.text.contains("Wildlife"))
        #expect(!screen.text.contains("Page 3"), "the outline is the contents; pages it does not name are not listed")
        _ = h.key(.down)
        screen = h.key(.enter)
        #expect(screen.row(0).contains("4 of 5"))
        h.type("vt")
        _ = h.key(.up)
        screen = h.key(.enter)
        #expect(screen.row(0).contains("1 of 5") && screen.text.contains("The harbour at dawn."))
    }

    @Test func aPDFWithoutAnOutlineListsItsPagesByTheirLabels() throws {
        var document = TestDocument.magazine()
        document.outline = []
        let h = try Self.reading(document, name: "no-outline-1")
        let screen = h.key(.character("t"))
        for title in ["Page i", "Page ii", "Page 1", "Page 3"] { #expect(screen.text.contains(title), "\(title)\n\(screen.text)") }
        _ = h.key(.end)
        #expect(h.key(.enter).row(0).contains("page 3 · 5 of 5"))
    }

    @Test func thePlaceInTheTextViewIsSavedWithItsPage() throws {
        let h = try Self.reading()
        h.type("v  ")
        _ = h.key(.character("q"))
        let saved = try #require(h.library.store.issue(named: "monthly-1")?.locator)
        #expect(saved.page == 2 && saved.resource == "issue.pdf#page=3")
        let again = try h.restart(reading: "monthly-1", width: 80, height: 24)
        #expect(again.render().row(0).contains("3 of 5"))
    }

    // MARK: One search, one progress, one fit for both views

    @Test func aSearchInThePagesViewGoesOnInTheTextView() throws {
        let h = try Self.reading()
        h.type("/zebra")
        #expect(h.key(.enter).row(0).contains("4 of 5"))
        h.type("v")
        let screen = h.key(.character("n"))
        #expect(screen.text.contains("“zebra”: match 1 of 1 on page 4"), "not “Nothing to find yet”\n\(screen.text)")
        #expect(ReaderGoldenTests.words(in: screen, styled: Theme.classic.selection, rows: 1..<22) == ["zebra"])
    }

    @Test func aSearchInTheTextViewGoesOnInThePagesView() throws {
        let h = try Self.reading()
        h.type("v/lighthouse")
        #expect(h.key(.enter).text.contains("“lighthouse”: match 1 of 1 on page 4"))
        h.type("v")
        #expect(h.app.reader?.view == .pages)
        let screen = h.key(.character("n"))
        #expect(screen.text.contains("“lighthouse”: match 1 of 1 on page 4"), "round the document to the one page\n\(screen.text)")
    }

    /// The test page renderer's page (27 by 20 cells at 80×24, from column 26 and row 2)
    /// holds “zebra” on its second line, characters 2–6: 13–20.5 % across, 20–25 % down.
    @Test func aMatchIsMarkedOverThePagePictureAndInTheMargin() throws {
        TestPageRenderer.register()
        let h = try Self.reading()
        h.type("/zebra")
        _ = h.key(.enter)
        let screen = h.waitFor { $0.text.contains("▶") }
        #expect(screen.row(0).contains("4 of 5"))
        var current = Theme.classic.readerMatch
        current.background = PageMarks.currentTint
        #expect(screen[25, 6].glyph == "▶" && screen[25, 6].style == current, "the one match is the current one\n\(screen.text)")
        #expect((0..<24).filter { screen.row($0).contains("▶") } == [6], "one row holds the match")
        let paper = screen[28, 6].style
        #expect(screen[32, 6].style == paper, "the cells either side are the page's")
        for x in 29...31 {
            #expect(screen[x, 6].style.background == PageMarks.marked(paper.background, by: PageMarks.currentTint))
            #expect(screen[x, 6].style.background != paper.background, "cell \(x) is marked")
        }
        #expect(screen[30, 5].style == screen[28, 5].style, "the row above is not")
        h.send(.key(.escape))
        #expect(!h.settle().text.contains("▶"), "Escape clears the marks before it leaves")
        #expect(h.app.reader != nil)
    }

    /// The magazine with "walrus" on page 5 below five lines: 60 % down the page.
    static func walrusOnPage5() -> TestDocument {
        TestPageRenderer.register()
        var document = TestDocument.magazine()
        document.pages[4].text = (0..<5).map { "Line \($0) of letters." }.joined(separator: "\n") + "\nA walrus wrote in."
        return document
    }

    /// Three zebras on page 4 (lines 1–3: from rows 6, 8 and 10 of the screen, the page from
    /// column 26), one on page 5.
    static func zebrasOnPages4And5() -> TestDocument {
        TestPageRenderer.register()
        var document = TestDocument.magazine()
        document.pages[3].text = "Wildlife\nA zebra was seen.\nAnother zebra.\nA third zebra."
        document.pages[4].text = "Letters\nA zebra wrote in."
        return document
    }

    /// The rows of the screen marked ▶ beside the page, and which of them marks the current match.
    static func markedRows(_ screen: Canvas) -> (all: [Int], current: [Int]) {
        let rows = (0..<24).filter { screen[25, $0].glyph == "▶" }
        return (rows, rows.filter { screen[25, $0].style.background == PageMarks.currentTint })
    }

    @Test func nStepsThroughEveryMatchOnAPageThenTurnsToTheNextPageWithOne() throws {
        let h = try Self.reading(Self.zebrasOnPages4And5(), name: "zebras-1")
        h.type("/zebra")
        #expect(h.key(.enter).text.contains("“zebra”: match 1 of 3 on page 4"))
        var screen = h.waitFor { Set([6, 8, 10]).isSubset(of: Self.markedRows($0).all) }
        #expect(Set([6, 8, 10]).isSubset(of: Self.markedRows(screen).all) && Self.markedRows(screen).current.first == 6,
                "\(screen.text)")

        screen = h.key(.character("n"))
        #expect(screen.text.contains("“zebra”: match 2 of 3 on page 4") && screen.row(0).contains("4 of 5"), "\(screen.text)")
        screen = h.settle()
        #expect(Self.markedRows(screen).current.first == 8 && !Self.markedRows(screen).current.contains(6),
                "the second match is the current one\n\(screen.text)")
        // In half blocks the current match's cells are seen through its own colour, the others' through the match colour.
        let paper = { (row: Int) in screen[28, row].style.background }
        #expect(screen[31, 8].style.background == PageMarks.marked(paper(8), by: PageMarks.currentTint))
        #expect(screen[31, 6].style.background == PageMarks.marked(paper(6), by: Theme.classic.readerMatch.background))
        #expect(screen[31, 10].style.background == PageMarks.marked(paper(10), by: Theme.classic.readerMatch.background))
        #expect(PageMarks.currentTint != Theme.classic.readerMatch.background)

        #expect(h.key(.character("n")).text.contains("“zebra”: match 3 of 3 on page 4"))
        screen = h.key(.character("n"))
        #expect(screen.text.contains("“zebra”: match 1 of 1 on page 5") && screen.row(0).contains("5 of 5"), "\(screen.text)")
        screen = h.key(.character("N"))
        #expect(screen.text.contains("“zebra”: match 3 of 3 on page 4"), "back to the last match of the page before\n\(screen.text)")
        screen = h.waitFor { Self.markedRows($0).current.first == 10 }
        #expect(Self.markedRows(screen).current.first == 10, "\(screen.text)")
        _ = h.key(.character("n"))
        screen = h.key(.character("n"))
        #expect(screen.text.contains("“zebra”: match 1 of 3 on page 4 (from the start of the issue)"), "\(screen.text)")
    }

    @Test func inTheTextViewNStepsThroughEveryMatchOnAPageToo() throws {
        let h = try Self.reading(Self.zebrasOnPages4And5(), name: "zebras-text")
        h.type("v/zebra")
        #expect(h.key(.enter).text.contains("“zebra”: match 1 of 3 on page 4"))
        #expect(h.key(.character("n")).text.contains("“zebra”: match 2 of 3 on page 4"))
        let screen = h.settle()
        #expect(ReaderGoldenTests.words(in: screen, styled: Theme.classic.selection, rows: 1..<22) == ["zebra"], "one current match")
        #expect(h.key(.character("n")).text.contains("“zebra”: match 3 of 3 on page 4"))
        #expect(h.key(.character("n")).text.contains("“zebra”: match 1 of 1 on page 5"))
        #expect(h.key(.character("N")).text.contains("“zebra”: match 3 of 3 on page 4"))
    }

    /// #31: `v` keeps the match `n` stepped to, both ways; `n` and `N` go on from it.
    @Test func vKeepsTheCurrentMatchAndNGoesOnFromIt() throws {
        let h = try Self.reading(Self.zebrasOnPages4And5(), name: "zebras-v")
        h.type("/zebra")
        _ = h.key(.enter)
        _ = h.waitFor { Set([6, 8, 10]).isSubset(of: Self.markedRows($0).all) }
        #expect(h.key(.character("n")).text.contains("“zebra”: match 2 of 3 on page 4"))
        h.type("v")
        var screen = h.settle()
        let second = try #require((1..<22).first { screen.row($0).contains("Another zebra.") }, "\(screen.text)")
        #expect(ReaderGoldenTests.words(in: screen, styled: Theme.classic.selection, rows: second..<second + 1) == ["zebra"],
                "the second match is the current one in the text view\n\(screen.text)")
        #expect(h.key(.character("n")).text.contains("“zebra”: match 3 of 3 on page 4"), "not back to match 1")

        h.type("v")
        screen = h.waitFor { Self.markedRows($0).current == [10] }
        #expect(Self.markedRows(screen).current == [10], "the third match is the current one on the page\n\(screen.text)")
        screen = h.key(.character("N"))
        #expect(screen.text.contains("“zebra”: match 2 of 3 on page 4"), "\(screen.text)")
    }

    /// #32: words highlighted in the text view are marked over the page in the pages view,
    /// in the highlight's colour (the test page's characters: `TestDocumentTexts.typewritten`).
    @Test func aSelectionHighlightedInTheTextViewIsMarkedOverThePage() throws {
        TestPageRenderer.register()
        let h = try Self.reading(name: "hl-pages")
        h.type("v")
        _ = h.key(.right); _ = h.key(.right)
        #expect(h.key(.right).row(0).contains("4 of 5"))
        h.type("s}sw")
        _ = h.key(.enter)
        let issue = try #require(try h.library.store.issue(named: "hl-pages"))
        let made = try h.library.highlights.list(for: issue)
        #expect(made.map(\.quote.exact) == ["A zebra"] && made.first?.resource == "issue.pdf#page=4")
        h.type("v")
        // “A zebra”: line 1, characters 0–6 (10–20.5 % across, 20–25 % down): row 6, columns
        // 28–31 of the page drawn 27 cells wide from column 26.
        let ink = try #require(Highlight.Color.yellow.tint)
        let screen = h.waitFor { $0[29, 6].style.background != $0[33, 6].style.background }
        let paper = screen[33, 6].style.background
        for x in 28...31 {
            #expect(screen[x, 6].style.background == PageMarks.marked(paper, by: .rgb(ink.0, ink.1, ink.2)), "cell \(x)\n\(screen.text)")
        }
        #expect(screen[27, 6].style.background == paper && screen[32, 6].style.background == paper, "the words only")
        #expect(screen[29, 5].style == screen[33, 5].style, "the row above is not marked")
        #expect(!screen.text.contains("▶"), "no search, no ▶")
    }

    @Test func nTurnsToThePageAndBringsTheMatchIntoViewAtFitWidth() throws {
        let h = try Self.reading(Self.walrusOnPage5(), name: "walrus-1")
        h.type("w")
        h.type("/walrus")
        _ = h.key(.enter)
        // Line 5 is 60 % down a page 59 rows tall at fit width: below the first screen of 20.
        // (the page fitted whole stands in meanwhile, marked too)
        let screen = h.waitFor { $0.text.contains("▶") && $0.row(2).filter { $0 == "▀" }.count == 78 }
        #expect(screen.row(0).contains("5 of 5"), "\(screen.text)")
        let marked = try #require((2..<22).first { screen.row($0).contains("▶") }, "the match is on screen\n\(screen.text)")
        #expect(marked >= 2 + 20 / 3 - 1 && marked <= 2 + 20 / 3 + 1, "a third of the way down the window: row \(marked)\n\(screen.text)")
    }

    @Test func fittingTheWidthWithAMatchMarkedBringsItIntoView() throws {
        let h = try Self.reading(Self.walrusOnPage5(), name: "walrus-w")
        h.type("/walrus")
        _ = h.key(.enter)
        #expect(h.waitFor { $0.text.contains("▶") }.row(0).contains("5 of 5"))
        h.type("w")
        let screen = h.waitFor(timeout: 10) { $0.text.contains("▶") && $0.row(2).filter { $0 == "▀" }.count == 78 }
        #expect(screen.text.contains("▶") && screen.row(2).filter { $0 == "▀" }.count == 78, "\(screen.text)")
    }

    /// A page taller than the screen in the text view, read part of the way down.
    @Test func bothViewsOfAPageReadTheSameProgress() throws {
        var document = TestDocument.magazine()
        document.pages[2].text = (0..<60).map { "Line \($0) of a long page." }.joined(separator: "\n")
        let h = try Self.reading(document, name: "progress-1")
        h.type("  ")
        #expect(h.settle().row(22).hasSuffix("read 60%"), "page 3 of 5 in the pages view")
        h.type("v")
        #expect(h.settle().row(22).hasSuffix("read 60%"), "the same page in the text view\n\(h.settle().text)")
        _ = h.key(.down)
        #expect(h.settle().row(22).hasSuffix("read 60%"))
        _ = h.key(.character("q"))
        #expect(try h.library.store.issue(named: "progress-1")?.locator?.totalProgression == 0.6, "saved as shown")
    }

    @Test func fitWidthIsKeptForTheIssueAcrossViewsAndAfterReopening() throws {
        let h = try Self.reading()
        h.type("w")
        #expect(h.settle().row(23).contains("w fit page"))
        h.type("vv")
        #expect(h.settle().row(23).contains("w fit page"), "back in the pages view, still fitted to the width")
        _ = h.key(.character("q"))
        let issue = try #require(try h.library.store.issue(named: "monthly-1"))
        #expect(h.library.store.readerFitsWidth(for: issue))

        let again = try h.restart(reading: "monthly-1", width: 80, height: 24)
        #expect(again.reader?.fitsWidth == true && (again.reader?.pager as? PagePager)?.fitWidth == true)
        #expect(again.render().row(23).contains("w fit page"))
    }

    // MARK: Passwords

    @Test func anEncryptedPDFAsksForItsPasswordAndSaysWhenItIsWrong() throws {
        let h = try Self.reading(.magazine(password: "s3same"), name: "locked-1")
        #expect(h.app.reader == nil)
        var screen = h.settle()
        #expect(screen.row(22).contains("Password for “Fixture”: ▏"))
        #expect(screen.row(23).contains("Esc give up"))
        h.type("guess")
        screen = h.settle()
        #expect(screen.row(22).contains("•••••▏") && !screen.text.contains("guess"), "typed masked")
        screen = h.key(.enter)
        #expect(h.app.reader == nil)
        #expect(screen.row(22).contains("Wrong password. Password for “Fixture”:"))
        h.type("s3same")
        screen = h.key(.enter)
        #expect(h.app.reader != nil)
        #expect(screen.row(0).contains("1 of 5"))
        #expect(!screen.text.contains("s3same"))
    }

    @Test func escapeGivesUpOnThePassword() throws {
        let h = try Self.reading(.magazine(password: "s3same"), name: "locked-2")
        h.type("abc")
        let screen = h.key(.escape)
        #expect(h.app.reader == nil && h.app.state.passwordPrompt == nil)
        #expect(screen.row(22).contains("stays closed: it needs its password"))
    }

    // MARK: Pictures

    /// A reader on the test magazine in the pages view drawing through `painter` in pixels.
    static func screen(painter pixels: PixelPainter, covers: HalfBlockPainter) throws -> (LoadedReader, URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pdf-reader-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try TestDocument.magazine().data.write(to: root.appendingPathComponent("issue.pdf"))
        let painter = CoverPainter(pictures: pixels, covers: covers, readyFlag: AtomicFlag(), pixels: pixels)
        let issue = NewsstandKit.Issue(publicationId: 1, name: "monthly", date: Date(), title: "Monthly")
        return (try LoadedReader(issue: issue, root: root, painter: painter, view: .pages), root)
    }

    /// A reader on the test magazine drawing through a painter that records what it is asked.
    static func screen(painter: RecordingPainter, view: ReaderView, insert: Bool = false) throws -> (LoadedReader, URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pdf-reader-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try TestDocument.magazine().data.write(to: root.appendingPathComponent("issue.pdf"))
        if insert { try Data("picture".utf8).write(to: root.appendingPathComponent("insert.png")) }
        let covers = HalfBlockPainter(cache: CoverCache(directory: nil, workers: 1), colorMode: .truecolor, symbols: .half) {}
        let shelfPainter = CoverPainter(pictures: painter, covers: covers, readyFlag: AtomicFlag())
        let issue = NewsstandKit.Issue(publicationId: 1, name: "monthly", date: Date(), title: "Monthly")
        return (try LoadedReader(issue: issue, root: root, painter: shelfPainter, view: view), root)
    }

    @Test func aFigureInTheTextViewIsDrawnFromItsRegionOfThePage() throws {
        let painter = RecordingPainter(answer: .ready(CellSize(columns: 30, rows: 6)))
        let (reader, root) = try Self.screen(painter: painter, view: .text)
        defer { try? FileManager.default.removeItem(at: root) }
        _ = reader.update(.key(.right))
        _ = reader.update(.key(.right))
        var canvas = Canvas(width: 80, height: 24)
        reader.draw(into: &canvas)
        let document = root.appendingPathComponent("issue.pdf").standardizedFileURL.resolvingSymlinksInPath()
        let figure = painter.painted.map(\.source).first { if case .page = $0 { return true } else { return false } }
        #expect(figure == .page(2, of: document, kind: .pdf, region: PageRegion(x0: 0.1, y0: 0.5, x1: 0.6, y1: 0.8)))
    }

    @Test func aPictureBesideThePDFIsAPageDrawnFromItsFile() throws {
        let painter = RecordingPainter(answer: .ready(CellSize(columns: 30, rows: 20)))
        let (reader, root) = try Self.screen(painter: painter, view: .pages, insert: true)
        defer { try? FileManager.default.removeItem(at: root) }
        _ = reader.update(.key(.character("G")))
        #expect(reader.pager.place == "page 6 of 6")
        var canvas = Canvas(width: 80, height: 24)
        reader.draw(into: &canvas)
        let picture = root.appendingPathComponent("insert.png").standardizedFileURL.resolvingSymlinksInPath()
        #expect(painter.painted.last?.source == .file(picture))
        _ = reader.update(.key(.character("v")))
        let before = painter.painted.count
        reader.draw(into: &canvas)
        #expect(painter.painted.dropFirst(before).contains { $0.source == .file(picture) }, "in the text view too")
    }

    /// In pixels the cells under a picture are not seen: the match is drawn into the page's
    /// pixels (multiplied by the match colour), the plain page shown until that is ready.
    @Test func inPixelsTheMatchIsDrawnIntoThePagesPixels() throws {
        TestPageRenderer.register()
        let ready = ReadySignal()
        let pixels = PixelPainter(cell: PixelSize(width: 8, height: 16), graphics: .kitty) { ready.onReady() }
        let covers = HalfBlockPainter(cache: CoverCache(directory: nil, workers: 1), colorMode: .truecolor, symbols: .half) {}
        let (reader, root) = try Self.screen(painter: pixels, covers: covers)
        defer { try? FileManager.default.removeItem(at: root) }
        for key in "/zebra" { _ = reader.update(.key(.character(key))) }
        _ = reader.update(.key(.enter))
        var canvas = Canvas(width: 80, height: 24)
        // The page fitted into 78×20 cells of 8×16 pixels is 213×320; “zebra” is 13–20.5 %
        // across and 20–25 % down: its middle about (36, 72), red paper there.
        let marked = ready.wait { () -> RGBAImage? in
            // Two frames, as the app draws one after the pictures changed: the second asks
            // for the marked page, wanted once the plain one is drawn in pixels.
            for _ in 0..<2 {
                canvas = Canvas(width: 80, height: 24)
                reader.draw(into: &canvas)
            }
            guard let image = canvas.pictures.last.flatMap({ pixels.image(numbered: $0.picture) }),
                  image.pixels[(72 * image.width + 36) * 4 + 2] != ReaderFixture.red.2 else { return nil }
            return image
        }
        let image = try #require(marked, "the marked page is drawn\n\(canvas.text)")
        func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(image.pixels[(y * image.width + x) * 4..<(y * image.width + x) * 4 + 3]) }
        // The one match is the current one: orange, not the yellow of the others.
        let tint = [CoverDress.currentMarker.0, CoverDress.currentMarker.1, CoverDress.currentMarker.2].map { Int($0) }
        let red = [ReaderFixture.red.0, ReaderFixture.red.1, ReaderFixture.red.2]
        #expect(pixel(36, 72) == zip(red, tint).map { UInt8(Int($0) * $1 / 255) }, "the match, seen through the marker")
        #expect(pixel(36, 30) == red && pixel(100, 72) == red, "above it and beside it, the page as it is")
        #expect(canvas[25, 6].glyph == "▶", "and ▶ beside its row, left of the page's cells\n\(canvas.text)")
    }

    @Test func fitWidthFillsTheWidthAndMovesDownThePage() throws {
        let painter = RecordingPainter(answer: .ready(CellSize(columns: 78, rows: 60)))
        let (reader, root) = try Self.screen(painter: painter, view: .pages)
        defer { try? FileManager.default.removeItem(at: root) }
        _ = reader.update(.key(.character("w")))
        #expect(reader.statusLine.text?.contains("Fit width") == true)
        _ = reader.update(.key(.character(" ")))
        #expect(reader.pager.index == 0, "Space moves down a tall page before turning it")
        var canvas = Canvas(width: 80, height: 24)
        reader.draw(into: &canvas)
        let call = try #require(painter.painted.last)
        #expect(call.layout.row > 0 && (call.layout.size?.rows ?? 0) > 20 * 2)
        _ = reader.update(.key(.character(" ")))
        _ = reader.update(.key(.character(" ")))
        #expect(reader.pager.index == 0, "60 rows in a window of 20: four screens")
        _ = reader.update(.key(.character(" ")))
        #expect(reader.pager.index == 1, "past the page's bottom, Space turns it")
        #expect(reader.pager.place == "page ii · 2 of 5")
    }
}

/// `read --plain` of a PDF issue: each page's words reflowed under the page's name, and a
/// page without a text layer says so.
@Suite(.serialized) struct PDFPlainTextTests {
    init() { TestDocument.register() }

    @Test func aPDFsPagesArePrintedOneAfterAnotherAndAPageWithoutTextSaysSo() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pdf-plain-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try TestDocument.magazine().data.write(to: root.appendingPathComponent("issue.pdf"))

        let text = try PlainText.render(directory: root, width: 60)

        let pages = text.components(separatedBy: "[page ").dropFirst().map { "[page " + $0 }
        #expect(pages.count == 5)
        #expect(pages[0].hasPrefix("[page i · 1 of 5]\n\nCover story\n"), "\(pages[0])")
        #expect(pages[1].hasPrefix("[page ii · 2 of 5]\n[this page has no text]\n"), "\(pages[1])")
        #expect(pages[2].contains("The tide tables for the month ahead.") && pages[2].contains("[image: Figure]"))
        #expect(pages[3].contains("A zebra was seen near the lighthouse."))
    }
}

@Suite(.serialized) struct PDFReaderGoldenTests {
    init() { TestDocument.register() }

    /// An encrypted PDF's prompt over the store: what is typed shows as dots.
    @Test func thePasswordPromptAt80By24() throws {
        let h = try PDFReaderTests.reading(.magazine(password: "x"), name: "locked-g")
        h.type("abc")
        let screen = h.settle()
        #expect(screen.row(22) == " Password for “Fixture”: •••▏")
        #expect(screen.row(23) == " type the password  Enter open  Esc give up")
    }
}

/// Words read ahead: a PDF page looked at in the pages view has its words reflowed in the
/// background, so switching it to the text view finds them read.
@Suite struct PDFTextAheadTests {
    /// The test reader's pages, with every page asked for recorded.
    final class RecordingTexts: DocumentTextReader, @unchecked Sendable {
        private let lock = NSLock()
        private var asked: [Int] = []
        var pagesAsked: [Int] { lock.withLock { asked } }
        /// Signalled at each page asked for.
        let asking = ReadySignal()
        func page(_ index: Int, of document: URL) throws -> TextDocument {
            lock.withLock { asked.append(index) }
            asking.onReady()
            return try TestDocumentTexts().page(index, of: document)
        }
        func pageTexts(of document: URL) throws -> [String] { try TestDocumentTexts().pageTexts(of: document) }
    }

    @Test func thePageShownInThePagesViewHasItsWordsReadAhead() throws {
        TestDocument.register()
        let recording = RecordingTexts()
        let texts = DocumentTexts()
        texts.register(recording, forExtension: "pdf")
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pdf-ahead-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try TestDocument.magazine().data.write(to: root.appendingPathComponent("issue.pdf"))
        let covers = HalfBlockPainter(cache: CoverCache(directory: nil, workers: 1), colorMode: .truecolor, symbols: .half) {}
        let painter = CoverPainter(pictures: covers, covers: covers, readyFlag: AtomicFlag())
        let issue = NewsstandKit.Issue(publicationId: 1, name: "monthly", date: Date(), title: "Monthly")
        let screen = try LoadedReader(issue: issue, root: root, painter: painter, view: .pages, texts: texts)
        _ = screen.update(.key(.character(" ")))
        _ = screen.update(.key(.character(" ")))
        // Page 3 (index 2) is on screen: its words are read without the text view being asked for.
        #expect(recording.asking.wait { recording.pagesAsked.contains(2) ? true : nil } == true, "\(recording.pagesAsked)")
        #expect(screen.locator.page == 2)
    }
}

