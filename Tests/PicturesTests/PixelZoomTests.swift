import Foundation
import Imaging
import Pictures
import Terminal
import Testing

/// A zoomed page in pixels: the picture placed is the part of the zoomed page the window
/// shows, at the cells' pixel size, never the whole page squeezed into the window.
struct PixelZoomTests {
    static let red: [UInt8] = [255, 0, 0, 255], green: [UInt8] = [0, 255, 0, 255]
    static let blue: [UInt8] = [0, 0, 255, 255], white: [UInt8] = [255, 255, 255, 255]

    /// 200 × 200 pixels in four quarters: red, green on top; blue, white below.
    static func quarters() throws -> ImageSource {
        var pixels: [UInt8] = []
        for y in 0..<200 {
            for x in 0..<200 { pixels += y < 100 ? (x < 100 ? red : green) : (x < 100 ? blue : white) }
        }
        return .bytes(ImageBytes(try ImageEncoder.png(RGBAImage(width: 200, height: 200, pixels: pixels)), identity: "quarters"))
    }

    /// The window: 10 × 5 cells of 10 × 20 pixels, 100 × 100 pixels, at the screen's top-left.
    static let window = Rect(x: 0, y: 0, width: 10, height: 5)

    /// Paints the page into the window, zoomed to `size` cells and panned to (column, row),
    /// once it is ready.
    static func frame(_ source: ImageSource, by painter: PixelPainter, size: CellSize?, column: Int = 0, row: Int = 0) throws -> Canvas {
        try PixelPlacerTests.painted(source, into: window, by: painter, size: (20, 8),
                                     layout: PictureLayout(size: size, column: column, row: row))
    }

    static func sentPicture(_ written: [UInt8]) throws -> RGBAImage {
        let text = String(decoding: written, as: UTF8.self)
        var payload = ""
        var sending = false
        for escape in text.components(separatedBy: "\u{1B}_G").dropFirst() {
            guard let semicolon = escape.firstIndex(of: ";"), let end = escape.range(of: "\u{1B}\\") else { continue }
            let control = escape[..<semicolon]
            if control.hasPrefix("a=t") { sending = true } else if !control.hasPrefix("m=") { sending = false }
            if sending { payload += escape[escape.index(after: semicolon)..<end.lowerBound] }
        }
        let png = try #require(Data(base64Encoded: payload))
        return try ImageDecoder.decode([UInt8](png))
    }

    static func pixel(_ image: RGBAImage, _ x: Int, _ y: Int) -> [UInt8] {
        Array(image.pixels[(y * image.width + x) * 4..<(y * image.width + x) * 4 + 4])
    }

    @Test func aZoomedPageIsPlacedAsThePartTheWindowShowsAtTheCellsPixels() throws {
        let painter = PixelPlacerTests.painter()
        let placer = PixelPlacer(painter: painter)
        let backend = MemoryBackend(width: 20, height: 8)
        let source = try Self.quarters()
        // At 200 %, the page is 20 × 10 cells (200 × 200 px); panned to its lower right quarter.
        let zoomed = try Self.frame(source, by: painter, size: CellSize(columns: 20, rows: 10), column: 10, row: 5)

        placer.draw(zoomed, on: backend)

        let placement = try #require(zoomed.pictures.first)
        #expect(placement.rect == Self.window && placement.column == 10 && placement.row == 5)
        let sent = try Self.sentPicture(backend.written)
        #expect(sent.width == 100 && sent.height == 100, "the window's pixels, not the page's: \(sent.width) × \(sent.height)")
        for (x, y) in [(0, 0), (50, 50), (99, 99)] { #expect(Self.pixel(sent, x, y) == Self.white, "pixel (\(x), \(y))") }
    }

    @Test func panningSendsTheNewPartUnderTheSameIdAndPanningBackIsNotEncodedAgain() throws {
        let painter = PixelPlacerTests.painter()
        let placer = PixelPlacer(painter: painter)
        let backend = MemoryBackend(width: 20, height: 8)
        let source = try Self.quarters()
        let zoom = CellSize(columns: 20, rows: 10)
        let id = PixelPlacer.firstID
        placer.draw(try Self.frame(source, by: painter, size: zoom, column: 10, row: 5), on: backend)
        #expect(painter.keptPartCount == 1)

        // Panned to the upper left quarter: red, sent again as the same kitty id, which
        // replaces the picture and its placement (no delete, no new id).
        backend.clearWritten()
        placer.draw(try Self.frame(source, by: painter, size: zoom, column: 0, row: 0), on: backend)
        let panned = PixelPlacerTests.text(backend.written)
        #expect(!panned.contains("a=d"), "panning deletes nothing: \(panned.prefix(80))")
        #expect(panned.contains("a=t,f=100,t=d,i=\(id),") && panned.contains("a=p,i=\(id),"))
        let sent = try Self.sentPicture(backend.written)
        #expect(sent.width == 100 && sent.height == 100)
        #expect(Self.pixel(sent, 0, 0) == Self.red && Self.pixel(sent, 99, 99) == Self.red)
        #expect(painter.keptPartCount == 2)

        // Back to the lower right: the part kept is sent, nothing encoded again.
        backend.clearWritten()
        placer.draw(try Self.frame(source, by: painter, size: zoom, column: 10, row: 5), on: backend)
        #expect(painter.keptPartCount == 2)
        #expect(Self.pixel(try Self.sentPicture(backend.written), 50, 50) == Self.white)
        #expect(placer.placements.count == 1)
    }

    @Test func zoomingOutPlacesTheWholePageAgain() throws {
        let painter = PixelPlacerTests.painter()
        let placer = PixelPlacer(painter: painter)
        let backend = MemoryBackend(width: 20, height: 8)
        let source = try Self.quarters()
        placer.draw(try Self.frame(source, by: painter, size: CellSize(columns: 20, rows: 10), column: 10, row: 0), on: backend)
        #expect(Self.pixel(try Self.sentPicture(backend.written), 50, 50) == Self.green)

        backend.clearWritten()
        let whole = try Self.frame(source, by: painter, size: nil)
        placer.draw(whole, on: backend)

        // The whole page fitted into the window's 100 × 100 pixels: its four quarters.
        let placement = try #require(whole.pictures.first)
        #expect(placement.column == 0 && placement.row == 0 && placement.rect == Self.window)
        let sent = try Self.sentPicture(backend.written)
        #expect(sent.width == 100 && sent.height == 100)
        #expect(Self.pixel(sent, 25, 25) == Self.red && Self.pixel(sent, 75, 25) == Self.green)
        #expect(Self.pixel(sent, 25, 75) == Self.blue && Self.pixel(sent, 75, 75) == Self.white)
    }
}
