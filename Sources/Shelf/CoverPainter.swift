import Foundation
import Imaging
import NewsstandKit
import Terminal

/// Turns rendered covers into canvas cells: crops the letterbox, adds the binding's
/// adornments and the NEW sash, and remembers the result so a frame never redoes work.
final class CoverPainter {
    let cache: CoverCache
    let colorMode: ColorMode
    let symbols: Symbols
    private var finished: [Key: CellPicture] = [:]
    /// Set from worker threads when a cover finished rendering: the app redraws.
    let readyFlag = AtomicFlag()
    /// True when the last frame drew a placeholder for a cover still rendering: the run
    /// loop then checks for finished covers often instead of waiting for input.
    private(set) var isWaitingForCovers = false

    /// Called at the start of every frame.
    func beginFrame() { isWaitingForCovers = false }

    struct Key: Hashable {
        var file: URL
        var columns: Int
        var rows: Int
        var binding: String
        var edge: String
        var sash: Bool
    }

    init(cache: CoverCache, colorMode: ColorMode, symbols: Symbols) {
        self.cache = cache
        self.colorMode = colorMode
        self.symbols = symbols
    }

    func options(columns: Int, rows: Int) -> RenderOptions {
        RenderOptions(columns: columns, rows: rows, colorMode: colorMode, symbols: symbols)
    }

    /// The finished cover for a box of `columns`×`rows`, or nil while it renders.
    func cover(file: URL, columns: Int, rows: Int, binding: String?, edge: String?, sash: Bool) -> CellPicture? {
        let key = Key(file: file, columns: columns, rows: rows, binding: binding ?? "", edge: edge ?? "", sash: sash)
        if let done = finished[key] { return done }
        let flag = readyFlag
        let options = options(columns: columns, rows: rows)
        guard let raw = cache.picture(for: file, options: options, onReady: { flag.set() }) else {
            if cache.error(for: file, options: options) == nil { isWaitingForCovers = true }
            return nil
        }
        var picture = CoverPainter.cropped(raw)
        if let binding, let type = BindingType(rawValue: binding) {
            picture = CoverAdornments.adorn(picture, type: type, edge: BindingEdge(rawValue: edge ?? "") ?? .left, mode: colorMode)
        }
        if sash { picture = CoverAdornments.newSash(picture, mode: colorMode) }
        finished[key] = picture
        return picture
    }

    /// Drops the finished pictures of files `shouldForget` names (comic pages left behind),
    /// so a long comic does not keep every page it showed at every zoom.
    func forget(where shouldForget: (URL) -> Bool) {
        finished = finished.filter { !shouldForget($0.key.file) }
    }

    /// The files whose finished pictures are kept.
    var keptFiles: Set<URL> { Set(finished.keys.map(\.file)) }

    /// True when the picture cannot be made (a broken or missing image), as opposed to not
    /// rendered yet.
    func failed(file: URL, columns: Int, rows: Int) -> Bool {
        cache.error(for: file, options: options(columns: columns, rows: rows)) != nil
    }

    /// A plain picture (article image, comic page) without adornments.
    func picture(file: URL, columns: Int, rows: Int) -> CellPicture? {
        cover(file: file, columns: columns, rows: rows, binding: nil, edge: nil, sash: false)
    }

    /// Letterbox cells have no colours: cut them away so the cover can stand on its shelf.
    static func cropped(_ picture: CellPicture) -> CellPicture {
        var minX = picture.columns, maxX = -1, minY = picture.rows, maxY = -1
        for y in 0..<picture.rows {
            for x in 0..<picture.columns where !isTransparent(picture[x, y]) {
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

    static func isTransparent(_ cell: PictureCell) -> Bool {
        cell.foreground == nil && cell.background == nil && (cell.glyph == " " || cell.glyph == "▀")
    }

    /// Copies a picture (or the `part` of it, in its own cells: a zoomed comic page) to the
    /// canvas with its top-left at (x, y); `behind` fills cells whose colours are the
    /// terminal default.
    static func draw(_ picture: CellPicture, into canvas: inout Canvas, x: Int, y: Int, behind: Style, part: Rect? = nil) {
        let part = part ?? Rect(x: 0, y: 0, width: picture.columns, height: picture.rows)
        for row in max(0, part.y)..<max(max(0, part.y), min(picture.rows, part.maxY)) {
            for column in max(0, part.x)..<max(max(0, part.x), min(picture.columns, part.maxX)) {
                let cell = picture[column, row]
                var style = Style(foreground: color(cell.foreground) ?? behind.foreground,
                                  background: color(cell.background) ?? behind.background)
                if cell.glyph != "▀" && cell.glyph != "▄" && cell.glyph != " " { style.attributes = [.bold] }
                canvas[x + column - part.x, y + row - part.y] = Cell(glyph: String(cell.glyph), style: style)
            }
        }
    }

    static func color(_ color: CellColor?) -> Color? {
        switch color {
        case .none: return nil
        case .rgb(let r, let g, let b): return .rgb(r, g, b)
        case .indexed(let index): return .indexed(index)
        }
    }
}

/// A flag one thread sets and another takes.
final class AtomicFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    func take() -> Bool { lock.withLock { defer { value = false }; return value } }
}
