import Foundation
import Imaging
import NewsstandKit
import Pictures
import Terminal

/// The shelf's pictures, on top of the app's painter: covers with their binding's
/// adornments and the NEW sash (remembered, so a frame never redoes work), every other
/// picture through the painter as it is; and whether the frame is waiting for any.
final class CoverPainter: PicturePainter {
    /// The painter chosen at start: reader pages and article pictures.
    let pictures: any PicturePainter
    /// Covers in cells (the binding and the sash change them): the shelf's, unless
    /// `shelfInPixels`; every cover when the terminal draws no pixels.
    let covers: HalfBlockPainter
    /// Covers in pixels, their binding and sash drawn into the pixels (`CoverDress`): the
    /// store's thumbnails whenever the terminal draws pixels, the shelf's with
    /// `covers = "pixels"`. nil: half blocks.
    let pixels: PixelPainter?
    /// `covers = "pixels"`: the shelf's covers in pixels too.
    let shelfInPixels: Bool
    private var finished: [Key: CellPicture] = [:]
    /// Set from worker threads when a picture is ready (or a document read): the app redraws.
    let readyFlag: AtomicFlag
    /// True when the last frame left out a picture still being prepared: the run loop then
    /// checks for finished pictures often instead of waiting for input.
    private(set) var isWaitingForCovers = false

    /// Called at the start of every frame.
    func beginFrame() { isWaitingForCovers = false }

    struct Key: Hashable {
        var source: ImageSource
        var size: CellSize
        var binding: BindingType?
        var edge: BindingEdge
        var sash: Bool
    }

    /// `readyFlag` is the flag the painters' `onReady` sets.
    init(pictures: any PicturePainter, covers: HalfBlockPainter, readyFlag: AtomicFlag,
         pixels: PixelPainter? = nil, shelfInPixels: Bool = false) {
        self.pictures = pictures
        self.covers = covers
        self.readyFlag = readyFlag
        self.pixels = pixels
        self.shelfInPixels = shelfInPixels && pixels != nil
    }

    /// Today's choice: half-block cells for every picture, rendered by `cache`; `ready`, when
    /// given, is signalled with the flag (for callers that wait rather than poll).
    convenience init(cache: CoverCache, colorMode: ColorMode, symbols: Symbols, ready: ReadySignal? = nil) {
        let flag = AtomicFlag()
        let halfBlocks = HalfBlockPainter(cache: cache, colorMode: colorMode, symbols: symbols) { flag.set(); ready?.onReady() }
        self.init(pictures: halfBlocks, covers: halfBlocks, readyFlag: flag)
    }

    /// The finished cover fitted into `size`, or nil while it renders (or if it cannot be).
    func cover(_ source: ImageSource, size: CellSize, binding: BindingType?, edge: BindingEdge, sash: Bool) -> CellPicture? {
        let key = Key(source: source, size: size, binding: binding, edge: edge, sash: sash)
        if let done = finished[key] { return done }
        switch covers.cells(for: source, size: size) {
        case .ready(var picture):
            if let binding { picture = CoverAdornments.adorn(picture, type: binding, edge: edge, mode: covers.colorMode) }
            if sash { picture = CoverAdornments.newSash(picture, mode: covers.colorMode) }
            finished[key] = picture
            return picture
        case .pending:
            isWaitingForCovers = true
            return nil
        case .failed:
            return nil
        }
    }

    /// The cover as the screen draws it: in pixels when `inPixels` and the terminal draws
    /// them, else the cells of `cover(_:size:binding:edge:sash:)`; nil while it is prepared
    /// (or if it cannot be).
    func art(_ source: ImageSource, size: CellSize, dress: CoverDress, inPixels: Bool) -> CoverArt? {
        guard inPixels, let pixels else {
            return cover(source, size: size, binding: dress.binding, edge: dress.edge, sash: dress.sash).map(CoverArt.init(cells:))
        }
        switch pixels.state(of: source, fittedIn: size, dress: dress) {
        case .ready(let cells):
            return CoverArt(columns: cells.columns, rows: cells.rows) { canvas, x, y, behind in
                _ = pixels.paint(source, dress: dress, into: Rect(x: x, y: y, width: cells.columns, height: cells.rows),
                                 of: &canvas, layout: PictureLayout(size: size, behind: behind))
            }
        case .pending:
            isWaitingForCovers = true
            return nil
        case .failed:
            return nil
        }
    }

    // MARK: Other pictures, through the painter

    func paint(_ source: ImageSource, into rect: Rect, of canvas: inout Canvas, layout: PictureLayout) -> PaintOutcome {
        let outcome = pictures.paint(source, into: rect, of: &canvas, layout: layout)
        if outcome == .pending { isWaitingForCovers = true }
        return outcome
    }

    func state(of source: ImageSource, fittedIn size: CellSize) -> PictureState {
        let state = pictures.state(of: source, fittedIn: size)
        if state == .pending { isWaitingForCovers = true }
        return state
    }

    func prepare(_ source: ImageSource, size: CellSize) {
        pictures.prepare(source, size: size)
    }

    func forget(where shouldForget: (ImageSource) -> Bool) {
        finished = finished.filter { !shouldForget($0.key.source) }
        pictures.forget(where: shouldForget)
        if pictures !== covers { covers.forget(where: shouldForget) }
        if let pixels, pixels !== pictures { pixels.forget(where: shouldForget) }
    }
}

extension CoverPicture {
    /// The picture to draw: the image file, or the document's page drawn by the renderer
    /// registered for its kind (a PDF's through the contained worker), so it is rendered
    /// once and kept by the cover cache like any cover.
    var source: ImageSource {
        guard let page else { return .file(file) }
        return .page(page, of: file, kind: DocumentKind(rawValue: file.pathExtension.lowercased()))
    }
}

/// A flag one thread sets and another takes.
final class AtomicFlag: @unchecked Sendable {
    // `lock` guards `value`.
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    func take() -> Bool { lock.withLock { defer { value = false }; return value } }
}
