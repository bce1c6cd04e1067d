import Foundation
import Feeds

/// Subscribing and refreshing, whatever a publication is: a feed (through `FeedRefresh`),
/// a folder or file of the user's own (`LocalFiles.swift`), or books taken from catalogs
/// (`CatalogSubscriptions.swift`). A service over the store, the download queue and the
/// HTTP access; it never holds the `Library`.
public struct Subscriptions: Sendable {
    let store: LibraryStore
    /// Installs the user's own files where they are, as the agent would.
    let downloads: DownloadQueue
    /// Holds what the user's own files add to the cache budget as they are installed.
    let cache: ContentCache
    let feedRefresh: FeedRefresh
    let clock: WallClock
    var http: HTTPAccess { feedRefresh.access }

    /// Adds a publication by its feed URL and lists its issues. `pushURL` overrides the
    /// feed's push channel; `autoDownload` turns automatic download of new issues on or off
    /// (nil leaves it as it is); `editions` sets how its articles are gathered into editions
    /// (nil leaves it as it is: daily by default); `siteURL` (an OPML list's `htmlUrl`) is
    /// kept when the feed names no web site of its own.
    @discardableResult
    public func subscribe(feedURL: URL, pushURL: URL? = nil, autoDownload: Bool? = nil,
                          editions: EditionSchedule? = nil, siteURL: URL? = nil) throws -> (Publication, Library.SyncResult) {
        try feedRefresh.subscribe(feedURL: try http.keepingCredentialsApart(feedURL), pushURL: pushURL, autoDownload: autoDownload,
                                  editions: editions, siteURL: siteURL)
    }

    /// Fetches a publication's feed again and brings its issues up to date. The stored
    /// ETag / Last-Modified make the request conditional: a 304 leaves everything as it
    /// was (`SyncResult.unchanged`), without parsing anything.
    @discardableResult
    public func refresh(_ publication: Publication) throws -> Library.SyncResult {
        if Library.isLocal(publication) { return try refreshLocal(publication) }
        if Library.isFromCatalogs(publication) || publication.feedURL == Library.keptIssuesFeedURL {
            try store.markRefreshed(publicationID: publication.id, at: clock.now())
            return Library.SyncResult(added: [], updated: 0)
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
                        done: @escaping @Sendable (Int, Result<Library.SyncResult, Error>) -> Void) {
        let servers = publications.map(Self.refreshServer)
        Self.alongside(publications) { [self] job, publication -> (Result<Library.SyncResult, Error>, Error?) in
            let result: Result<Library.SyncResult, Error>
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
    public static func alongside<Outcome: Sendable>(_ publications: [Publication], _ work: @escaping @Sendable (Publication) -> Outcome,
                                                    done: @escaping @Sendable (Int, Outcome) -> Void) {
        alongside(publications, { job, publication in (work(publication), nil) }, done: done)
    }

    /// The workers: `work` is given the job and its publication and returns what `done` is
    /// told, and the error that marks its server down when it says the server did not answer.
    private static func alongside<Outcome: Sendable>(_ publications: [Publication],
                                                     _ work: @escaping @Sendable (RefreshSchedule.Job, Publication) -> (Outcome, Error?),
                                                     done: @escaping @Sendable (Int, Outcome) -> Void) {
        let schedule = RefreshSchedule(servers: publications.map(refreshServer), perServer: refreshesPerServer)
        // `refreshWidth` workers, each taking the schedule's next job until none is left.
        FetchPool.run(min(refreshWidth, publications.count), width: refreshWidth) { _ in
            while let job = schedule.next() {
                let (outcome, error) = work(job, publications[job.index])
                schedule.finished(job, error: error)
                done(job.index, outcome)
            }
        }
    }

    /// The server a publication is refreshed from (`host:port`); nil when none is asked.
    private static func refreshServer(_ publication: Publication) -> String? {
        guard !Library.isLocal(publication), !Library.isFromCatalogs(publication), let url = URL(string: publication.feedURL),
              ["http", "https"].contains(url.scheme?.lowercased() ?? "") else { return nil }
        return NetworkWaits.server(of: url)
    }

    /// Brings http(s) covers of a publication and its newest issues into the cover cache, so
    /// the shelf can draw them offline. A cover that fails stays a placeholder until the next
    /// refresh (a day later if the server said it does not exist); it never fails the refresh.
    @discardableResult
    public func fetchRemoteCovers(for publication: Publication, now: Date? = nil) -> Int {
        feedRefresh.fetchRemoteCovers(for: publication, now: now)
    }

    /// Ends the subscription. Without `removeIssues` the publication is kept, marked
    /// unsubscribed (hidden from the shelf, never refreshed) with its issues, downloads,
    /// places and NEW marks, so subscribing to its feed again brings it back whole; with
    /// it, its issues and their content are deleted and then the publication itself. Either
    /// way no issue is left belonging to no publication.
    public func removePublication(_ publication: Publication, removeIssues: Bool) throws {
        guard let id = publication.id else { return }
        guard removeIssues else {
            try store.markUnsubscribed(publicationID: id, at: clock.now())
            return
        }
        for issue in try store.issues(publicationID: id) { try downloads.removeIssue(issue) }
        try store.deletePublicationWithoutIssues(id: id, at: clock.now())
    }

    /// Changes how the publication's articles make editions from now on. Editions already
    /// being built, built or opened stay exactly as they are; the open ones (nobody has seen
    /// them) are made again under the new schedule, so their articles are not left in
    /// editions of the old one. Returns the names of the editions made.
    @discardableResult
    public func setEditionSchedule(_ schedule: EditionSchedule, for publication: Publication) throws -> [String] {
        guard let id = publication.id else { throw LibraryError.noSuchPublication(publication.title) }
        let now = clock.now()
        return try store.write { db in try LibraryStore.changeSchedule(db, to: schedule, publicationID: id, now: now, calendar: .current) }
    }

    /// On the very first run, subscribes the publications that ship with the program.
    /// Returns the problems met (one line each); an empty list when all went well.
    @discardableResult
    public func subscribeSamplesOnFirstRun(sampleFeedDirectory: URL?) -> [String] {
        guard (try? store.setting(.sampleSubscribed)) == nil else { return [] }
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
        try? store.setSetting(.sampleSubscribed, "1")
        return problems
    }
}
