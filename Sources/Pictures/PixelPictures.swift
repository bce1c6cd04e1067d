import Imaging
import Terminal

/// How a command that prints pictures (`render`) draws them in pixels: the protocol chosen,
/// the box of pixels a size in cells is, each picture under its own kitty id.
public struct PixelPictures: Sendable {
    public var graphics: GraphicsProtocol
    public var detection: GraphicsDetection

    /// A cell's size when the terminal does not say (most fonts at 12 points are about this).
    public static let assumedCell = PixelSize(width: 10, height: 20)

    public init(graphics: GraphicsProtocol, detection: GraphicsDetection) {
        self.graphics = graphics
        self.detection = detection
    }

    public var cell: PixelSize { detection.cellPixels ?? Self.assumedCell }

    /// The drawing for pictures of at most `cells`; nil for half blocks.
    public func drawing(in cells: RenderTool.CellSize) -> RenderTool.PixelDrawing? {
        guard graphics.drawsPixels else { return nil }
        let writer = PixelPictureWriter(graphics: graphics, throughTmux: detection.throughTmux, sixelLimit: detection.largestSixel)
        let cell = cell
        var id: UInt32 = 0
        var box = (width: cells.columns * cell.width, height: cells.rows * cell.height)
        if graphics == .sixel { box = Sixel.clamped(box, to: writer.sixelLimit) }
        return RenderTool.PixelDrawing(box: box) { image in
            id += 1
            return try writer.bytes(for: image, rows: (image.height + cell.height - 1) / cell.height, id: id)
        }
    }
}
