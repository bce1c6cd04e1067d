import Foundation
import Imaging
import Testing
import Terminal
import TextLayout
@testable import NewsstandKit
@testable import Shelf

/// A reader opened straight on an issue's files in a folder: the model alone, no library,
/// no terminal, and a clock the test moves.
final class OpenReader {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-reader-\(UUID().uuidString)")
    let clock = TestClock()
    let painter = CoverPainter(cache: CoverCache(directory: nil), colorMode: .truecolor, symbols: .half)

    init(_ files: [String: Data]) throws {
        for (path, data) in files {
            let file = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: file)
        }
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// Opens the issue as the app would: at `locator`, else at a place older versions saved
    /// (as the library's migration keeps it).
    func open(locator: Locator? = nil, legacy: String? = nil, progress: Double? = nil,
              width: Int = 100, height: Int = 30) throws -> LoadedReader {
        var issue = Issue(id: 1, publicationId: 1, name: "fixture", date: Date(timeIntervalSince1970: 0), title: "Fixture")
        issue.status = .available
        issue.locator = locator ?? legacy.flatMap { Locator(legacyPosition: $0, progress: progress, updated: Date(timeIntervalSince1970: 0)) }
        return try LoadedReader(issue: issue, root: root, painter: painter, size: (width, height), clock: { [clock] in clock.now })
    }

    /// The reader's view alone, on a canvas of its window's size.
    func screen(_ reader: LoadedReader) -> Canvas {
        var canvas = Canvas(width: reader.frame.width, height: reader.frame.height)
        reader.draw(into: &canvas)
        return canvas
    }

    /// Sends keys; every effect they asked for, in order.
    func press(_ keys: Key..., on reader: LoadedReader) -> [ReaderEffect] {
        keys.flatMap { reader.update(.key($0)) }
    }
}

@Suite struct ReaderEffectTests {
    @Test func movingAsksToSaveThePlaceAtMostOnceASecondByTheReadersClock() throws {
        let files = try OpenReader(ReaderFixture.magazine())
        let reader = try files.open()
        let first = files.press(.right, on: reader)
        guard case .save(let saved)? = first.first, first.count == 1 else { Issue.record("no save: \(first)"); return }
        #expect(saved.resource == "OEBPS/ch2.xhtml")
        #expect(saved.text == Locator.TextPlace(block: 0, offset: 0))
        #expect(saved.updated == files.clock.now)

        #expect(files.press(.pageDown, .down, on: reader).isEmpty, "moved within the second: not saved yet")
        files.clock.advance(by: 1.1)
        let later = files.press(.down, on: reader)
        guard case .save(let moved)? = later.first else { Issue.record("no save after a second: \(later)"); return }
        #expect(moved.text != saved.text && moved.totalProgression > saved.totalProgression)

        files.clock.advance(by: 5)
        #expect(files.press(.character("x"), on: reader).isEmpty, "a key that does not move saves nothing")
    }

    @Test func leavingSavesThePlaceAndAsksToClose() throws {
        let files = try OpenReader(ReaderFixture.magazine())
        let reader = try files.open()
        _ = files.press(.right, .pageDown, on: reader)
        let effects = reader.update(.leave)
        #expect(effects == [.save(reader.locator), .syncPlace(leaving: true), .leave])
    }

    @Test func drawingChangesNothing() throws {
        let files = try OpenReader(ReaderFixture.magazine())
        let reader = try files.open(width: 90, height: 26)
        _ = files.press(.right, .pageDown, .character("/"), on: reader)
        for character in "night" { _ = reader.update(.key(.character(character))) }
        _ = reader.update(.key(.enter))
        let place = reader.locator
        let status = reader.statusLine
        let screen = files.screen(reader)
        // A canvas of another size than the window the reader was told of draws, and moves nothing.
        var larger = Canvas(width: 140, height: 50)
        reader.draw(into: &larger)
        #expect(files.screen(reader) == screen)
        #expect(reader.locator == place && reader.statusLine == status)
        #expect(screen.text.contains("Night Watch"))
    }

    @Test func theWindowsSizeArrivesAsAMessage() throws {
        let files = try OpenReader(ReaderFixture.magazine())
        let reader = try files.open(width: 120, height: 30)
        _ = files.press(.right, .pageDown, .pageDown, on: reader)
        let word = try #require(files.screen(reader).row(2).split(separator: " ").first.map(String.init))
        #expect(reader.update(.resize(width: 44, height: 20)).isEmpty)
        #expect(reader.frame == ReaderFrame(width: 44, height: 20))
        #expect(files.screen(reader).row(2).contains(word))
    }
}

