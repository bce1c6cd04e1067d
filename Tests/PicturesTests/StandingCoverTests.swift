import Foundation
import Imaging
import Pictures
import Terminal
import Testing

/// A cover in pixels stands on the bottom of its cells (issue #30, item 10): a picture is
/// placed from the top of its first cell, so a landscape cover whose height is not whole
/// cells is given transparent rows on top; its bottom edge is then its box's bottom edge.
struct StandingCoverTests {
    /// Cells of 10 × 19 px, as kitty 0.26.5's.
    static let cell = PixelSize(width: 10, height: 19)

    /// A 3:2 cover (300 × 200, one grey) fitted into a box of 21 × 8 cells: 210 × 140 px,
    /// 7.37 rows of 19 px.
    static func fitted(graphics: GraphicsProtocol, dress: CoverDress?, wall: Color = .default,
                       colors: TerminalColors = .direct) throws -> (canvas: Canvas, image: RGBAImage, painter: PixelPainter) {
        let ready = ReadySignal()
        let painter = PixelPainter(cell: cell, graphics: graphics, wall: wall, colors: colors, onReady: ready.onReady)
        let source = try PixelPlacerTests.source("landscape-\(graphics)-\(dress != nil)", width: 300, height: 200, grey: 90)
        let box = Rect(x: 3, y: 2, width: 21, height: 8)
        let canvas = try ready.wait { () throws -> Canvas? in
            var canvas = Canvas(width: 30, height: 12)
            let painted = dress.map { painter.paint(source, dress: $0, into: box, of: &canvas, layout: PictureLayout()) }
                ?? painter.paint(source, into: box, of: &canvas, layout: PictureLayout())
            switch painted {
            case .painted: return canvas
            case .pending: return nil
            case .failed(let reason): throw PicturesTestError(reason)
            }
        }
        guard let canvas, let placement = canvas.pictures.first, let image = painter.image(numbered: placement.picture) else {
            throw PicturesTestError("the cover was not ready within 30 s")
        }
        return (canvas, image, painter)
    }

    static func alpha(_ image: RGBAImage, row: Int) -> Set<UInt8> {
        Set((0..<image.width).map { image.pixels[(row * image.width + $0) * 4 + 3] })
    }

    @Test(arguments: [GraphicsProtocol.kitty, .iterm2])
    func aLandscapeCoversBottomEdgeIsItsBoxsBottomEdge(graphics: GraphicsProtocol) throws {
        let (canvas, image, _) = try Self.fitted(graphics: graphics, dress: .plain)
        let placement = try #require(canvas.pictures.first)
        #expect(placement.rect == Rect(x: 3, y: 2, width: 21, height: 8))
        // 140 px of picture under 12 transparent rows: 152 px, 8 whole rows.
        #expect(image.width == 210 && image.height == 8 * 19)
        let top = placement.rect.y * Self.cell.height
        let bottom = top + image.height
        #expect(bottom == (2 + 8) * Self.cell.height, "the picture's bottom edge in px is the box's")
        #expect(Self.alpha(image, row: 0) == [0] && Self.alpha(image, row: 11) == [0])
        #expect(Self.alpha(image, row: 12) == [255] && Self.alpha(image, row: image.height - 1) == [255])
    }

    @Test func aPictureThatIsNotACoverIsPlacedFromTheTopAsBefore() throws {
        let (canvas, image, _) = try Self.fitted(graphics: .kitty, dress: nil)
        #expect(canvas.pictures.first?.rect == Rect(x: 3, y: 2, width: 21, height: 8))
        #expect(image.height == 140 && Self.alpha(image, row: 0) == [255])
    }

    /// The classic theme's wall.
    static let wall = Color.rgb(0x2B, 0x24, 0x1F)

    static func close(_ a: SixelDecoder.RGB?, _ b: (r: UInt8, g: UInt8, b: UInt8)) -> Bool {
        guard let a else { return false }
        return abs(Int(a.r) - Int(b.r)) <= 2 && abs(Int(a.g) - Int(b.g)) <= 2 && abs(Int(a.b) - Int(b.b)) <= 2
    }

