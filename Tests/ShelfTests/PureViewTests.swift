import Feeds
import Foundation
import Imaging
import Pictures
import Terminal
import Testing
@testable import NewsstandKit
@testable import Shelf

/// Views are pure: the library's read finds each cover's file (a tile and a summary carry
/// it), the view only looks covers up in what the painter has ready and returns the ones
/// it wants, and the painter prepares those after the frame.
@Suite struct PureViewTests {
    /// A library on disk whose first publication's issues have covers of their own colour,
    /// written as PNG files (`missing` names issues whose cover file was never written).
    final class CoveredLibrary {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-pure-\(UUID().uuidString)")
        let library: Library
        let publicationID: Int64
        private(set) var files: [String: URL] = [:]

        init(issues names: [String], missing: Set<String> = []) throws {
            library = try Library(paths: Paths(environment: ["NEWSSTAND_HOME": root.appendingPathComponent("home").path]))
            let publication = try library.store.save(Publication(feedURL: "file:///feeds/pure.xml", title: "The Pure Gazette"))
            publicationID = try #require(publication.id)
            for (n, name) in names.enumerated() {
                let file = root.appendingPathComponent("\(name).png")
                if !missing.contains(name) {
                    let grey = UInt8(30 + n * 20 % 200)
                    try Data(ImageEncoder.png(RGBAImage(width: 60, height: 80, filledWith: (grey, 100, 255 - grey, 255)))).write(to: file)
                }
                files[name] = file
                var issue = try library.store.addIssue(name: name, date: Date(timeIntervalSince1970: 1_780_000_000 - Double(n) * 86_400),
                                                 publicationID: publicationID, title: name)
                issue.coverURL = file.absoluteString
                _ = try library.store.save(issue)
            }
        }

        deinit { try? FileManager.default.removeItem(at: root) }

        /// The store of the publication as the app's reads queue reads it, shown in a window.
        func store(height: Int = 40) throws -> ShelfApp.State {
            let reader = ShelfReader(library: library)
            var state = ShelfApp.State(width: 120, height: height)
            _ = ShelfApp.update(&state, .libraryRead(ShelfApp.LibraryRead(summaries: try reader.summaries(), pendingDownloads: [])))
            _ = ShelfApp.update(&state, .key(.enter))
            _ = ShelfApp.update(&state, .libraryRead(ShelfApp.LibraryRead(store: (publicationID, try reader.storeTiles(publicationID: publicationID)))))
            return state
        }
    }

    static func painter(ready: ReadySignal? = nil) -> CoverPainter {
        CoverPainter(cache: CoverCache(directory: nil), colorMode: .truecolor, symbols: .half, ready: ready)
    }

    static func frame(_ state: ShelfApp.State, _ painter: CoverPainter) -> ShelfApp.Frame {
        ShelfApp.frame(state, ShelfApp.ViewContext(theme: .classic, covers: PaintedCovers(
            prepared: painter.prepared, coversDirectory: URL(fileURLWithPath: "/nonexistent-covers"))))
    }

    @Test func aStoreTileCarriesTheCoverItsReadFoundAndNoneWhenTheFileIsNotThere() throws {
        let covered = try CoveredLibrary(issues: ["spring", "summer"], missing: ["summer"])
        let tiles = try ShelfReader(library: covered.library).storeTiles(publicationID: covered.publicationID)
        #expect(tiles.map(\.issue.name) == ["spring", "summer"])
        #expect(tiles[0].cover == CoverPicture(file: try #require(covered.files["spring"])))
        #expect(tiles[1].cover == nil)
    }

