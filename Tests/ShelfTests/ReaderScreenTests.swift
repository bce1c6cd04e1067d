import Foundation
import Imaging
import IssueArchive
import Pictures
import Testing
import Terminal
@testable import NewsstandKit
@testable import Shelf

/// The reader through the in-memory terminal: contents, search, text width, progress,
/// comics, and the place kept across quitting.
@Suite(.serialized) struct ReaderContentsTests {
    @Test func tListsTheArticlesAndEnterJumpsToAHeadingInsideOne() throws {
        let h = try ShelfHarness.reading(ReaderFixture.magazine(), name: "harbour-1", width: 100, height: 30)
        var screen = h.settle()
        #expect(screen.text.contains("article 1 of 4"))
        #expect(screen.row(2).contains("Harbour News"))

        screen = h.key(.character("t"))
        #expect(screen.text.contains("Contents"))
        let listed = ["Harbour News", "The Lighthouse Keeper", "Night Watch", "Weather at Sea", "Letters to the Editor"]
        let rows = listed.map { title in screen.text.components(separatedBy: "\n").firstIndex { $0.contains(title) } }
        #expect(rows.allSatisfy { $0 != nil }, "\(screen.text)")
        #expect(rows.compactMap { $0 } == rows.compactMap { $0 }.sorted(), "entries in reading order")
        // The entry of the article being read is selected.
        let selected = screen.cells.filter { $0.style == h.app.env.theme.selection }.map(\.glyph).joined()
        #expect(selected.contains("Harbour News"))

        _ = h.key(.down)
        screen = h.key(.down)                       // Night Watch, inside the second article
        #expect(screen.cells.filter { $0.style == h.app.env.theme.selection }.map(\.glyph).joined().contains("Night Watch"))
        screen = h.key(.enter)
        #expect(screen.text.contains("article 2 of 4"))
        #expect(screen.row(2).contains("Night Watch"), "the heading is at the top:\n\(screen.text)")
        #expect(!screen.text.contains("Contents"))

        // G selects the last entry, the article the nav leaves out, titled by its heading.
        _ = h.key(.character("t"))
        _ = h.key(.character("G"))
        screen = h.key(.enter)
        #expect(screen.text.contains("article 4 of 4"))
        #expect(screen.text.contains("Dear editor"))

        // q and Escape close the contents, not the reader.
        _ = h.key(.character("t"))
        screen = h.key(.character("q"))
        #expect(h.app.state.screen == .reader)
        #expect(screen.text.contains("article 4 of 4"))
        _ = h.key(.character("t"))
        _ = h.key(.up)
        screen = h.key(.escape)
        #expect(screen.text.contains("article 4 of 4"), "Escape does not jump")
    }

    @Test func contentsEntriesFollowTheNavAndNameEveryArticle() throws {
        let h = try ShelfHarness(samples: false)
        let issue = try ReaderFixture.install(ReaderFixture.magazine(), in: h, name: "harbour-2")
        let root = h.library.downloads.contentDirectory(for: issue)
        let entries = ContentsEntry.entries(for: try IssueReader.open(directory: root), root: root)
        #expect(entries.map(\.title) == ["Harbour News", "The Lighthouse Keeper", "Night Watch", "Weather at Sea", "Letters to the Editor"])
        #expect(entries.map(\.article) == [0, 1, 1, 2, 3])
        #expect(entries.map(\.depth) == [0, 0, 1, 0, 0])
        #expect(entries[2].fragment == "night")
    }
}

@Suite(.serialized) struct ReaderSearchTests {
    func highlighted(_ screen: Canvas, _ style: Style) -> String {
        screen.cells.filter { $0.style.background == style.background && $0.style.foreground == style.foreground }.map(\.glyph).joined()
    }

