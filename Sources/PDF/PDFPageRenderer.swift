import Foundation
import Imaging
import IssueArchive
import TextLayout

/// Draws PDF pages for Imaging's `ImageSource.page` through the contained worker.
public struct PDFPageRenderer: DocumentRenderer {
    let worker: PDFWorker

    public init(worker: PDFWorker) { self.worker = worker }

    /// A page that fails is an `ImageError` naming the page and why ("page 3 could not be
    /// drawn: the PDF library crashed").
    public func render(_ page: DocumentPage, fitting size: (width: Int, height: Int)?) throws -> RGBAImage {
        do { return try worker.render(page: page.index, of: page.document, region: page.region, fitting: size) } catch let error as PDFError {
            throw ImageError(.corrupt, error.description)
        }
    }
}

/// PDF in a program: issues of that format and pages drawn, both through one worker.
public enum PDFSupport {
    /// Registers PDF with the issue formats, the document renderers and the text readers
    /// every open, picture and text view use (the process's own unless given others: tests
    /// in one process must not swap each other's readers).
    public static func register(worker: PDFWorker = .shared, formats: IssueFormats = .shared,
                                renderers: DocumentRenderers = .shared, texts: DocumentTexts = .shared) {
        formats.register(PDFIssueFormat(worker: worker))
        renderers.register(PDFPageRenderer(worker: worker), for: .pdf)
        texts.register(PDFTextReader(worker: worker), forExtension: "pdf")
    }
}
