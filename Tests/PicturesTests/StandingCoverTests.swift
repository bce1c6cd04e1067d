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
    static func fitted(graphics: GraphicsProtocol, dress: CoverDress?) throws -> (canvas: Canvas, image: RGBAImage) {
        let ready = ReadySignal()
        let painter = PixelPainter(cell: cell, graphics: graphics, onReady: ready.onReady)
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
        return (canvas, image)
    }

    static func alpha(_ image: RGBAImage, row: Int) -> Set<UInt8> {
        Set((0..<image.width).map { image.pixels[(row * image.width + $0) * 4 + 3] })
    }

    @Test(arguments: [GraphicsProtocol.kitty, .iterm2])
    func aLandscapeCoversBottomEdgeIsItsBoxsBottomEdge(graphics: GraphicsProtocol) throws {
        let (canvas, image) = try Self.fitted(graphics: graphics, dress: .plain)
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
        let (canvas, image) = try Self.fitted(graphics: .kitty, dress: nil)
        #expect(canvas.pictures.first?.rect == Rect(x: 3, y: 2, width: 21, height: 8))
        #expect(image.height == 140 && Self.alpha(image, row: 0) == [255])
    }

    @Test func sixelShowsTransparencyBlackSoItsCoversKeepTheirHeight() throws {
        let (_, image) = try Self.fitted(graphics: .sixel, dress: .plain)
        #expect(image.height == 140 && Self.alpha(image, row: 0) == [255])
    }
}