    @Test func slashFindsMatchesAcrossArticlesAndNStepsThroughThem() throws {
        let h = try ShelfHarness.reading(ReaderFixture.magazine(), name: "harbour-3", width: 100, height: 30)
        _ = h.settle()
        let theme = h.app.env.theme

        _ = h.key(.character("/"))
        h.type("lightHOUSE")
        var screen = h.settle()
        #expect(screen.row(28).contains("/lightHOUSE"), "the prompt is on the status line")
        screen = h.key(.enter)
        #expect(screen.text.contains("article 1 of 4"))
        #expect(screen.text.contains("match 1 of 1"), "\(screen.text)")
        #expect(highlighted(screen, theme.selection) == "Lighthouse")

        screen = h.key(.character("n"))             // on into the second article
        #expect(screen.text.contains("article 2 of 4"))
        #expect(screen.text.contains("match 1 of 2"))
        #expect(highlighted(screen, theme.selection) == "LIGHTHOUSE")
        #expect(highlighted(screen, theme.readerMatch) == "lighthouse", "the other match on screen is marked too")

        screen = h.key(.character("n"))
        #expect(screen.text.contains("match 2 of 2"))
        #expect(highlighted(screen, theme.selection) == "lighthouse")
        screen = h.key(.character("n"))             // the third article has none
        #expect(screen.text.contains("article 4 of 4"))
        screen = h.key(.character("n"))             // round to the start
        #expect(screen.text.contains("article 1 of 4"))
        #expect(screen.text.contains("from the start of the issue"))
        screen = h.key(.character("N"))             // and back round the end
        #expect(screen.text.contains("article 4 of 4"))
        screen = h.key(.character("N"))
        #expect(screen.text.contains("article 2 of 4") && screen.text.contains("match 2 of 2"))

        // No match: said on the status line; the reader stays where it was.
        _ = h.key(.character("/"))
        h.type("zebra")
        screen = h.key(.enter)
        #expect(screen.text.contains("No match for “zebra”"))
        #expect(screen.text.contains("article 2 of 4"))

        // Non-ASCII, case-insensitive.
        _ = h.key(.character("/"))
        h.type("café")
        screen = h.key(.enter)
        #expect(screen.text.contains("article 1 of 4"), "\(screen.text)")
        #expect(highlighted(screen, theme.selection) == "CAFÉ")

        // Escape after a search clears its marks and stays in the issue.
        screen = h.key(.escape)
        #expect(h.app.state.screen == .reader)
        #expect(!highlighted(screen, theme.selection).contains("CAFÉ") && !highlighted(screen, theme.readerMatch).contains("CAFÉ"))

        // Escape leaves the prompt without searching.
        _ = h.key(.character("/"))
        h.type("harbour")
        screen = h.key(.escape)
        #expect(h.app.state.screen == .reader)
        #expect(!screen.row(28).contains("/harbour"))
        // With nothing to cancel, Escape goes back.
        _ = h.key(.escape)
        #expect(h.app.state.quit || h.app.state.screen != .reader)
    }
}

@Suite(.serialized) struct ReaderWidthTests {
    /// The widest extent of text on the text rows.
    func textColumns(_ screen: Canvas) -> Int {
        var widest = 0
        for y in 2..<(screen.height - 2) {
            let row = screen.row(y)
            guard let first = row.firstIndex(where: { $0 != " " }) else { continue }
            let trimmed = row[first...]
            widest = max(widest, trimmed.count)
        }
        return widest
    }

    @Test func plusAndMinusChangeTheWidthAndKeepTheSameTextOnTop() throws {
        let h = try ShelfHarness.reading(ReaderFixture.magazine(), name: "harbour-4", width: 120, height: 30)
        var screen = h.key(.right)                  // the long second article
        #expect(textColumns(screen) <= 80 && textColumns(screen) > 70)
        for _ in 0..<3 { screen = h.key(.pageDown) }
        while screen.row(2).trimmingCharacters(in: .whitespaces).isEmpty { screen = h.key(.down) }
        let word = try #require(screen.row(2).split(separator: " ").first.map(String.init))
        #expect(word.hasPrefix("bp"), "\(screen.text)")

        screen = h.key(.character("-"))
        screen = h.key(.character("-"))
        #expect(textColumns(screen) <= 60 && textColumns(screen) > 50)
        #expect(screen.row(2).contains(word), "\(word) stays on the top line:\n\(screen.text)")
        #expect(screen.text.contains("Text width 60 columns"))

        for _ in 0..<10 { screen = h.key(.character("-")) }
        #expect(textColumns(screen) <= 30)
        #expect(screen.text.contains("Text width 30 (30–200 columns)"))
        #expect(screen.row(2).contains(word) || screen.row(1).contains(word) || screen.row(3).contains(word))
        screen = h.key(.character("+"))
        #expect(textColumns(screen) <= 40 && textColumns(screen) > 30)
        #expect(screen.row(2).contains(word), "\(screen.text)")

        // The place is saved; the width is a preference, kept for the session when another issue opens.
        _ = h.key(.character("q"))
        let stored = try #require(try h.library.store.issue(named: "harbour-4")?.locator)
        #expect(stored.resource == "OEBPS/ch2.xhtml" && stored.text != nil)
        #expect(h.app.readerPreferences.textWidth == 40)
    }

