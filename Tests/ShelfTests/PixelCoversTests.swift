import Foundation
import Imaging
import NewsstandKit
import Pictures
@testable import Shelf
import Terminal
import Testing

/// Covers in pixels: the store's thumbnails whenever the terminal draws pixels, the shelf's
/// with `covers = "pixels"`; their sash drawn into the pixels; moved, never piled up, as the
/// screens scroll. Through `view`, `CoverPainter`, `PixelPlacer` and `MemoryBackend`.
@Suite struct PixelCoversTests {
    static let cell = PixelSize(width: 10, height: 20)

    /// Every cover a 3 : 4 picture of one grey (the issue's or publication's id in it).
    struct GreyCovers: CoverSource {
        let painter: CoverPainter

        static func source(_ id: Int64?) -> ImageSource {
            let grey = UInt8(40 + (id ?? 0) % 20 * 10)
            let image = RGBAImage(width: 90, height: 120, filledWith: (grey, grey, grey, 255))
            return .bytes(ImageBytes((try? ImageEncoder.png(image)) ?? [], identity: "cover-\(id ?? 0)"))
        }

        func shelfRequest(_ summary: PublicationSummary, size: CellSize) -> CoverRequest? {
            guard summary.issueCount > 0 else { return nil }
            return painter.prepared.request(Self.source(summary.publication.id), size: size, dress: PaintedCovers.dress(summary),
                                            inPixels: painter.shelfInPixels)
        }
        func tileRequest(_ tile: IssueTile, size: CellSize) -> CoverRequest? {
            painter.prepared.request(Self.source(tile.issue.id), size: size, dress: CoverDress(sash: PaintedCovers.sash(tile.issue)),
                                     inPixels: true)
        }
        func art(for request: CoverRequest) -> CoverArt? { painter.prepared.art(for: request) }
    }

    struct Screen {
        let painter: CoverPainter
        let pixels: PixelPainter
        let placer: PixelPlacer
        let backend: MemoryBackend
        let ready = ReadySignal()

        init(shelfInPixels: Bool, width: Int = 120, height: Int = 40) {
            let flag = AtomicFlag()
            let ready = ready
            let halfBlocks = HalfBlockPainter(cache: CoverCache(directory: FileManager.default.temporaryDirectory
                .appendingPathComponent("pixel-covers-\(UUID().uuidString)")), colorMode: .truecolor, symbols: .half) { flag.set(); ready.onReady() }
            pixels = PixelPainter(cell: PixelCoversTests.cell, graphics: .kitty) { flag.set(); ready.onReady() }
            painter = CoverPainter(pictures: pixels, covers: halfBlocks, readyFlag: flag, pixels: pixels, shelfInPixels: shelfInPixels)
            placer = PixelPlacer(painter: pixels)
            backend = MemoryBackend(width: width, height: height)
        }

        /// The frame once no cover is still being prepared, drawn with its pictures: the
        /// covers each frame wants prepared after it, as the app's run loop does.
        func show(_ state: ShelfApp.State) throws -> Canvas {
            let shown = ready.wait(timeout: 60) { () -> Canvas? in
                func frame() -> ShelfApp.Frame { ShelfApp.frame(state, ShelfApp.ViewContext(theme: .classic, covers: GreyCovers(painter: painter))) }
                var shown = frame()
                if painter.prepare(shown.wanted) { shown = frame() }
                return painter.isWaitingForCovers ? nil : shown.canvas
            }
            guard let shown else { throw CoverTestError.notReady }
            placer.draw(shown, on: backend)
            return shown
        }
    }

