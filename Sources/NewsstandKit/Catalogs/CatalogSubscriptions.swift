import Foundation
import Feeds

/// What a catalog's books become in the library: a whole acquisition feed subscribed to as
/// a publication (its `next` pages followed, as any feed's), or one book taken as an issue
/// of "From catalogs", a publication no feed refreshes.
extension Library {
    /// The feed URL of the publication single books from catalogs join.
    public static let fromCatalogsFeedURL = "newsstand:from-catalogs"

    /// Whether a publication is the one books taken from catalogs join (nothing to refresh).
    public static func isFromCatalogs(_ publication: Publication) -> Bool {
        publication.feedURL == fromCatalogsFeedURL
    }
}

extension Subscriptions {
    /// Takes one book as an issue of "From catalogs", its best readable format as the
    /// content, and its progression link when the catalog keeps places. Taking it again
    /// leaves the issue as it is.
    @discardableResult
    public func take(_ book: CatalogBook) throws -> Issue {
        guard let entry = book.issueEntry(fallbackDate: clock.now()) else {
            let formats = book.formats.isEmpty ? "no format at all" : book.formats.joined(separator: ", ")
            throw CatalogError("\(book.title) comes as \(formats); only EPUB, CBZ, PDF and zip are read here")
        }
        var publication = try store.publication(feedURL: Library.fromCatalogsFeedURL)
            ?? Publication(feedURL: Library.fromCatalogsFeedURL, title: "From catalogs", addedAt: clock.now())
        if publication.id == nil || publication.unsubscribedAt != nil {
            publication.unsubscribedAt = nil
            publication = try store.save(publication)
        }
        _ = try store.sync(publication, entries: [entry])
        try store.markRefreshed(publicationID: publication.id, at: clock.now())
        guard let issue = try store.issue(named: entry.name) else { throw LibraryError.noSuchIssue(entry.name) }
        // A catalog that keeps the place (OPDS 2 progression) is a sync target for this issue.
        if let progression = book.progressionURL { try store.recordCatalogPlace(progression, for: issue) }
        return issue
    }
}
