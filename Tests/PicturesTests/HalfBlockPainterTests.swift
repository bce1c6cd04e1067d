import Foundation
import Imaging
import Pictures
import Terminal
import Testing

/// A painter over a cache of its own, with pictures the test writes as real PNG files.
final class PaintingFixture {
    let directory: URL
    let cache: CoverCache
    let painter: HalfBlockPainter
    private let readies: AsyncStream<Void>

    init(documents: DocumentRenderers = DocumentRenderers()) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("pictures-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        cache = CoverCache(directory: nil, workers: 1, documents: documents)
        let (readies, continuation) = AsyncStream<Void>.makeStream()
        self.readies = readies
        painter = HalfBlockPainter(cache: cache, colorMode: .truecolor, symbols: .half) { continuation.yield() }
    }

    deinit {
        cache.shutDown()
        try? FileManager.default.removeItem(at: directory)
    }

    /// A picture whose upper half is `top` and lower half `bottom`.
    static func halves(width: Int, height: Int, top: (UInt8, UInt8, UInt8), bottom: (UInt8, UInt8, UInt8)) -> RGBAImage {
        var pixels: [UInt8] = []
        for y in 0..<height {
            let colour = y < height / 2 ? top : bottom
            for _ in 0..<width { pixels += [colour.0, colour.1, colour.2, 255] }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    func write(_ bytes: [UInt8], named name: String) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    func writePNG(_ image: RGBAImage, named name: String = "picture.png") throws -> URL {
        try write(ImageEncoder.png(image), named: name)
    }

    /// Paints until the picture is no longer pending, waiting for the painter's ready
    /// callback between tries.
    func paintWhenReady(_ source: ImageSource, into rect: Rect, of canvas: inout Canvas,
                        layout: PictureLayout = PictureLayout()) async -> PaintOutcome {
        var outcome = painter.paint(source, into: rect, of: &canvas, layout: layout)
        var iterator = readies.makeAsyncIterator()
        while outcome == .pending, await iterator.next() != nil {
            outcome = painter.paint(source, into: rect, of: &canvas, layout: layout)
        }
        return outcome
    }
}

@Suite struct HalfBlockPainterTests {
    static let red = Color.rgb(255, 0, 0)
    static let blue = Color.rgb(0, 0, 255)
    static let marked = Cell(glyph: "x")

    /// The colours of the upper and lower halves of each cell in a row of the canvas.
    static func halves(_ canvas: Canvas, row: Int, columns: Range<Int>) -> [[Color]] {
        columns.map { [canvas[$0, row].foreground, canvas[$0, row].background] }
    }

    @Test func paintsThePicturesColoursIntoItsRectangleAndNowhereElse() async throws {
        let fixture = try PaintingFixture()
        let file = try fixture.writePNG(PaintingFixture.halves(width: 40, height: 40, top: (255, 0, 0), bottom: (0, 0, 255)))
        var canvas = Canvas(width: 12, height: 6, fill: Self.marked)
        let rect = Rect(x: 2, y: 1, width: 8, height: 4)

        #expect(await fixture.paintWhenReady(.file(file), into: rect, of: &canvas) == .painted)

        for row in 1...2 {
            #expect(Self.halves(canvas, row: row, columns: 2..<10) == Array(repeating: [Self.red, Self.red], count: 8))
        }
        for row in 3...4 {
            #expect(Self.halves(canvas, row: row, columns: 2..<10) == Array(repeating: [Self.blue, Self.blue], count: 8))
        }
        for (x, y) in [(1, 1), (10, 1), (2, 0), (9, 5), (0, 3), (11, 4)] {
            #expect(canvas[x, y] == Self.marked, "cell (\(x), \(y)) lies outside the rectangle")
        }
    }

    @Test func isPendingUntilTheCacheIsReadyAndThenPaints() async throws {
        let fixture = try PaintingFixture()
        let file = try fixture.writePNG(PaintingFixture.halves(width: 20, height: 20, top: (0, 0, 255), bottom: (0, 0, 255)))
        var canvas = Canvas(width: 4, height: 2, fill: Self.marked)

        #expect(fixture.painter.paint(.file(file), into: canvas.bounds, of: &canvas) == .pending)
        #expect(canvas == Canvas(width: 4, height: 2, fill: Self.marked), "a pending picture paints nothing")

        #expect(await fixture.paintWhenReady(.file(file), into: canvas.bounds, of: &canvas) == .painted)
        #expect(Self.halves(canvas, row: 1, columns: 0..<4) == Array(repeating: [Self.blue, Self.blue], count: 4))
        // Ready now: the next frame paints at once.
        #expect(fixture.painter.paint(.file(file), into: canvas.bounds, of: &canvas) == .painted)
    }

    @Test func aGarbageFileFailsWithAReasonAUserCanRead() async throws {
        let fixture = try PaintingFixture()
        let file = try fixture.write(Array("not a picture at all".utf8), named: "cover.png")
        var canvas = Canvas(width: 6, height: 3, fill: Self.marked)

        let outcome = await fixture.paintWhenReady(.file(file), into: canvas.bounds, of: &canvas)

        #expect(outcome == .failed(reason: "not a PNG or JPEG image"))
        #expect(canvas == Canvas(width: 6, height: 3, fill: Self.marked))
    }

    @Test func aMissingFileFailsAtOnce() throws {
        let fixture = try PaintingFixture()
        let missing = fixture.directory.appendingPathComponent("gone.png")
        var canvas = Canvas(width: 6, height: 3)

        let outcome = fixture.painter.paint(.file(missing), into: canvas.bounds, of: &canvas)

        #expect(outcome == .failed(reason: "cannot read \(missing.path): no such file"))
    }

    @Test func aPageOfADocumentNoRendererDrawsFailsSayingSo() async throws {
        let fixture = try PaintingFixture()
        let document = try fixture.write(Array("%PDF-1.7\n".utf8), named: "issue.pdf")
        var canvas = Canvas(width: 6, height: 3)

        let outcome = await fixture.paintWhenReady(.page(0, of: document, kind: .pdf), into: canvas.bounds, of: &canvas)

        guard case .failed(let reason) = outcome else {
            Issue.record("a page nobody can draw was \(outcome)")
            return
        }
        #expect(reason.contains("no renderer") && reason.contains("PDF"), "\(reason)")
    }

    @Test func bytesPaintLikeTheFileTheyCameFrom() async throws {
        let fixture = try PaintingFixture()
        let png = try ImageEncoder.png(PaintingFixture.halves(width: 30, height: 30, top: (255, 0, 0), bottom: (0, 0, 255)))
        let file = try fixture.write(png, named: "page.png")
        var fromFile = Canvas(width: 6, height: 3)
        var fromBytes = Canvas(width: 6, height: 3)

        #expect(await fixture.paintWhenReady(.file(file), into: fromFile.bounds, of: &fromFile) == .painted)
        #expect(await fixture.paintWhenReady(.bytes(png, identity: "images/page.png"), into: fromBytes.bounds, of: &fromBytes) == .painted)

        #expect(fromBytes == fromFile)
    }

    @Test func aZoomedPictureShowsThePartItIsPannedTo() async throws {
        let fixture = try PaintingFixture()
        let file = try fixture.writePNG(PaintingFixture.halves(width: 40, height: 40, top: (255, 0, 0), bottom: (0, 0, 255)))
        var canvas = Canvas(width: 4, height: 2)
        // The whole picture is 8×4 cells: rows 0–1 red, 2–3 blue; the window shows rows 2–3.
        let layout = PictureLayout(size: CellSize(columns: 8, rows: 4), column: 4, row: 2)

        #expect(await fixture.paintWhenReady(.file(file), into: canvas.bounds, of: &canvas, layout: layout) == .painted)

        for row in 0..<2 {
            #expect(Self.halves(canvas, row: row, columns: 0..<4) == Array(repeating: [Self.blue, Self.blue], count: 4))
        }
    }

    @Test func halvesThePictureLeavesUncolouredTakeTheColoursBehindIt() async throws {
        let fixture = try PaintingFixture()
        // Every other pixel row transparent: each cell's upper half is clear, its lower half red.
        var pixels: [UInt8] = []
        for y in 0..<8 { for _ in 0..<8 { pixels += y % 2 == 0 ? [0, 0, 0, 0] : [255, 0, 0, 255] } }
        let file = try fixture.writePNG(RGBAImage(width: 8, height: 8, pixels: pixels))
        var canvas = Canvas(width: 8, height: 4)
        let behind = Style(foreground: .indexed(7), background: .indexed(4))

        #expect(await fixture.paintWhenReady(.file(file), into: canvas.bounds, of: &canvas,
                                             layout: PictureLayout(behind: behind)) == .painted)

        for (x, y) in [(0, 0), (4, 1), (7, 3)] {
            let cell = canvas[x, y]
            #expect((cell.foreground == behind.foreground && cell.background == Self.red)
                        || (cell.foreground == Self.red && cell.background == behind.background), "cell (\(x), \(y)): \(cell)")
        }
    }

    @Test func aPictureOfAnotherShapeIsCentredAndTheCellsBesideItStayAsTheyWere() async throws {
        let fixture = try PaintingFixture()
        // Half as wide as tall: 4 of the rectangle's 8 columns (a cell is half as wide as tall).
        let file = try fixture.writePNG(PaintingFixture.halves(width: 20, height: 40, top: (255, 0, 0), bottom: (255, 0, 0)))
        var canvas = Canvas(width: 8, height: 4, fill: Self.marked)

        #expect(await fixture.paintWhenReady(.file(file), into: canvas.bounds, of: &canvas) == .painted)

        #expect(fixture.painter.state(of: .file(file), fittedIn: CellSize(columns: 8, rows: 4)) == .ready(CellSize(columns: 4, rows: 4)))
        for row in 0..<4 {
            #expect(Self.halves(canvas, row: row, columns: 2..<6) == Array(repeating: [Self.red, Self.red], count: 4))
            for x in [0, 1, 6, 7] { #expect(canvas[x, row] == Self.marked, "cell (\(x), \(row)) is beside the picture") }
        }
    }

    @Test func theStateSaysPendingThenTheFittedSizeOrWhyNot() async throws {
        let fixture = try PaintingFixture()
        let file = try fixture.writePNG(PaintingFixture.halves(width: 40, height: 40, top: (0, 0, 255), bottom: (0, 0, 255)))
        let size = CellSize(columns: 6, rows: 3)
        var canvas = Canvas(width: 6, height: 3)

        #expect(fixture.painter.state(of: .file(file), fittedIn: size) == .pending)
        #expect(await fixture.paintWhenReady(.file(file), into: canvas.bounds, of: &canvas) == .painted)
        #expect(fixture.painter.state(of: .file(file), fittedIn: size) == .ready(size))

        let missing = fixture.directory.appendingPathComponent("gone.png")
        #expect(fixture.painter.state(of: .file(missing), fittedIn: size) == .failed(reason: "cannot read \(missing.path): no such file"))
    }

    @Test func forgottenPicturesAreLetGoAndTheOthersKept() async throws {
        let fixture = try PaintingFixture()
        let near = try fixture.writePNG(PaintingFixture.halves(width: 20, height: 20, top: (255, 0, 0), bottom: (255, 0, 0)), named: "near.png")
        let far = try fixture.writePNG(PaintingFixture.halves(width: 20, height: 20, top: (0, 0, 255), bottom: (0, 0, 255)), named: "far.png")
        var canvas = Canvas(width: 4, height: 2)
        #expect(await fixture.paintWhenReady(.file(near), into: canvas.bounds, of: &canvas) == .painted)
        #expect(await fixture.paintWhenReady(.file(far), into: canvas.bounds, of: &canvas) == .painted)
        #expect(fixture.painter.keptSources == [.file(near), .file(far)])

        fixture.painter.forget { $0 == .file(far) }

        #expect(fixture.painter.keptSources == [.file(near)])
    }
}
