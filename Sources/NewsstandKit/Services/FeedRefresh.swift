import Foundation
import Feeds
import GRDB

/// Subscribing and refreshing a feed: the feed service's bytes → `Feeds` → the store, then
/// covers. A service over the store and the HTTP access; it never holds the `Library`.
struct FeedRefresh: Sendable {
    let store: LibraryStore
    let access: HTTPAccess
    let covers: CoverFetcher
    let clock: WallClock

    var feeds: FeedFetcher { FeedFetcher(access: access) }

    /// Adds a publication by its feed URL (credentials already kept apart) and lists its issues.
    func subscribe(feedURL: URL, pushURL: URL?, autoDownload: Bool?, editions: EditionSchedule?,
                   siteURL: URL? = nil) throws -> (Publication, Library.SyncResult) {
        guard case let .modified(data, validator) = try feeds.fetch(feedURL, validator: nil) else {
            throw DownloadError(message: "\(feedURL.absoluteString) answered 304 Not Modified to an unconditional request")
        }
        return try storeFeed(data, validator: validator, from: feedURL, into: nil, editions: editions) { publication in
            if let pushURL { publication.pushURL = pushURL.absoluteString }
            if let autoDownload { publication.autoDownload = autoDownload }
            if publication.siteURL == nil, let site = PublicationInfo.webPage(siteURL) {
                publication.siteURL = site.absoluteString
            }
            publication.unsubscribedAt = nil  // subscribed again: back whole, with its issues
        }
    }

    /// Fetches a publication's feed again (conditionally, with its stored validators) and
    /// brings its issues up to date; a failure is recorded in the publication and thrown.
    func refresh(_ publication: Publication) throws -> Library.SyncResult {
        guard let url = URL(string: publication.feedURL) else {
            throw DownloadError(message: "'\(publication.feedURL)' is not a URL")
        }
        do {
            let stored = TransferValidator(etag: publication.etag, lastModified: publication.lastModified)
            guard case let .modified(data, validator) = try feeds.fetch(url, validator: stored.isEmpty ? nil : stored) else {
                try store.markRefreshed(publicationID: publication.id, at: clock.now())
                return Library.SyncResult(added: [], updated: 0, unchanged: true)
            }
            return try storeFeed(data, validator: validator, from: url, into: publication) { _ in }.1
        } catch {
            recordFailure(of: publication, error)
            throw error
        }
    }

    /// Keeps why `publication`'s refresh failed, for the shelf and `newsstand refresh` to
    /// say; not when it was cancelled (Ctrl-C): nothing failed.
    func recordFailure(of publication: Publication, _ error: Error) {
        if let transfer = error as? TransferError, transfer.isCancelled { return }
        var failed = publication
        failed.lastError = "\(error)"
        _ = try? store.save(failed)
    }

