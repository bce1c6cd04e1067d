import Feeds
import Foundation
import Imaging
import Pictures
import Testing
import Terminal
@testable import NewsstandKit
@testable import Shelf

/// A comic read from its server page by page (OPDS-PSE): `r` in a catalog, the book's line,
/// the reader over pages that arrive, fail, and go when it is left.
@Suite struct StreamedReaderTests {
    typealias State = ShelfApp.State

    static let stream = PageStream(template: "http://comics.example/pse/7/{pageNumber}?w={maxWidth}", type: "image/png",
                                   count: 3, lastRead: 2)
    static let comic = CatalogBook(id: "urn:c:7", title: "Night Trains", authors: ["Rue Marsh"],
                                   acquisitions: [CatalogAcquisition(url: URL(string: "http://comics.example/7.cbz")!,
                                                                     type: "application/vnd.comicbook+zip",
                                                                     rel: "http://opds-spec.org/acquisition")],
                                   stream: stream)

    func inCatalog(_ books: [CatalogBook]) -> State {
        var state = ShelfStateFixture.shelf()
        _ = ShelfApp.update(&state, .key(.character("c")))
        let page = CatalogPage(format: .opds1, url: URL(string: "http://comics.example/opds")!, title: "Comics", books: books)
        _ = ShelfApp.update(&state, .catalogPageLoaded(page, replacing: false))
        return state
    }

    @Test func rReadsAStreamedBookAndSaysWhyNotForOthers() {
        var state = inCatalog([Self.comic, CatalogScreenUpdateTests.epub])
        #expect(ShelfApp.update(&state, .key(.character("r"))) == [.readStreamed(Self.comic)])
        _ = ShelfApp.update(&state, .key(.down))
        #expect(ShelfApp.update(&state, .key(.character("r"))).isEmpty)
        #expect(state.statusIsError)
        #expect(state.status?.contains("cannot be read page by page") == true)
    }

    @Test func theBooksLineSaysWhereReadingGoesOn() {
        #expect(CatalogScreen.streamNote(Self.stream) == "r: continue at page 2 of 3")
        #expect(CatalogScreen.streamNote(PageStream(template: "x{pageNumber}", count: 35)) == "r: 35 pages online")
        #expect(CatalogScreen.streamNote(PageStream(template: "x{pageNumber}", count: 35, lastRead: 0)) == "r: 35 pages online")
        let state = inCatalog([Self.comic])
        var canvas = Canvas(width: state.width, height: state.height)
        CatalogScreen.view(state, ShelfApp.ViewContext(theme: .classic, covers: KnownCovers()), into: &canvas)
        #expect(canvas.text.contains("Night Trains — Rue Marsh  [CBZ]  r: continue at page 2 of 3"), "\(canvas.text)")
    }

    func painter(_ ready: ReadySignal) -> CoverPainter {
        let covers = HalfBlockPainter(cache: CoverCache(directory: nil, workers: 1), colorMode: .truecolor, symbols: .half,
                                      onReady: ready.onReady)
        return CoverPainter(pictures: covers, covers: covers, readyFlag: AtomicFlag())
    }

    /// A reader over the stream, pages served by `web`, its pictures drawn in half blocks;
    /// `ready` is signalled when a page arrives or fails and when a picture is drawn.
    func reader(_ web: MemoryHTTPClient, in temp: URL, ready: ReadySignal = ReadySignal()) throws -> (LoadedReader, StreamedComic, Library) {
        let paths = Paths(environment: ["NEWSSTAND_HOME": temp.path])
        let library = try Library(paths: paths, access: HTTPAccess(client: web) { _ in nil })
        let comic = library.catalogs.streamedComic(Self.stream, title: "Night Trains", maxWidth: 800, onChange: ready.onReady)
        let loader = ReaderLoader(streaming: comic)
        let issue = Issue(publicationId: nil, name: comic.title, date: Date(), title: comic.title)
        let screen = ReaderScreen(loader.source(of: issue, at: nil), theme: .classic, size: (80, 24))
        return (LoadedReader(screen, loader: loader, painter: painter(ready)), comic, library)
    }

    func screenText(_ screen: LoadedReader) -> String {
        var canvas = Canvas(width: 80, height: 24)
        screen.draw(into: &canvas)
        return canvas.text
    }

    /// Takes in what arrived until `done` holds, as the app does at each wake-up: waits for
    /// `ready` (a page came, a picture was drawn), never for a time; the pages as they stand
    /// are told to the reader as the reader I/O queue tells them when one arrives.
    func settle(_ screen: LoadedReader, _ comic: StreamedComic, _ ready: ReadySignal, until done: (String) -> Bool) -> String {
        ready.wait {
            _ = screen.update(.loaded(.streamedPages(StreamedPages.states(of: comic))))
            let text = screenText(screen)
            return done(text) ? text : nil
        } ?? screenText(screen)
    }

    @Test func theReaderStartsAtLastReadWaitsForThePageAndShowsAFailureInALine() throws {
        let temp = FileManager.default.temporaryDirectory.appendingPathComponent("streamed-reader-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: temp) }
        let web = MemoryHTTPClient()
        web.serve(URL(string: "http://comics.example/pse/7/1?w=800")!, headers: ["Content-Type": "image/png"],
                  body: try DetailsFixture.png(ReaderFixture.red))
        // Page 3 is missing on the server.
        let ready = ReadySignal()
        let (screen, comic, _) = try reader(web, in: temp, ready: ready)
        // pse:lastRead 2 (from 1): page 2 is where reading goes on.
        #expect(screen.pager.index == 1)
        var text = settle(screen, comic, ready) { $0.contains("▀") }
        #expect(text.contains("page 2 of 3"), "\(text)")
        #expect(!text.contains("Fetching"), "\(text)")
        #expect(!screen.waitsForStreamedPage)
        // Nothing is kept in the library for a book read online.
        #expect(screen.issue.id == nil)

        _ = screen.update(.key(.character(" ")))
        text = settle(screen, comic, ready) { $0.contains("could not be fetched") }
        #expect(text.contains("Page 3 could not be fetched: the server answered 404"), "\(text)")
        #expect(!screen.waitsForStreamedPage)   // a failed page is not waited for
        // The reader stays usable: back to page 2.
        _ = screen.update(.key(.backspace))
        text = settle(screen, comic, ready) { $0.contains("▀") }
        #expect(text.contains("page 2 of 3"), "\(text)")
        #expect(web.requests.map(\.url.absoluteString) == ["http://comics.example/pse/7/1?w=800", "http://comics.example/pse/7/2?w=800"])
        comic.close()
        comic.finishFetching()
        #expect(!FileManager.default.fileExists(atPath: comic.folder.path))
    }

    @Test func leavingAStreamedComicGoesBackToTheCatalogAndClosesIt() throws {
        let temp = FileManager.default.temporaryDirectory.appendingPathComponent("streamed-leave-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: temp) }
        let (screen, comic, _) = try reader(MemoryHTTPClient(), in: temp)
        var state = inCatalog([Self.comic])
        _ = ShelfApp.update(&state, .readerOpened(ReaderAdapter(screen: screen.model)))
        #expect(state.screen == .reader)
        let effects = ShelfApp.update(&state, .key(.character("q")))
        #expect(effects.contains(.closeStreamedComic(comic)))
        #expect(!effects.contains { if case .saveReadingPlace = $0 { return true } else { return false } })
        #expect(state.screen == .catalog)
        #expect(state.catalog.page?.page.title == "Comics")
    }
}
