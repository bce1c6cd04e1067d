import Foundation
import Imaging
import NewsstandKit
import Pictures
import Terminal
import TextLayout

extension ShelfApp {
    /// What drawing needs besides the state: the colours and the covers ready to draw.
    struct ViewContext {
        var theme: Theme
        var covers: any CoverSource
        /// The covers this frame looked up: made with the context, read by `frame`.
        private let wanted = WantedCovers()

        init(theme: Theme, covers: any CoverSource) {
            self.theme = theme
            self.covers = covers
        }

        /// A publication's cover on the shelf, or nil while it is not ready (a placeholder shows).
        func shelfArt(_ summary: PublicationSummary, columns: Int, rows: Int) -> CoverArt? {
            want(covers.shelfRequest(summary, size: CellSize(columns: columns, rows: rows)))
        }

        /// An issue's thumbnail in the store.
        func tileArt(_ tile: IssueTile, columns: Int, rows: Int) -> CoverArt? {
            want(covers.tileRequest(tile, size: CellSize(columns: columns, rows: rows)))
        }

        /// A catalog book's cover, once fetched into the cover cache.
        func catalogArt(_ url: URL, columns: Int, rows: Int) -> CoverArt? {
            want(covers.catalogRequest(url, size: CellSize(columns: columns, rows: rows)))
        }

        private func want(_ request: CoverRequest?) -> CoverArt? {
            guard let request else { return nil }
            wanted.add(request)
            return covers.art(for: request)
        }

        /// The covers looked up so far, in the order the screen drew them.
        var wantedCovers: [CoverRequest] { wanted.requests }
    }

    /// A frame: the canvas, and the covers it wants, for the painter to prepare after it.
    struct Frame {
        var canvas: Canvas
        var wanted: [CoverRequest]
    }

    /// The state as a frame. Pure: covers are looked up in what the context was given
    /// (nothing looks at the disk or starts a render); the ones it wants are returned.
    static func frame(_ state: State, _ context: ViewContext) -> Frame {
        let canvas = view(state, context)
        return Frame(canvas: canvas, wanted: context.wantedCovers)
    }

    /// The state as a canvas (see `frame`).
    static func view(_ state: State, _ context: ViewContext) -> Canvas {
        let theme = context.theme
        var canvas = Canvas(width: state.width, height: state.height, fill: Cell(glyph: " ", style: theme.wall))
        if state.isTooSmall {
            let lines = ["Too small", "need \(minimumSize.width)×\(minimumSize.height)", "have \(state.width)×\(state.height)"]
            for (i, line) in lines.enumerated() {
                canvas.put(line, x: max(0, (state.width - DisplayWidth.of(line)) / 2), y: max(0, state.height / 2 - 1 + i), style: theme.text)
            }
            return canvas
        }
        switch state.screen {
        case .shelf: state.shelf.view(context, into: &canvas)
        case .store: state.store?.view(state.shared, context, into: &canvas)
        case .reader: state.reader?.view(into: &canvas)
        case .help: HelpScreen.view(state, context, into: &canvas)
        case .catalog: state.catalog.view(state.shared, context, into: &canvas)
        case .search: state.search?.view(state.shared, context, into: &canvas)
        case .highlights: state.highlights?.view(state.shared, context, into: &canvas)
        }
        Chrome.statusAndHints(state, theme: theme, into: &canvas)
        return canvas
    }

    /// The frame for the terminal now: drawn from the covers ready, then the covers it
    /// wants prepared (those already rendered in the cover cache come back at once, and
    /// the frame is drawn again with them; the others render on workers); the same for
    /// the reader's pictures, whose states go back to the reader as a message.
    public func render() -> Canvas {
        var frame = Self.frame(state, viewContext())
        var again = painter.prepare(frame.wanted)
        // Again while they change: a picture that arrives lays the text out again, which
        // may bring another on screen.
        for _ in 0..<3 {
            let pictures = painter.prepare(pictures: state.reader?.screen.wantedPictures ?? PictureWants())
            guard let reader = state.reader, !pictures.isSame(as: reader.screen.pager.pictures) else { break }
            send(.reader(ReaderResult(session: reader.session, loaded: .pictures(pictures))))
            again = true
        }
        if again { frame = Self.frame(state, viewContext()) }
        wantedCovers = frame.wanted
        return frame.canvas
    }

