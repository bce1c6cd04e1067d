import Foundation
import Imaging
import Synchronization
import Terminal

/// Paints pictures in real pixels: a picture is fitted into the pixels of its cells on a
/// worker thread, and `paint` gives the cells it covers to it in the canvas (blank there);
/// `PixelPlacer` draws it over them once ncurses has drawn the frame.
public final class PixelPainter: PicturePainter, Sendable {
    /// One cell in pixels.
    public let cell: PixelSize
    /// The protocol pictures are encoded for, ahead of time on the worker (a page turn then
    /// only writes bytes).
    public let graphics: GraphicsProtocol
    /// kitty 0.28 and later: pictures are drawn as placeholder cells (`KittyPlaceholders`),
    /// text ncurses draws, whose foreground names the picture's id in these colours; nil:
    /// placed over blank cells at the cursor. A picture wider or taller than the
    /// placeholders can number is placed at the cursor either way.
    public let placeholders: KittyPlaceholders.IDColours?
    /// The largest sixel picture the terminal draws: a picture, or the part of a zoomed one
    /// on screen, larger than it is scaled down to it when encoded, and drawn smaller from
    /// its top left corner (better than nothing, which is what xterm draws of a larger
    /// one). Its cells stay what they were, so zooming and panning keep their geometry.
    public let sixelLimit: PixelSize
    /// The wall a cover stands against, as the terminal shows it (nil: the terminal's own
    /// default, not known). sixel has no see-through pixels: a cover's rows above its
    /// picture are drawn in this colour (`standing`), and without it a sixel cover is not
    /// given them.
    public let wall: (r: UInt8, g: UInt8, b: UInt8)?
    private let documents: DocumentRenderers
    private let onReady: @Sendable () -> Void
    private let work = DispatchQueue(label: "newsstand.pixels", qos: .userInitiated)

    // Painted from the screen's thread, filled in by the worker.
    private let kept = Mutex(Kept())
    /// How many parts are kept: a few screens of panning about one page.
    static let keptParts = 12

    /// The pictures fitted so far and what is known of them.
    private struct Kept {
        var entries: [Fitting: Entry] = [:]
        /// Parts of pictures encoded (the window on a zoomed page), the latest last: each view
        /// is encoded once, and panning back to one seen lately costs nothing.
        var parts: [(part: PicturePart, bytes: [UInt8])] = []
        /// The number a picture at a size goes by in canvases (`PicturePlacement.picture`).
        var numbers: [Fitting: Int] = [:]
        var fittings: [Int: Fitting] = [:]
        var nextNumber = 1
        /// The pictures (by number) painted as placeholder cells.
        var heldByPlaceholders: Set<Int> = []
        /// The pictures (by number) let go since `takeForgotten` was last asked (`forget`).
        var forgotten: Set<Int> = []
    }

    private struct Fitting: Hashable {
        var source: ImageSource
        var size: CellSize
        /// A cover's adornments, drawn into its pixels.
        var dress = CoverDress.plain
        /// A cover: stands on the bottom of its cells (`standing`).
        var stands = false
    }

    private enum Entry {
        case pending
        /// The fitted image, and the whole of it encoded (`encoded(_:cover:)`).
        case ready(RGBAImage, [UInt8]?)
        case failed(String)
    }

    /// `onReady` is called on a worker thread whenever a picture that was pending is ready
    /// (or has failed). `wall` is the colour covers stand against (the theme's wall
    /// background) and `colors` what the screen draws it in (`shown(_:in:)`).
    public init(cell: PixelSize, graphics: GraphicsProtocol = .kitty, placeholders: KittyPlaceholders.IDColours? = nil,
                sixelLimit: PixelSize = GraphicsDetection.assumedSixelLimit, wall: Color = .default, colors: TerminalColors = .direct,
                documents: DocumentRenderers = .shared, onReady: @escaping @Sendable () -> Void) {
        self.cell = PixelSize(width: max(1, cell.width), height: max(1, cell.height))
        self.graphics = graphics
        self.sixelLimit = sixelLimit
        self.wall = Self.shown(wall, in: colors)
        self.placeholders = graphics == .kitty ? placeholders : nil
        self.documents = documents
        self.onReady = onReady
    }

