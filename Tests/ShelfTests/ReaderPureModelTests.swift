import Foundation
import Imaging
import IssueArchive
import Pictures
import Testing
import Terminal
import TextLayout
@testable import NewsstandKit
@testable import Shelf

/// The reader's model with no files and no worker behind it: the issue is values, articles
/// arrive as messages, and the test reads what the model asks to have read and what it shows.
@Suite struct ReaderPureModelTests {
    static let content = IssueContent(format: .epub, metadata: IssueMetadata(title: "Harbour Monthly"),
                                      readingOrder: (1...3).map { Resource(path: "ch\($0).xhtml", mediaType: "application/xhtml+xml") })

    /// An article of `paragraphs` paragraphs whose words are `tag`p0w0, `tag`p0w1…, then `last`.
    static func article(_ tag: String, paragraphs: Int = 30, last: String = "") -> LoadedArticle {
        let text = (0..<paragraphs).map { ReaderFixture.paragraph(tag, $0) }.joined(separator: "\n\n") + "\n\n" + last
        return LoadedArticle(document: PlainTextReader.document(text: text), pictures: [:])
    }

    /// Opened at the start, the first article read already (as the app's open reads it).
    static func opened() -> ReaderScreen {
        let issue = Issue(id: 1, publicationId: 1, name: "harbour", date: Date(timeIntervalSince1970: 0), title: "Harbour")
        let source = ReaderSource(issue: issue, content: content, folder: "/nowhere/", weights: [1, 1, 1], isDocument: false,
                                  pages: [], articles: [0: article("a", last: "The lighthouse at dusk.")])
        let epoch = Date(timeIntervalSince1970: 0)
        return ReaderScreen(source, theme: .classic, size: (80, 24), clock: { epoch })
    }

    static func text(_ reader: ReaderScreen) -> String {
        var canvas = Canvas(width: 80, height: 24)
        reader.view(into: &canvas)
        return canvas.text
    }

    @Test func articlesAreAskedForAndKeysWaitForThem() {
        var reader = Self.opened()
        #expect(reader.start() == [.load(.article(1)), .syncPlace(leaving: false)], "the next article is read ahead, the place synced")
        #expect(Self.text(reader).contains("ap0w0"))

        // The second article is not here yet: the reader is on it, and waits.
        let turned = reader.update(.key(.right))
        #expect(turned.contains(.load(.article(2))))
        #expect(turned.contains { if case .save(let place) = $0 { return place.resource == "ch2.xhtml" } else { return false } })
        #expect(Self.text(reader).contains("article 2 of 3"))
        #expect(!Self.text(reader).contains("bp0w0"))
        #expect(reader.update(.key(.pageDown)).isEmpty, "a page turn waits for the article: nothing read twice")

        // It arrives: shown, and the page turn that waited is done.
        _ = reader.update(.loaded(.article(1, .success(Self.article("b")))))
        let shown = Self.text(reader)
        #expect(!shown.contains("bp0w0"), "turned a page on:\n\(shown)")
        #expect(shown.contains("bp"), "\(shown)")
        #expect((reader.pager as? TextPager)?.top ?? 0 > 0)
    }

    @Test func searchBeyondTheArticleIsAskedForAndItsAnswerShown() {
        var reader = Self.opened()
        _ = reader.start()
        _ = reader.update(.loaded(.article(1, .success(Self.article("b")))))
        _ = reader.update(.key(.right))
        _ = reader.update(.key(.character("/")))
        for character in "lighthouse" { _ = reader.update(.key(.character(character))) }
        let width = ReaderFrame(width: 80, height: 24).column(TextPager.defaultTextWidth)
        let asked = reader.update(.key(.enter))
        #expect(asked.contains(.load(.findArticle(query: "lighthouse", from: 1, forward: true, width: width))), "\(asked)")
        #expect(reader.statusLine.text == "Searching…")

        let first = Self.article("a", last: "The lighthouse at dusk.")
        let laidOut = ArticleText(document: first.document, width: width)
        let matches = laidOut.matches(of: "lighthouse")
        _ = reader.update(.loaded(.articleFound(query: "lighthouse", forward: true,
                                                FoundArticle(article: 0, loaded: first, laidOut: laidOut, matches: matches))))
        #expect(reader.statusLine.text == "“lighthouse”: match 1 of 1 in this article (from the start of the issue)")
        let shown = Self.text(reader)
        #expect(shown.contains("article 1 of 3") && shown.contains("The lighthouse at dusk."), "\(shown)")
    }

