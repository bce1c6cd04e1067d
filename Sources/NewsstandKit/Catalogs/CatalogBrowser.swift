import Foundation
import Feeds

/// Why a catalog could not be used, in one sentence.
public struct CatalogError: Error, CustomStringConvertible, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The OPDS catalogs: the ones the user keeps (in the store, `CatalogRecords.swift`), their
/// pages and searches fetched through the library's HTTP access (so a server's credentials
/// go with every request), and comics streamed page by page (`StreamedComic.swift`). A
/// service over the store and the HTTP access; it never holds the `Library`.
public struct CatalogBrowser: Sendable {
    let store: LibraryStore
    let feeds: FeedFetcher
    /// Where streamed pages are kept meanwhile.
    let paths: Paths
    let clock: WallClock
    var access: HTTPAccess { feeds.access }

    /// One page, as the server gives it (no `next` pages followed).
    public func page(at url: URL) throws -> CatalogPage {
        try CatalogParser.parse(try feeds.fetch(url), url: url)
    }

    /// The URL of a search for `terms` in the catalog `page` belongs to: its template filled
    /// in, after fetching its OpenSearch description when it points at one.
    public func searchURL(for page: CatalogPage, terms: String) throws -> URL {
        guard !terms.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw CatalogError("nothing to search for") }
        let template: String
        switch page.search {
        case nil: throw CatalogError("\(page.title) offers no search")
        case let .template(written, _): template = written
        case let .description(url): template = try OpenSearch.template(fromDescription: try feeds.fetch(url), url: url)
        }
        guard let url = OpenSearch.url(template: template, terms: terms) else {
            throw CatalogError("the search template of \(page.title) does not make a URL: \(template)")
        }
        return url
    }

    /// The page of results of searching the catalog `page` belongs to.
    public func search(_ page: CatalogPage, terms: String) throws -> CatalogPage {
        try self.page(at: try searchURL(for: page, terms: terms))
    }
}

extension CoverFetcher {
    /// Brings catalog books' covers into the cover cache (those not there yet), a few at
    /// once, with the credentials of their host; how many arrived.
    @discardableResult
    public func fetchCatalogCovers(_ urls: [URL]) -> Int {
        fetch(urls.filter { !$0.isFileURL && localFile(forCover: $0.absoluteString) == nil })
    }
}
