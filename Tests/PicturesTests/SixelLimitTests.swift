import Imaging
import Pictures
import Terminal
import Testing

/// xterm draws nothing of a sixel picture larger than its `maxGraphicSize` (1000 × 1000 by
/// default): pictures for sixel are fitted within the limit the terminal gave, else that one.
struct SixelLimitTests {
    typealias Placer = PixelPlacerTests

    /// The size a sixel escape says it paints (`"1;1;width;height`).
    static func declaredSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let start = text.range(of: "\"1;1;") else { return nil }
        let numbers = text[start.upperBound...].prefix { $0.isNumber || $0 == ";" }.split(separator: ";").compactMap { Int($0) }
        return numbers.count >= 2 ? (numbers[0], numbers[1]) : nil
    }

    @Test func aBoxIsClampedToTheLimitAndAPictureKeepsItsShape() {
        let limit = PixelSize(width: 1000, height: 1000)
        #expect(Sixel.clamped((1200, 800), to: limit) == (1000, 800))
        #expect(Sixel.clamped((600, 2400), to: limit) == (600, 1000))
        #expect(Sixel.clamped((300, 200), to: limit) == (300, 200))
        let wide = PixelProtocolTests.image(width: 1500, height: 600) { x, _ in x < 750 ? (0, 0, 0) : (255, 255, 255) }
        let fitted = Sixel.fitting(wide, within: limit)
        #expect(fitted.width == 1000 && fitted.height == 400)
        let small = PixelProtocolTests.image(width: 40, height: 30) { _, _ in (9, 9, 9) }
        #expect(Sixel.fitting(small, within: limit) == small)
    }

    @Test func theWriterNeverSendsASixelLargerThanTheLimit() throws {
        let wide = PixelProtocolTests.image(width: 1200, height: 300) { x, _ in x % 32 < 16 ? (0, 0, 0) : (255, 255, 255) }
        let assumed = try #require(Self.declaredSize(try PixelPictureWriter(graphics: .sixel).bytes(for: wide, rows: 15)))
        #expect(assumed == (1000, 250))
        let told = PixelPictureWriter(graphics: .sixel, sixelLimit: PixelSize(width: 600, height: 600))
        #expect(try Self.declaredSize(told.bytes(for: wide, rows: 15)).map { $0 == (600, 150) } == true)
        let roomy = PixelPictureWriter(graphics: .sixel, sixelLimit: PixelSize(width: 4096, height: 4096))
        #expect(try Self.declaredSize(roomy.bytes(for: wide, rows: 15)).map { $0 == (1200, 300) } == true)
    }

    @Test func aPageWiderThanTheLimitIsSentScaledDownInTheCellsItHad() throws {
        // 2400 × 400 into 120 × 10 cells of 10 × 20 (1200 × 200 px): wider than xterm draws.
        let painter = Placer.painter(graphics: .sixel)
        let source = try Placer.source("wide", width: 2400, height: 400, grey: 80)
        let canvas = try Placer.painted(source, into: Rect(x: 0, y: 0, width: 120, height: 10), by: painter, size: (120, 12))
        let placement = try #require(canvas.pictures.first)
        #expect(placement.rect == Rect(x: 0, y: 0, width: 120, height: 10))
        #expect(painter.pixels(for: placement).map { ($0.width, $0.height) } ?? (0, 0) == (1200, 200))
        let sent = try #require(painter.encoded(for: placement))
        #expect(try #require(Self.declaredSize(sent)) == (1000, 167))
        // kitty has no such limit: the same page is sent whole.
        let kitty = Placer.painter(graphics: .kitty)
        let kittyCanvas = try Placer.painted(source, into: Rect(x: 0, y: 0, width: 120, height: 10), by: kitty, size: (120, 12))
        let png = try #require(kittyCanvas.pictures.first.flatMap(kitty.encoded(for:)))
        #expect(try ImageDecoder.decode(png).width == 1200)
    }

    @Test func aZoomedPartWiderThanTheLimitIsScaledDownRatherThanLost() throws {
        // Zoomed: a page of 240 × 40 cells seen through 120 × 10 of them.
        let painter = Placer.painter(graphics: .sixel, sixelLimit: PixelSize(width: 700, height: 700))
        let source = try Placer.source("zoomed", width: 2400, height: 800, grey: 120)
        let layout = PictureLayout(size: CellSize(columns: 240, rows: 40), column: 60, row: 10)
        let canvas = try Placer.painted(source, into: Rect(x: 0, y: 0, width: 120, height: 10), by: painter, size: (120, 12),
                                        layout: layout)
        let placement = try #require(canvas.pictures.first)
        #expect(placement.rect.width == 120)
        let bytes = try #require(painter.encoded(for: placement))
        // The part on screen, 1200 × 200 px of the 2400 × 800 zoomed page, at 700 px wide.
        #expect(painter.pixels(for: placement).map { ($0.width, $0.height) } ?? (0, 0) == (1200, 200))
        #expect(try #require(Self.declaredSize(bytes)) == (700, 117))
    }
}