    @Test func resizingTheWindowKeepsTheSameTextOnTop() throws {
        let h = try ShelfHarness.reading(ReaderFixture.magazine(), name: "harbour-10", width: 120, height: 30)
        var screen = h.key(.right)
        for _ in 0..<2 { screen = h.key(.pageDown) }
        while screen.row(2).trimmingCharacters(in: .whitespaces).isEmpty { screen = h.key(.down) }
        let word = try #require(screen.row(2).split(separator: " ").first.map(String.init))
        screen = h.send(.resize(width: 44, height: 20))
        #expect(screen.row(2).contains(word), "\(word) after shrinking:\n\(screen.text)")
        screen = h.send(.resize(width: 200, height: 50))
        #expect(screen.row(2).contains(word), "\(word) after growing:\n\(screen.text)")
    }

    @Test func theReaderTakesTheTerminalsSizeWhenTheProgramStarts() throws {
        // `newsstand read` opens the reader before the run loop knows the terminal.
        let h = try ShelfHarness.reading(ReaderFixture.magazine(), name: "harbour-11", width: 80, height: 24)
        let backend = MemoryBackend(width: 120, height: 30)
        backend.send(keys: [.right, .control("c")])
        h.app.run(backend: backend)
        #expect(backend.screen.row(0).contains("article 2 of 4"))
        // An 80-column text centred in 120 columns, not the 76 that fit 80.
        #expect(backend.screen.row(2).hasPrefix(String(repeating: " ", count: 20) + "Keeper of the Light"), "\(backend.screen.text)")
    }

    @Test func theSavedPlaceIsTheSameTextInAWindowOfAnotherWidth() throws {
        let h = try ShelfHarness.reading(ReaderFixture.magazine(), name: "harbour-5", width: 120, height: 30)
        _ = h.key(.right)
        var screen = h.settle()
        for _ in 0..<4 { screen = h.key(.pageDown) }
        for _ in 0..<3 { screen = h.key(.down) }
        while screen.row(2).trimmingCharacters(in: .whitespaces).isEmpty { screen = h.key(.down) }
        let word = try #require(screen.row(2).split(separator: " ").first.map(String.init))
        _ = h.key(.character("q"))
        let stored = try #require(try h.library.store.issue(named: "harbour-5")?.locator)
        #expect(stored.text != nil)

        // Another session, in a window only 50 columns wide: lines differ, the text does not.
        let reopened = try h.restart(reading: "harbour-5", width: 50, height: 30)
        screen = reopened.render()
        #expect(screen.text.contains("article 2 of 4"))
        #expect(screen.row(2).contains(word), "\(word) on top after reopening:\n\(screen.text)")
    }
}

@Suite(.serialized) struct ReaderProgressTests {
    func percent(_ screen: Canvas) throws -> Int {
        let status = screen.row(screen.height - 2)
        let match = try #require(status.range(of: #"read (\d+)%"#, options: .regularExpression))
        return try #require(Int(status[match].dropFirst(5).dropLast()))
    }

    @Test func theStatusLineShowsHowFarThroughTheIssueAndTheTileAgrees() throws {
        let h = try ShelfHarness.reading(ReaderFixture.magazine(), name: "harbour-6", width: 100, height: 30)
        var screen = h.settle()
        let start = try percent(screen)
        screen = h.key(.right)
        let second = try percent(screen)
        for _ in 0..<3 { screen = h.key(.pageDown) }
        let later = try percent(screen)
        #expect(start < second && second < later, "\(start) \(second) \(later)")
        screen = h.key(.character("q"))
        #expect(screen.text.contains("read \(later)%"), "the store tile shows the same figure:\n\(screen.text)")
        // The end of the last article is the whole issue.
        screen = h.key(.enter)
        _ = h.key(.character("t"))
        _ = h.key(.character("G"))
        screen = h.key(.enter)
        #expect(try percent(screen) == 100)
        #expect(h.key(.character(" ")).text.contains("The end of the issue."))
    }
}

@Suite(.serialized) struct ReaderImageTests {
    @Test func aPictureThatCannotBeDrawnShowsItsDescription() throws {
        let h = try ShelfHarness.reading(ReaderFixture.magazine(), name: "harbour-9", width: 100, height: 30)
        _ = h.key(.right)
        _ = h.key(.right)
        let screen = h.waitFor { $0.text.contains("[image: Broken chart]") }
        #expect(screen.text.contains("article 3 of 4"))
        #expect(screen.text.contains("[image: Broken chart]"), "\(screen.text)")
        #expect(h.key(.character("G")).text.contains("[image: Missing map]"))
    }
}