@Suite struct ReaderLocatorTests {
    /// The second article's blocks: its heading, a paragraph, then `bp0`… from block 2 on.
    @Test func aPlaceSavedByAnOlderVersionOpensAtTheSameWords() throws {
        let files = try OpenReader(ReaderFixture.magazine())
        let legacy = #"{"article":1,"line":57,"block":20,"offset":0,"width":60}"#
        let reader = try files.open(legacy: legacy, progress: 0.4)
        let screen = files.screen(reader)
        #expect(screen.text.contains("article 2 of 4"))
        #expect(screen.row(2).trimmingCharacters(in: .whitespaces).hasPrefix("bp18w0 "), "\(screen.text)")
        // The width it held is a preference, not a place: the session's default stands.
        #expect(reader.textWidth == nil)
        #expect(reader.locator.resource == "OEBPS/ch2.xhtml" && reader.locator.text == Locator.TextPlace(block: 20, offset: 0))
    }

    @Test func aSavedLocatorRestoresAfterReopeningAtAnotherWidth() throws {
        let files = try OpenReader(ReaderFixture.magazine())
        let reader = try files.open(width: 120, height: 30)
        _ = files.press(.right, .pageDown, .pageDown, .pageDown, .down, .down, on: reader)
        var screen = files.screen(reader)
        for _ in 0..<5 where screen.row(2).trimmingCharacters(in: .whitespaces).isEmpty {
            _ = files.press(.down, on: reader)
            screen = files.screen(reader)
        }
        let word = try #require(screen.row(2).split(separator: " ").first.map(String.init))
        guard case .save(let saved)? = reader.update(.leave).first else { Issue.record("leaving saved nothing"); return }

        let reopened = try files.open(locator: saved, width: 50, height: 30)
        screen = files.screen(reopened)
        #expect(screen.text.contains("article 2 of 4"))
        #expect(screen.row(2).contains(word), "\(word) on top:\n\(screen.text)")
        #expect(reopened.locator.isSamePlace(as: saved))
    }

    @Test func aComicPageRestores() throws {
        let files = try OpenReader(try ReaderFixture.comic(manga: false))
        let reader = try files.open()
        _ = files.press(.pageDown, .pageDown, on: reader)
        let effects = reader.update(.leave)
        guard case .save(let saved)? = effects.first else { Issue.record("leaving saved nothing"); return }
        #expect(saved.page == 2 && saved.resource == "page03.png" && saved.totalProgression == 1)

        let reopened = try files.open(locator: saved)
        #expect(files.screen(reopened).row(0).contains("page 3 of 3"))
        #expect(reopened.statusLine.right == "read 100% ")
    }
}

@Suite struct ReaderPageTests {
    /// Pages that carry text (a PDF page is a picture and words) are searched page by page.
    @Test func pagesWithTextAreSearchedAndTurnedTo() {
        let pages = ["Tides and weather", "The lighthouse keeper's log", "A lighthouse at dusk"].enumerated().map { number, words in
            ReaderPage(resource: "page\(number + 1)", picture: nil, text: PlainTextReader.document(text: words))
        }
        var pager = PagePager(pages: pages, rightToLeft: false, folder: "/nonexistent/", theme: .classic, at: nil)
        #expect(pager.canSearch)
        #expect(pager.search(for: "LIGHTHOUSE").text.contains("page 2"))
        #expect(pager.index == 1)
        #expect(pager.findNext(forward: true).text.contains("page 3"))
        #expect(pager.findNext(forward: true).text.contains("page 2"), "on round the issue to the next page with a match")
        #expect(pager.index == 1)
        let none = pager.search(for: "zebra")
        #expect(none.isError && pager.index == 1)

        let comic = PagePager(pages: [ReaderPage(resource: "p1", picture: nil, text: nil)], rightToLeft: false,
                              folder: "/nonexistent/", theme: .classic, at: nil)
        #expect(!comic.canSearch)
    }

    /// `+` twice before the picture at 150 % is ready (keys come faster than pictures): the
    /// middle of the page stays in the middle of the window, as one step at a time keeps it.
    @Test func zoomingTwiceBeforeThePictureIsReadyKeepsTheMiddle() {
        var pager = PagePager(pages: [ReaderPage(resource: "p1", picture: nil, text: nil)], rightToLeft: false,
                              folder: "/nonexistent/", theme: .classic, at: nil)
        pager.resize(to: ReaderFrame(width: 102, height: 31))
        // Fitted, as `settle` found it: 45 × 27 cells in a window of 100 × 27.
        pager.zoomedPageSize = (45, 27)
        _ = pager.zoom(by: 1)
        _ = pager.zoom(by: 1)
        // At 200 % the page is 90 × 54 cells: the window's 27 rows start at its row 13 or 14.
        #expect((13...14).contains(pager.pan.y), "\(pager.pan)")
    }
}
