import Foundation
import GRDB

/// The library's SQLite store, after GRDB's demo `AppDatabase`: one writer (a
/// `DatabasePool` in the program, `LibraryDatabase.open`; an in-memory `DatabaseQueue` in
/// unit tests, `inMemory()`), the migrator inside, and the library's SQL in repositories
/// per aggregate beside this file (publications, issues, downloads, editions, places,
/// push). Services and `Library` ask it; they hold no SQL of their own.
public struct LibraryStore: Sendable {
    /// Reads run beside a write when this is a pool.
    let writer: any DatabaseWriter
    /// Set when the disk was full as the process started: opened for reading only, and
    /// every change refused with this error (nothing is changed).
    public let diskFull: LibraryError?
    /// Opened for a command that only reads (`LibraryDatabase.openForReading`): SQLite
    /// refuses any write.
    public let isReadOnly: Bool

    /// A store over a writer already migrated (or immutable, with `diskFull`; or read-only).
    init(migrated writer: any DatabaseWriter, diskFull: LibraryError? = nil, readOnly: Bool = false) {
        self.writer = writer
        self.diskFull = diskFull
        isReadOnly = readOnly || diskFull != nil
    }

    /// A store over `writer`, migrated to this version's schema.
    init(_ writer: any DatabaseWriter) throws {
        try Self.migrator.migrate(writer)
        self.init(migrated: writer)
    }

    // The schema, one named migration per change: `migrator` (LibraryMigrations.swift).

    /// An empty library in memory: unit tests of what is stored open no file.
    static func inMemory() throws -> LibraryStore {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.label = "newsstand.library (in memory)"
        return try LibraryStore(DatabaseQueue(configuration: configuration))
    }

    /// GRDB's name for the same: an empty store for a test.
    static func empty() throws -> LibraryStore { try inMemory() }

    func read<T>(_ value: (Database) throws -> T) throws -> T { try writer.read(value) }

    /// Changes the library in one transaction; on a store opened read-only because the
    /// disk was full, refuses at once with that reason.
    func write<T>(_ updates: (Database) throws -> T) throws -> T {
        if let diskFull { throw diskFull }
        return try writer.write(updates)
    }
}
