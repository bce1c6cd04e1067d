import Foundation
import GRDB
import IssueArchive

/// The library's SQLite file as this process opens it: a pool that writes on one connection
/// while others read (so the screen never waits behind a feed being stored), and one
/// connection of its own that only watches for commits.
///
/// Every process (shelf, commands, agent) opens its own on the same file; SQLite in WAL
/// mode with a busy timeout keeps them safe together.
struct LibraryDatabase: Sendable {
    /// The store over the pool (or, on a full disk, over the immutable file).
    let store: LibraryStore
    /// `PRAGMA data_version` is per connection: polled on a pooled reader it would jump as
    /// the pool hands out different connections. This one never writes, so its value
    /// changes exactly when another connection (this process's writer too) commits.
    let watcher: any DatabaseReader
    /// Changes whenever any connection (this process or another) commits.
    func changeToken() -> Int {
        (try? watcher.read { db in try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0 }) ?? 0
    }

    /// Below this much free space SQLite cannot set up its WAL files (a 32 KiB index and
    /// the first pages of the log).
    static let minimumFreeBytesToOpen: Int64 = 256 << 10
    /// The page size of a library created by this version.
    static let pageSize = 16 << 10

    /// A library in memory, for unit tests of what is stored: its one connection also
    /// "watches" (its own commits do not move `data_version`; no other process shares it).
    static func inMemory() throws -> LibraryDatabase {
        let store = try LibraryStore.inMemory()
        return LibraryDatabase(store: store, watcher: store.writer)
    }

    static func open(_ paths: Paths, storage: Storage) throws -> LibraryDatabase {
        do { try paths.createAll() } catch {
            // A first start on a full disk: nothing to read, nothing was changed.
            if let free = freeBytes(near: paths.data, storage: storage), free < minimumFreeBytesToOpen {
                guard FileManager.default.fileExists(atPath: paths.database.path) else {
                    throw LibraryError.diskFull(path: paths.data.path, freeBytes: max(free, 0))
                }
                return try openForReadingOnFullDisk(paths, free: free)
            }
            throw LibraryError.unavailable(path: paths.data.path, reason: error.localizedDescription)
        }
        // Several processes opening a fresh database at once can collide: retry the open.
        var lastError: Error?
        for attempt in 0..<20 {
            do {
                let pool = try DatabasePool(path: paths.database.path, configuration: configuration(label: "newsstand.library"))
                let store = try LibraryStore(pool)
                var watching = configuration(label: "newsstand.library.changes")
                watching.readonly = true
                let watcher = try DatabaseQueue(path: paths.database.path, configuration: watching)
                return LibraryDatabase(store: store, watcher: watcher)
            } catch {
                lastError = error
                // A full disk does not clear up by waiting a moment: read what is there.
                if let free = storage.freeBytes(in: paths.data), free < minimumFreeBytesToOpen {
                    return try openForReadingOnFullDisk(paths, free: free)
                }
                Thread.sleep(forTimeInterval: 0.05 * Double(attempt + 1))
            }
        }
        throw LibraryError.unavailable(path: paths.database.path, reason: "\(lastError.map { "\($0)" } ?? "unknown error")")
    }

    /// For a command that only reads: one read-only connection, nothing written as it opens
    /// or closes. A pool writes as it opens (GRDB makes a table and drops it, so that the log
    /// is not empty: SQLite deleted it at the last close), and its close writes that back:
    /// 15 writes and 4 fdatasyncs for every `newsstand search`. Nil when the library is not
    /// there yet or a migration of this version has not run: the usual open makes it so.
    static func openForReading(_ paths: Paths) -> LibraryDatabase? {
        guard FileManager.default.fileExists(atPath: paths.database.path) else { return nil }
        var configuration = configuration(label: "newsstand.library (read-only)")
        configuration.readonly = true
        guard let queue = try? DatabaseQueue(path: paths.database.path, configuration: configuration),
              (try? queue.read({ try LibraryStore.migrator.hasCompletedMigrations($0) })) == true else { return nil }
        return LibraryDatabase(store: LibraryStore(migrated: queue, readOnly: true), watcher: queue)
    }

    private static func configuration(label: String) -> Configuration {
        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.busyMode = .timeout(10)
        configuration.foreignKeysEnabled = true
        configuration.label = label
        // Each reader connection keeps a page cache of its own (up to 2 MB): a process reads
        // on at most two threads at once (the shelf's reads queue and its effect runner),
        // so two readers beside the writer; GRDB's default of five cost the shelf ~6 MB.
        configuration.maximumReaderCount = 2
        // A new library gets 16 KiB pages (SQLite ignores this for one that exists): a feed
        // of 20,000 issues writes a quarter as many pages to the log and back, each a
        // system call of its own.
        configuration.prepareDatabase { db in
            guard !db.configuration.readonly else { return try db.execute(sql: "PRAGMA temp_store = MEMORY") }
            try db.execute(sql: "PRAGMA page_size = \(pageSize)")
            // Statement journals in memory: storing a feed's issues 100 rows to a statement
            // otherwise spilled each one to a temporary file, thousands of writes per feed.
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
        }
        return configuration
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
    private static func openForReadingOnFullDisk(_ paths: Paths, free: Int64) throws -> LibraryDatabase {
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
            guard try queue.read({ try LibraryStore.migrator.hasCompletedMigrations($0) }) else { throw full }
            // Immutable: nothing can commit, so one connection both reads and "watches".
            return LibraryDatabase(store: LibraryStore(migrated: queue, diskFull: full), watcher: queue)
        } catch let error as LibraryError {
            throw error
        } catch {
            throw full
        }
    }
}
