import CNcursesw
import Foundation
import Imaging
import Pictures
import Terminal
import Testing

/// kitty's pictures drawn as placeholder cells: the canvas holds them as text in the id's
/// colour, the placer sends each picture once with one virtual placement, and frees it when
/// the painter forgets it or the screen is cleared. Without placeholders nothing changes
/// (`PixelPlacerTests`).
struct KittyPlaceholderDrawingTests {
    typealias T = PixelPlacerTests

    /// A 40 × 12 screen whose painter draws kitty's pictures as placeholder cells.
    struct Screen {
        let painter: PixelPainter
        let placer: PixelPlacer
        let backend = MemoryBackend(width: 40, height: 12)
        init(_ colours: KittyPlaceholders.IDColours = .direct, throughTmux: Bool = false) {
            painter = T.painter(graphics: .kitty, placeholders: colours)
            placer = PixelPlacer(painter: painter, throughTmux: throughTmux)
        }

        /// A 100 × 100 picture of one grey in rows 1–10: 20 × 10 cells at 10 × 20 px, centred.
        func page(_ name: String, grey: UInt8, layout: PictureLayout? = nil, rect: Rect = Rect(x: 0, y: 1, width: 40, height: 10))
        throws -> Canvas {
            try T.painted(T.source(name, width: 100, height: 100, grey: grey), into: rect, by: painter, layout: layout)
        }

        /// What the placer wrote for `canvas`, alone.
        func draw(_ canvas: Canvas) -> String {
            backend.clearWritten()
            placer.draw(canvas, on: backend)
            return T.text(backend.written)
        }
    }

    static func count(_ text: String, in output: String) -> Int { output.components(separatedBy: text).count - 1 }

    @Test func aPictureIsPlaceholderTextInItsIdsColour() throws {
        let screen = Screen(.direct)
        let canvas = try screen.page("grey", grey: 80)
        let id: UInt32 = 0x5053_0001
        #expect(canvas.pictures == [PicturePlacement(picture: 1, rect: Rect(x: 10, y: 1, width: 20, height: 10))])
        for (x, y) in [(10, 1), (11, 1), (10, 2), (29, 10), (17, 6)] {
            let cell = canvas[x, y]
            #expect(cell.glyph == KittyPlaceholders.cell(id: id, row: y - 1, column: x - 10), "cell \(x), \(y)")
            #expect(cell.foreground == .rgb(0x53, 0x00, 0x01))
            #expect(cell.attributes == [])
        }
        // The id's highest byte (0x50) is the third diacritic; nothing beside the picture.
        #expect(canvas[10, 1].glyph.unicodeScalars.map(\.value) == [0x10EEEE, 0x0305, 0x0305, KittyPlaceholders.diacritics[0x50].value])
        #expect(canvas[9, 1].glyph == " " && canvas[30, 1].glyph == " " && canvas[10, 0].glyph == " " && canvas[10, 11].glyph == " ")
    }

    @Test func in256ColoursTheIdIsAPaletteIndexAboveTheThemesSixteen() throws {
        let screen = Screen(.palette256)
        let canvas = try screen.page("grey", grey: 80)
        let id = KittyPlaceholders.id(picture: 1, colours: .palette256)
        #expect(id == 0x5000_0010)
        #expect(canvas[10, 1].foreground == .indexed(16))
        #expect(canvas[10, 1].glyph.unicodeScalars.map(\.value) == [0x10EEEE, 0x0305, 0x0305, KittyPlaceholders.diacritics[0x50].value])
        // Ids never share an index below 16 nor a highest byte of 0.
        for number in [1, 240, 241, 480, 61_200, 61_201, 200_000] {
            let id = KittyPlaceholders.id(picture: number, colours: .palette256)
            #expect((16...255).contains(id & 0xFF) && (id >> 8) & 0xFFFF == 0 && id >> 24 != 0, "picture \(number)")
        }
        #expect(KittyPlaceholders.id(picture: 240, colours: .palette256) != KittyPlaceholders.id(picture: 480, colours: .palette256))
    }

