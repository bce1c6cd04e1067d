#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Imaging
import PDF
import Synchronization
import TextLayout

/// `newsstand-pdf-draw` (and `newsstand-pdf draw`): one page of one PDF drawn as half-block
/// cells on standard output by this process alone. `render FILE.pdf` starts it ahead
/// (`PDFWorker.prepareDrawing`), so it loads and opens the PDF while `render` parses its
/// arguments, then sends the page (`DrawRequest`) on standard input: one process, not two in
/// a row, on the page's critical path (benchmarks/HISTORY.md, "Session 9: one PDF page as a
/// whole process"). `newsstand-pdf-draw` links MuPDF without poppler, whose ~50 libraries
/// were most of its start (HISTORY, "Session 13 (#31): the page as a whole process").
/// Contained like the worker: the same limits set on itself; the parent keeps the clock
/// and tells how it ended.
package enum PDFPageDrawing {
    /// Draws the page asked for; the process's exit status (1 when it could not be drawn,
    /// with one line on standard error; 0 when nothing was asked). `arguments` are the
    /// worker's limits and perhaps `--open FILE`, the document to open while it waits.
    package static func main(arguments: [String]) -> Int32 {
        closefrom(3)
        let options = WorkerOptions(arguments: arguments)
        WorkerLimits.limitItself(options)
        WorkerLimits.allowCPU(seconds: options.cpuSecondsPerRequest)
        let renderer = InProcessRenderer()
        if let index = arguments.firstIndex(of: "--open"), index + 1 < arguments.count {
            // A document that does not open now says why when it is asked for.
            _ = try? renderer.pages(arguments[index + 1])
        }
        guard let request = DrawRequest.read(from: STDIN_FILENO) else { return 0 }
        WorkerLimits.allowCPU(seconds: options.cpuSecondsPerRequest)
        if options.testFaults, let fault = request.misbehave { WorkerLimits.misbehave(fault) }
        let documents = DocumentRenderers()
        documents.register(renderer, for: .pdf)
        let drawn = RenderTool.run([request.document], page: request.page, options: request.options, documents: documents) { problem in
            // As `newsstand` prints its problems (`printProblem`): named, cleaned, one line.
            let line = Array("newsstand: \(Sanitizer.clean(problem, multiline: true))\n".utf8)
            _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        }
        return drawn ? 0 : 1
    }

    /// Pages drawn by MuPDF in this process from the document opened ahead (when it is the
    /// same file), failing in the worker's words. Poppler is never asked: drawing a page
    /// needs neither its text nor its outline, and opening a PDF twice costs its parse twice.
    final class InProcessRenderer: DocumentRenderer {
        private let opened = Mutex<(path: String, pages: MuPDFPages)?>(nil)

        func pages(_ path: String) throws -> MuPDFPages {
            try opened.withLock { opened in
                if let opened, opened.path == path { return opened.pages }
                let pages = try MuPDFPages(url: URL(fileURLWithPath: path), password: nil)
                opened = (path, pages)
                return pages
            }
        }

        func render(_ page: DocumentPage, fitting size: (width: Int, height: Int)?) throws -> RGBAImage {
            do {
                return try pages(page.document.path).render(page: page.index, region: page.region, fitting: size,
                                                            maximumPixels: WorkerFraming.maximumPixels)
            } catch let error as PDFError {
                throw ImageError(.corrupt, error.description)
            }
        }
    }
}
