import Foundation
import GRDB
import IssueArchive

/// NKLibrary: the persistent state of issues, downloads and the issue being read, as
/// domain operations, each change one transaction. The SQL stays in the `LibraryStore`;
/// feeds and covers come from services (`FeedFetcher`, `CoverFetcher`) over one HTTP seam.
public final class Library: Sendable {
    public let paths: Paths
    /// The store: its SQL, over a `DatabasePool` in use (reads run beside a write).
    let store: LibraryStore
    /// The store's writer, for the reads that compose the store's requests.
    var db: any DatabaseWriter { store.writer }
    private let database: LibraryDatabase
    /// What time it is: markOpened dates, refresh times, cover retries.
    public let clock: WallClock
    /// The HTTP client and credentials every feed and cover request goes through.
    let access: HTTPAccess
    private let completions = IssueCompletions()

    /// Called in this process when the last asset of an issue has been installed.
    public var onIssueCompleted: (@Sendable (Issue) -> Void)? {
        get { completions.handler }
        set { completions.handler = newValue }
    }

    /// The download queue over this library's store, files, HTTP access and clock (the agent's too).
    var downloadQueue: DownloadQueue {
        DownloadQueue(store: store, paths: paths, access: access, clock: clock, completions: completions)
    }

    /// Set when the disk was full as this process started: the library was opened for
    /// reading only, and every change is refused with this error (nothing is changed).
    public var diskFull: LibraryError? { store.diskFull }

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

    /// The library over `database` (tests: `LibraryDatabase.inMemory()`), its files under `paths`.
    init(paths: Paths, database: LibraryDatabase, clock: WallClock = .system, access: HTTPAccess) {
        self.paths = paths
        self.clock = clock
        self.access = access
        self.database = database
        store = database.store
    }

    deinit {
        // The watcher first: a read-only connection closing last cannot write the log back
        // and remove it, and an open on a full disk later needs the log empty.
        try? database.watcher.close()
    }

    /// Changes the library in one transaction; on a library opened read-only because the
    /// disk was full, refuses at once with that reason.
    func write<T>(_ updates: (Database) throws -> T) throws -> T { try store.write(updates) }

    // MARK: Change detection across processes

    /// Changes whenever any connection (this process or another) commits. Cheap: poll it.
    /// Polled on a connection of its own, so it never waits behind a write transaction.
    public func changeToken() -> Int {
        database.changeToken()
    }

    // MARK: Publications

    /// The publications subscribed to, in the order they were added (not those unsubscribed).
    public func publications() throws -> [Publication] {
        try store.publications()
    }

    /// Every publication's title by id, unsubscribed ones too: what `issues` and `cache`
    /// name an issue's publication by.
    public func publicationTitles() throws -> [Int64: String] {
        try store.publicationTitles()
    }

    public func publication(id: Int64) throws -> Publication? {
        try store.publication(id: id)
    }

    /// Finds a publication by id, exact title (case-insensitive) or feed URL; among those
    /// unsubscribed from too when `includingUnsubscribed`.
    public func publication(matching text: String, includingUnsubscribed: Bool = false) throws -> Publication {
        let all = includingUnsubscribed ? try store.publicationsIncludingUnsubscribed() : try publications()
        if let id = Int64(text), let match = all.first(where: { $0.id == id }) { return match }
        if let match = all.first(where: { $0.feedURL == text || $0.title.caseInsensitiveCompare(text) == .orderedSame }) {
            return match
        }
        let partial = all.filter { $0.title.range(of: text, options: .caseInsensitive) != nil }
        if partial.count == 1 { return partial[0] }
        throw LibraryError.noSuchPublication(text)
    }

    @discardableResult
    public func save(_ publication: Publication) throws -> Publication {
        try store.save(publication)
    }