    @Test func thePictureIsSentOnceWithOneVirtualPlacementAndNoCursorMoves() throws {
        let screen = Screen(.direct)
        let canvas = try screen.page("grey", grey: 80)
        let first = screen.draw(canvas)
        #expect(Self.count("\u{1B}_Ga=t,f=100,t=d,i=1347616769,q=2,m=", in: first) == 1)
        #expect(Self.count("a=p,U=1,i=1347616769,c=20,r=10,q=2", in: first) == 1)
        #expect(Self.count("a=p", in: first) == 1)
        #expect(!first.contains("\u{1B}7") && !first.contains("\u{1B}8") && !first.contains("H\u{1B}_G"))
        // The cells are ncurses' to draw: the frame reached the backend as it was.
        #expect(screen.backend.screen == canvas)
        // The same frame again, and the picture scrolled by a row (the same picture, other
        // cells): nothing is sent.
        #expect(screen.draw(canvas) == "")
        let scrolled = try screen.page("grey", grey: 80, layout: PictureLayout(size: CellSize(columns: 40, rows: 10), row: 1),
                                       rect: Rect(x: 0, y: 0, width: 40, height: 4))
        #expect(scrolled[10, 0].glyph == KittyPlaceholders.cell(id: 0x5053_0001, row: 1, column: 0))
        #expect(scrolled[10, 3].glyph == KittyPlaceholders.cell(id: 0x5053_0001, row: 4, column: 0))
        #expect(screen.draw(scrolled) == "")
    }

    @Test func aPictureTheFrameNoLongerHasStaysInKittyUntilForgottenOrCleared() throws {
        let screen = Screen(.direct)
        _ = screen.draw(try screen.page("one", grey: 80))
        let turned = screen.draw(try screen.page("two", grey: 160))
        #expect(!turned.contains("a=d"), "no cell names it: nothing shows it, nothing to delete")
        #expect(Self.count("a=t,f=100,t=d,i=1347616770,", in: turned) == 1)
        #expect(Self.count("a=p,U=1,i=1347616770,c=20,r=10", in: turned) == 1)
        #expect(!turned.contains("a=t,f=100,t=d,i=1347616769,"))
        #expect(screen.draw(Canvas(width: 40, height: 12)) == "")
        // Coming back (the shelf after a store) sends nothing: kitty has it.
        #expect(screen.draw(try screen.page("one", grey: 80)) == "")
        // A picture the painter forgets is freed; Ctrl-Z and quitting free the rest.
        screen.painter.forget { $0.description == "two" }
        #expect(screen.draw(try screen.page("one", grey: 80)) == "\u{1B}_Ga=d,d=I,i=1347616770,q=2\u{1B}\\")
        screen.backend.clearWritten()
        screen.placer.clear(on: screen.backend)
        #expect(T.text(screen.backend.written) == "\u{1B}_Ga=d,d=I,i=1347616769,q=2\u{1B}\\")
        #expect(Self.count("a=t,f=100,t=d,i=1347616769,", in: screen.draw(try screen.page("one", grey: 80))) == 1)
    }

    @Test func cellsAreClippedAtTheCanvasEdgeWithTheColumnsTheyShow() throws {
        let screen = Screen(.direct)
        // 400 × 100 px: 40 × 5 cells, in a rectangle running 5 columns past either edge.
        let wide = try T.source("wide", width: 400, height: 100, grey: 90)
        let right = try T.painted(wide, into: Rect(x: 5, y: 0, width: 40, height: 10), by: screen.painter)
        let id: UInt32 = 0x5053_0001
        #expect(right.pictures.first?.rect == Rect(x: 5, y: 2, width: 35, height: 5))
        #expect(right[5, 2].glyph == KittyPlaceholders.cell(id: id, row: 0, column: 0))
        #expect(right[39, 6].glyph == KittyPlaceholders.cell(id: id, row: 4, column: 34))
        let left = try T.painted(wide, into: Rect(x: -5, y: 0, width: 40, height: 10), by: screen.painter)
        #expect(left.pictures.first?.rect == Rect(x: 0, y: 2, width: 35, height: 5))
        #expect(left.pictures.first?.column == 5)
        #expect(left[0, 2].glyph == KittyPlaceholders.cell(id: id, row: 0, column: 5))
        #expect(left[34, 2].glyph == KittyPlaceholders.cell(id: id, row: 0, column: 39))
        #expect(left[35, 2].glyph == " ")
        // The placement spans the whole picture, whatever part a frame shows.
        #expect(screen.draw(left).contains("a=p,U=1,i=1347616769,c=40,r=5,q=2"))
    }

