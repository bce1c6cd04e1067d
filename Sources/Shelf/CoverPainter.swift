import Foundation
import Imaging
import NewsstandKit
import Pictures
import Terminal

/// A cover a frame wants: the picture, the cells it is fitted into, what it wears, and
/// whether it is drawn in pixels (only ever true when the terminal draws them).
struct CoverRequest: Hashable {
    var source: ImageSource
    var size: CellSize
    var dress: CoverDress
    var inPixels: Bool
}

/// The covers the painter has ready, as a value the view reads: drawing looks covers up
/// here and changes nothing (the painter prepares what a frame wants after it).
struct PreparedCovers {
    enum Cover {
        /// Half-block cells, the dress drawn into them.
        case cells(CellPicture)
        /// A picture in pixels, ready, taking these cells.
        case pixels(CellSize)
    }

    var ready: [CoverRequest: Cover] = [:]
    /// Puts the covers in pixels into a canvas; nil when the terminal draws none.
    var pixels: PixelPainter? = nil
    /// `covers = "pixels"`: the shelf's covers in pixels too.
    var shelfInPixels = false

    /// The cover as the screen draws it, or nil while it is prepared (or if it cannot be).
    func art(for request: CoverRequest) -> CoverArt? {
        switch ready[request] {
        case .cells(let picture)?:
            return CoverArt(cells: picture)
        case .pixels(let cells)?:
            guard let pixels else { return nil }
            return CoverArt(columns: cells.columns, rows: cells.rows) { canvas, x, y, behind in
                _ = pixels.paint(request.source, dress: request.dress, into: Rect(x: x, y: y, width: cells.columns, height: cells.rows),
                                 of: &canvas, layout: PictureLayout(size: request.size, behind: behind))
            }
        case nil:
            return nil
        }
    }

    /// What a cover of `source` in `size` wearing `dress` is drawn as: pixels when asked
    /// for and the terminal draws them, else half blocks.
    func request(_ source: ImageSource, size: CellSize, dress: CoverDress, inPixels: Bool) -> CoverRequest {
        CoverRequest(source: source, size: size, dress: dress, inPixels: inPixels && pixels != nil)
    }
}

/// A picture the reader draws: `source` fitted into `size` cells, wearing `dress` when
/// drawn in pixels (a page's search marks; half blocks mark their cells instead).
struct PictureRequest: Hashable {
    var source: ImageSource
    var size: CellSize
    var dress = CoverDress.plain
}

/// The pictures the reader's frame draws from, as its model says (`ReaderScreen.wantedPictures`):
/// the ones on screen, waited for; the ones read ahead (the next page), prepared and not
/// waited for; and which the painter may let go.
struct PictureWants: Equatable {
    var shown: [PictureRequest] = []
    var ahead: [PictureRequest] = []
    var release: PictureRelease?
}

/// Pictures inside the folder (resolved) other than `kept` are let go: a long
/// document does not keep every page it showed.
struct PictureRelease: Equatable {
    var folder: String
    var kept: Set<ImageSource>
}

/// The reader's pictures as the painter had them after the last frame: a value in the
/// reader's model (it arrives as `ReaderLoaded.pictures`) that drawing reads and changes
/// nothing in; a picture not in it is still being prepared.
struct PreparedPictures {
    enum Picture {
        /// Half-block cells, drawn as they are.
        case cells(CellPicture)
        /// Ready in the chosen painter (pixels), taking these cells.
        case painted(CellSize)
        case failed(String)
    }

    var ready: [PictureRequest: Picture] = [:]
    /// Puts the `.painted` pictures into a canvas (the picture is ready: it only looks it up).
    var painter: (any PicturePainter)?

    /// As `PicturePainter.state`, from what was prepared: pending when it was not (yet).
    func state(of source: ImageSource, fittedIn size: CellSize) -> PictureState {
        state(of: PictureRequest(source: source, size: size))
    }

    func state(of request: PictureRequest) -> PictureState {
        switch ready[request] {
        case .cells(let picture)?: return .ready(CellSize(columns: picture.columns, rows: picture.rows))
        case .painted(let cells)?: return .ready(cells)
        case .failed(let reason)?: return .failed(reason: reason)
        case nil: return .pending
        }
    }

    /// Paints a prepared picture as `PicturePainter.paint` would; nothing for one not ready.
    func paint(_ source: ImageSource, into rect: Rect, of canvas: inout Canvas, layout: PictureLayout, dress: CoverDress = .plain) {
        let size = layout.size ?? CellSize(columns: rect.width, rows: rect.height)
        switch ready[PictureRequest(source: source, size: size, dress: dress)] {
        case .cells(let picture)?: HalfBlockPainter.paint(picture, into: rect, of: &canvas, layout: layout)
        case .painted? where dress != .plain:
            _ = (painter as? PixelPainter)?.paint(source, dress: dress, stands: false, into: rect, of: &canvas, layout: layout)
        case .painted?: _ = painter?.paint(source, into: rect, of: &canvas, layout: layout)
        case .failed?, nil: break
        }
    }

