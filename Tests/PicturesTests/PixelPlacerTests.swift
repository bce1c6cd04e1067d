import Foundation
import Imaging
import Synchronization
import Pictures
import Terminal
import Testing

/// Pictures in pixels under a screen of cells: the painter gives cells to pictures in the
/// canvas, the placer draws them after the frame and takes them away when the frame no
/// longer has them. Run against `MemoryBackend`, which keeps what was written.
struct PixelPlacerTests {
    /// A PNG of `width` × `height` in one colour, as a source.
    static func source(_ name: String, width: Int, height: Int, grey: UInt8) throws -> ImageSource {
        let image = RGBAImage(width: width, height: height, pixels: Array(repeating: [grey, grey, grey, 255], count: width * height).flatMap { $0 })
        return .bytes(ImageBytes(try ImageEncoder.png(image), identity: name))
    }

    static let cell = PixelSize(width: 10, height: 20)

    /// A painter whose readiness `painted` waits on (it fits pictures on a worker thread).
    static func painter(graphics: GraphicsProtocol = .kitty, placeholders: KittyPlaceholders.IDColours? = nil,
                        sixelLimit: PixelSize = GraphicsDetection.assumedSixelLimit) -> PixelPainter {
        let ready = ReadySignal()
        let painter = PixelPainter(cell: cell, graphics: graphics, placeholders: placeholders, sixelLimit: sixelLimit, onReady: ready.onReady)
        signals.withLock { $0[ObjectIdentifier(painter)] = ready }
        return painter
    }

    private static let signals = Mutex<[ObjectIdentifier: ReadySignal]>([:])

    /// Paints once the picture is ready: asked again each time `painter`'s `onReady` comes.
    static func painted(_ source: ImageSource, into rect: Rect, by painter: PixelPainter, size: (Int, Int) = (40, 12),
                        layout: PictureLayout? = nil) throws -> Canvas {
        guard let ready = signals.withLock({ $0[ObjectIdentifier(painter)] }) else {
            throw PicturesTestError("the painter was not made by PixelPlacerTests.painter")
        }
        let canvas = try ready.wait { () throws -> Canvas? in
            var canvas = Canvas(width: size.0, height: size.1)
            let painted = layout.map { painter.paint(source, into: rect, of: &canvas, layout: $0) } ?? painter.paint(source, into: rect, of: &canvas)
            switch painted {
            case .painted: return canvas
            case .pending: return nil
            case .failed(let reason): throw PicturesTestError(reason)
            }
        }
        guard let canvas else { throw PicturesTestError("the picture was not ready within 30 s") }
        return canvas
    }

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// A 40 × 12 screen whose page is rows 1–10, in `writer`'s protocol.
    struct Screen {
        let painter: PixelPainter
        let placer: PixelPlacer
        let backend = MemoryBackend(width: 40, height: 12)
        init(_ graphics: GraphicsProtocol, throughTmux: Bool = false, origin: (x: Int, y: Int) = (0, 0)) {
            painter = PixelPlacerTests.painter(graphics: graphics)
            placer = PixelPlacer(painter: painter, throughTmux: throughTmux, origin: origin)
        }

        /// A frame with a page of one grey, 100 × 100 pixels, shown whole.
        func page(_ name: String, grey: UInt8, width: Int = 100, height: Int = 100) throws -> Canvas {
            try PixelPlacerTests.painted(PixelPlacerTests.source(name, width: width, height: height, grey: grey),
                                         into: Rect(x: 0, y: 1, width: 40, height: 10), by: painter)
        }
    }

    @Test func aPictureOwnsTheCellsItCoversCentredInItsRectangle() throws {
        let painter = Self.painter()
        // 100 × 200 pixels into 20 × 10 cells (200 × 200 px): 100 × 200 px, 10 × 10 cells, centred.
        let canvas = try Self.painted(Self.source("tall", width: 100, height: 200, grey: 50), into: Rect(x: 2, y: 1, width: 20, height: 10),
                                      by: painter)
        #expect(canvas.pictures.count == 1)
        #expect(canvas.pictures.first?.rect == Rect(x: 7, y: 1, width: 10, height: 10))
        let placement = try #require(canvas.pictures.first)
        let pixels = try #require(painter.pixels(for: placement))
        #expect(pixels.width == 100 && pixels.height == 200)
        // Blank cells under it: no half blocks there.
        #expect(canvas.text.contains("▀") == false)
    }

