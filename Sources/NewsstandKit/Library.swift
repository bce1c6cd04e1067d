import Foundation
import GRDB
import IssueArchive

/// NKLibrary: the place that wires the library together. It opens the store (every SQL
/// statement, `LibraryStore`) and holds the files (`paths`), the clock and the one HTTP seam
/// (`http`), and builds the services over them: the download queue, subscriptions and
/// refresh, the content cache, the covers, the catalogs and the search index. Each service takes the store and the HTTP access, never the
/// `Library`; callers ask the store or a service directly.
public final class Library: Sendable {
    public let paths: Paths
    /// The store: its SQL, over a `DatabasePool` in use (reads run beside a write).
    public let store: LibraryStore
    private let database: LibraryDatabase
    /// What time it is: markOpened dates, refresh times, cover retries.
    public let clock: WallClock
    /// The HTTP client and credentials every feed and cover request goes through.
    let http: HTTPAccess
    private let completions = IssueCompletions()

    /// The download queue: each asset from queued to installed (the agent's too).
    public let downloads: DownloadQueue
    /// Subscribing and refreshing: feeds, the user's own files, books from catalogs.
    public let subscriptions: Subscriptions
    /// Issue content as a cache: measured, kept within the budget, evicted.
    public let cache: ContentCache
    /// The cover cache, filled over `http`, and which picture each tile shows.
    public let covers: CoverFetcher
    /// The OPDS catalogs the user keeps, browsed over `http`.
    public let catalogs: CatalogBrowser
    /// The search index of every issue: kept up to date by the agent, asked by `search`.
    public let search: SearchIndex
    /// The reader's highlights and notes: made, changed, listed, found again in text.
    public let highlights: Highlights
    /// Places kept in step with the servers the user added (`PlaceSync`); made when asked.
    public var sync: PlaceSync { PlaceSync(store: store, paths: paths, clock: clock) }

    /// Called in this process when the last asset of an issue has been installed.
    public var onIssueCompleted: (@Sendable (Issue) -> Void)? {
        get { completions.handler }
        set { completions.handler = newValue }
    }

    static var pageSize: Int { LibraryDatabase.pageSize }
    static var migrator: DatabaseMigrator { LibraryStore.migrator }

    /// The library at `paths`; feeds and covers are fetched with the credentials that
    /// config.toml gives their host.
    public convenience init(paths: Paths, storage: Storage = SystemStorage(), clock: WallClock = .system) throws {
        try self.init(paths: paths, storage: storage, clock: clock, access: .system(paths: paths))
    }

    convenience init(paths: Paths, storage: Storage = SystemStorage(), clock: WallClock = .system, access: HTTPAccess) throws {
        try self.init(paths: paths, database: LibraryDatabase.open(paths, storage: storage), clock: clock, access: access)
    }

    /// The library for a command that only reads: opened read-only, so nothing is written
    /// as it opens or closes (`LibraryDatabase.openForReading`); the usual open when the
    /// library is new or has migrations to run. `store.isReadOnly` tells which.
    public static func forReading(paths: Paths) throws -> Library {
        guard let database = LibraryDatabase.openForReading(paths) else { return try Library(paths: paths) }
        return Library(paths: paths, database: database, access: .system(paths: paths))
    }

    /// The library over `database` (tests: `LibraryDatabase.inMemory()`), its files under `paths`.
    init(paths: Paths, database: LibraryDatabase, clock: WallClock = .system, access: HTTPAccess) {
        self.paths = paths
        self.clock = clock
        http = access
        self.database = database
        store = database.store
        downloads = DownloadQueue(store: store, paths: paths, access: access, clock: clock, completions: completions)
        covers = CoverFetcher(paths: paths, access: access, clock: clock)
        cache = ContentCache(store: store, downloads: downloads)
        subscriptions = Subscriptions(store: store, downloads: downloads, cache: cache,
                                      feedRefresh: FeedRefresh(store: store, access: access, covers: covers, clock: clock), clock: clock)
        catalogs = CatalogBrowser(store: store, feeds: FeedFetcher(access: access), paths: paths, clock: clock)
        search = SearchIndex(store: store, downloads: downloads)
        highlights = Highlights(store: store, downloads: downloads, clock: clock)
    }

    deinit {
        // The watcher first: a read-only connection closing last cannot write the log back
        // and remove it, and an open on a full disk later needs the log empty.
        try? database.watcher.close()
    }

    // MARK: Change detection across processes

    /// Changes whenever any connection (this process or another) commits. Cheap: poll it.
    /// Polled on a connection of its own, so it never waits behind a write transaction.
    public func changeToken() -> Int {
        database.changeToken()
    }

    /// The feed URL of the publication that holds issues left without one by an older
    /// version's unsubscribe; a feed subscribed again takes its issues back from it.
    public static let keptIssuesFeedURL = "newsstand:kept-issues"
    static let keptIssuesTitle = "Kept issues"

    /// An issue by exact name, else by its short name (`IssueShortNames`), else by a unique
    /// case-insensitive fragment of its name, its title or the title its content gives.
    public func issue(matching text: String) throws -> Issue {
        if let exact = try store.issue(named: text) { return exact }
        if let short = try issue(shortName: text) { return short }
        let all = try store.issues()
        let partial = all.filter {
            $0.name.range(of: text, options: .caseInsensitive) != nil
                || $0.title.range(of: text, options: .caseInsensitive) != nil
                || $0.contentTitle?.range(of: text, options: .caseInsensitive) != nil
        }
        if partial.count == 1 { return partial[0] }
        throw LibraryError.noSuchIssue(text)
    }
}