    enum CoverTestError: Error { case notReady }

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func storeThumbnailsArePicturesInPixelsTheNewOneWearingItsSash() throws {
        let screen = Screen(shelfInPixels: false)
        let canvas = try screen.show(ShelfStateFixture.store())
        // 40 rows show four tiles: four thumbnails, none in half blocks.
        #expect(canvas.pictures.count == 4)
        #expect(screen.placer.placements.count == 4)
        #expect(!canvas.text.contains("▀"))
        // No. 30 (the second tile) is downloaded and unread: its picture carries the red sash.
        let second = try #require(canvas.pictures.sorted { $0.rect.y < $1.rect.y }.dropFirst().first)
        let image = try #require(screen.pixels.pixels(for: second))
        let red = (0..<image.width * image.height).filter { image.pixels[$0 * 4] == 204 && image.pixels[$0 * 4 + 1] == 20 }.count
        #expect(red > image.width * image.height / 20)
        let first = try #require(canvas.pictures.min { $0.rect.y < $1.rect.y })
        let plain = try #require(screen.pixels.pixels(for: first))
        #expect(!(0..<plain.width * plain.height).contains { plain.pixels[$0 * 4] == 204 && plain.pixels[$0 * 4 + 1] == 20 })
    }

    @Test func theShelfsCoversStayHalfBlocksUnlessPixelsAreAskedFor() throws {
        let halfBlock = try Screen(shelfInPixels: false).show(ShelfStateFixture.shelf())
        #expect(halfBlock.pictures.isEmpty)
        let screen = Screen(shelfInPixels: true)
        let pixels = try screen.show(ShelfStateFixture.shelf())
        // Tidewater and the Courier have issues; Rocket Badger shows its placeholder.
        #expect(pixels.pictures.count == 2)
        #expect(screen.placer.placements.count == 2)
    }

    @Test func scrollingTheStoreMovesItsThumbnailsAndDeletesThoseThatLeave() throws {
        let issues = (0..<12).map { n in
            ShelfStateFixture.issue(Int64(100 + n), of: 1, "No. \(n)", daysBefore: n * 30, status: .available, unread: n % 2 == 0)
        }
        let screen = Screen(shelfInPixels: false, height: 24)
        var state = ShelfStateFixture.store(height: 24, issues: issues)
        let visible = StoreScreen.visibleTiles(height: 24)
        // kitty's placements on screen, as "image id,placement id": placed (`a=p`), until
        // deleted (`a=d,d=i`); a thumbnail that moved is placed again under its placement id,
        // which moves it; kitty keeps the images, sent once each.
        var live = Set<String>(), placed = 0, sent: [String] = []
        func ids(_ written: String, after key: String) -> [String] {
            written.components(separatedBy: key).dropFirst().map { String($0.prefix { $0.isNumber }) }
        }
        /// "i,p" of each escape `key` starts (`key` ends with "i=", the placement id follows as ",p=").
        func placements(_ written: String, after key: String) -> [String] {
            written.components(separatedBy: key).dropFirst().map { escape in
                let id = escape.prefix { $0.isNumber }
                return id + "," + escape.dropFirst(id.count + 3).prefix { $0.isNumber }
            }
        }
        for _ in 0..<issues.count {
            screen.backend.clearWritten()
            let canvas = try screen.show(state)
            let written = Self.text(screen.backend.written)
            live.subtract(placements(written, after: "a=d,d=i,i="))
            let shown = placements(written, after: "a=p,i=")
            placed += shown.count
            live.formUnion(shown)
            sent += ids(written, after: "a=t,f=100,t=d,i=")
            // Only the tiles on screen have pictures, and kitty shows those alone: each one
            // that scrolled away was deleted.
            #expect(canvas.pictures.count == visible)
            #expect(screen.placer.placements == Set(canvas.pictures))
            #expect(live.count == visible)
            _ = ShelfApp.update(&state, .key(.down))
        }
        // The store scrolled (pictures stood at other rows) and placed more than it shows,
        // sending each thumbnail once.
        #expect(placed > visible)
        #expect(sent.count == Set(sent).count)
        screen.backend.clearWritten()
        screen.placer.clear(on: screen.backend)
        #expect(Set(ids(Self.text(screen.backend.written), after: "a=d,d=I,i=")) == Set(sent))
    }
}