    /// The pixels of a box of cells.
    func pixels(of size: CellSize) -> (width: Int, height: Int) {
        (max(1, size.columns) * cell.width, max(1, size.rows) * cell.height)
    }

    /// The cells an image of these pixels covers (a part-cell counts).
    func cells(of image: RGBAImage, within size: CellSize) -> CellSize {
        CellSize(columns: min(size.columns, (image.width + cell.width - 1) / cell.width),
                 rows: min(size.rows, (image.height + cell.height - 1) / cell.height))
    }

    /// The image of `source` fitted into `size`, starting its rendering if it is not there.
    private func entry(_ source: ImageSource, _ size: CellSize, _ dress: CoverDress = .plain, stands: Bool = false) -> Entry {
        let fitting = Fitting(source: source, size: size, dress: dress, stands: stands)
        let (known, start) = kept.withLock { kept -> (Entry?, Bool) in
            if let known = kept.entries[fitting] { return (known, false) }
            kept.entries[fitting] = .pending
            return (nil, true)
        }
        if let known { return known }
        if start {
            let box = pixels(of: size)
            work.async { [self] in
                let done: Entry
                do {
                    var image = PixelFitting.fitted(try ImageDecoder.decode(source, size: box, documents: documents), into: box)
                    if dress != .plain { image = dress.dressed(image, cell: cell) }
                    if stands, standsOnItsCells { image = Self.standing(image, cellHeight: cell.height) }
                    done = .ready(image, encoded(image, cover: stands))
                } catch {
                    done = .failed("\(error)")
                }
                kept.withLock { kept in if kept.entries[fitting] != nil { kept.entries[fitting] = done } }
                onReady()
            }
        }
        return .pending
    }

    private func number(for fitting: Fitting) -> Int {
        kept.withLock { kept in
            if let known = kept.numbers[fitting] { return known }
            let number = kept.nextNumber
            kept.nextNumber += 1
            kept.numbers[fitting] = number
            kept.fittings[number] = fitting
            return number
        }
    }

    /// Whether the canvas's picture `number` was painted as placeholder cells (`placeholders`).
    public func isHeldByPlaceholders(_ number: Int) -> Bool {
        kept.withLock { $0.heldByPlaceholders.contains(number) }
    }

    /// What kitty is sent once for a picture painted as placeholder cells: its id, the
    /// whole picture encoded, and the cells it spans (its virtual placement's size); nil
    /// when it is not one, or its image was let go meanwhile.
    public func placeholderPicture(numbered number: Int) -> (id: UInt32, bytes: [UInt8], size: CellSize)? {
        guard let colours = placeholders else { return nil }
        return kept.withLock { kept in
            guard kept.heldByPlaceholders.contains(number), let fitting = kept.fittings[number],
                  case .ready(let image, let bytes?)? = kept.entries[fitting] else { return nil }
            return (KittyPlaceholders.id(picture: number, colours: colours), bytes, cells(of: image, within: fitting.size))
        }
    }

    /// The fitted image a canvas's picture number stands for, when it is ready.
    public func image(numbered number: Int) -> RGBAImage? {
        kept.withLock { kept in
            guard let fitting = kept.fittings[number], case .ready(let image, _)? = kept.entries[fitting] else { return nil }
            return image
        }
    }

    public func state(of source: ImageSource, fittedIn size: CellSize) -> PictureState {
        state(of: source, fittedIn: size, dress: .plain, stands: false)
    }

    /// The cells a cover wearing `dress` takes (`state(of:fittedIn:)`); a page with marks
    /// does not stand (`stands: false`), as a page is placed from its top.
    public func state(of source: ImageSource, fittedIn size: CellSize, dress: CoverDress, stands: Bool = true) -> PictureState {
        switch entry(source, size, dress, stands: stands) {
        case .ready(let image, _): return .ready(cells(of: image, within: size))
        case .pending: return .pending
        case .failed(let reason): return .failed(reason: reason)
        }
    }

    public func paint(_ source: ImageSource, into rect: Rect, of canvas: inout Canvas, layout: PictureLayout) -> PaintOutcome {
        paint(source, dress: .plain, stands: false, into: rect, of: &canvas, layout: layout)
    }