    /// The feed URL of the publication that holds issues left without one by an older
    /// version's unsubscribe; a feed subscribed again takes its issues back from it.
    public static let keptIssuesFeedURL = "newsstand:kept-issues"
    static let keptIssuesTitle = "Kept issues"

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
        for issue in try issues(publicationID: id) { try removeIssue(issue) }
        try store.deletePublicationWithoutIssues(id: id, at: clock.now())
    }

    /// A refresh that found the feed unchanged (304): only its time and a cleared error.
    func markRefreshed(_ publication: Publication) throws {
        try store.markRefreshed(publicationID: publication.id, at: clock.now())
    }

    // MARK: Issues

    /// NKLibrary's addIssueWithName:date:. A second issue with the same name is an error.
    @discardableResult
    public func addIssue(name: String, date: Date, publicationID: Int64? = nil, title: String? = nil) throws -> Issue {
        try store.insert(Issue(publicationId: publicationID, name: name, date: date, title: title ?? name))
    }

    public func issue(named name: String) throws -> Issue? {
        try store.issue(named: name)
    }

    public func issue(id: Int64) throws -> Issue? {
        try store.issue(id: id)
    }

    /// An issue by exact name, else by its short name (`IssueShortNames`), else by a unique
    /// case-insensitive fragment of its name, its title or the title its content gives.
    public func issue(matching text: String) throws -> Issue {
        if let exact = try issue(named: text) { return exact }
        if let short = try issue(shortName: text) { return short }
        let all = try allIssues()
        let partial = all.filter {
            $0.name.range(of: text, options: .caseInsensitive) != nil
                || $0.title.range(of: text, options: .caseInsensitive) != nil
                || $0.contentTitle?.range(of: text, options: .caseInsensitive) != nil
        }
        if partial.count == 1 { return partial[0] }
        throw LibraryError.noSuchIssue(text)
    }

    /// Every issue, newest first.
    public func allIssues() throws -> [Issue] {
        try store.issues(publicationID: nil)
    }

    /// One publication's issues, newest first.
    public func issues(publicationID: Int64) throws -> [Issue] {
        try store.issues(publicationID: publicationID)
    }

    @discardableResult
    public func save(_ issue: Issue) throws -> Issue {
        try store.save(issue)
    }

    /// The issue's content directory (inside the cache; it may not exist yet).
    public func contentDirectory(for issue: Issue) -> URL {
        downloadQueue.contentDirectory(for: issue)
    }

    /// Removes an issue: its downloads are cancelled, its content and partial files deleted.
    public func removeIssue(_ issue: Issue) throws {
        guard let id = issue.id else { return }
        let assets = try downloads(issueID: id)
        try store.removeIssue(id: id, name: issue.name)
        for asset in assets { try? FileManager.default.removeItem(at: partialFile(for: asset)) }
        try? FileManager.default.removeItem(at: contentDirectory(for: issue))
    }

    /// Removes downloaded content but keeps the issue, its position and cover. `toSaveSpace`
    /// marks it evicted (its tile says so); a removal the user asked for does not.
    public func evictContent(of issue: Issue, toSaveSpace: Bool = true) throws {
        guard let id = issue.id else { return }
        try store.markContentRemoved(issueID: id, toSaveSpace: toSaveSpace)
        try? FileManager.default.removeItem(at: contentDirectory(for: issue))
    }

    // MARK: Reading

    public var currentlyReadingIssue: Issue? {
        get {
            guard let name = setting(.currentlyReading) else { return nil }
            return try? issue(named: name)
        }
    }

    /// Opening an issue makes it the currently reading one and clears its NEW mark.
    public func markOpened(_ issue: Issue, at date: Date? = nil) throws {
        guard let id = issue.id else { return }
        let date = date ?? clock.now()
        try store.markOpened(issueID: id, name: issue.name, at: date)
    }

    /// Keeps the reader's place; the store's progress bar shows its total progression.
    public func saveLocator(_ locator: Locator, for issue: Issue) throws {
        guard let id = issue.id else { return }
        try store.saveLocator(locator, issueID: id)
    }

    public func setPinned(_ issue: Issue, _ pinned: Bool) throws {
        guard let id = issue.id else { return }
        try store.setPinned(pinned, issueID: id)
    }
}

extension Library {
    func setting(_ key: Setting) -> String? { try? store.setting(key) }
    func setSetting(_ key: Setting, _ value: String?) throws { try store.setSetting(key, value) }

    /// The reader's text column as the user last chose it with + and -: a preference of the
    /// reader's, not part of any issue's place.
    public var readerTextWidth: Int? { setting(.readerTextWidth).flatMap { Int($0) } }
    public func setReaderTextWidth(_ width: Int) throws { try setSetting(.readerTextWidth, String(width)) }
}
