import Foundation
import GRDB
import IssueArchive
import Synchronization

/// NKLibrary: the persistent state of issues, downloads and the issue being read, as
/// domain operations, each change one transaction. The SQL stays in NewsstandKit; feeds
/// and covers come from services (`FeedFetcher`, `CoverFetcher`) over one HTTP seam.
public final class Library: Sendable {
    public let paths: Paths
    /// A `DatabasePool` in use (reads run beside a write); tests may hand in another writer.
    let db: any DatabaseWriter
    private let database: LibraryDatabase
    /// What time it is: markOpened dates, refresh times, cover retries.
    public let clock: WallClock
    /// The HTTP client and credentials every feed and cover request goes through.
    let access: HTTPAccess
    private let completionHandler = Mutex<(@Sendable (Issue) -> Void)?>(nil)

    /// Called in this process when the last asset of an issue has been installed.
    public var onIssueCompleted: (@Sendable (Issue) -> Void)? {
        get { completionHandler.withLock { $0 } }
        set { completionHandler.withLock { $0 = newValue } }
    }

    /// Set when the disk was full as this process started: the library was opened for
    /// reading only, and every change is refused with this error (nothing is changed).
    public var diskFull: LibraryError? { database.diskFull }

    static var pageSize: Int { LibraryDatabase.pageSize }
    static var migrator: DatabaseMigrator { LibraryMigrations.migrator }

    /// The library at `paths`; feeds and covers are fetched with the credentials that
    /// config.toml gives their host.
    public convenience init(paths: Paths, storage: Storage = SystemStorage(), clock: WallClock = .system) throws {
        try self.init(paths: paths, storage: storage, clock: clock, access: .system(paths: paths))
    }

    init(paths: Paths, storage: Storage = SystemStorage(), clock: WallClock = .system, access: HTTPAccess) throws {
        self.paths = paths
        self.clock = clock
        self.access = access
        database = try LibraryDatabase.open(paths, storage: storage)
        db = database.writer
    }

    deinit {
        // The watcher first: a read-only connection closing last cannot write the log back
        // and remove it, and an open on a full disk later needs the log empty.
        try? database.watcher.close()
    }

    /// Changes the library in one transaction; on a library opened read-only because the
    /// disk was full, refuses at once with that reason.
    func write<T>(_ updates: (Database) throws -> T) throws -> T {
        if let diskFull { throw diskFull }
        return try db.write(updates)
    }

    // MARK: Change detection across processes

    /// Changes whenever any connection (this process or another) commits. Cheap: poll it.
    /// Polled on a connection of its own, so it never waits behind a write transaction.
    public func changeToken() -> Int {
        (try? database.watcher.read { db in try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0 }) ?? 0
    }

    // MARK: Publications

    public func publications() throws -> [Publication] {
        try db.read { db in try Publication.order(Column("addedAt"), Column("id")).fetchAll(db) }
    }

    public func publication(id: Int64) throws -> Publication? {
        try db.read { db in try Publication.fetchOne(db, key: id) }
    }

    /// Finds a publication by id, exact title (case-insensitive) or feed URL.
    public func publication(matching text: String) throws -> Publication {
        let all = try publications()
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
        var copy = publication
        try write { db in try copy.save(db) }
        return copy
    }

    /// Removes the subscription. Downloaded issues stay unless `removeIssues`.
    public func removePublication(_ publication: Publication, removeIssues: Bool) throws {
        guard let id = publication.id else { return }
        if removeIssues {
            for issue in try issues(publicationID: id) { try removeIssue(issue) }
        }
        _ = try write { db in try Publication.deleteOne(db, key: id) }
    }

    /// A refresh that found the feed unchanged (304): only its time and a cleared error.
    func markRefreshed(_ publication: Publication) throws {
        try write { db in
            try db.execute(sql: "UPDATE publication SET lastRefresh = ?, lastError = NULL WHERE id = ?",
                           arguments: [clock.now(), publication.id])
        }
    }

    // MARK: Issues

    /// NKLibrary's addIssueWithName:date:. A second issue with the same name is an error.
    @discardableResult
    public func addIssue(name: String, date: Date, publicationID: Int64? = nil, title: String? = nil) throws -> Issue {
        var issue = Issue(publicationId: publicationID, name: name, date: date, title: title ?? name)
        try write { db in
            if try Issue.filter(Column("name") == name).fetchCount(db) > 0 {
                throw LibraryError.duplicateIssueName(name)
            }
            try issue.insert(db)
        }
        return issue
    }

    public func issue(named name: String) throws -> Issue? {
        try db.read { db in try Issue.filter(Column("name") == name).fetchOne(db) }
    }

    public func issue(id: Int64) throws -> Issue? {
        try db.read { db in try Issue.fetchOne(db, key: id) }
    }

    /// An issue by exact name, else by a unique case-insensitive fragment of its name, its
    /// title or the title its content gives.
    public func issue(matching text: String) throws -> Issue {
        if let exact = try issue(named: text) { return exact }
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
        try db.read { db in try Issue.fetchMany(db, Issue.order(Column("date").desc, Column("id").desc)) }
    }

