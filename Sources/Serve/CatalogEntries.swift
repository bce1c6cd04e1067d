import Feeds
import Foundation
import NewsstandKit

/// What both catalogs (OPDS 1.2 Atom, OPDS 2.0 JSON) say, in one place: the root's sections,
/// and each issue's title, people, summary, date, pictures and files with their addresses.
/// The writers only spell it.
struct CatalogEntries: Sendable {
    /// `/opds` or `/opds2`.
    let root: String
    let files: ServedFiles
    let pages: ServedPages

    /// The root's sections, in the order a device lists them, with a line about each.
    static let sections: [(section: ShelfSection, title: String, about: String)] = [
        (.publications, "Publications", "Every publication on the shelf"),
        (.new, "New", "Downloaded issues not yet opened"),
        (.newest, "Newest", "Every downloaded issue, newest first"),
        (.editions, "Editions", "Editions built from the feeds' articles"),
        (.readingNow, "Reading now", "Issues with a place kept, last read first"),
    ]

    func href(_ section: ShelfSection, page: Int = 1) -> String {
        var href = "\(root)/\(section.path)"
        if case .search(let terms) = section { href += "?q=" + terms.percentEncodedUnreserved }
        if page > 1 { href += (href.contains("?") ? "&" : "?") + "page=\(page)" }
        return href
    }

    /// One issue as an entry: nil when it has no file a device takes.
    func entry(_ item: ShelfListing.Entry) -> Entry? {
        guard let id = item.issue.id, let kind = files.kind(of: item.issue) else { return nil }
        let issue = item.issue
        let cover = files.cover(of: issue)
        return Entry(
            id: "urn:newsstand:issue:\(id)",
            title: issue.shownTitle,
            authors: issue.authors.isEmpty ? item.publicationTitle.map { [$0] } ?? [] : issue.authors,
            publication: item.publicationTitle,
            summary: issue.summary,
            date: issue.date,
            updated: ShelfSections.changed(issue),
            // A PDF without a picture for a cover shows its first page, drawn.
            coverType: cover.flatMap { ServedFiles.imageType(of: $0) } ?? (kind == .pdf ? "image/png" : nil),
            cover: "/covers/\(id)", thumbnail: "/covers/\(id)?thumbnail=1",
            file: "/issues/\(id).\(kind.rawValue)", kind: kind,
            pageCount: pages.pages(of: issue)?.count, lastRead: issue.locator?.page,
            stream: "/pages/\(id)/{pageNumber}?maxWidth={maxWidth}")
    }

    struct Entry {
        var id: String
        var title: String
        var authors: [String]
        var publication: String?
        var summary: String?
        var date: Date
        var updated: Date
        /// The cover picture's media type; nil when the issue has no picture to show.
        var coverType: String?
        var cover: String
        var thumbnail: String
        var file: String
        var kind: ServedFiles.Kind
        /// For a comic or a PDF: its pages (OPDS-PSE), the one the reader here is on, and their address template.
        var pageCount: Int?
        var lastRead: Int?
        var stream: String
    }

    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
