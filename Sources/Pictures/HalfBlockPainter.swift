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

    /// Finished pictures by source and size, bars cut away: a frame never redoes work
    /// (asking the cache looks at the file each time).
    private var finished: [Fitting: CellPicture] = [:]

    private struct Fitting: Hashable {
        var source: ImageSource
        var size: CellSize
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

    /// The cells of `source` fitted into `size`, without the bars around a picture of
    /// another shape, rendering them in the background if they are not ready: for screens
    /// that change the cells before they paint them (a cover's binding).
    public func cells(for source: ImageSource, size: CellSize) -> Cells {
        let fitting = Fitting(source: source, size: size)
        if let done = finished[fitting] { return .ready(done) }
        let options = options(for: size)
        if let picture = cache.picture(for: source, options: options, onReady: onReady) {
            let fitted = Self.withoutBars(picture)
            finished[fitting] = fitted
            return .ready(fitted)
        }
        if let error = cache.error(for: source, options: options) { return .failed(reason: error.description) }
        return .pending
    }

    public func state(of source: ImageSource, fittedIn size: CellSize) -> PictureState {
        switch cells(for: source, size: size) {
        case .ready(let picture): return .ready(CellSize(columns: picture.columns, rows: picture.rows))
        case .pending: return .pending
        case .failed(let reason): return .failed(reason: reason)
        }
    }

    public func paint(_ source: ImageSource, into rect: Rect, of canvas: inout Canvas, layout: PictureLayout) -> PaintOutcome {
        let size = layout.size ?? CellSize(columns: rect.width, rows: rect.height)
        switch cells(for: source, size: size) {
        case .ready(let picture):
            Self.paint(picture, into: rect, of: &canvas, layout: layout)
            return .painted
        case .pending:
            return .pending
        case .failed(let reason):
            return .failed(reason: reason)
        }
    }

    /// Paints cells made before (`cells(for:size:)`) as `paint` paints a picture: for a
    /// screen that keeps the cells as a value and draws them without asking the painter.
    public static func paint(_ picture: CellPicture, into rect: Rect, of canvas: inout Canvas, layout: PictureLayout) {
        let across = place(picture.columns, in: rect.width, from: layout.column)
        let down = place(picture.rows, in: rect.height, from: layout.row)
        let part = Rect(x: across.from, y: down.from, width: min(rect.width, picture.columns), height: min(rect.height, picture.rows))
        write(picture, part: part, into: &canvas, x: rect.x + across.offset, y: rect.y + down.offset, behind: layout.behind)
    }

    /// Along one side: a picture shorter than the span is centred in it; a longer one is
    /// shown from `start`.
    static func place(_ length: Int, in span: Int, from start: Int) -> (offset: Int, from: Int) {
        length <= span ? ((span - length) / 2, 0) : (0, start)
    }

    public func prepare(_ source: ImageSource, size: CellSize) {
        _ = cells(for: source, size: size)
    }

    public func forget(where shouldForget: (ImageSource) -> Bool) {
        finished = finished.filter { !shouldForget($0.key.source) }
    }

    /// The sources whose finished pictures are kept.
    public var keptSources: Set<ImageSource> { Set(finished.keys.map(\.source)) }

    /// Cells with no colours are the bars around a picture of another shape: cut away, so
    /// a picture takes only its own cells (a cover stands on its shelf, a page is centred).
    static func withoutBars(_ picture: CellPicture) -> CellPicture {
        var minX = picture.columns, maxX = -1, minY = picture.rows, maxY = -1
        for y in 0..<picture.rows {
            for x in 0..<picture.columns where !isBar(picture[x, y]) {
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        guard maxX >= minX, maxY >= minY else { return picture }
        if minX == 0, minY == 0, maxX == picture.columns - 1, maxY == picture.rows - 1 { return picture }
        var cells: [PictureCell] = []
        cells.reserveCapacity((maxX - minX + 1) * (maxY - minY + 1))
        for y in minY...maxY { for x in minX...maxX { cells.append(picture[x, y]) } }
        return CellPicture(columns: maxX - minX + 1, rows: maxY - minY + 1, cells: cells)
    }

    static func isBar(_ cell: PictureCell) -> Bool {
        cell.foreground == nil && cell.background == nil && (cell.glyph == " " || cell.glyph == "▀")
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
