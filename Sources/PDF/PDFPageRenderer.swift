import Foundation
import Imaging
import IssueArchive

/// Draws PDF pages for Imaging's `ImageSource.page` through the contained worker.
public struct PDFPageRenderer: DocumentRenderer {
    let worker: PDFWorker

    public init(worker: PDFWorker) { self.worker = worker }

    /// A page that fails is an `ImageError` naming the page and why ("page 3 could not be
    /// drawn: the PDF library crashed").
    public func render(page index: Int, of document: URL, fitting size: (width: Int, height: Int)?) throws -> RGBAImage {
        do { return try worker.render(page: index, of: document, fitting: size) } catch let error as PDFError {
            throw ImageError(.corrupt, error.description)
        }
    }
}

/// PDF in a program: issues of that format and pages drawn, both through one worker.
public enum PDFSupport {
    /// Registers PDF with the issue formats and the document renderers every open and
    /// every picture use.
    public static func register(worker: PDFWorker = .shared) {
        IssueFormats.shared.register(PDFIssueFormat(worker: worker))
        DocumentRenderers.shared.register(PDFPageRenderer(worker: worker), for: .pdf)
    }
}
