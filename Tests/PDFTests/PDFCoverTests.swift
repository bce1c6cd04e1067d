import Foundation
import Imaging
import Pictures
import IssueArchive
import Testing
@testable import NewsstandKit
@testable import PDF
@testable import Shelf

/// A PDF issue whose feed gives no cover stands on the shelf and in the store with its
/// first page as its cover: drawn through the contained worker, once, then kept.
@Suite struct PDFCoverTests {
    /// Draws pages through the real worker and remembers which it was asked for.
    final class RecordingRenderer: DocumentRenderer, @unchecked Sendable {
        let inner: PDFPageRenderer
        // `lock` guards `asked`: the cover cache's worker threads render.
        private let lock = NSLock()
        private var asked: [DocumentPage] = []
        init(_ inner: PDFPageRenderer) { self.inner = inner }
        var pages: [DocumentPage] { lock.withLock { asked } }
        func render(_ page: DocumentPage, fitting size: (width: Int, height: Int)?) throws -> RGBAImage {
            lock.withLock { asked.append(page) }
            return try inner.render(page, fitting: size)
        }
    }

    @Test func page1IsTheCoverOfAPDFIssueWithoutAFeedCover() throws {
        let root = try SamplePDF.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let pdf = root.appendingPathComponent("magazine-1.pdf")
        SamplePDF.write(to: pdf, pages: 3)
        let library = try Library(paths: Paths(environment: ["NEWSSTAND_HOME": root.appendingPathComponent("home").path]))
        let publication = try library.store.save(Publication(feedURL: "file:///feeds/tutorial.plist", title: "The Test Monthly"))
        var issue = try library.store.addIssue(name: "magazine-1", date: Date(timeIntervalSince1970: 1_780_000_000),
                                         publicationID: publication.id, title: "Magazine 1")
        issue.contentURL = pdf.absoluteString
        issue.contentType = "application/pdf"
        issue = try library.store.save(issue)
        try library.downloads.enqueue(issue)
        let worker = PDFWorker(executable: builtWorker)
        var options = Agent.Options()
        options.formats = IssueFormats()
        options.formats.register(PDFIssueFormat(worker: worker))
        #expect(try Agent(library: library, options: options).run() == .finished)

        let installed = try #require(try library.store.issue(named: "magazine-1"))
        #expect(installed.status == .available && installed.unread)
        #expect(installed.contentCover == "issue.pdf#page=1")
        let document = library.downloads.contentDirectory(for: installed).appendingPathComponent("issue.pdf").standardizedFileURL
        let cover = try #require(library.covers.cover(of: installed))
        #expect(cover == CoverPicture(file: document, page: 0))
        #expect(try ShelfReader(library: library).summaries().first?.cover == cover)
        // The store's read finds it too: its tile carries it, and drawing looks at no file.
        let publicationID = try #require(publication.id)
        let storeTile = try #require(try ShelfReader(library: library).storeTiles(publicationID: publicationID).first)
        #expect(storeTile.cover == cover)

        // The store's tile: page 1 drawn through the worker, with the NEW sash.
        let renderer = RecordingRenderer(PDFPageRenderer(worker: worker))
        let documents = DocumentRenderers()
        documents.register(renderer, for: .pdf)
        let cacheFolder = root.appendingPathComponent("rendered")
        // The painter renders on worker threads; each ready picture signals `ready`.
        let ready = ReadySignal()
        let painter = CoverPainter(cache: CoverCache(directory: cacheFolder, documents: documents), colorMode: .truecolor, symbols: .half,
                                   ready: ready)
        let size = CellSize(columns: 12, rows: 7)
        let request = try #require(Self.covers(painter).tileRequest(storeTile, size: size))
        #expect(request.source == .page(0, of: document, kind: .pdf))
        let tile = try #require(ready.wait { Self.cells(request, preparedBy: painter) })
        #expect(renderer.pages == [DocumentPage(document: document, kind: .pdf, index: 0)])
        let plain = try #require(ready.wait {
            Self.cells(CoverRequest(source: .page(0, of: document, kind: .pdf), size: size, dress: .plain, inPixels: false), preparedBy: painter)
        })
        #expect(tile != plain)  // the sash
        #expect(tile == CoverAdornments.newSash(plain, mode: .truecolor))

        // Rendered once: the same cover again, even in a new process's cache, is not drawn again.
        _ = Self.cells(request, preparedBy: painter)
        let laterReady = ReadySignal()
        let later = CoverPainter(cache: CoverCache(directory: cacheFolder, documents: documents), colorMode: .truecolor, symbols: .half,
                                 ready: laterReady)
        #expect(laterReady.wait { Self.cells(request, preparedBy: later) } == tile)
        #expect(renderer.pages.count == 1)

        // The feed's own cover, once it has one, wins over page 1.
        var covered = installed
        let feedCover = root.appendingPathComponent("cover.png")
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: feedCover)
        covered.coverURL = feedCover.absoluteString
        #expect(library.covers.cover(of: covered) == CoverPicture(file: feedCover))
    }

    static func covers(_ painter: CoverPainter) -> PaintedCovers {
        PaintedCovers(prepared: painter.prepared, coversDirectory: URL(fileURLWithPath: "/nonexistent"))
    }

    /// The cells of a cover once the painter prepared it, as the app does after a frame.
    static func cells(_ request: CoverRequest, preparedBy painter: CoverPainter) -> CellPicture? {
        painter.prepare([request])
        guard case .cells(let picture)? = painter.prepared.ready[request] else { return nil }
        return picture
    }
}
