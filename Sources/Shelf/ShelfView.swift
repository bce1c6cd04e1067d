import Foundation
import Imaging
import NewsstandKit
import Pictures
import Terminal
import TextLayout

extension ShelfApp {
    /// What drawing needs besides the state: the colours and the covers.
    struct ViewContext {
        var theme: Theme
        var covers: any CoverSource
    }

    /// The state as a canvas. Pure: it changes no state (covers come from the painter's
    /// cache, which starts rendering those it does not have yet).
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
        case .shelf: ShelfScreen.view(state, context, into: &canvas)
        case .store: StoreScreen.view(state, context, into: &canvas)
        case .reader: state.reader?.view(into: &canvas)
        case .help: HelpScreen.view(state, context, into: &canvas)
        case .catalog: CatalogScreen.view(state, context, into: &canvas)
        }
        Chrome.statusAndHints(state, theme: theme, into: &canvas)
        return canvas
    }

    /// The frame for the terminal now.
    public func render() -> Canvas {
        painter.beginFrame()
        return Self.view(state, ViewContext(theme: env.theme, covers: PaintedCovers(painter: painter, library: env.library)))
    }

    /// The shelf's layout for the window now.
    func shelfLayout() -> ShelfScreen.Layout { ShelfScreen.layout(for: state) }
}

/// Where the screens get cover pictures: nil while one is not ready (a placeholder shows).
protocol CoverSource {
    func shelfCover(_ summary: PublicationSummary, columns: Int, rows: Int) -> CellPicture?
    func tileCover(_ issue: Issue, columns: Int, rows: Int) -> CellPicture?
    /// A catalog book's cover, once fetched into the cover cache.
    func catalogCover(_ url: URL, columns: Int, rows: Int) -> CellPicture?
    /// The shelf's and the store's covers as they are drawn: the cells above, or a
    /// picture in pixels.
    func shelfArt(_ summary: PublicationSummary, columns: Int, rows: Int) -> CoverArt?
    func tileArt(_ issue: Issue, columns: Int, rows: Int) -> CoverArt?
}

extension CoverSource {
    func catalogCover(_ url: URL, columns: Int, rows: Int) -> CellPicture? { nil }
    func shelfArt(_ summary: PublicationSummary, columns: Int, rows: Int) -> CoverArt? {
        shelfCover(summary, columns: columns, rows: rows).map(CoverArt.init(cells:))
    }
    func tileArt(_ issue: Issue, columns: Int, rows: Int) -> CoverArt? {
        tileCover(issue, columns: columns, rows: rows).map(CoverArt.init(cells:))
    }
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

/// Covers rendered by the painter on worker threads, from the files the library keeps.
struct PaintedCovers: CoverSource {
    let painter: CoverPainter
    let library: Library

    func shelfCover(_ summary: PublicationSummary, columns: Int, rows: Int) -> CellPicture? {
        guard let cover = summary.cover else { return nil }
        let dress = Self.dress(summary)
        return painter.cover(cover.source, size: CellSize(columns: columns, rows: rows), binding: dress.binding, edge: dress.edge,
                             sash: dress.sash)
    }

    func tileCover(_ issue: Issue, columns: Int, rows: Int) -> CellPicture? {
        guard let cover = library.cover(of: issue) else { return nil }
        return painter.cover(cover.source, size: CellSize(columns: columns, rows: rows), binding: nil, edge: .left,
                             sash: Self.sash(issue))
    }

    /// The store's sash: an issue downloaded and not read yet.
    static func sash(_ issue: Issue) -> Bool { issue.unread && issue.status == .available }

    func shelfArt(_ summary: PublicationSummary, columns: Int, rows: Int) -> CoverArt? {
        guard let cover = summary.cover else { return nil }
        return painter.art(cover.source, size: CellSize(columns: columns, rows: rows), dress: Self.dress(summary),
                           inPixels: painter.shelfInPixels)
    }

    func tileArt(_ issue: Issue, columns: Int, rows: Int) -> CoverArt? {
        guard let cover = library.cover(of: issue) else { return nil }
        return painter.art(cover.source, size: CellSize(columns: columns, rows: rows),
                           dress: CoverDress(sash: Self.sash(issue)), inPixels: true)
    }

    /// A publication's cover on the shelf: bound as its issues are, the sash while any is new.
    static func dress(_ summary: PublicationSummary) -> CoverDress {
        let publication = summary.publication
        return CoverDress(binding: BindingType(rawValue: publication.bindingType.rawValue),
                          edge: BindingEdge(rawValue: publication.bindingEdge.rawValue) ?? .left, sash: summary.unreadCount > 0)
    }

    func catalogCover(_ url: URL, columns: Int, rows: Int) -> CellPicture? {
        guard let file = library.localFile(forCover: url.absoluteString) else { return nil }
        return painter.cover(.file(file), size: CellSize(columns: columns, rows: rows), binding: nil, edge: .left, sash: false)
    }
}
