import Foundation
import NewsstandKit

/// One list of the shelf a device can walk: the root's sections, a publication's issues, a search.
public enum ShelfSection: Equatable, Sendable {
    case publications
    case publication(Int64)
    /// Downloaded and not yet opened.
    case new
    case newest
    case editions
    /// Opened, with a place kept, most recently read first.
    case readingNow
    case search(String)

    /// The path of its feed under a catalog's root (`/opds` or `/opds2`), without a page.
    public var path: String {
        switch self {
        case .publications: "publications"
        case .publication(let id): "publications/\(id)"
        case .new: "new"
        case .newest: "newest"
        case .editions: "editions"
        case .readingNow: "reading"
        case .search: "search"
        }
    }

    /// The section a path names (`path`'s inverse); nil for any other path.
    public init?(path: String, query: String?) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        switch (parts.count, parts.first) {
        case (1, "publications"): self = .publications
        case (1, "new"): self = .new
        case (1, "newest"): self = .newest
        case (1, "editions"): self = .editions
        case (1, "reading"): self = .readingNow
        case (1, "search"): self = .search(query ?? "")
        case (2, "publications"):
            guard let id = Int64(parts[1]), id > 0 else { return nil }
            self = .publication(id)
        default: return nil
        }
    }
}

/// What the catalogs show of a section: its title, and its issues or publications, one page at a time.
public struct ShelfListing: Sendable {
    public struct Entry: Sendable {
        public var issue: Issue
        public var publicationTitle: String?
    }

    public var title: String
    /// For `.publications`: every publication with at least one issue to download.
    public var publications: [(publication: Publication, issues: Int)] = []
    public var entries: [Entry] = []
    /// The page shown (from 1), and how many there are (at least 1).
    public var page: Int = 1
    public var pages: Int = 1
    /// The newest change to what is listed: `Last-Modified`.
    public var updated: Date
}

/// Reads a section of the library for the catalogs through its services (`library.store`,
/// `library.search`), never SQL: only issues whose content is installed are listed, since
/// an acquisition entry needs a file to acquire.
public struct ShelfSections: Sendable {
    public static let pageSize = 50
    let library: Library

    public init(library: Library) { self.library = library }

    /// The section's page `page` (from 1); nil when the section names nothing (no such publication).
    public func listing(_ section: ShelfSection, page: Int) throws -> ShelfListing? {
        let publications = try library.store.publications()
        let titles = Dictionary(publications.compactMap { p in p.id.map { ($0, p.title) } }, uniquingKeysWith: { a, _ in a })
        let subscribed = Set(titles.keys)
        // Every installed issue of a subscribed publication, newest first.
        func installed() throws -> [Issue] {
            try library.store.issues().filter { $0.status == .available && $0.publicationId.map(subscribed.contains) == true }
        }
        var listing: ShelfListing
        var issues: [Issue]
        switch section {
        case .publications:
            var counts: [Int64: Int] = [:]
            var newest = Date.distantPast
            for issue in try installed() {
                counts[issue.publicationId ?? 0, default: 0] += 1
                newest = max(newest, Self.changed(issue))
            }
            let shown = publications.compactMap { p in p.id.flatMap { counts[$0] }.map { (publication: p, issues: $0) } }
            listing = ShelfListing(title: "Publications", updated: newest)
            return Self.paged(listing, publications: shown, page: page)
        case .publication(let id):
            guard let title = titles[id] else { return nil }
            listing = ShelfListing(title: title, updated: .distantPast)
            issues = try library.store.issues(publicationID: id).filter { $0.status == .available }
        case .new:
            listing = ShelfListing(title: "New", updated: .distantPast)
            issues = try installed().filter { $0.unread }
        case .newest:
            listing = ShelfListing(title: "Newest", updated: .distantPast)
            issues = try installed()
        case .editions:
            listing = ShelfListing(title: "Editions", updated: .distantPast)
            issues = try installed().filter(Library.isEdition)
        case .readingNow:
            listing = ShelfListing(title: "Reading now", updated: .distantPast)
            issues = try installed().filter { $0.locator != nil && $0.lastOpenedAt != nil }
                .sorted { ($0.lastOpenedAt ?? .distantPast) > ($1.lastOpenedAt ?? .distantPast) }
        case .search(let terms):
            listing = ShelfListing(title: "Search: \(terms)", updated: .distantPast)
            issues = try found(terms).filter { $0.status == .available && $0.publicationId.map(subscribed.contains) == true }
        }
        listing.updated = issues.map(Self.changed).max() ?? .distantPast
        let entries = issues.map { ShelfListing.Entry(issue: $0, publicationTitle: $0.publicationId.flatMap { titles[$0] }) }
        return Self.paged(listing, entries: entries, page: page)
    }

    /// The issues `library.search` finds for the terms, best first (none for words it refuses).
    private func found(_ terms: String) throws -> [Issue] {
        guard let query = try? SearchQuery(terms) else { return [] }
        return try library.search.find(query, issues: 200, perIssue: 1).groups.map(\.issue)
    }

    /// When an issue last changed in a way a catalog shows: its content installed, opened, or dated.
    static func changed(_ issue: Issue) -> Date {
        [issue.date, issue.downloadedAt, issue.lastOpenedAt, issue.locator?.updated].compactMap { $0 }.max() ?? issue.date
    }

    static func paged(_ listing: ShelfListing, entries: [ShelfListing.Entry] = [], publications: [(publication: Publication, issues: Int)] = [],
                      page: Int) -> ShelfListing {
        var listing = listing
        let count = max(entries.count, publications.count)
        listing.pages = max(1, (count + pageSize - 1) / pageSize)
        listing.page = min(max(page, 1), listing.pages)
        let range = ((listing.page - 1) * pageSize)..<min(listing.page * pageSize, count)
        if !entries.isEmpty { listing.entries = Array(entries[range]) }
        if !publications.isEmpty { listing.publications = Array(publications[range]) }
        return listing
    }
}