@Suite(.serialized) struct ReaderLongArticleTests {
    @Test func theFirstPartReadsExactlyAsTheWholeArticleBegins() throws {
        let data = try #require(ReaderFixture.longArticle()["OEBPS/ch1.xhtml"])
        let first = try #require(ArticleDocument.firstPart(of: data, .html))
        #expect(first.count >= ArticleDocument.firstPartBytes && first.count < data.count / 4)
        #expect(String(decoding: first.suffix(4), as: UTF8.self) == "</p>")
        let part = ArticleDocument.parse(first, .html)
        let whole = ArticleDocument.parse(data, .html)
        #expect(part.blocks.count > 300)
        #expect(Array(whole.blocks.prefix(part.blocks.count)) == part.blocks)
        #expect(part.title == whole.title)
        // Short articles and other kinds are read whole.
        #expect(ArticleDocument.firstPart(of: Data(repeating: 0x41, count: 1000), .html) == nil)
        #expect(ArticleDocument.firstPart(of: data, .markdown) == nil)
    }

    @Test func aLongArticleOpensAndTheWholeOfItCanBeReadSearchedAndResumed() throws {
        let h = try ShelfHarness.reading(ReaderFixture.longArticle(), name: "long-1", width: 100, height: 30)
        var screen = h.settle()
        #expect(screen.row(2).contains("Section 0"))
        screen = h.key(.character("G"))                 // needs the whole article
        #expect(screen.text.contains("cp3999w13"), "\(screen.text)")
        // By size, the long first article is nearly all of the issue.
        #expect(try ReaderProgressTests().percent(screen) >= 95)
        _ = h.key(.character("g"))
        _ = h.key(.character("/"))
        h.type("cp3990w5")
        screen = h.key(.enter)
        #expect(screen.text.contains("match 1 of 1"))
        #expect(screen.cells.filter { $0.style == h.app.env.theme.selection }.map(\.glyph).joined() == "cp3990w5")
        for _ in 0..<3 { screen = h.key(.down) }
        while screen.row(2).trimmingCharacters(in: .whitespaces).isEmpty { screen = h.key(.down) }
        let top = screen.row(2)
        _ = h.key(.character("q"))

        // Reopened in another session: the place is far beyond the first part.
        let again = try h.restart(reading: "long-1", width: 100, height: 30)
        #expect(again.render().row(2) == top)
    }
}

@Suite(.serialized) struct ReaderAutosaveTests {
    @Test func thePlaceIsSavedWhileReadingNotOnlyOnQuit() throws {
        let clock = TestClock()
        let h = try ShelfHarness.reading(ReaderFixture.magazine(), name: "harbour-8", width: 100, height: 30, clock: clock)
        _ = h.settle()
        _ = h.key(.right)
        var stored = try #require(try h.library.store.issue(named: "harbour-8")?.locator)
        #expect(stored.resource == "OEBPS/ch2.xhtml")
        // Within a second, moves are not written again; after it, the next key saves.
        _ = h.key(.pageDown)
        stored = try #require(try h.library.store.issue(named: "harbour-8")?.locator)
        #expect(stored.text == Locator.TextPlace(block: 0, offset: 0))
        clock.advance(by: 1.1)
        _ = h.key(.down)
        stored = try #require(try h.library.store.issue(named: "harbour-8")?.locator)
        #expect(stored.text != Locator.TextPlace(block: 0, offset: 0), "\(stored)")
        #expect(h.app.state.screen == .reader)
    }
}

