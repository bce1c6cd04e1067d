import Foundation
import Imaging
import IssueArchive

/// A document page of an issue (`issue.pdf#page=3`) as the reader draws it.
extension PagePath {
    /// The document's file inside the issue, if it stays inside it.
    func document(in root: URL) -> URL? { try? IssueReader.resolve(file, in: root) }

    /// The page drawn whole, or one region of it (a figure).
    func picture(in root: URL, region: PageRegion? = nil) -> ImageSource? {
        document(in: root).map { .page(index, of: $0, kind: .pdf, region: region) }
    }
}
