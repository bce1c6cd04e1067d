import Foundation
import Imaging
import IssueArchive
import TextLayout

/// One page of paged content. A page may be a picture, text, or both: a comic's page is a
/// picture; a PDF page (issue 22) is a picture with searchable text.
struct ReaderPage {
    /// The page's resource in the reading order.
    var resource: String
    /// Where the picture is drawn from (an image file, page N of a PDF); nil when the page
    /// has no picture.
    var picture: ImageSource?
    /// The page's words, when it has any.
    var text: TextDocument?
    /// The page's own name where it has one ("xii"): a PDF's page label.
    var label: String? = nil

    /// A comic's pages: each a picture file of the issue, with no text.
    static func pictures(of content: IssueContent, in root: URL) -> [ReaderPage] {
        content.readingOrder.map { resource in
            ReaderPage(resource: resource.path, picture: (try? IssueReader.resolve(resource.path, in: root)).map(ImageSource.file), text: nil)
        }
    }

    /// A PDF issue's reading order: each page of a document drawn by the renderer of its
    /// kind, labelled as the PDF labels it; anything else in it (a picture beside the PDF)
    /// drawn as a picture file.
    static func documentPages(of content: IssueContent, in root: URL) -> [ReaderPage] {
        content.readingOrder.map { resource in
            let picture = PagePath(resource.path).flatMap { $0.picture(in: root) }
                ?? (try? IssueReader.resolve(resource.path, in: root)).map(ImageSource.file)
            return ReaderPage(resource: resource.path, picture: picture, text: nil, label: resource.label)
        }
    }
}
