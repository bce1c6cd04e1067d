import Foundation
import Feeds
import GRDB
import GRDBSQLite

/// Feed entries into the store: which are new, which changed, all in one transaction.
extension Library {
    public struct SyncResult: Sendable, Equatable {
        public var added: [String]
        public var updated: Int
        /// The server answered 304: the feed has not changed since the last refresh.
        public var unchanged = false
        /// Issues of a local publication whose file is gone (by name).
        public var removed: [String] = []
        /// Files of a local publication that could not be read, each with why.
        public var unreadable: [String] = []
        /// Files of a folder that no format reads (a `.rar`, a `.txt`), by name.
        public var skipped: [String] = []
        /// What the cache budget took to make room for a local publication's files just
        /// installed (`ContentCache.holdToBudget`); nil when the budget was not checked.
        public var budget: BudgetKept?
    }

    /// Stores feed entries as issues of one publication inside a transaction, a batch at a
    /// time: new ones inserted, known ones updated when their feed metadata changed.
    struct IssueWriter {
        let db: Database
        let publicationID: Int64
        /// Whether the library held issues when the writer started: a first subscription
        /// into an empty library has no names to look up.
        private let libraryHadIssues: Bool
        /// "Kept issues" (`Library.keptIssuesFeedURL`): a feed that lists one of its issues takes it back.
        private let keptIssuesID: Int64?
        private var adopted = 0
        private var insert: InsertBatch
        private let update: Statement
        private var added: [String] = []
        private var updated = 0
        static let columns = "id, publicationId, name, date, title, summary, coverURL, contentURL, contentType, contentLength, sha256, feedAuthors"

        init(_ db: Database, publicationID: Int64) throws {
            self.db = db
            self.publicationID = publicationID
            libraryHadIssues = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM issue)") ?? true
            keptIssuesID = try Int64.fetchOne(db, sql: "SELECT id FROM publication WHERE feedURL = ?", arguments: [Library.keptIssuesFeedURL])
            insert = InsertBatch(publicationID: publicationID)
            update = try db.cachedStatement(sql: """
                UPDATE issue SET date = ?, title = ?, summary = ?, coverURL = ?, contentURL = ?, contentType = ?,
                contentLength = ?, sha256 = ?, feedAuthors = ? WHERE id = ?
                """)
        }

        /// Issues already stored under these entries' names, read before any of them is written.
        private func known(_ entries: [FeedEntry]) throws -> [String: FeedFields] {
            guard libraryHadIssues, !entries.isEmpty else { return [:] }
            var known: [String: FeedFields] = [:]
            let stored = try Int.fetchOne(db, sql: "SELECT count(*) FROM issue") ?? 0
            if stored <= 2 * entries.count {
                // A library not much larger than the entries (a refresh of the only big
                // catalog): reading every issue is cheaper than looking each name up.
                let wanted = Set(entries.lazy.map(\.name))
                let rows = try Row.fetchCursor(db, sql: "SELECT \(Self.columns) FROM issue")
                while let row = try rows.next() {
                    let name: String = row[2]
                    if wanted.contains(name) { known[name] = FeedFields(row) }
                }
            } else {
                let rows = try Row.fetchCursor(db, sql: """
                    SELECT \(Self.columns) FROM issue WHERE name IN (SELECT value FROM json_each(?))
                    """, arguments: [Library.jsonArray(entries.lazy.map(\.name))])
                while let row = try rows.next() { known[row[2]] = FeedFields(row) }
            }
            return known
        }