    /// Paints a cover wearing `dress` (its binding's adornments, the NEW sash: drawn into
    /// its pixels), as `paint(_:into:of:layout:)` paints any picture.
    /// A cover stands on the bottom of its cells (`standing`); a page with marks does not.
    public func paint(_ source: ImageSource, dress: CoverDress, stands: Bool = true, into rect: Rect, of canvas: inout Canvas,
                      layout: PictureLayout) -> PaintOutcome {
        let size = layout.size ?? CellSize(columns: rect.width, rows: rect.height)
        switch entry(source, size, dress, stands: stands) {
        case .ready(let image, _):
            let cells = cells(of: image, within: size)
            let across = HalfBlockPainter.place(cells.columns, in: rect.width, from: layout.column)
            let down = HalfBlockPainter.place(cells.rows, in: rect.height, from: layout.row)
            let shown = Rect(x: rect.x + across.offset, y: rect.y + down.offset,
                             width: min(rect.width, cells.columns - across.from), height: min(rect.height, cells.rows - down.from))
            guard shown.width > 0, shown.height > 0 else { return .painted }
            let number = number(for: Fitting(source: source, size: size, dress: dress, stands: stands))
            let placement = PicturePlacement(picture: number, rect: shown, column: across.from, row: down.from)
            if let colours = placeholders, cells.columns <= KittyPlaceholders.largest, cells.rows <= KittyPlaceholders.largest {
                let id = KittyPlaceholders.id(picture: number, colours: colours)
                let style = Style(foreground: KittyPlaceholders.foreground(id: id, colours: colours), background: layout.behind.background)
                kept.withLock { _ = $0.heldByPlaceholders.insert(number) }
                canvas.place(placement) { column, row in
                    Cell(glyph: KittyPlaceholders.cell(id: id, row: row, column: column) ?? " ", style: style)
                }
            } else {
                canvas.place(placement, blank: Cell(glyph: " ", style: layout.behind))
            }
            return .painted
        case .pending:
            return .pending
        case .failed(let reason):
            return .failed(reason: reason)
        }
    }

    /// Whether covers are given rows on top (`standing`): kitty and iTerm2 show them as the
    /// cells behind; sixel has no see-through pixels, so only when the wall's colour is
    /// known to draw them in (`wall`).
    var standsOnItsCells: Bool {
        switch graphics {
        case .kitty, .iterm2: return true
        case .sixel: return wall != nil
        case .halfBlocks: return false
        }
    }

    /// `image` with transparent rows on top, so that it takes whole cells of `cellHeight`
    /// and its bottom is the bottom of its last cell: a picture is placed from the top of
    /// its first cell, and a cover whose height is not whole cells (a landscape one) would
    /// otherwise float above the plank it stands on. kitty and iTerm2 show those rows as
    /// the cells behind; sixel draws them in the wall's colour (`encoded(_:cover:)`).
    static func standing(_ image: RGBAImage, cellHeight: Int) -> RGBAImage {
        let cellHeight = max(1, cellHeight)
        let padding = (cellHeight - image.height % cellHeight) % cellHeight
        guard padding > 0 else { return image }
        return RGBAImage(width: image.width, height: image.height + padding,
                         pixels: [UInt8](repeating: 0, count: image.width * padding * 4) + image.pixels)
    }

    public func prepare(_ source: ImageSource, size: CellSize) {
        _ = entry(source, size)
    }

    public func forget(where shouldForget: (ImageSource) -> Bool) {
        kept.withLock { kept in
            kept.entries = kept.entries.filter { !shouldForget($0.key.source) }
            let fittings = kept.fittings
            kept.parts.removeAll { fittings[$0.part.picture].map { shouldForget($0.source) } ?? true }
            for (number, fitting) in fittings where shouldForget(fitting.source) { kept.forgotten.insert(number) }
            // Numbers stay: a canvas on screen may still name them (its image is then drawn
            // again when next asked for).
        }
    }

    /// The pictures (by number) `forget` let go since this was last asked: a terminal
    /// holding their images may free them (drawn again, they are encoded afresh).
    public func takeForgotten() -> Set<Int> {
        kept.withLock { kept in
            defer { kept.forgotten = [] }
            return kept.forgotten
        }
    }

