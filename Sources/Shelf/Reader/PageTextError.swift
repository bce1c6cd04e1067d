import IssueArchive

/// Why a document page's words cannot be shown as text.
enum PageTextError: Error, CustomStringConvertible {
    /// This program has no text reader for the document's kind (a build without PDF support).
    case noReader(PagePath)
    /// The reader failed: the worker crashed or timed out on the page, or the PDF is broken there.
    case unreadable(PagePath, String)

    var description: String {
        switch self {
        case .noReader(let page): return "page \(page.index + 1) of \(page.file) cannot be read as text here"
        case .unreadable(let page, let reason):
            // The PDF's own errors already name the page ("page 3 of x.pdf cannot be read: …").
            if reason.hasPrefix("page \(page.index + 1) of ") { return reason }
            return "page \(page.index + 1) of \(page.file) cannot be read as text: \(reason)"
        }
    }
}
