import Foundation
import Feeds
import GRDB

/// Subscribing and refreshing, as the library offers them: local folders and catalogs here,
/// feeds through the `FeedRefresh` service.
extension Library {
    /// Adds a publication by its feed URL and lists its issues. `pushURL` overrides the
    /// feed's push channel; `autoDownload` turns automatic download of new issues on or off
    /// (nil leaves it as it is); `editions` sets how its articles are gathered into editions
    /// (nil leaves it as it is: daily by default); `siteURL` (an OPML list's `htmlUrl`) is
    /// kept when the feed names no web site of its own.
    @discardableResult
    public func subscribe(feedURL: URL, pushURL: URL? = nil, autoDownload: Bool? = nil,
                          editions: EditionSchedule? = nil, siteURL: URL? = nil) throws -> (Publication, SyncResult) {
        try feedRefresh.subscribe(feedURL: try keepingCredentialsApart(feedURL), pushURL: pushURL, autoDownload: autoDownload,
                                  editions: editions, siteURL: siteURL)
    }

    /// Fetches a publication's feed again and brings its issues up to date. The stored
    /// ETag / Last-Modified make the request conditional: a 304 leaves everything as it
    /// was (`SyncResult.unchanged`), without parsing anything.
    @discardableResult
    public func refresh(_ publication: Publication) throws -> SyncResult {
        if isLocal(publication) { return try refreshLocal(publication) }
        if isFromCatalogs(publication) || publication.feedURL == Self.keptIssuesFeedURL {
            try markRefreshed(publication)
            return SyncResult(added: [], updated: 0)
        }
        return try feedRefresh.refresh(publication)
    }

    /// At most this many publications are refreshed at once, and at most `refreshesPerServer`
    /// of them from one server.
    public static let refreshWidth = 6
    public static let refreshesPerServer = 2

    /// Refreshes `publications` a few at a time (`refreshWidth`, `refreshesPerServer`),
    /// each as `refresh(_:)` does, and returns when all are done. `done` is told of each as
    /// it ends, on the thread that refreshed it. The fetches run side by side; what they
    /// bring is written by the library's one writer, a transaction at a time, none of them
    /// open while anything is fetched. A publication whose server has just failed to answer
    /// another is not fetched: it fails at once, saying so.
    public func refresh(_ publications: [Publication],
                        done: @escaping @Sendable (Int, Result<SyncResult, Error>) -> Void) {
        let servers = publications.map(refreshServer)
        alongside(publications) { [self] job, publication -> (Result<SyncResult, Error>, Error?) in
            let result: Result<SyncResult, Error>
            if let reason = job.serverDown, let server = servers[job.index] {
                let error = DownloadError(message: "not fetched: \(server) did not answer another feed (\(reason))")
                feedRefresh.recordFailure(of: publication, error)
                result = .failure(error)
            } else {
                result = Result { try refresh(publication) }
            }
            if case let .failure(error) = result { return (result, error) }
            return (result, nil)
        } done: { done($0, $1) }
    }

    /// Runs `work` for each of `publications` as `refresh(_:done:)` does, a few at a time and
    /// at most `refreshesPerServer` from one server (the agent's polls: a refresh, then an
    /// automatic download); `done` is told of each as it ends.
    public func alongside<Outcome: Sendable>(_ publications: [Publication], _ work: @escaping @Sendable (Publication) -> Outcome,
                                             done: @escaping @Sendable (Int, Outcome) -> Void) {
        alongside(publications, { job, publication in (work(publication), nil) }, done: done)
    }

    /// The workers: `work` is given the job and its publication and returns what `done` is
    /// told, and the error that marks its server down when it says the server did not answer.
    private func alongside<Outcome: Sendable>(_ publications: [Publication],
                                              _ work: @escaping @Sendable (RefreshSchedule.Job, Publication) -> (Outcome, Error?),
                                              done: @escaping @Sendable (Int, Outcome) -> Void) {
        let schedule = RefreshSchedule(servers: publications.map(refreshServer), perServer: Self.refreshesPerServer)
        // `refreshWidth` workers, each taking the schedule's next job until none is left.
        FetchPool.run(min(Self.refreshWidth, publications.count), width: Self.refreshWidth) { _ in
            while let job = schedule.next() {
                let (outcome, error) = work(job, publications[job.index])
                schedule.finished(job, error: error)
                done(job.index, outcome)
            }
        }
    }

    /// The server a publication is refreshed from (`host:port`); nil when none is asked.
    private func refreshServer(_ publication: Publication) -> String? {
        guard !isLocal(publication), !isFromCatalogs(publication), let url = URL(string: publication.feedURL),
              ["http", "https"].contains(url.scheme?.lowercased() ?? "") else { return nil }
        return NetworkWaits.server(of: url)
    }

    static var missingCoverRetry: TimeInterval { CoverFetcher.missingCoverRetry }

    /// The cover service: the cover cache, this library's HTTP access and clock.
    var covers: CoverFetcher { CoverFetcher(paths: paths, access: access, clock: clock) }

    /// The feed service: this library's HTTP access (credentials of each feed's host).
    var feeds: FeedFetcher { FeedFetcher(access: access) }

    /// The refresh service over this library's store, HTTP access and cover cache.
    var feedRefresh: FeedRefresh { FeedRefresh(store: store, access: access, covers: covers, clock: clock) }

    /// Brings http(s) covers of a publication and its newest issues into the cover cache, so
    /// the shelf can draw them offline. A cover that fails stays a placeholder until the next
    /// refresh (a day later if the server said it does not exist); it never fails the refresh.
    @discardableResult
    public func fetchRemoteCovers(for publication: Publication, now: Date? = nil) -> Int {
        feedRefresh.fetchRemoteCovers(for: publication, now: now)
    }

    /// On the very first run, subscribes the publications that ship with the program.
    /// Returns the problems met (one line each); an empty list when all went well.
    @discardableResult
    public func subscribeSamplesOnFirstRun(sampleFeedDirectory: URL?) -> [String] {
        guard setting(.sampleSubscribed) == nil else { return [] }
        guard let directory = sampleFeedDirectory else { return [] }
        var problems: [String] = []
        let list = directory.appendingPathComponent("publications.txt")
        let lines = ((try? String(contentsOf: list, encoding: .utf8)) ?? "")
            .split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        for line in lines {
            let feed = directory.appendingPathComponent(line)
            do { try subscribe(feedURL: feed) } catch { problems.append("\(line): \(error)") }
        }
        try? setSetting(.sampleSubscribed, "1")
        return problems
    }
}

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