    /// What the view draws with: the painter's covers as they are now.
    func viewContext() -> ViewContext {
        ViewContext(theme: env.theme, covers: PaintedCovers(prepared: painter.prepared, coversDirectory: env.library.paths.coversDirectory))
    }

    /// The shelf's layout for the window now.
    func shelfLayout() -> ShelfScreen.Layout { state.shelf.layout(width: state.width, height: state.height) }
}

/// The covers one frame looked up, kept as it draws: owned by that frame's context alone.
final class WantedCovers {
    private(set) var requests: [CoverRequest] = []
    private var seen: Set<CoverRequest> = []

    func add(_ request: CoverRequest) {
        if seen.insert(request).inserted { requests.append(request) }
    }
}

/// Which picture each cover on the screens is drawn from, and the pictures ready to draw.
/// A request is made from what the state holds (the cover found at the library's read);
/// nil: the placeholder, with nothing to prepare.
protocol CoverSource {
    func shelfRequest(_ summary: PublicationSummary, size: CellSize) -> CoverRequest?
    func tileRequest(_ tile: IssueTile, size: CellSize) -> CoverRequest?
    /// A catalog book's cover, once fetched into the cover cache.
    func catalogRequest(_ url: URL, size: CellSize) -> CoverRequest?
    /// The cover ready to draw, or nil while it is not.
    func art(for request: CoverRequest) -> CoverArt?
}

extension CoverSource {
    func catalogRequest(_ url: URL, size: CellSize) -> CoverRequest? { nil }
}

/// A cover ready to stand on a screen: the cells it takes, and how it is put into a
/// canvas at a top-left cell (half-block cells written, or cells given to a picture in
/// pixels), the wall's colours behind it.
struct CoverArt {
    let columns: Int
    let rows: Int
    let draw: (inout Canvas, _ x: Int, _ y: Int, _ behind: Style) -> Void

    init(columns: Int, rows: Int, draw: @escaping (inout Canvas, Int, Int, Style) -> Void) {
        self.columns = columns
        self.rows = rows
        self.draw = draw
    }

    init(cells picture: CellPicture) {
        self.init(columns: picture.columns, rows: picture.rows) { canvas, x, y, behind in
            HalfBlockPainter.write(picture, into: &canvas, x: x, y: y, behind: behind)
        }
    }
}

/// Covers from the files the library's read found, as the painter has prepared them.
struct PaintedCovers: CoverSource {
    let prepared: PreparedCovers
    /// Where fetched covers are kept (`CoverFileName`), for a catalog's covers.
    let coversDirectory: URL

    func shelfRequest(_ summary: PublicationSummary, size: CellSize) -> CoverRequest? {
        guard let cover = summary.cover else { return nil }
        return prepared.request(cover.source, size: size, dress: Self.dress(summary), inPixels: prepared.shelfInPixels)
    }

    func tileRequest(_ tile: IssueTile, size: CellSize) -> CoverRequest? {
        guard let cover = tile.cover else { return nil }
        return prepared.request(cover.source, size: size, dress: CoverDress(sash: Self.sash(tile.issue)), inPixels: true)
    }

    /// Where the cover would be once fetched: nothing is looked at here; a cover not
    /// fetched yet fails to render and the placeholder shows until it is. In pixels
    /// wherever the terminal draws them, as the store's thumbnails.
    func catalogRequest(_ url: URL, size: CellSize) -> CoverRequest? {
        prepared.request(.file(CoverFileName.location(for: url, in: coversDirectory)), size: size, dress: .plain, inPixels: true)
    }

    func art(for request: CoverRequest) -> CoverArt? { prepared.art(for: request) }

    /// The store's sash: an issue downloaded and not read yet.
    static func sash(_ issue: Issue) -> Bool { issue.unread && issue.status == .available }

    /// A publication's cover on the shelf: bound as its issues are, the sash while any is new.
    static func dress(_ summary: PublicationSummary) -> CoverDress {
        let publication = summary.publication
        return CoverDress(binding: BindingType(rawValue: publication.bindingType.rawValue),
                          edge: BindingEdge(rawValue: publication.bindingEdge.rawValue) ?? .left, sash: summary.unreadCount > 0)
    }
}
