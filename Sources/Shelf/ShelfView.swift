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
}

extension CoverSource {
    func catalogCover(_ url: URL, columns: Int, rows: Int) -> CellPicture? { nil }
}

/// Covers rendered by the painter on worker threads, from the files the library keeps.
struct PaintedCovers: CoverSource {
    let painter: CoverPainter
    let library: Library

    func shelfCover(_ summary: PublicationSummary, columns: Int, rows: Int) -> CellPicture? {
        guard let cover = summary.cover else { return nil }
        let publication = summary.publication
        return painter.cover(cover.source, size: CellSize(columns: columns, rows: rows),
                             binding: BindingType(rawValue: publication.bindingType.rawValue),
                             edge: BindingEdge(rawValue: publication.bindingEdge.rawValue) ?? .left, sash: summary.unreadCount > 0)
    }

    func tileCover(_ issue: Issue, columns: Int, rows: Int) -> CellPicture? {
        guard let cover = library.cover(of: issue) else { return nil }
        return painter.cover(cover.source, size: CellSize(columns: columns, rows: rows), binding: nil, edge: .left,
                             sash: issue.unread && issue.status == .available)
    }

    func catalogCover(_ url: URL, columns: Int, rows: Int) -> CellPicture? {
        guard let file = library.localFile(forCover: url.absoluteString) else { return nil }
        return painter.cover(.file(file), size: CellSize(columns: columns, rows: rows), binding: nil, edge: .left, sash: false)
    }
}
