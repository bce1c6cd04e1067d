import Foundation
import Imaging
import Pictures
import Terminal
import Testing
@testable import Shelf

/// A painter that claims every picture is in one state, paints ready ones as `P` cells,
/// and remembers what it was asked: a stand-in for a painter the app may choose later.
final class RecordingPainter: PicturePainter {
    var answer: PictureState
    private(set) var painted: [(source: ImageSource, rect: Rect, layout: PictureLayout)] = []
    private(set) var prepared: [ImageSource] = []
    var kept: Set<ImageSource> = []

    init(answer: PictureState) { self.answer = answer }

    func paint(_ source: ImageSource, into rect: Rect, of canvas: inout Canvas, layout: PictureLayout) -> PaintOutcome {
        painted.append((source, rect, layout))
        kept.insert(source)
        switch answer {
        case .ready:
            canvas.fill(rect, with: Cell(glyph: "P"))
            return .painted
        case .pending: return .pending
        case .failed(let reason): return .failed(reason: reason)
        }
    }

    func state(of source: ImageSource, fittedIn size: CellSize) -> PictureState { answer }
    func prepare(_ source: ImageSource, size: CellSize) { prepared.append(source) }
    func forget(where shouldForget: (ImageSource) -> Bool) { kept = kept.filter { !shouldForget($0) } }
}

/// The reader's pages reach the screen through whichever painter the app chose, whatever
/// their source: a PDF's pages and another painter need no change to the pager. The pager
/// only says what it wants (`wantedPictures`) and draws what was prepared (`pictures`); the
/// painter is asked after the frame, as the app's run loop does (`frame`).
@Suite struct PictureSeamTests {
    static let root = URL(fileURLWithPath: "/issues/atlas-1")
    static let document = root.appendingPathComponent("atlas.pdf")

    static func pager(pages: Int, painter: RecordingPainter) -> (PagePager, CoverPainter) {
        let covers = HalfBlockPainter(cache: CoverCache(directory: nil, workers: 1), colorMode: .truecolor, symbols: .half) {}
        let shelfPainter = CoverPainter(pictures: painter, covers: covers, readyFlag: AtomicFlag())
        let pages = (0..<pages).map { ReaderPage(resource: "page\($0 + 1)", picture: .page($0, of: document, kind: .pdf), text: nil) }
        var pager = PagePager(pages: pages, rightToLeft: false, folder: root.path + "/", theme: .classic, at: nil)
        pager.resize(to: ReaderFrame(width: 80, height: 24))
        pager.settle()
        return (pager, shelfPainter)
    }

    /// A frame as the app makes it: what the pager wants prepared by the painter, the
    /// pictures ready given to the pager, then drawn.
    static func frame(_ pager: inout PagePager, _ painter: CoverPainter) -> Canvas {
        pager.pictures = painter.prepare(pictures: pager.wantedPictures)
        pager.settle()
        var canvas = Canvas(width: 80, height: 24)
        pager.render(into: &canvas)
        return canvas
    }

    @Test func aDocumentsPageIsPaintedIntoThePageViewAndTheNextOnePrepared() throws {
        let painter = RecordingPainter(answer: .ready(CellSize(columns: 40, rows: 20)))
        var (pager, shelfPainter) = Self.pager(pages: 3, painter: painter)
        var canvas = Canvas(width: 80, height: 24)
        pager.render(into: &canvas)
        #expect(painter.painted.isEmpty && painter.prepared.isEmpty, "drawing asks the painter nothing")
        #expect(canvas.text(row: 2).contains("Drawing the page…"))

        canvas = Self.frame(&pager, shelfPainter)

        let view = pager.frame.pageView
        let call = try #require(painter.painted.last)
        #expect(call.source == .page(0, of: Self.document, kind: .pdf))
        #expect(call.rect == view)
        #expect(call.layout.size == CellSize(columns: view.width, rows: view.height))
        #expect(call.layout.behind == Theme.classic.readerText)
        #expect(canvas[view.x, view.y].glyph == "P" && canvas[view.maxX - 1, view.maxY - 1].glyph == "P")
        #expect(painter.prepared == [.page(1, of: Self.document, kind: .pdf)])
    }

    @Test func aPageStillComingMakesTheFrameWaitUntilTheNextFrame() {
        let painter = RecordingPainter(answer: .pending)
        var (pager, shelfPainter) = Self.pager(pages: 2, painter: painter)

        var canvas = Self.frame(&pager, shelfPainter)

        #expect(shelfPainter.isWaitingForCovers)
        #expect(canvas.text(row: 2).contains("Drawing the page…"))
        painter.answer = .ready(CellSize(columns: 10, rows: 10))
        canvas = Self.frame(&pager, shelfPainter)
        #expect(!shelfPainter.isWaitingForCovers)
        #expect(canvas.text.contains("P"))
    }

    @Test func aPageThatFailsSaysWhyOnceAndDoesNotKeepTheFrameWaiting() {
        let painter = RecordingPainter(answer: .failed(reason: "corrupt JPEG: file is truncated"))
        var (pager, shelfPainter) = Self.pager(pages: 2, painter: painter)

        let canvas = Self.frame(&pager, shelfPainter)

        #expect(!shelfPainter.isWaitingForCovers)
        #expect(canvas.text(row: 2).contains("This page cannot be shown: corrupt JPEG: file is truncated"))
        #expect(!canvas.text.contains("Drawing the page…"))
        #expect(pager.handle(.character(" ")) == nil && pager.index == 1, "the reader moves on")
    }

    @Test func pagesFarBehindAreLetGoByThePainter() {
        let painter = RecordingPainter(answer: .ready(CellSize(columns: 40, rows: 20)))
        let pages = (0..<5).map { ImageSource.page($0, of: Self.document, kind: .pdf) }
        var (pager, shelfPainter) = Self.pager(pages: 5, painter: painter)
        painter.kept = Set(pages)

        pager.goTo(page: 3)
        _ = Self.frame(&pager, shelfPainter)

        #expect(painter.kept == Set(pages[2...4]))
    }
}
