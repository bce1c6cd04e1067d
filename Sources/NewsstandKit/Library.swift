import Foundation
import GRDB
import IssueArchive

/// NKLibrary: the persistent state of issues, downloads and the issue being read.
/// Every process (shelf, commands, agent) opens its own `Library` on the same file;
/// SQLite in WAL mode with a busy timeout keeps them safe together.
public final class Library: @unchecked Sendable {
    public let paths: Paths
    let db: DatabaseQueue
    /// Called in this process when the last asset of an issue has been installed.
    public var onIssueCompleted: (@Sendable (Issue) -> Void)?

    /// Set when the disk was full as this process started: the library was opened for
    /// reading only, and every change is refused with this error (nothing is changed).
    public let diskFull: LibraryError?

    /// Below this much free space SQLite cannot set up its WAL files (a 32 KiB index and
    /// the first pages of the log).
    static let minimumFreeBytesToOpen: Int64 = 256 << 10
    /// The page size of a library created by this version.
    static let pageSize = 16 << 10

    public init(paths: Paths, storage: Storage = SystemStorage()) throws {
        self.paths = paths
        do { try paths.createAll() } catch {
            // A first start on a full disk: nothing to read, nothing was changed.
            if let free = Library.freeBytes(near: paths.data, storage: storage), free < Library.minimumFreeBytesToOpen {
                guard FileManager.default.fileExists(atPath: paths.database.path) else {
                    throw LibraryError.diskFull(path: paths.data.path, freeBytes: max(free, 0))
                }
                (db, diskFull) = try Library.openForReadingOnFullDisk(paths, free: free)
                return
            }
            throw LibraryError.unavailable(path: paths.data.path, reason: error.localizedDescription)
        }
        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.busyMode = .timeout(10)
        configuration.foreignKeysEnabled = true
        configuration.label = "newsstand.library"
        // A new library gets 16 KiB pages (SQLite ignores this for one that exists): a feed
        // of 20,000 issues writes a quarter as many pages to the log and back, each a
        // system call of its own.
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA page_size = \(Library.pageSize)")
            // Statement journals in memory: storing a feed's issues 100 rows to a statement
            // otherwise spilled each one to a temporary file, thousands of writes per feed.
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
        }
        // Several processes opening a fresh database at once can collide: retry the open.
        var lastError: Error?
        var opened: DatabaseQueue?
        for attempt in 0..<20 {
            do {
                let queue = try DatabaseQueue(path: paths.database.path, configuration: configuration)
                try Library.migrator.migrate(queue)
                opened = queue
                break
            } catch {
                lastError = error
                // A full disk does not clear up by waiting a moment: read what is there.
                if let free = storage.freeBytes(in: paths.data), free < Library.minimumFreeBytesToOpen {
                    (db, diskFull) = try Library.openForReadingOnFullDisk(paths, free: free)
                    return
                }
                Thread.sleep(forTimeInterval: 0.05 * Double(attempt + 1))
            }
        }
        guard let queue = opened else {
            throw LibraryError.unavailable(path: paths.database.path, reason: "\(lastError.map { "\($0)" } ?? "unknown error")")
        }
        db = queue
        diskFull = nil
    }

    /// Free space on the file system that holds `directory`, or its nearest existing parent.
    static func freeBytes(near directory: URL, storage: Storage) -> Int64? {
        var current = directory
        while !FileManager.default.fileExists(atPath: current.path) && current.path != "/" {
            current.deleteLastPathComponent()
        }
        return storage.freeBytes(in: current)
    }

    /// On a full disk SQLite cannot create or grow the WAL's index, so the usual open fails.
    /// When the log holds nothing (no process has the library open for writing), the file
    /// alone is the whole library: it is opened read-only and immutable, which needs no
    /// index. Otherwise, or if this version's migrations have not run, the disk-full error.
    private static func openForReadingOnFullDisk(_ paths: Paths, free: Int64) throws -> (DatabaseQueue, LibraryError) {
        let full = LibraryError.diskFull(path: paths.data.path, freeBytes: max(free, 0))
        let log = (try? FileManager.default.attributesOfItem(atPath: paths.database.path + "-wal"))?[.size] as? Int ?? 0
        guard log == 0 else { throw full }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "newsstand.library (read-only: disk full)"
        var components = URLComponents()
        components.scheme = "file"
        components.path = paths.database.path
        components.queryItems = [URLQueryItem(name: "immutable", value: "1")]
        guard let uri = components.string else { throw full }
        do {
            let queue = try DatabaseQueue(path: uri, configuration: configuration)
            guard try queue.read({ try migrator.hasCompletedMigrations($0) }) else { throw full }
            return (queue, full)
        } catch let error as LibraryError {
            throw error
        } catch {
            throw full
        }
    }

    /// Changes the library in one transaction; on a library opened read-only because the
    /// disk was full, refuses at once with that reason.
    func write<T>(_ updates: (Database) throws -> T) throws -> T {
        if let diskFull { throw diskFull }
        return try db.write(updates)
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: publications, issues, asset downloads, settings") { db in
            try db.create(table: "publication") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("feedURL", .text).notNull().unique()
                t.column("title", .text).notNull()
                t.column("subtitle", .text)
                t.column("coverURL", .text)
                t.column("bindingType", .text).notNull().defaults(to: "magazine")
                t.column("bindingEdge", .text).notNull().defaults(to: "left")
                t.column("pushURL", .text)
                t.column("etag", .text)
                t.column("lastModified", .text)
                t.column("lastRefresh", .datetime)
                t.column("lastError", .text)
                t.column("autoDownload", .boolean).notNull().defaults(to: false)
                t.column("lastAutoDownload", .datetime)
                t.column("addedAt", .datetime).notNull()
            }
            try db.create(table: "issue") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("publicationId", .integer).references("publication", onDelete: .setNull)
                t.column("name", .text).notNull().unique()
                t.column("date", .datetime).notNull()
                t.column("title", .text).notNull()
                t.column("summary", .text)
                t.column("coverURL", .text)
                t.column("contentURL", .text)
                t.column("contentType", .text)
                t.column("contentLength", .integer)
                t.column("sha256", .text)
                t.column("status", .text).notNull().defaults(to: "none")
                t.column("unread", .boolean).notNull().defaults(to: false)
                t.column("pinned", .boolean).notNull().defaults(to: false)
                t.column("evicted", .boolean).notNull().defaults(to: false)
                t.column("downloadedAt", .datetime)
                t.column("lastOpenedAt", .datetime)
                t.column("readingPosition", .text)
                t.column("readingProgress", .double)
                t.column("lastError", .text)
            }
            try db.create(index: "issue_by_publication_date", on: "issue", columns: ["publicationId", "date"])
            try db.create(table: "assetDownload") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("identifier", .text).notNull().unique()
                t.column("issueId", .integer).notNull().references("issue", onDelete: .cascade)
                t.column("url", .text).notNull()
                t.column("headers", .text).notNull().defaults(to: "{}")
                t.column("userInfo", .text).notNull().defaults(to: "{}")
                t.column("kind", .text).notNull()
                t.column("state", .text).notNull()
                t.column("bytesWritten", .integer).notNull().defaults(to: 0)
                t.column("bytesExpected", .integer)
                t.column("bytesPerSecond", .double)
                t.column("etag", .text)
                t.column("lastModified", .text)
                t.column("attempts", .integer).notNull().defaults(to: 0)
                t.column("lastError", .text)
                t.column("createdAt", .datetime).notNull()
                t.column("finishedAt", .datetime)
            }
            try db.create(table: "setting") { t in
                t.primaryKey("key", .text)
                t.column("value", .text)
            }
        }
        registerCacheMigration(&migrator)
        registerPushMigration(&migrator)
        registerShelfMigration(&migrator)
        migrator.registerMigration("v4-locator: reading places as locators") { db in
            try db.alter(table: "issue") { t in t.add(column: "locator", .text) }
        }
        return migrator
    }

    // MARK: Change detection across processes

    /// Changes whenever any connection (this process or another) commits. Cheap: poll it.
    public func changeToken() -> Int {
        (try? db.read { db in try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0 }) ?? 0
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

    /// An issue by exact name, else by a unique case-insensitive title or name fragment.
    public func issue(matching text: String) throws -> Issue {
        if let exact = try issue(named: text) { return exact }
        let all = try allIssues()
        let partial = all.filter {
            $0.name.range(of: text, options: .caseInsensitive) != nil
                || $0.title.range(of: text, options: .caseInsensitive) != nil
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
    public func markOpened(_ issue: Issue, at date: Date = Date()) throws {
        guard let id = issue.id else { return }
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
}
