import Imaging
import Terminal

/// Paints pictures as `▀` half-block cells (two pixels a cell), rendered and kept by a
/// `CoverCache`: works in every terminal that shows colours.
public final class HalfBlockPainter: PicturePainter {
    public let cache: CoverCache
    public let colorMode: ColorMode
    public let symbols: Symbols
    /// Width ÷ height of one character cell.
    public let cellAspect: Double
    private let onReady: @Sendable () -> Void

    /// `onReady` is called on a worker thread whenever a picture that was pending is ready
    /// (or has failed).
    public init(cache: CoverCache, colorMode: ColorMode, symbols: Symbols, cellAspect: Double = 0.5,
                onReady: @escaping @Sendable () -> Void) {
        self.cache = cache
        self.colorMode = colorMode
        self.symbols = symbols
        self.cellAspect = cellAspect
        self.onReady = onReady
    }

    /// The state of a picture's cells.
    public enum Cells: Hashable, Sendable {
        case ready(CellPicture)
        case pending
        case failed(reason: String)
    }

    /// How `source` is rendered to fill `size`: letterboxed to exactly that many cells.
    public func options(for size: CellSize) -> RenderOptions {
        RenderOptions(columns: size.columns, rows: size.rows, colorMode: colorMode, symbols: symbols, cellAspect: cellAspect)
    }

    /// The cells of `source` at `size`, rendering them in the background if they are not
    /// ready: for screens that change the cells before they paint them (a cover's binding).
    public func cells(for source: ImageSource, size: CellSize) -> Cells {
        let options = options(for: size)
        if let picture = cache.picture(for: source, options: options, onReady: onReady) { return .ready(picture) }
        if let error = cache.error(for: source, options: options) { return .failed(reason: error.description) }
        return .pending
    }

    public func paint(_ source: ImageSource, into rect: Rect, of canvas: inout Canvas, layout: PictureLayout) -> PaintOutcome {
        let size = layout.size ?? CellSize(columns: rect.width, rows: rect.height)
        switch cells(for: source, size: size) {
        case .ready(let picture):
            let part = Rect(x: layout.column, y: layout.row, width: rect.width, height: rect.height)
            Self.write(picture, part: part, into: &canvas, x: rect.x, y: rect.y, behind: layout.behind)
            return .painted
        case .pending:
            return .pending
        case .failed(let reason):
            return .failed(reason: reason)
        }
    }

    public func prepare(_ source: ImageSource, size: CellSize) {
        _ = cells(for: source, size: size)
    }

    /// Copies `part` of a picture (in its own cells) to the canvas with the part's top-left
    /// at (x, y); `behind` colours the cells whose colours are the terminal's default.
    public static func write(_ picture: CellPicture, part: Rect? = nil, into canvas: inout Canvas,
                             x: Int, y: Int, behind: Style) {
        let part = part ?? Rect(x: 0, y: 0, width: picture.columns, height: picture.rows)
        let rows = max(0, part.y)..<max(max(0, part.y), min(picture.rows, part.maxY))
        let columns = max(0, part.x)..<max(max(0, part.x), min(picture.columns, part.maxX))
        for row in rows {
            for column in columns {
                canvas[x + column - part.x, y + row - part.y] = cell(picture[column, row], behind: behind)
            }
        }
    }

    /// A picture's cell as a canvas cell; letters (the ASCII symbols) are bold, to stand out.
    static func cell(_ cell: PictureCell, behind: Style) -> Cell {
        var style = Style(foreground: color(cell.foreground) ?? behind.foreground,
                          background: color(cell.background) ?? behind.background)
        if cell.glyph != "▀" && cell.glyph != "▄" && cell.glyph != " " { style.attributes = [.bold] }
        return Cell(glyph: String(cell.glyph), style: style)
    }

    static func color(_ color: CellColor?) -> Color? {
        switch color {
        case .none: return nil
        case .rgb(let r, let g, let b): return .rgb(r, g, b)
        case .indexed(let index): return .indexed(index)
        }
    }
}
