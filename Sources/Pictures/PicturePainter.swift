import Imaging
import Terminal

/// Puts pictures on screen. A screen says which picture goes into which rectangle of its
/// canvas; the painter decides how it gets there (half-block cells today; the cells a
/// pixel protocol will draw over later), so screens never change when painters do.
///
/// Painters are used from the thread that draws. When a picture that was pending becomes
/// ready, the painter calls the `onReady` it was made with, on a thread of its own: the
/// app then draws the screen again.
public protocol PicturePainter: AnyObject {
    /// Paints `source` into `rect` of `canvas`, laid out as `layout` says: the picture is
    /// fitted into the layout's size in its own shape (the bars around a picture of another
    /// shape are not part of it); along a side where it is smaller than `rect` it is
    /// centred, along one where it is larger `rect` shows it from the layout's column or row.
    /// Cells of `rect` the picture does not cover are left as they were.
    func paint(_ source: ImageSource, into rect: Rect, of canvas: inout Canvas, layout: PictureLayout) -> PaintOutcome

    /// The cells `source` takes when fitted into `size` (never more than `size`), once it is
    /// ready: what a screen needs to place it (stand a cover on its shelf, pan a page).
    /// Asking starts preparing it, as `paint` does.
    func state(of source: ImageSource, fittedIn size: CellSize) -> PictureState

    /// Starts preparing `source` at `size` cells ahead of time (the next page of a comic),
    /// so painting it later is immediate.
    func prepare(_ source: ImageSource, size: CellSize)

    /// Lets go of what the painter keeps for the sources `shouldForget` names (the pages a
    /// comic left far behind), so a long document does not keep every page it showed.
    func forget(where shouldForget: (ImageSource) -> Bool)
}

extension PicturePainter {
    /// Paints `source` fitted into the whole of `rect`.
    public func paint(_ source: ImageSource, into rect: Rect, of canvas: inout Canvas) -> PaintOutcome {
        paint(source, into: rect, of: &canvas, layout: PictureLayout())
    }
}

/// What became of a request to paint.
public enum PaintOutcome: Hashable, Sendable {
    case painted
    /// Still being prepared: nothing was painted, and the painter's `onReady` will be called.
    case pending
    /// It cannot be painted, for a reason a user can read ("not a PNG or JPEG image").
    case failed(reason: String)
}

/// Where a picture is on its way to the screen.
public enum PictureState: Hashable, Sendable {
    /// Ready, taking this many cells.
    case ready(CellSize)
    /// Still being prepared: the painter's `onReady` will be called.
    case pending
    /// It cannot be painted, for a reason a user can read.
    case failed(reason: String)
}

/// A size in character cells.
public struct CellSize: Hashable, Sendable {
    public var columns: Int
    public var rows: Int

    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }
}

/// How a picture sits in the rectangle it is painted into.
public struct PictureLayout: Hashable, Sendable {
    /// The cells the whole picture is fitted into (nil: the rectangle's size). Larger than
    /// the rectangle when zoomed in (the rectangle then shows part of it), or when the
    /// rectangle is one row of a picture laid out among lines of text.
    public var size: CellSize?
    /// The column and row of the fitted picture shown at the rectangle's top-left corner
    /// along a side where it is larger than the rectangle (how far a zoomed picture is panned).
    public var column: Int
    public var row: Int
    /// The colours of cells the picture leaves to the terminal's default (the bars around
    /// a picture of another shape, transparent pixels).
    public var behind: Style

    public init(size: CellSize? = nil, column: Int = 0, row: Int = 0, behind: Style = .plain) {
        self.size = size
        self.column = column
        self.row = row
        self.behind = behind
    }
}