    /// Reads a fetched feed into the library: the publication (`existing`, else the one with
    /// this feed URL, else a new one), its details from the feed, then `adjust`, and its
    /// issues and articles (gathered into editions: `storeArticles`), all in one
    /// transaction (the articles in a second one when the whole feed is stored at once),
    /// and brings its remote covers into the cache. The
    /// feed is parsed on a thread of its own and its entries are stored while the rest is
    /// still being read; when the end of the feed changes them (an undated entry, entries
    /// without content, more pages), that work is rolled back and the whole feed, with its
    /// pages, is stored as `sync` does. Covers are fetched once the transaction has
    /// committed (no request ever holds the write lock), while its log is written back into
    /// the library: both are mostly waiting.
    private func storeFeed(_ data: Data, validator: TransferValidator, from url: URL, into existing: Publication?,
                       editions: EditionSchedule? = nil, adjust: (inout Publication) -> Void) throws -> (Publication, Library.SyncResult) {
        let parse = StreamedParse(data, url: url)
        defer { parse.cancel() }
        let document: FeedDocument
        do {
            let coverService = covers
            let (publication, result, wanted) = try store.write { db in
                var publication = try existing ?? LibraryStore.publication(db, feedURL: url.absoluteString)
                    ?? Publication(feedURL: url.absoluteString, title: url.absoluteString)
                if publication.id == nil { try publication.insert(db) }  // titled from the feed below
                guard let publicationID = publication.id else { throw LibraryError.noSuchPublication(publication.title) }
                var writer = try Library.IssueWriter(db, publicationID: publicationID)
                while let batch = parse.next() { try writer.add(batch) }
                let (document, streamedAreFinal) = try parse.result()
                guard streamedAreFinal, document.publication.nextPage == nil else { throw WholeFeedNeeded(document: document) }
                update(&publication, from: document.publication, validator: validator, adjust: adjust)
                try publication.save(db)
                var result = try writer.finish()
                result.added += try LibraryStore.storeArticles(db, document.articles, publicationID: publicationID, now: clock.now(),
                                                       schedule: editions)
                return (publication, result, try coverService.wanted(db, for: publication, now: clock.now()))
            }
            let covers = DispatchGroup()
            DispatchQueue.global().async(group: covers) { coverService.fetch(wanted) }
            // The log (long after a long feed) is written back into the library now, while
            // the covers arrive, rather than by the last connection to close.
            _ = try? store.writer.writeWithoutTransaction { try $0.checkpoint(.passive) }
            // No cover is left half written as the process ends.
            covers.wait()
            return (publication, result)
        } catch let whole as WholeFeedNeeded {
            var first = whole.document
            feeds.followPages(of: &first, from: url)
            document = first
        }
        var publication = try existing ?? store.publication(feedURL: url.absoluteString)
            ?? Publication(feedURL: url.absoluteString, title: document.publication.title)
        update(&publication, from: document.publication, validator: validator, adjust: adjust)
        publication = try store.save(publication)
        var result = try store.sync(publication, entries: document.entries)
        if let publicationID = publication.id, editions != nil || !document.articles.isEmpty {
            result.added += try store.write { db in
                try LibraryStore.storeArticles(db, document.articles, publicationID: publicationID, now: clock.now(), schedule: editions)
            }
        }
        fetchRemoteCovers(for: publication)
        return (publication, result)
    }

    /// Thrown inside `storeFeed`'s transaction to roll back what was stored while parsing.
    private struct WholeFeedNeeded: Error {
        let document: FeedDocument
    }

    private func update(_ publication: inout Publication, from info: PublicationInfo, validator: TransferValidator,
                        adjust: (inout Publication) -> Void) {
        apply(info, to: &publication)
        adjust(&publication)
        publication.etag = validator.etag
        publication.lastModified = validator.lastModified
        publication.lastRefresh = clock.now()
        publication.lastError = nil
    }

    /// Brings http(s) covers of a publication and its newest issues into the cover cache.
    @discardableResult
    func fetchRemoteCovers(for publication: Publication, now: Date? = nil) -> Int {
        let covers = covers
        let now = now ?? clock.now()
        return covers.fetch((try? store.read { db in try covers.wanted(db, for: publication, now: now) }) ?? [])
    }

    private func apply(_ info: PublicationInfo, to publication: inout Publication) {
        if !info.title.isEmpty { publication.title = info.title }
        publication.subtitle = info.subtitle ?? publication.subtitle
        publication.coverURL = info.coverURL?.absoluteString ?? publication.coverURL
        publication.siteURL = info.siteURL?.absoluteString ?? publication.siteURL
        let type = info.bindingType.flatMap(Publication.BindingType.init(rawValue:))
        if let type { publication.bindingType = type }
        if let edge = info.bindingEdge.flatMap(Publication.BindingEdge.init(rawValue:)) { publication.bindingEdge = edge }
        else if type == .newspaper { publication.bindingEdge = .bottom }
        // A channel given with `subscribe --push` (or found earlier) stays.
        publication.pushURL = publication.pushURL ?? info.pushURL?.absoluteString
    }
}
