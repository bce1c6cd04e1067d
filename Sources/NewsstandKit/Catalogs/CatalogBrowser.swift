import Foundation
import Feeds

/// Why a catalog could not be used, in one sentence.
public struct CatalogError: Error, CustomStringConvertible, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Fetches catalog pages and works out searches, through the library's HTTP access (so a
/// server's credentials go with every request). A service: no state, no library writes.
public struct CatalogBrowser: Sendable {
    let feeds: FeedFetcher

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

extension Library {
    /// Brings catalog books' covers into the cover cache (those not there yet), a few at
    /// once, with the credentials of their host; how many arrived.
    @discardableResult
    public func fetchCatalogCovers(_ urls: [URL]) -> Int {
        covers.fetch(urls.filter { !$0.isFileURL && localFile(forCover: $0.absoluteString) == nil })
    }
}