    @Test func aCoverFetchedAfterAReadIsOnTheTileAtTheNextRead() throws {
        let covered = try CoveredLibrary(issues: ["spring"])
        var issue = try #require(try covered.library.store.issue(named: "spring"))
        let remote = try #require(URL(string: "https://example.org/covers/spring.png"))
        issue.coverURL = remote.absoluteString
        _ = try covered.library.store.save(issue)
        let reader = ShelfReader(library: covered.library)
        #expect(try reader.storeTiles(publicationID: covered.publicationID).first?.cover == nil)
        // The refresh fetches it into the covers directory; the issue row does not change.
        let fetched = CoverFileName.location(for: remote, in: covered.library.paths.coversDirectory)
        try FileManager.default.copyItem(at: try #require(covered.files["spring"]), to: fetched)
        #expect(try reader.storeTiles(publicationID: covered.publicationID).first?.cover == CoverPicture(file: fetched))
    }

    @Test func drawingTheStoreLooksAtNoFileAfterTheRead() throws {
        let covered = try CoveredLibrary(issues: ["spring", "summer", "autumn"], missing: ["summer"])
        let state = try covered.store()
        let painter = Self.painter()
        let before = Self.frame(state, painter)
        let spring = try #require(covered.files["spring"]), autumn = try #require(covered.files["autumn"])
        #expect(before.wanted.map(\.source) == [.file(spring), .file(autumn)])
        #expect(before.wanted.allSatisfy { $0.size == CellSize(columns: StoreScreen.thumbColumns, rows: StoreScreen.tileHeight - 2) })

        // The files go after the read: the view asks for the same pictures and draws the
        // same screen, because it never looked at them.
        try FileManager.default.removeItem(at: spring)
        try FileManager.default.removeItem(at: autumn)
        let after = Self.frame(state, painter)
        #expect(after.wanted == before.wanted)
        #expect(after.canvas.text == before.canvas.text)
    }

    @Test func drawingTheShelfLooksAtNoFileAfterTheRead() throws {
        let covered = try CoveredLibrary(issues: ["spring"])
        let logo = covered.root.appendingPathComponent("logo.png")
        try Data(ImageEncoder.png(RGBAImage(width: 60, height: 80, filledWith: (10, 20, 30, 255)))).write(to: logo)
        var publication = try #require(try covered.library.store.publication(id: covered.publicationID))
        publication.coverURL = logo.absoluteString
        _ = try covered.library.store.save(publication)
        let summaries = try ShelfReader(library: covered.library).summaries()
        // No issue is downloaded: the publication's own cover stands for it.
        #expect(summaries.first?.cover == CoverPicture(file: logo))
        let state = ShelfStateFixture.shelf(of: summaries)
        let painter = Self.painter()
        let before = Self.frame(state, painter)
        #expect(before.wanted.map(\.source) == [.file(logo)])
        try FileManager.default.removeItem(at: logo)
        #expect(Self.frame(state, painter).wanted == before.wanted)
    }

    @Test func theViewChangesNothingInThePainterAndPreparingAfterTheFrameStartsTheRenders() throws {
        let covered = try CoveredLibrary(issues: ["spring", "summer"])
        let state = try covered.store()
        let painter = Self.painter()
        for _ in 0..<3 { _ = Self.frame(state, painter) }
        #expect(painter.prepared.ready.isEmpty)
        #expect(painter.covers.keptSources.isEmpty)
        #expect(!painter.isWaitingForCovers)
        #expect(!painter.readyFlag.take(), "no render was started")

        let frame = Self.frame(state, painter)
        #expect(!painter.prepare(frame.wanted))
        #expect(painter.isWaitingForCovers)
    }

    @Test func thePicturesAFrameWantsAreTheOnesThePainterRendersAndTheNextFrameDraws() throws {
        // Ten issues, four tiles on a 40-line screen: only those four are rendered.
        let names = (1...10).map { "no-\($0)" }
        let covered = try CoveredLibrary(issues: names)
        let state = try covered.store()
        let ready = ReadySignal()
        let painter = Self.painter(ready: ready)
        let first = Self.frame(state, painter)
        let visible = state.store?.visible(height: state.height) ?? []
        #expect(visible.count == 4)
        #expect(first.wanted.map(\.source) == visible.map { ImageSource.file(covered.files[names[$0.index]]!) })
        #expect(Self.thumbnails(first.canvas, visible).allSatisfy { !$0 }, "placeholders while nothing is prepared")

        // The run loop's part: prepare what the frame wanted, again when a picture is ready.
        let prepared = ready.wait(timeout: 60) { () -> Bool? in
            painter.prepare(first.wanted)
            return painter.isWaitingForCovers ? nil : true
        }
        #expect(prepared == true)
        #expect(painter.covers.keptSources == Set(first.wanted.map(\.source)))
        #expect(Set(painter.prepared.ready.keys) == Set(first.wanted))

        let next = Self.frame(state, painter)
        #expect(next.wanted == first.wanted)
        #expect(Self.thumbnails(next.canvas, visible).allSatisfy { $0 }, "every thumbnail drawn")
        #expect(!painter.prepare(next.wanted), "nothing left to prepare")
    }

    @Test func aCatalogBooksCoverIsAskedForAtItsPlaceInTheCoverCacheAndDrawnOnceFetched() throws {
        let covered = try CoveredLibrary(issues: ["spring"])
        let remote = try #require(URL(string: "https://books.example/covers/menders.png"))
        var book = CatalogScreenUpdateTests.epub
        book.coverURL = remote
        var state = ShelfStateFixture.shelf()
        _ = ShelfApp.update(&state, .key(.character("c")))
        _ = ShelfApp.update(&state, .catalogPageLoaded(CatalogPage(format: .opds1, url: remote, title: "Books", books: [book]), replacing: false))
        let ready = ReadySignal()
        let painter = Self.painter(ready: ready)
        let directory = covered.library.paths.coversDirectory
        func frame() -> ShelfApp.Frame {
            ShelfApp.frame(state, ShelfApp.ViewContext(theme: .classic, covers: PaintedCovers(prepared: painter.prepared, coversDirectory: directory)))
        }
        // Not fetched yet: asked for all the same (nothing is looked at while drawing); it
        // cannot be prepared, and the placeholder shows.
        let place = CoverFileName.location(for: remote, in: directory)
        let before = frame()
        #expect(before.wanted.map(\.source) == [.file(place)])
        #expect(!painter.prepare(before.wanted) && !painter.isWaitingForCovers)
        #expect(!before.canvas.text.contains("▀"))
        // Fetched: the next preparation renders it and the frame draws it.
        try FileManager.default.copyItem(at: try #require(covered.files["spring"]), to: place)
        let drawn = ready.wait(timeout: 60) { () -> Canvas? in
            painter.prepare(frame().wanted)
            return painter.isWaitingForCovers ? nil : frame().canvas
        }
        #expect(try #require(drawn).text.contains("▀"))
    }

    /// Whether each visible tile's thumbnail shows a picture (half-block cells) rather than its placeholder.
    static func thumbnails(_ canvas: Canvas, _ visible: [(index: Int, y: Int)]) -> [Bool] {
        visible.map { tile in
            (tile.y..<tile.y + StoreScreen.tileHeight - 2).contains { y in
                (3..<3 + StoreScreen.thumbColumns).contains { x in canvas[x, y].glyph == "▀" }
            }
        }
    }

    @Test func theAppPreparesTheCoversItsFrameWantedAndDrawsThemWhenReady() throws {
        let covered = try CoveredLibrary(issues: ["spring", "summer"])
        let ready = ReadySignal()
        var environment = ShelfApp.Environment(library: covered.library, theme: .classic, colorMode: .truecolor, symbols: .half,
                                               coverCache: CoverCache(directory: nil), startAgent: {})
        environment.pictureReady = ready
        let app = ShelfApp(environment: environment)
        app.state.width = 120
        app.state.height = 40
        app.reload()
        _ = app.render()
        app.send(.key(.enter))
        app.finishEffects()
        _ = app.render()
        let spring = try #require(covered.files["spring"]), summer = try #require(covered.files["summer"])
        #expect(app.wantedCovers.map(\.source) == [.file(spring), .file(summer)])
        #expect(Set(app.painter.covers.keptSources).isSubset(of: [.file(spring), .file(summer)]))
        let drawn = ready.wait(timeout: 60) { () -> Canvas? in
            _ = app.pollChanges()
            let canvas = app.render()
            return app.painter.isWaitingForCovers ? nil : canvas
        }
        let canvas = try #require(drawn)
        #expect(Self.thumbnails(canvas, app.state.store?.visible(height: app.state.height) ?? []) == [true, true])
    }
}