    /// The same pictures in the same states: a frame drawn from either is the same.
    func isSame(as other: PreparedPictures) -> Bool {
        ready.count == other.ready.count && ready.keys.allSatisfy {
            state(of: $0.source, fittedIn: $0.size) == other.state(of: $0.source, fittedIn: $0.size)
        }
    }
}

/// The app's pictures, on top of the painter chosen at start: covers with their binding's
/// adornments and the NEW sash, and the reader's pages and pictures, each prepared after a
/// frame from what the frame wanted (remembered, so a frame never redoes work); and whether
/// the frame is waiting for any. Only the run loop calls it, never a view or an update.
final class CoverPainter {
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
    /// The covers ready so far; the view reads a copy (`prepared`).
    private var finished: [CoverRequest: PreparedCovers.Cover] = [:]
    /// Set from worker threads when a picture is ready (or a document read): the app redraws.
    let readyFlag: AtomicFlag
    /// Whether a cover the last frame wanted is still being prepared.
    private var waitingForCovers = false
    /// Whether a picture the reader's last frame wanted is still being prepared.
    private var waitingForPictures = false
    /// True when the last frame left out a picture still being prepared: the run loop then
    /// checks for finished pictures often instead of waiting for input.
    var isWaitingForCovers: Bool { waitingForCovers || waitingForPictures }

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

    /// The covers ready now, for the next frame's view.
    var prepared: PreparedCovers { PreparedCovers(ready: finished, pixels: pixels, shelfInPixels: shelfInPixels) }

    /// Prepares the covers a frame wanted, after it was drawn: keeps those that are ready
    /// (dressed), starts rendering the others on workers (`readyFlag` says when one is
    /// done). True when a cover became ready that the frame did not have.
    @discardableResult
    func prepare(_ wanted: [CoverRequest]) -> Bool {
        var added = false
        var waiting = false
        for request in wanted where finished[request] == nil {
            switch cover(request) {
            case .ready(let cover):
                finished[request] = cover
                added = true
            case .pending:
                waiting = true
            case .failed:
                break
            }
        }
        waitingForCovers = waiting
        return added
    }

    private enum Preparation {
        case ready(PreparedCovers.Cover)
        case pending
        case failed
    }

    private func cover(_ request: CoverRequest) -> Preparation {
        if request.inPixels, let pixels {
            switch pixels.state(of: request.source, fittedIn: request.size, dress: request.dress) {
            case .ready(let cells):
                // Numbers the picture now, so that drawing it only looks the number up.
                var scratch = Canvas(width: cells.columns, height: cells.rows)
                _ = pixels.paint(request.source, dress: request.dress, into: Rect(x: 0, y: 0, width: cells.columns, height: cells.rows),
                                 of: &scratch, layout: PictureLayout(size: request.size))
                return .ready(.pixels(cells))
            case .pending: return .pending
            case .failed: return .failed
            }
        }
        switch covers.cells(for: request.source, size: request.size) {
        case .ready(var picture):
            let dress = request.dress
            if let binding = dress.binding { picture = CoverAdornments.adorn(picture, type: binding, edge: dress.edge, mode: covers.colorMode) }
            if dress.sash { picture = CoverAdornments.newSash(picture, mode: covers.colorMode) }
            return .ready(.cells(picture))
        case .pending: return .pending
        case .failed: return .failed
        }
    }

    // MARK: The reader's pictures

    /// The release done last: done again only when it changes.
    private var lastRelease: PictureRelease?

    /// Prepares the pictures the reader's frame wanted, after it was drawn (as `prepare(_:)`
    /// does covers): lets go of those released, starts rendering the ones ahead and the
    /// shown ones not ready (`readyFlag` says when one is done), and returns those ready
    /// for the reader's model.
    func prepare(pictures wants: PictureWants) -> PreparedPictures {
        if let release = wants.release, release != lastRelease {
            lastRelease = release
            forget { source in source.file.map { $0.path.hasPrefix(release.folder) } == true && !release.kept.contains(source) }
        }
        for request in wants.ahead { pictures.prepare(request.source, size: request.size) }
        var prepared = PreparedPictures(painter: pictures)
        var waiting = false
        for request in wants.shown where prepared.ready[request] == nil {
            if let halfBlocks = pictures as? HalfBlockPainter {
                switch halfBlocks.cells(for: request.source, size: request.size) {
                case .ready(let picture): prepared.ready[request] = .cells(picture)
                case .pending: waiting = true
                case .failed(let reason): prepared.ready[request] = .failed(reason)
                }
            } else if request.dress != .plain {
                // Only pixels wear marks: in half blocks the reader marks the cells.
                switch (pictures as? PixelPainter)?.state(of: request.source, fittedIn: request.size, dress: request.dress, stands: false) {
                case .ready(let cells)?: prepared.ready[request] = .painted(cells)
                case .pending?: waiting = true
                case .failed(let reason)?: prepared.ready[request] = .failed(reason)
                case nil: break
                }
            } else {
                switch pictures.state(of: request.source, fittedIn: request.size) {
                case .ready(let cells): prepared.ready[request] = .painted(cells)
                case .pending: waiting = true
                case .failed(let reason): prepared.ready[request] = .failed(reason)
                }
            }
        }
        waitingForPictures = waiting
        return prepared
    }

    private func forget(where shouldForget: (ImageSource) -> Bool) {
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
