import Foundation
import IssueArchive

/// The picture an issue's tile shows, from the cover cache or from what its installed
/// content says of itself (the feed's cover wins where it gives one).
extension CoverFetcher {
    /// The picture an issue's tile shows: the feed's cover once fetched, else the cover inside
    /// its installed content (a picture, or a page of a document: a PDF's page 1); nil when
    /// neither is on disk. It looks at the disk: the shelf asks it on its reads queue
    /// (`ShelfReader`), never while drawing.
    public func cover(of issue: Issue) -> CoverPicture? { cover(of: issue, fetched: nil) }

    /// `cover(of:)`, fetched covers looked up in `fetched` when given.
    func cover(of issue: Issue, fetched: FetchedCovers?) -> CoverPicture? {
        if let file = localFile(forCover: issue.coverURL, fetched: fetched) { return CoverPicture(file: file) }
        guard let inside = issue.contentCover, issue.status == .available else { return nil }
        let page = PagePath(inside)
        let directory = paths.contentDirectory(for: issue).standardizedFileURL
        let file = directory.appendingPathComponent(page?.file ?? inside).standardizedFileURL
        // The path came from the content: it must stay inside the issue's directory.
        guard file.path.hasPrefix(directory.path + "/"), FileManager.default.fileExists(atPath: file.path) else { return nil }
        return CoverPicture(file: file, page: page?.index)
    }

    /// Each issue's cover, the fetched ones looked up in one listing of the covers folder
    /// (`issues` lists thousands: one stat each would be most of its time).
    public func covers(of issues: [Issue]) -> [CoverPicture?] {
        let fetched = fetchedCovers()
        return issues.map { cover(of: $0, fetched: fetched) }
    }

    /// The file an issue's cover is drawn from (a document, for a page of one); see `cover(of:)`.
    public func coverFile(of issue: Issue) -> URL? { cover(of: issue)?.file }
}

/// Where a cover is drawn from: an image file, or one page of a document file.
public struct CoverPicture: Hashable, Sendable, CustomStringConvertible {
    public var file: URL
    /// The page of `file` (0 is the first) when it is a document; nil for an image.
    public var page: Int?

    public init(file: URL, page: Int? = nil) {
        self.file = file
        self.page = page
    }

    /// The file's path, with `#page=N` (N from 1) for a page of a document.
    public var description: String { page.map { PagePath(file: file.path, index: $0).description } ?? file.path }
}

extension Issue {
    /// The title to show: the feed's own, unless the feed gave none (then the entry was
    /// titled after its content file, as a folder's files are) and the content names itself.
    /// A title equal to the issue's name is the feed's (`<title>hp-2</title>` for the id hp-2).
    public var shownTitle: String {
        guard let contentTitle else { return title }
        let fileName = contentURL.flatMap(URL.init(string:))?.deletingPathExtension().lastPathComponent
        return title == fileName ? contentTitle : title
    }
}