        /// Plain SQL: Codable encoding of 20,000 records cost more than parsing their feed.
        /// An issue whose name belongs to another publication is left alone.
        mutating func add(_ entries: [FeedEntry]) throws {
            let known = try known(entries)
            for entry in entries {
                if let existing = known[entry.name] {
                    var existing = existing
                    if let keptIssuesID, existing.publicationId == keptIssuesID, keptIssuesID != publicationID {
                        try db.execute(sql: "UPDATE issue SET publicationId = ? WHERE id = ?", arguments: [publicationID, existing.id])
                        existing.publicationId = publicationID
                        adopted += 1
                    }
                    guard existing.publicationId == publicationID else { continue }
                    var changed = existing
                    changed.date = entry.date
                    changed.title = entry.title
                    changed.summary = entry.summary
                    changed.coverURL = (entry.coverURL ?? entry.thumbnailURL)?.absoluteString ?? existing.coverURL
                    changed.contentURL = entry.contentURL?.absoluteString ?? existing.contentURL
                    changed.contentType = entry.contentType ?? existing.contentType
                    changed.contentLength = entry.contentLength ?? existing.contentLength
                    changed.sha256 = entry.sha256 ?? existing.sha256
                    changed.feedAuthors = FeedFields.authors(entry) ?? existing.feedAuthors
                    if changed != existing {
                        try update.execute(arguments: [DatabaseDate.value(changed.date), changed.title, changed.summary, changed.coverURL, changed.contentURL,
                                                       changed.contentType, changed.contentLength, changed.sha256, changed.feedAuthors, changed.id])
                        updated += 1
                    }
                } else {
                    insert.append(entry)
                    if insert.isFull { try insert.flush(db, into: &added) }
                }
            }
        }