    /// `image` as the protocol carries it: PNG for kitty and iTerm2, the sixel escape (a
    /// cover's see-through pixels in the wall's colour, other pictures' over black).
    func encoded(_ image: RGBAImage, cover: Bool) -> [UInt8]? {
        switch graphics {
        case .kitty, .iterm2: return try? ImageEncoder.png(image)
        case .sixel: return Sixel.encode(image, within: sixelLimit, behind: cover ? wall : nil)
        case .halfBlocks: return nil
        }
    }

    /// The colour the terminal shows for `color` when the screen draws in `colors` (as
    /// `ColorMapper` chooses it; palette entries 0–15 as xterm's defaults, since users
    /// retheme them); nil for the terminal's own default and without colours.
    public static func shown(_ color: Color, in colors: TerminalColors) -> (r: UInt8, g: UInt8, b: UInt8)? {
        var mapper = ColorMapper(colors: colors)
        let index = mapper.index(for: color)
        guard index >= 0 else { return nil }
        // Direct colour reads 0–7 as palette entries, anything else as 0xRRGGBB.
        if colors == .direct, index > 7 { return (UInt8(index >> 16 & 0xFF), UInt8(index >> 8 & 0xFF), UInt8(index & 0xFF)) }
        let entry = Palette.rgb(ofIndex: UInt8(index))
        return (entry.r, entry.g, entry.b)
    }

    /// `placement`'s picture encoded (`encoded(_:cover:)`): the whole picture as the worker
    /// encoded it; a part (the window on a zoomed page, a picture scrolled among text)
    /// encoded when first shown and kept (`keptParts`).
    public func encoded(for placement: PicturePlacement) -> [UInt8]? {
        let part = PicturePart(placement)
        let (known, cover): ([UInt8]?, Bool) = kept.withLock { kept in
            guard let fitting = kept.fittings[placement.picture], case .ready(let image, let bytes)? = kept.entries[fitting] else { return (nil, false) }
            if placement.column == 0, placement.row == 0,
               cells(of: image, within: fitting.size) == CellSize(columns: part.columns, rows: part.rows) { return (bytes, fitting.stands) }
            guard let index = kept.parts.firstIndex(where: { $0.part == part }) else { return (nil, fitting.stands) }
            let used = kept.parts.remove(at: index)
            kept.parts.append(used)
            return (used.bytes, fitting.stands)
        }
        if let known { return known }
        guard let bytes = pixels(for: placement).flatMap({ encoded($0, cover: cover) }) else { return nil }
        kept.withLock { kept in
            kept.parts.append((part, bytes))
            if kept.parts.count > Self.keptParts { kept.parts.removeFirst(kept.parts.count - Self.keptParts) }
        }
        return bytes
    }

    /// How many parts of pictures are kept encoded.
    public var keptPartCount: Int { kept.withLock { $0.parts.count } }

    /// The pixels of `placement` in its picture: the cells it shows, cut from the fitted
    /// image (nil when the image was let go meanwhile).
    public func pixels(for placement: PicturePlacement) -> RGBAImage? {
        guard let image = image(numbered: placement.picture) else { return nil }
        let left = placement.column * cell.width, top = placement.row * cell.height
        let width = min(image.width - left, placement.rect.width * cell.width)
        let height = min(image.height - top, placement.rect.height * cell.height)
        guard width > 0, height > 0 else { return nil }
        if left == 0, top == 0, width == image.width, height == image.height { return image }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for row in 0..<height {
            let from = ((top + row) * image.width + left) * 4
            pixels.replaceSubrange(row * width * 4..<(row + 1) * width * 4, with: image.pixels[from..<from + width * 4])
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }
}

/// A part of a picture (a painter's number), wherever on screen it is shown: the cells a
/// placement shows, from its cell (`column`, `row`). Encoded once by the painter, held once
/// by kitty (`PixelPlacer`).
struct PicturePart: Hashable {
    var picture: Int
    var column: Int
    var row: Int
    var columns: Int
    var rows: Int

    init(_ placement: PicturePlacement) {
        (picture, column, row) = (placement.picture, placement.column, placement.row)
        (columns, rows) = (placement.rect.width, placement.rect.height)
    }
}