@Suite(.serialized) struct ReaderComicTests {
    @Test func aPageFitsTheWindowZoomsPansAndTurns() throws {
        let h = try ShelfHarness.reading(try ReaderFixture.comic(manga: false), name: "badger-1", width: 100, height: 30)
        var screen = h.waitFor { !$0.cells(near: ReaderFixture.red).isEmpty }
        #expect(screen.text.contains("page 1 of 3"))
        let red = screen.cells(near: ReaderFixture.red)
        let blue = screen.cells(near: ReaderFixture.blue)
        // Fitted: the page's height fills the rows between the bars.
        #expect(Set((red + blue).map(\.y)).count >= 24, "\(Set((red + blue).map(\.y)).count) rows")
        #expect((red + blue).allSatisfy { $0.y >= 2 && $0.y < 28 })
        #expect(Set(red.map(\.x)).count < 40)

        // Zoom: the page grows past the window; panning up shows only red, down only blue.
        for _ in 0..<3 { _ = h.key(.character("+")) }
        screen = h.waitFor { $0.text.contains("zoom 300%") && Set($0.cells(near: ReaderFixture.red).map(\.x)).count > 60 }
        #expect(screen.text.contains("zoom 300%"))
        #expect(Set(screen.cells(near: ReaderFixture.red).map(\.x)).count > 60, "\(screen.text)")
        for _ in 0..<8 { _ = h.key(.up) }
        screen = h.settle()
        #expect(screen.cells(near: ReaderFixture.blue).isEmpty && !screen.cells(near: ReaderFixture.red).isEmpty)
        for _ in 0..<16 { _ = h.key(.character("j")) }
        screen = h.settle()
        #expect(screen.cells(near: ReaderFixture.red).isEmpty && !screen.cells(near: ReaderFixture.blue).isEmpty)
        #expect(screen.text.contains("100%↓"))
        for _ in 0..<4 { _ = h.key(.character("l")) }
        screen = h.settle()
        #expect(screen.text.contains("100%→"))
        #expect(screen.text.contains("page 1 of 3"), "panning does not turn the page")
        _ = h.key(.character("Z"))
        _ = h.key(.character("-"))
        screen = h.key(.character("-"))
        #expect(!screen.row(0).contains("zoom"))

        // A comic without chapters lists its pages; Enter opens one.
        screen = h.key(.character("t"))
        #expect(screen.text.contains("Page 1") && screen.text.contains("Page 3"))
        _ = h.key(.down)
        screen = h.key(.enter)
        #expect(screen.text.contains("page 2 of 3"))
        screen = h.key(.character("g"))
        #expect(screen.text.contains("page 1 of 3"))

        // Pages: Space on, Backspace back (Backspace does not leave the reader in a comic).
        screen = h.key(.character(" "))
        screen = h.waitFor { !$0.cells(near: ReaderFixture.green).isEmpty }
        #expect(screen.text.contains("page 2 of 3"))
        screen = h.key(.backspace)
        #expect(screen.text.contains("page 1 of 3"))
        #expect(h.app.state.screen == .reader)
        _ = h.key(.pageDown)
        _ = h.key(.right)
        screen = h.key(.pageDown)
        #expect(screen.text.contains("page 3 of 3"))
        #expect(screen.text.contains("The last page."))
        // Pages far behind are let go (the first page, drawn at several zooms).
        _ = h.waitFor { !$0.cells(near: ReaderFixture.blue).isEmpty }
        let halfBlocks = try #require(h.app.painter.pictures as? HalfBlockPainter)
        let kept = halfBlocks.keptSources.compactMap(\.file).map(\.lastPathComponent)
        #expect(!kept.contains("page01.png") && kept.contains("page03.png"), "\(kept)")
        #expect(try ReaderProgressTests().percent(screen) == 100)

        // The page is the saved place.
        screen = h.key(.pageUp)
        _ = h.key(.character("q"))
        let stored = try #require(try h.library.store.issue(named: "badger-1")?.locator)
        #expect(stored.page == 1)
        screen = h.key(.enter)
        #expect(screen.text.contains("page 2 of 3"))
    }

    @Test func mangaTurnsPagesRightToLeft() throws {
        let h = try ShelfHarness.reading(try ReaderFixture.comic(manga: true), name: "badger-2", width: 100, height: 30)
        var screen = h.settle()
        #expect(screen.text.contains("page 1 of 3"))
        screen = h.key(.left)
        #expect(screen.text.contains("page 2 of 3"), "← is the next page in a manga")
        screen = h.key(.right)
        #expect(screen.text.contains("page 1 of 3"))
        screen = h.key(.character(" "))
        #expect(screen.text.contains("page 2 of 3"), "Space is always the next page")
    }
}

@Suite(.serialized) struct ReaderHelpTests {
    @Test func helpFromTheReaderListsItsKeysFirst() throws {
        let h = try ShelfHarness.reading(ReaderFixture.magazine(), name: "harbour-7", width: 100, height: 40)
        _ = h.settle()
        let help = h.key(.character("?")).text
        for key in ["table of contents", "search this article", "next, previous match", "text width", "zoom in, out", "pan when zoomed"] {
            #expect(help.contains(key), "\(key) missing from help:\n\(help)")
        }
        let screen = h.key(.character("q"))
        #expect(screen.text.contains("article 1 of 4"), "q closes the help, back to the reader")
        #expect(screen.text.contains("t contents") && screen.text.contains("/ search"), "hint bar")
    }
}