        mutating func finish() throws -> SyncResult {
            try insert.flush(db, into: &added)
            if adopted > 0, let keptIssuesID {
                // Once every kept issue is back with its feed, "Kept issues" has no more reason to be.
                try db.execute(sql: "DELETE FROM publication WHERE id = ? AND NOT EXISTS (SELECT 1 FROM issue WHERE publicationId = ?)",
                               arguments: [keptIssuesID, keptIssuesID])
            }
            return SyncResult(added: added, updated: updated)
        }
    }

    /// New issues waiting to be inserted, `rowsPerStatement` at a time. A name given twice
    /// is inserted once, the first entry with it.
    private struct InsertBatch {
        static let rowsPerStatement = 100
        static let columns = 11
        let publicationID: Int64
        /// Every name queued so far, in this batch or an earlier one.
        private var queued = Set<String>()
        private var names: [String] = []
        private var values: [DatabaseValue] = []

        init(publicationID: Int64) {
            self.publicationID = publicationID
            names.reserveCapacity(Self.rowsPerStatement)
            values.reserveCapacity(Self.rowsPerStatement * Self.columns)
        }

        var isFull: Bool { names.count >= Self.rowsPerStatement }

        mutating func append(_ entry: FeedEntry) {
            guard queued.insert(entry.name).inserted else { return }
            names.append(entry.name)
            values.append(publicationID.databaseValue)
            values.append(entry.name.databaseValue)
            values.append(DatabaseDate.value(entry.date).databaseValue)
            values.append(entry.title.databaseValue)
            values.append(entry.summary.databaseValue)
            values.append((entry.coverURL ?? entry.thumbnailURL)?.absoluteString.databaseValue ?? .null)
            values.append(entry.contentURL?.absoluteString.databaseValue ?? .null)
            values.append(entry.contentType.databaseValue)
            values.append(entry.contentLength.databaseValue)
            values.append(entry.sha256.databaseValue)
            values.append(FeedFields.authors(entry).databaseValue)
        }

        mutating func flush(_ db: Database, into added: inout [String]) throws {
            guard !names.isEmpty else { return }
            let row = "(" + Array(repeating: "?", count: Self.columns).joined(separator: ",") + ")"
            let statement = try db.cachedStatement(sql: """
                INSERT INTO issue (publicationId, name, date, title, summary, coverURL, contentURL, contentType, contentLength, sha256, feedAuthors)
                VALUES \(Array(repeating: row, count: names.count).joined(separator: ","))
                """)
            // Bound and stepped with SQLite's own calls: GRDB's argument handling cost more
            // per value than the insert itself. Every parameter is bound below, and none is
            // left behind.
            let raw = statement.sqliteStatement
            sqlite3_reset(raw)
            defer {
                sqlite3_reset(raw)
                sqlite3_clear_bindings(raw)
            }
            let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
            for (offset, value) in values.enumerated() {
                let index = Int32(offset + 1)
                let code: Int32
                switch value.storage {
                case .null: code = sqlite3_bind_null(raw, index)
                case .int64(let number): code = sqlite3_bind_int64(raw, index, number)
                case .double(let number): code = sqlite3_bind_double(raw, index, number)
                case .string(let text):
                    let length = Int32(text.utf8.count)
                    code = text.withCString { sqlite3_bind_text(raw, index, $0, length, transient) }
                case .blob(let data):
                    code = data.withUnsafeBytes { sqlite3_bind_blob(raw, index, $0.baseAddress, Int32($0.count), transient) }
                }
                guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage) }
            }
            let code = sqlite3_step(raw)
            guard code == SQLITE_DONE else { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage) }
            // Every row went in: no name is queued twice, `known` kept back the names stored
            // before, and this transaction is the only writer (a name taken all the same
            // fails the step above, and the transaction with it).
            added.append(contentsOf: names)
            names.removeAll(keepingCapacity: true)
            values.removeAll(keepingCapacity: true)
        }
    }

    /// A JSON array of strings, for `json_each`: faster than JSONEncoder for 20,000 names.
    static func jsonArray<S: Sequence>(_ strings: S) -> String where S.Element == String {
        var out: [UInt8] = [UInt8(ascii: "[")]
        let hex = Array("0123456789abcdef".utf8)
        for (index, string) in strings.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: "\""))
            for byte in string.utf8 {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                    out.append(UInt8(ascii: "\\"))
                    out.append(byte)
                case 0..<0x20:
                    out.append(contentsOf: Array("\\u00".utf8))
                    out.append(hex[Int(byte >> 4)])
                    out.append(hex[Int(byte & 0xF)])
                default:
                    out.append(byte)
                }
            }
            out.append(UInt8(ascii: "\""))
        }
        out.append(UInt8(ascii: "]"))
        return String(decoding: out, as: UTF8.self)
    }

    /// The columns of an issue that its feed entry sets, read without Codable (fast for a
    /// catalog of tens of thousands).
    private struct FeedFields: Equatable {
        var id: Int64
        var publicationId: Int64?
        var date: Date
        var title: String
        var summary: String?
        var coverURL: String?
        var contentURL: String?
        var contentType: String?
        var contentLength: Int64?
        var sha256: String?
        var feedAuthors: String?

        init(_ row: Row) {
            id = row[0]; publicationId = row[1]; date = row[3]; title = row[4]; summary = row[5]
            coverURL = row[6]; contentURL = row[7]; contentType = row[8]; contentLength = row[9]; sha256 = row[10]
            feedAuthors = row[11]
        }

        /// The column's value for an entry's authors: one a line, nil for none.
        static func authors(_ entry: FeedEntry) -> String? {
            let names = entry.authors.map { $0.replacingOccurrences(of: "\n", with: " ") }.filter { !$0.isEmpty }
            return names.isEmpty ? nil : names.joined(separator: "\n")
        }
    }
}

extension LibraryStore {
    /// Adds entries not yet in the library and refreshes the metadata of known ones, in
    /// one transaction. An entry whose name belongs to another publication is left alone.
    /// `updated` counts the known issues whose metadata changed.
    @discardableResult
    public func sync(_ publication: Publication, entries: [FeedEntry]) throws -> Library.SyncResult {
        guard let publicationID = publication.id else { throw LibraryError.noSuchPublication(publication.title) }
        return try write { db in
            var writer = try Library.IssueWriter(db, publicationID: publicationID)
            try writer.add(entries)
            return try writer.finish()
        }
    }
}