    @Test func escapeClearsTheSearchBeforeItLeaves() {
        var screen = Self.opened()
        _ = screen.start()
        var reader = ReaderAdapter(screen: screen, session: 7)
        for key in [Key.character("/")] + "lighthouse".map(Key.character) + [.enter] { _ = reader.update(key, bindings: .defaults) }
        #expect(reader.screen.pager.showsMatches)
        #expect(reader.screen.statusLine.text?.contains("match 1 of 1") == true)

        let first = reader.update(.escape, bindings: .defaults)
        #expect(!first.contains(.leave), "Escape first clears the search")
        #expect(!reader.screen.pager.showsMatches)
        #expect(reader.update(.escape, bindings: .defaults).contains(.leave), "then it goes back")

        // What was read for another reader is not this one's.
        #expect(reader.loaded(ReaderResult(session: 8, loaded: .article(1, .success(Self.article("b"))))).isEmpty)
    }

    /// A comic whose pages are files that do not exist, in a folder that does not exist.
    static let folder = URL(fileURLWithPath: "/nowhere-\(UUID().uuidString)/comic", isDirectory: true)
    static func page(_ number: Int) -> ImageSource { .file(folder.appendingPathComponent("p\(number).png")) }

    static func comic() -> ReaderScreen {
        let content = IssueContent(format: .cbz, metadata: IssueMetadata(title: "Night Trains"),
                                   readingOrder: (1...3).map { Resource(path: "p\($0).png", mediaType: "image/png") })
        let issue = Issue(id: 2, publicationId: 1, name: "trains", date: Date(timeIntervalSince1970: 0), title: "Night Trains")
        let pages = (1...3).map { ReaderPage(resource: "p\($0).png", picture: page($0), text: nil) }
        let source = ReaderSource(issue: issue, content: content, folder: folder.path + "/", weights: [1, 1, 1], isDocument: false,
                                  pages: pages)
        return ReaderScreen(source, theme: .classic, size: (80, 24), clock: { Date(timeIntervalSince1970: 0) })
    }