    /// One publication's issues, newest first.
    public func issues(publicationID: Int64) throws -> [Issue] {
        try db.read { db in
            try Issue.fetchMany(db, Issue.filter(Column("publicationId") == publicationID)
                .order(Column("date").desc, Column("id").desc))
        }
    }

    @discardableResult
    public func save(_ issue: Issue) throws -> Issue {
        var copy = issue
        try write { db in try copy.save(db) }
        return copy
    }

    /// The issue's content directory (inside the cache; it may not exist yet).
    public func contentDirectory(for issue: Issue) -> URL {
        paths.issuesDirectory.appendingPathComponent(
            ContentDirectoryName.make(issueID: issue.id ?? 0, name: issue.name), isDirectory: true)
    }

    /// Removes an issue: its downloads are cancelled, its content and partial files deleted.
    public func removeIssue(_ issue: Issue) throws {
        guard let id = issue.id else { return }
        let assets = try downloads(issueID: id)
        try write { db in
            _ = try Issue.deleteOne(db, key: id)
            if try Setting.value(db, .currentlyReading) == issue.name { try Setting.set(db, .currentlyReading, nil) }
        }
        for asset in assets { try? FileManager.default.removeItem(at: partialFile(for: asset)) }
        try? FileManager.default.removeItem(at: contentDirectory(for: issue))
    }

    /// Removes downloaded content but keeps the issue, its position and cover. `toSaveSpace`
    /// marks it evicted (its tile says so); a removal the user asked for does not.
    public func evictContent(of issue: Issue, toSaveSpace: Bool = true) throws {
        guard let id = issue.id else { return }
        // One UPDATE of the columns that change: never a whole stale row written back.
        try write { db in
            try db.execute(sql: "UPDATE issue SET status = 'none', evicted = ?, contentSize = NULL WHERE id = ?", arguments: [toSaveSpace, id])
        }
        try? FileManager.default.removeItem(at: contentDirectory(for: issue))
    }

    // MARK: Reading

    public var currentlyReadingIssue: Issue? {
        get {
            guard let name = try? db.read({ db in try Setting.value(db, .currentlyReading) }) else { return nil }
            return try? issue(named: name)
        }
    }

    /// Opening an issue makes it the currently reading one and clears its NEW mark.
    public func markOpened(_ issue: Issue, at date: Date? = nil) throws {
        guard let id = issue.id else { return }
        let date = date ?? clock.now()
        try write { db in
            try db.execute(sql: "UPDATE issue SET unread = 0, lastOpenedAt = ? WHERE id = ?", arguments: [date, id])
            try Setting.set(db, .currentlyReading, issue.name)
        }
    }

    /// The place as versions before the locator kept it (to be removed with its last caller).
    public func saveReadingPosition(_ issue: Issue, position: String, progress: Double) throws {
        guard let id = issue.id else { return }
        try write { db in
            try db.execute(sql: "UPDATE issue SET readingPosition = ?, readingProgress = ? WHERE id = ?",
                           arguments: [position, max(0, min(1, progress)), id])
        }
    }

    /// Keeps the reader's place; the store's progress bar shows its total progression.
    public func saveLocator(_ locator: Locator, for issue: Issue) throws {
        guard let id = issue.id else { return }
        try write { db in
            try db.execute(sql: "UPDATE issue SET locator = ?, readingProgress = ? WHERE id = ?",
                           arguments: [locator, locator.totalProgression, id])
        }
    }

    public func setPinned(_ issue: Issue, _ pinned: Bool) throws {
        guard let id = issue.id else { return }
        try write { db in try db.execute(sql: "UPDATE issue SET pinned = ? WHERE id = ?", arguments: [pinned, id]) }
    }
}

/// Small key/value rows: which issue is being read, and the like.
enum Setting: String {
    case currentlyReading = "currentlyReadingIssue"
    case sampleSubscribed = "sampleFeedSubscribed"
    case readerTextWidth = "readerTextWidth"

    static func value(_ db: Database, _ key: Setting) throws -> String? {
        try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [key.rawValue])
    }

    static func set(_ db: Database, _ key: Setting, _ value: String?) throws {
        if let value {
            try db.execute(sql: "INSERT INTO setting(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                           arguments: [key.rawValue, value])
        } else {
            try db.execute(sql: "DELETE FROM setting WHERE key = ?", arguments: [key.rawValue])
        }
    }
}

extension Library {
    func setting(_ key: Setting) -> String? { try? db.read { db in try Setting.value(db, key) } }
    func setSetting(_ key: Setting, _ value: String?) throws { try write { db in try Setting.set(db, key, value) } }

    /// The reader's text column as the user last chose it with + and -: a preference of the
    /// reader's, not part of any issue's place.
    public var readerTextWidth: Int? { setting(.readerTextWidth).flatMap { Int($0) } }
    public func setReaderTextWidth(_ width: Int) throws { try setSetting(.readerTextWidth, String(width)) }
}