    @Test func insideTmuxEveryEscapeIsWrappedInItsPassthrough() throws {
        let screen = Screen(.palette256, throughTmux: true)
        let output = screen.draw(try screen.page("grey", grey: 80))
        #expect(output.hasPrefix("\u{1B}Ptmux;\u{1B}\u{1B}_Ga=t,"))
        #expect(output.contains("\u{1B}Ptmux;\u{1B}\u{1B}_Ga=p,U=1,i=1342177296,c=20,r=10,q=2\u{1B}\u{1B}\\\u{1B}\\"))
    }

    @Test func aPictureWiderThanThePlaceholdersCanNumberIsPlacedAtTheCursor() throws {
        let screen = Screen(.direct)
        // 6000 × 50 px fitted into 400 × 2 cells (4000 × 40 px): 400 columns, past 297.
        let long = try T.source("long", width: 6000, height: 50, grey: 70)
        let canvas = try T.painted(long, into: Rect(x: 0, y: 1, width: 40, height: 2), by: screen.painter,
                                   layout: PictureLayout(size: CellSize(columns: 400, rows: 2)))
        #expect(canvas.pictures.count == 1)
        #expect(canvas[0, 1].glyph == " " && canvas[39, 2].glyph == " ")
        let output = screen.draw(canvas)
        #expect(output.contains("\u{1B}7\u{1B}[2;1H\u{1B}_Ga=p,i=1314062337,p=1,q=2,C=1\u{1B}\\\u{1B}8"))
        #expect(!output.contains("U=1"))
    }

    @Test func placeholdersAreUsedOnlyForKittyWhenWantedAndWhereColoursCanNameIds() {
        func colours(_ graphics: GraphicsProtocol, _ choice: KittyPlaceholders.Choice, detected: Bool,
                     _ drawing: TerminalColors) -> KittyPlaceholders.IDColours? {
            KittyPlaceholders.idColours(graphics: graphics, choice: choice, detected: detected, drawing: drawing)
        }
        #expect(colours(.kitty, .auto, detected: true, .direct) == .direct)
        #expect(colours(.kitty, .auto, detected: true, .palette256) == .palette256)
        #expect(colours(.kitty, .auto, detected: false, .direct) == nil)
        #expect(colours(.kitty, .on, detected: false, .palette256) == .palette256)
        #expect(colours(.kitty, .off, detected: true, .direct) == nil)
        #expect(colours(.kitty, .on, detected: true, .palette16) == nil)
        #expect(colours(.kitty, .on, detected: true, .monochrome) == nil)
        #expect(colours(.sixel, .on, detected: true, .direct) == nil)
        // A painter for another protocol never draws placeholders.
        #expect(PixelPainter(cell: T.cell, graphics: .sixel, placeholders: .direct, onReady: {}).placeholders == nil)
    }

    /// ncurses keeps a base character and its combining marks in one cell only when the C
    /// library says the marks take no columns and the base one.
    @Test func theCLibraryTakesThePlaceholderForOneColumnAndEveryDiacriticForNone() throws {
        guard let utf8 = newlocale(1 << LC_CTYPE, "C.UTF-8", nil) else { throw PicturesTestError("no C.UTF-8 locale") }
        let previous = uselocale(utf8)
        defer { uselocale(previous); freelocale(utf8) }
        #expect(nsc_wcwidth(KittyPlaceholders.placeholder.value) == 1)
        let wide = KittyPlaceholders.diacritics.filter { nsc_wcwidth($0.value) != 0 }
        #expect(wide.isEmpty, "\(wide.map { String($0.value, radix: 16) })")
    }
}