    /// sixel has no see-through pixels: the rows above a landscape cover are sent in the
    /// wall's colour as the terminal shows it (exact in direct colour, its palette entry in
    /// 256 colours), the cover under them, so it stands on its box's bottom edge there too.
    @Test(arguments: [TerminalColors.direct, .palette256])
    func aSixelCoverIsSentOnTheWallsColourAndStandsOnItsBoxsBottomEdge(colors: TerminalColors) throws {
        let (canvas, image, painter) = try Self.fitted(graphics: .sixel, dress: .plain, wall: Self.wall, colors: colors)
        let placement = try #require(canvas.pictures.first)
        #expect(placement.rect == Rect(x: 3, y: 2, width: 21, height: 8))
        #expect(image.width == 210 && image.height == 8 * 19, "12 rows on top of the 140 px picture: 8 whole rows")
        let shown = try #require(painter.wall)
        if colors == .direct {
            #expect(shown == (0x2B, 0x24, 0x1F))
        } else {
            let entry = Palette.rgb(ofIndex: Palette.nearest256(r: 0x2B, g: 0x24, b: 0x1F))
            #expect(shown == entry)
        }
        let sent = try SixelDecoder(try #require(painter.encoded(for: placement)))
        #expect(sent.width == 210 && sent.height == 152)
        for y in 0..<12 {
            let off = (0..<sent.width).filter { !Self.close(sent[$0, y], shown) }
            #expect(off.isEmpty, "row \(y): \(off.count) pixels not the wall's colour")
        }
        var light = 0, count = 0
        for y in 12..<sent.height {
            for x in 0..<sent.width {
                guard let pixel = sent[x, y] else { Issue.record("(\(x), \(y)) not painted"); return }
                light += Int(pixel.r) + Int(pixel.g) + Int(pixel.b)
                count += 3
            }
        }
        #expect(abs(Double(light) / Double(count) - 90) < 4, "the cover's grey 90 on average, not the wall")
        #expect(!Self.close(sent[0, 12], shown) && !Self.close(sent[209, 151], shown))
    }

    @Test func aSixelCoverWhoseWallIsTheTerminalsDefaultKeepsItsHeight() throws {
        // The default colour is not known: rows drawn in a guess would show as a band.
        let (_, image, painter) = try Self.fitted(graphics: .sixel, dress: .plain)
        #expect(painter.wall == nil)
        #expect(image.height == 140 && Self.alpha(image, row: 0) == [255])
    }

    @Test func aSixelPictureThatIsNotACoverIsSentAsBefore() throws {
        let (canvas, image, painter) = try Self.fitted(graphics: .sixel, dress: nil, wall: Self.wall)
        #expect(image.height == 140 && Self.alpha(image, row: 0) == [255])
        let placement = try #require(canvas.pictures.first)
        let sent = try SixelDecoder(try #require(painter.encoded(for: placement)))
        #expect(sent.height == 140 && !Self.close(sent[0, 0], (0x2B, 0x24, 0x1F)))
    }

    /// A see-through pixel of a cover's own picture (a PNG with an alpha channel) is the
    /// wall's colour in sixel, as kitty shows the cells behind it; a half see-through one
    /// is blended over the wall, not over black.
    @Test func aCoversSeeThroughPixelsAreTheWallInSixel() throws {
        let behind: (r: UInt8, g: UInt8, b: UInt8) = (200, 40, 40)
        let image = RGBAImage(width: 12, height: 6, pixels: (0..<72).flatMap { pixel -> [UInt8] in
            switch pixel % 12 {
            case 0..<4: return [0, 0, 0, 0]
            case 4..<8: return [200, 40, 40, 128]
            default: return [90, 90, 90, 255]
            }
        })
        let limit = PixelSize(width: 1000, height: 1000)
        let sent = try SixelDecoder(Sixel.encode(image, within: limit, behind: behind))
        let overBlack = try SixelDecoder(Sixel.encode(image, within: limit))
        func red(_ decoded: SixelDecoder) -> Int {
            let reds = (0..<6).flatMap { y in (4..<8).map { Int(decoded[$0, y]?.r ?? 0) } }
            return reds.reduce(0, +) / reds.count
        }
        #expect((0..<6).allSatisfy { y in (0..<4).allSatisfy { Self.close(sent[$0, y], behind) } })
        // Half a red over red is that red (200); over black it was a darker one.
        #expect(red(sent) > 180 && red(overBlack) < 165, "\(red(sent)) \(red(overBlack))")
    }
}