    /// #29 item 2: the reader's update and view touch no file and start no render. Its
    /// pictures are on a disk that does not exist: the model only says which it wants, the
    /// frame shows them as coming, and nothing has looked at them; the app's painter,
    /// asked after the frame, is the first to (the cache then knows the file is missing),
    /// and what it found comes back as a message the view draws.
    @Test func updateAndViewAskForPicturesAndNeverDrawThemThemselves() throws {
        var reader = Self.comic()
        _ = reader.start()
        for message in [ReaderMessage.resize(width: 100, height: 30), .key(.character(" ")), .key(.character("+")),
                        .key(.character("-")), .backgroundReady] {
            _ = reader.update(message)
        }
        #expect(!FileManager.default.fileExists(atPath: Self.folder.deletingLastPathComponent().path))
        var canvas = Canvas(width: 100, height: 30)
        reader.view(into: &canvas)
        #expect(canvas.text.contains("page 2 of 3") && canvas.text.contains("Drawing the page…"), "\(canvas.text)")

        let wants = reader.wantedPictures
        let box = ReaderFrame(width: 100, height: 30).pageView
        let shown = PictureRequest(source: Self.page(2), size: CellSize(columns: box.width, rows: box.height))
        #expect(wants.shown == [shown])
        #expect(wants.ahead == [PictureRequest(source: Self.page(3), size: shown.size)], "the next page read ahead")
        #expect(wants.release == PictureRelease(folder: Self.folder.path + "/", kept: [Self.page(1), Self.page(2), Self.page(3)]))

        // Nothing has asked for the picture yet: the cache has no answer for it.
        let ready = ReadySignal()
        let halfBlocks = HalfBlockPainter(cache: CoverCache(directory: nil, workers: 1), colorMode: .truecolor, symbols: .half,
                                          onReady: ready.onReady)
        #expect(halfBlocks.cache.error(for: shown.source, options: halfBlocks.options(for: shown.size)) == nil)

        // The app's part, after the frame: prepared, and the answer sent back.
        let painter = CoverPainter(pictures: halfBlocks, covers: halfBlocks, readyFlag: AtomicFlag())
        let prepared = try #require(ready.wait { () -> PreparedPictures? in
            let prepared = painter.prepare(pictures: reader.wantedPictures)
            return prepared.state(of: shown.source, fittedIn: shown.size) == .pending ? nil : prepared
        })
        #expect(halfBlocks.cache.error(for: shown.source, options: halfBlocks.options(for: shown.size)) != nil)
        #expect(reader.update(.loaded(.pictures(prepared))).isEmpty)
        canvas = Canvas(width: 100, height: 30)
        reader.view(into: &canvas)
        #expect(canvas.text(row: 2).contains("This page cannot be shown: "), "\(canvas.text)")
    }

    /// A PDF of three pages whose pictures and texts are nowhere: the model is told them.
    static func pdf() -> ReaderScreen {
        let document = URL(fileURLWithPath: "/nowhere-\(UUID().uuidString)/issue.pdf")
        let content = IssueContent(format: IssueFormat(rawValue: "pdf"), metadata: IssueMetadata(title: "Tides"),
                                   readingOrder: (1...3).map { Resource(path: "issue.pdf#page=\($0)", mediaType: "application/pdf") })
        let issue = Issue(id: 3, publicationId: 1, name: "tides", date: Date(timeIntervalSince1970: 0), title: "Tides")
        let pages = (0..<3).map { ReaderPage(resource: "issue.pdf#page=\($0 + 1)", picture: .page($0, of: document, kind: .pdf), text: nil) }
        let source = ReaderSource(issue: issue, content: content, folder: "/nowhere/", weights: [1, 1, 1], isDocument: true, pages: pages)
        return ReaderScreen(source, theme: .classic, size: (80, 24), clock: { Date(timeIntervalSince1970: 0) })
    }

    /// A search in the pages view: the page found is turned to, where its text holds the query
    /// is asked for, and the answer marked over the page's cells and beside its row; `v`
    /// takes the search to the text view, and the progress there is the same figure.
    @Test func aPageFoundAsksWhereItHoldsTheQueryAndMarksIt() throws {
        var reader = Self.pdf()
        _ = reader.start()
        var asked: [ReaderEffect] = []
        for key in [Key.character("/")] + "tide".map(Key.character) + [.enter] { asked = reader.update(.key(key)) }
        #expect(asked.contains(.load(.findPage(query: "tide", from: 0, forward: true, firstStep: 0))))
        let turned = reader.update(.loaded(.pageFound(query: "tide", forward: true, page: 1, count: 1, matches: [])))
        #expect(turned.contains(.load(.matchBoxes(query: "tide", page: 1))), "\(turned)")
        #expect(reader.statusLine.right == "read 66% ")

        // The page in 20×20 white cells, centred from column 30; the match 50–60 % across, 40–45 % down.
        let shown = try #require(reader.wantedPictures.shown.first)
        #expect(reader.pager.index == 1 && shown.size == CellSize(columns: 78, rows: 20))
        var prepared = PreparedPictures()
        prepared.ready[shown] = .cells(CellPicture(columns: 20, rows: 20,
                                                    filledWith: PictureCell(glyph: "▀", foreground: .rgb(255, 255, 255), background: .rgb(255, 255, 255))))
        _ = reader.update(.loaded(.pictures(prepared)))
        _ = reader.update(.loaded(.matchBoxes(query: "tide", page: 1, [[PageBox(x0: 0.5, y0: 0.4, x1: 0.6, y1: 0.45)]])))
        var canvas = Canvas(width: 80, height: 24)
        reader.view(into: &canvas)
        #expect(canvas[29, 10].glyph == "▶", "beside the page's row 8 of 20\n\(canvas.text)")
        let marked = (30..<50).filter { canvas[$0, 10].style.background == Theme.classic.readerMatch.background }
        #expect(marked == [40, 41], "the page's columns 10–11 of 20, white through the marker")
        #expect(canvas[40, 9].style.background == .rgb(255, 255, 255) && canvas[42, 10].style.background == .rgb(255, 255, 255))

        _ = reader.update(.key(.character("v")))
        #expect(reader.pager.query == "tide", "the search goes on in the text view")
        #expect(reader.statusLine.right == "read 66% ")
    }

    /// A green highlight on page 2 and an underlined one: where their words are is asked
    /// for once the page is shown, and each is marked over the page's cells in its own look
    /// (no ▶: that marks a search's matches).
    @Test func aPagesHighlightsAreAskedForAndMarkedInTheirColours() throws {
        var reader = Self.pdf()
        _ = reader.start()
        _ = reader.update(.key(.character("]")))
        func highlight(_ words: String, _ color: Highlight.Color) -> Highlight {
            Highlight(issueID: 3, locator: Locator(resource: "issue.pdf#page=2", progression: 0, totalProgression: 0.5, page: 1, updated: Date(timeIntervalSince1970: 0)),
                      position: 1, textOffset: 0, quote: TextQuoteSelector(exact: words), color: color,
                      created: Date(timeIntervalSince1970: 0))
        }
        let green = highlight("low tide", .green), lined = highlight("high water", .underline)
        let elsewhere = Highlight(issueID: 3, locator: Locator(resource: "issue.pdf#page=3", progression: 0, totalProgression: 1, page: 2, updated: Date(timeIntervalSince1970: 0)),
                                  position: 2, textOffset: 0, quote: TextQuoteSelector(exact: "moon"), created: Date(timeIntervalSince1970: 0))
        let asked = reader.update(.loaded(.highlights([green, lined, elsewhere])))
        #expect(asked.contains(.load(.highlightBoxes(page: 1, quotes: [green.quote, lined.quote]))), "only this page's, once: \(asked)")
        #expect(!reader.update(.backgroundReady).contains { if case .load(.highlightBoxes) = $0 { true } else { false } })

        let shown = try #require(reader.wantedPictures.shown.first)
        var prepared = PreparedPictures()
        prepared.ready[shown] = .cells(CellPicture(columns: 20, rows: 20,
                                                    filledWith: PictureCell(glyph: "▀", foreground: .rgb(255, 255, 255), background: .rgb(255, 255, 255))))
        _ = reader.update(.loaded(.pictures(prepared)))
        // The green words 50–60 % across, 40–45 % down (row 8 of 20, columns 10–11); the
        // underlined ones 20–30 % across on row 12 of 20 (columns 4–5).
        _ = reader.update(.loaded(.highlightBoxes(page: 1, quotes: [green.quote, lined.quote],
                                                  [[PageBox(x0: 0.5, y0: 0.4, x1: 0.6, y1: 0.45)], [PageBox(x0: 0.2, y0: 0.6, x1: 0.3, y1: 0.65)]])))
        var canvas = Canvas(width: 80, height: 24)
        reader.view(into: &canvas)
        let greenInk = try #require(Highlight.Color.green.tint)
        let tinted = (30..<50).filter { canvas[$0, 10].style.background == .rgb(greenInk.0, greenInk.1, greenInk.2) }
        #expect(tinted == [40, 41], "white paper seen through the green ink\n\(canvas.text)")
        let underlined = (30..<50).filter { canvas[$0, 14].style.attributes.contains(.underline) }
        #expect(underlined == [34, 35], "the underline highlight underlines its cells")
        #expect(canvas[34, 14].style.background == .rgb(255, 255, 255), "and keeps their colour")
        #expect(!canvas.text.contains("▶"), "highlights have no margin mark")

        // Recoloured, the same boxes in the new colour, nothing asked again.
        var pink = green
        pink.color = .pink
        _ = reader.update(.loaded(.highlights([pink, lined])))
        #expect(!reader.update(.backgroundReady).contains { if case .load(.highlightBoxes) = $0 { true } else { false } })
        canvas = Canvas(width: 80, height: 24)
        reader.view(into: &canvas)
        let pinkInk = try #require(Highlight.Color.pink.tint)
        #expect(canvas[40, 10].style.background == .rgb(pinkInk.0, pinkInk.1, pinkInk.2))
    }

    /// In pixels the cells are not seen: the highlights are drawn into the page's pixels, in
    /// their colours (an underline as a line), under the search's matches.
    @Test func inPixelsAPagesHighlightsAreThePicturesDress() throws {
        var reader = Self.pdf()
        _ = reader.start()
        let quote = TextQuoteSelector(exact: "low tide")
        let blue = Highlight(issueID: 3, locator: Locator(resource: "issue.pdf#page=1", progression: 0, totalProgression: 0, page: 0, updated: Date(timeIntervalSince1970: 0)),
                             position: 0, textOffset: 0, quote: quote, color: .blue, created: Date(timeIntervalSince1970: 0))
        _ = reader.update(.loaded(.highlights([blue])))
        let plain = try #require(reader.wantedPictures.shown.first)
        var prepared = PreparedPictures()
        prepared.ready[plain] = .painted(CellSize(columns: 20, rows: 20))
        _ = reader.update(.loaded(.pictures(prepared)))
        #expect(reader.wantedPictures.shown.count == 1, "no dress before the boxes are here")
        let box = PageBox(x0: 0.5, y0: 0.4, x1: 0.6, y1: 0.45)
        _ = reader.update(.loaded(.highlightBoxes(page: 0, quotes: [quote], [[box]])))
        let dressed = try #require(reader.wantedPictures.shown.dropFirst().first?.dress)
        let region = try #require(PageRegion(x0: 0.5, y0: 0.4, x1: 0.6, y1: 0.45))
        #expect(dressed.marks == [PageMarkPaint(region: region, rgb: try #require(Highlight.Color.blue.tint))])
    }
}
