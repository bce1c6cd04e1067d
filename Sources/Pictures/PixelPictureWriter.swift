import Imaging
import Terminal

/// Puts a picture on screen in real pixels at the cursor, in the protocol the terminal
/// speaks, and leaves the cursor at the start of the line below it, as text would.
public struct PixelPictureWriter: Sendable {
    public var graphics: GraphicsProtocol
    /// Inside tmux: each escape wrapped in its passthrough.
    public var throughTmux: Bool
    /// The largest sixel picture the terminal draws: a larger one is scaled down to it.
    public var sixelLimit: PixelSize

    public init(graphics: GraphicsProtocol, throughTmux: Bool = false, sixelLimit: PixelSize = GraphicsDetection.assumedSixelLimit) {
        self.graphics = graphics
        self.throughTmux = throughTmux
        self.sixelLimit = sixelLimit
    }

    /// The bytes that draw `image` (already fitted to its pixels) over `rows` lines. Lines
    /// are made first (scrolling at the bottom of the screen), the cursor is saved and put
    /// back around the picture (xterm leaves it inside a sixel), then moved below.
    /// `id` names a kitty picture, so drawing the same id again replaces it.
    public func bytes(for image: RGBAImage, rows: Int, id: UInt32 = 1) throws -> [UInt8] {
        let rows = max(rows, 1)
        var output: [UInt8] = Array(("\r" + String(repeating: "\n", count: rows) + "\u{1B}[\(rows)A" + "\u{1B}7").utf8)
        for escape in try escapes(for: image, id: id) {
            output += throughTmux ? TmuxPassthrough.wrap(escape) : escape
        }
        output += Array(("\u{1B}8" + "\u{1B}[\(rows)B\r").utf8)
        return output
    }

    /// The picture's own escapes, unwrapped.
    func escapes(for image: RGBAImage, id: UInt32) throws -> [[UInt8]] {
        switch graphics {
        case .kitty: return KittyGraphics.show(png: try ImageEncoder.png(image), id: id)
        case .sixel: return [Sixel.encode(image, within: sixelLimit)]
        case .iterm2: return [ITermImage.show(png: try ImageEncoder.png(image))]
        case .halfBlocks: return []
        }
    }
}