    @Test func rowsOfAPicturePaintedOneByOneAreOnePlacement() {
        var canvas = Canvas(width: 10, height: 6)
        for row in 0..<3 { canvas.place(PicturePlacement(picture: 4, rect: Rect(x: 1, y: 2 + row, width: 5, height: 1), row: 3 + row)) }
        canvas.place(PicturePlacement(picture: 5, rect: Rect(x: 1, y: 5, width: 5, height: 1)))
        #expect(canvas.pictures == [PicturePlacement(picture: 4, rect: Rect(x: 1, y: 2, width: 5, height: 3), row: 3),
                                    PicturePlacement(picture: 5, rect: Rect(x: 1, y: 5, width: 5, height: 1))])
        // Clipped to the canvas, the part cut off counted in the picture's own cells.
        canvas.place(PicturePlacement(picture: 6, rect: Rect(x: -2, y: -1, width: 4, height: 3)))
        #expect(canvas.pictures.last == PicturePlacement(picture: 6, rect: Rect(x: 0, y: 0, width: 2, height: 2), column: 2, row: 1))
    }

    @Test func kittyPicturesAreSentOnceTheirPlacementsDeletedWhenThePageTurnsAndFreedOnQuitting() throws {
        let screen = Screen(.kitty)
        let (placer, backend) = (screen.placer, screen.backend)
        let first = try screen.page("one", grey: 10)
        placer.draw(first, on: backend)
        let sent = Self.text(backend.written)
        let id = PixelPlacer.firstID
        #expect(sent.contains("\u{1B}_Ga=t,f=100,t=d,i=\(id),q=2,m=0;"))
        // 200 × 200 px, 20 × 10 cells centred: put at row 2, column 11 (from 1) as placement 1, the cursor then put back.
        #expect(sent.hasSuffix("\u{1B}7\u{1B}[2;11H\u{1B}_Ga=p,i=\(id),p=1,q=2,C=1\u{1B}\\\u{1B}8"))
        #expect(backend.frames == 1)

        backend.clearWritten()
        placer.draw(first, on: backend)
        #expect(backend.written.isEmpty, "the same picture in the same place is not sent again")

        let second = try screen.page("two", grey: 200)
        backend.clearWritten()
        placer.draw(second, on: backend)
        let turned = Self.text(backend.written)
        // The first page's placement goes, its image stays in kitty (d=i, not d=I).
        #expect(turned.hasPrefix(Self.text(KittyGraphics.deletePlacement(id: id, placement: 1))))
        #expect(!turned.contains("d=I"))
        #expect(turned.contains("a=t,f=100,t=d,i=\(id + 1),") && turned.contains("a=p,i=\(id + 1),p=2,"))
        #expect(placer.heldIDs == [id, id + 1])

        // Quitting and Ctrl-Z free every image kitty holds, shown or not.
        backend.clearWritten()
        placer.clear(on: backend)
        #expect(Self.text(backend.written) == Self.text(KittyGraphics.delete(id: id) + KittyGraphics.delete(id: id + 1)))
        #expect(placer.placements.isEmpty && placer.heldIDs.isEmpty)
        // After Ctrl-Z, sent and drawn again.
        backend.clearWritten()
        placer.draw(second, on: backend)
        let resumed = Self.text(backend.written)
        #expect(resumed.contains("a=t,f=100,t=d,i=\(id + 2),") && resumed.contains("a=p,i=\(id + 2),"))
    }

    /// A 40 × 12 frame with `source` fitted into `rect`.
    static func frame(_ source: ImageSource, at rect: Rect, by painter: PixelPainter) throws -> Canvas {
        try painted(source, into: rect, by: painter)
    }

    @Test func aPictureThatMovesIsOnlyPlacedAgainUnderItsPlacementId() throws {
        let painter = Self.painter()
        let placer = PixelPlacer(painter: painter)
        let backend = MemoryBackend(width: 40, height: 12)
        let cover = try Self.source("cover", width: 50, height: 60, grey: 90)
        // 5 × 3 cells, as a shelf's cover, at row 6 and then, the shelf scrolled, at row 1.
        placer.draw(try Self.frame(cover, at: Rect(x: 2, y: 6, width: 5, height: 3), by: painter), on: backend)
        let id = PixelPlacer.firstID
        #expect(Self.text(backend.written).contains("a=t,f=100,t=d,i=\(id),"))

        backend.clearWritten()
        placer.draw(try Self.frame(cover, at: Rect(x: 2, y: 1, width: 5, height: 3), by: painter), on: backend)
        let moved = Self.text(backend.written)
        #expect(moved == "\u{1B}7\u{1B}[2;3H\u{1B}_Ga=p,i=\(id),p=1,q=2,C=1\u{1B}\\\u{1B}8", "one placement, nothing sent: \(moved.prefix(80))")
        #expect(placer.placements.map(\.rect) == [Rect(x: 2, y: 1, width: 5, height: 3)])
    }

    @Test func aPictureThatLeavesAndComesBackIsPlacedNotSentAgain() throws {
        let painter = Self.painter()
        let placer = PixelPlacer(painter: painter)
        let backend = RecordingBackend(width: 40, height: 12)
        let cover = try Self.source("cover", width: 50, height: 60, grey: 90)
        let shelf = try Self.frame(cover, at: Rect(x: 2, y: 6, width: 5, height: 3), by: painter)
        let id = PixelPlacer.firstID
        placer.draw(shelf, on: backend)

        // Another screen without it (a store): its placement is deleted, before the frame's
        // cells are drawn, and kitty keeps the image.
        backend.clear()
        placer.draw(Canvas(width: 40, height: 12), on: backend)
        #expect(backend.log == [.written(Self.text(KittyGraphics.deletePlacement(id: id, placement: 1))), .frame])
        #expect(placer.placements.isEmpty && placer.heldIDs == [id])

        // Back to the shelf: placed again, not sent.
        backend.clear()
        placer.draw(shelf, on: backend)
        #expect(backend.log == [.frame, .written("\u{1B}7\u{1B}[7;3H\u{1B}_Ga=p,i=\(id),p=2,q=2,C=1\u{1B}\\\u{1B}8")])

        // A new size: ncurses clears the screen, and kitty with it the images left without
        // a placement: freed first, sent again after.
        let wider = try Self.painted(cover, into: Rect(x: 2, y: 6, width: 5, height: 3), by: painter, size: (50, 12))
        backend.clear()
        placer.draw(wider, on: backend)
        #expect(backend.log.count == 3 && backend.log.dropFirst().first == .frame)
        #expect(backend.log.first == .written(Self.text(KittyGraphics.delete(id: id))))
        guard case .written(let resent)? = backend.log.last else { return }
        #expect(resent.contains("a=t,f=100,t=d,i=\(id + 1),") && resent.hasSuffix("\u{1B}7\u{1B}[7;3H\u{1B}_Ga=p,i=\(id + 1),p=3,q=2,C=1\u{1B}\\\u{1B}8"))
    }

    @Test func aPictureThePainterForgetsIsFreedAndSentAgainWhenShownAgain() throws {
        let painter = Self.painter()
        let placer = PixelPlacer(painter: painter)
        let backend = MemoryBackend(width: 40, height: 12)
        let cover = try Self.source("cover", width: 50, height: 60, grey: 90)
        let rect = Rect(x: 2, y: 6, width: 5, height: 3)
        placer.draw(try Self.frame(cover, at: rect, by: painter), on: backend)
        placer.draw(Canvas(width: 40, height: 12), on: backend)
        let id = PixelPlacer.firstID

        painter.forget { _ in true }
        backend.clearWritten()
        placer.draw(Canvas(width: 40, height: 12), on: backend)
        #expect(Self.text(backend.written) == Self.text(KittyGraphics.delete(id: id)))
        #expect(placer.heldIDs.isEmpty)

        backend.clearWritten()
        placer.draw(try Self.frame(cover, at: rect, by: painter), on: backend)
        #expect(Self.text(backend.written).contains("a=t,f=100,t=d,i=\(id + 1),"))
    }

    @Test func freeingAnyImageFreesEveryImageWithoutAPlacementWithIt() throws {
        let painter = Self.painter()
        let placer = PixelPlacer(painter: painter)
        let backend = MemoryBackend(width: 40, height: 12)
        let rect = Rect(x: 2, y: 6, width: 5, height: 3)
        let first = try Self.source("first", width: 50, height: 60, grey: 10), second = try Self.source("second", width: 50, height: 60, grey: 20)
        placer.draw(try Self.frame(first, at: rect, by: painter), on: backend)
        let shown = try Self.frame(second, at: rect, by: painter)
        placer.draw(shown, on: backend)
        let id = PixelPlacer.firstID
        #expect(placer.heldIDs == [id, id + 1])

        // kitty 0.26 frees the first (no placement) with the second: both are freed, and
        // the first is sent again when it is shown again.
        painter.forget { $0.description == "second" }
        backend.clearWritten()
        placer.draw(Canvas(width: 40, height: 12), on: backend)
        #expect(Self.text(backend.written) == Self.text(KittyGraphics.delete(id: id) + KittyGraphics.delete(id: id + 1)))
        #expect(placer.heldIDs.isEmpty)
        backend.clearWritten()
        placer.draw(try Self.frame(first, at: rect, by: painter), on: backend)
        #expect(Self.text(backend.written).contains("a=t,f=100,t=d,i=\(id + 2),"))
    }

    @Test func picturesNoFrameShowsAreFreedPastTheBudgetAndInsideTmuxAfterEachFrame() throws {
        let painter = Self.painter()
        // 5 × 3 cells of 10 × 20 px: 12,000 bytes of pixels each; room for two unshown.
        let placer = PixelPlacer(painter: painter, heldBudget: 25_000)
        let backend = MemoryBackend(width: 40, height: 12)
        let rect = Rect(x: 2, y: 6, width: 5, height: 3)
        let covers = try (0..<4).map { n in try Self.source("cover \(n)", width: 50, height: 60, grey: UInt8(10 * n)) }
        for cover in covers.prefix(3) { placer.draw(try Self.frame(cover, at: rect, by: painter), on: backend) }
        let id = PixelPlacer.firstID
        #expect(placer.heldIDs == [id, id + 1, id + 2])
        #expect(!Self.text(backend.written).contains("d=I"))
        backend.clearWritten()
        placer.draw(try Self.frame(covers[3], at: rect, by: painter), on: backend)
        // Three not shown, 36,000 bytes: all three freed.
        #expect(placer.heldIDs == [id + 3])
        #expect(Self.text(backend.written).hasSuffix(Self.text(KittyGraphics.delete(id: id) + KittyGraphics.delete(id: id + 1)
                                                                + KittyGraphics.delete(id: id + 2))))

        // Inside tmux: a picture that leaves is freed at once.
        let tmux = PixelPlacer(painter: painter, throughTmux: true)
        tmux.draw(try Self.frame(covers[0], at: rect, by: painter), on: backend)
        backend.clearWritten()
        tmux.draw(Canvas(width: 40, height: 12), on: backend)
        #expect(Self.text(backend.written) == Self.text(TmuxPassthrough.wrap(KittyGraphics.deletePlacement(id: id, placement: 1))
                                                        + TmuxPassthrough.wrap(KittyGraphics.delete(id: id))))
        #expect(tmux.heldIDs.isEmpty)
    }

    @Test func sixelRowsAreRewrittenWhenAPictureGoesAndItsNeighboursDrawnAgain() throws {
        let screen = Screen(.sixel)
        let (placer, backend) = (screen.placer, screen.backend)
        let page = try screen.page("page", grey: 10)
        placer.draw(page, on: backend)
        let sent = Self.text(backend.written)
        #expect(sent.hasPrefix("\u{1B}7\u{1B}[2;1"))
        #expect(sent.contains("\u{1B}P0;1;0q") && sent.hasSuffix("\u{1B}\\\u{1B}8"))
        #expect(backend.redrawnRows.isEmpty)

        // Another picture in its place: the old one's rows are rewritten by the frame, the new drawn after.
        let small = try screen.page("small", grey: 200, width: 20, height: 20)
        backend.clearWritten()
        placer.draw(small, on: backend)
        let old = try #require(page.pictures.first)
        #expect(backend.redrawnRows == [old.rect.y..<old.rect.maxY])
        #expect(Self.text(backend.written).contains("\u{1B}P0;1;0q"))
    }

    @Test func throughTmuxEveryEscapeIsWrappedAndTheCursorOffsetByThePane() throws {
        let screen = Screen(.kitty, throughTmux: true, origin: (x: 3, y: 5))
        screen.placer.draw(try screen.page("tmux", grey: 10), on: screen.backend)
        let sent = Self.text(screen.backend.written)
        #expect(sent.hasPrefix("\u{1B}Ptmux;\u{1B}\u{1B}_Ga=t"))
        #expect(sent.hasSuffix("\u{1B}Ptmux;\u{1B}\u{1B}7\u{1B}\u{1B}[7;14H\u{1B}\u{1B}_Ga=p,i=\(PixelPlacer.firstID),p=1,q=2,C=1\u{1B}\u{1B}\\\u{1B}\u{1B}8\u{1B}\\"))
        let origin = TmuxPassthrough.paneOrigin(displayOutput: "3 5\n"), unknown = TmuxPassthrough.paneOrigin(displayOutput: "")
        #expect(origin.x == 3 && origin.y == 5)
        #expect(unknown.x == 0 && unknown.y == 0)
    }

    @Test func aPaneTmuxHidesHasItsPicturesDeletedPastTmuxAndDrawnAgainWhenShown() throws {
        let screen = Screen(.kitty, throughTmux: true)
        let page = try screen.page("hidden", grey: 30)
        screen.placer.draw(page, on: screen.backend)
        let id = PixelPlacer.firstID
        #expect(screen.placer.heldIDs == [id])
        // Another tmux window in front: the delete comes back bare (tmux would drop a
        // hidden pane's passthrough), nothing goes through the pane.
        screen.backend.clearWritten()
        #expect(Self.text(screen.placer.hide()) == Self.text(KittyGraphics.delete(id: id)))
        #expect(screen.placer.isHidden && screen.placer.placements.isEmpty && screen.placer.heldIDs.isEmpty)
        // Frames while hidden: cells only, no picture.
        let framesBefore = screen.backend.frames
        screen.placer.draw(page, on: screen.backend)
        #expect(screen.backend.frames == framesBefore + 1)
        #expect(screen.backend.written.isEmpty && screen.placer.placements.isEmpty)
        // Shown again: sent and placed afresh, through tmux.
        screen.placer.unhide()
        screen.placer.draw(page, on: screen.backend)
        let shown = Self.text(screen.backend.written)
        #expect(shown.hasPrefix("\u{1B}Ptmux;\u{1B}\u{1B}_Ga=t,f=100,t=d,i=\(id + 1),") && shown.contains("_Ga=p,i=\(id + 1),"))
        #expect(screen.placer.placements.count == 1)
    }

    @Test func tmuxShowsAPaneWhenItsWindowIsCurrentTheSessionAttachedAndNoOtherPaneZoomed() {
        #expect(TmuxPaneWatch.isShown(displayOutput: "1 1 0 0\n") == true)
        #expect(TmuxPaneWatch.isShown(displayOutput: "1 2 1 1\n") == true)
        #expect(TmuxPaneWatch.isShown(displayOutput: "0 1 0 1\n") == false)
        #expect(TmuxPaneWatch.isShown(displayOutput: "1 0 0 1\n") == false)
        // Another pane of the window zoomed over ours.
        #expect(TmuxPaneWatch.isShown(displayOutput: "1 1 1 0\n") == false)
        #expect(TmuxPaneWatch.isShown(displayOutput: "1 1\n") == nil)
        #expect(TmuxPaneWatch.isShown(displayOutput: "") == nil)
        #expect(TmuxPaneWatch(environment: ["TERM": "xterm"]) == nil)
        #expect(TmuxPaneWatch(environment: ["TMUX": "/tmp/tmux-1/default,1,0", "TMUX_PANE": "%3"])?.pane == "%3")
    }
}

/// A terminal in memory that keeps, in order, what was written straight to it and when
/// frames were drawn (whether a placer's escapes went before or after ncurses' cells).
final class RecordingBackend: TerminalBackend {
    enum Entry: Equatable {
        case written(String)
        case frame
    }

    private let memory: MemoryBackend
    private(set) var log: [Entry] = []

    init(width: Int, height: Int) { memory = MemoryBackend(width: width, height: height) }

    var size: (width: Int, height: Int) { memory.size }
    var colors: TerminalColors { memory.colors }
    func draw(_ canvas: Canvas) {
        memory.draw(canvas)
        log.append(.frame)
    }
    func nextEvent(timeout: Double?) -> Event? { memory.nextEvent(timeout: timeout) }
    func restore() { memory.restore() }
    func writeDirect(_ bytes: [UInt8]) { if !bytes.isEmpty { log.append(.written(PixelPlacerTests.text(bytes))) } }
    func redrawRows(_ rows: Range<Int>) { memory.redrawRows(rows) }
    func clear() { log = [] }
}

struct PicturesTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
