import Foundation
import GRDB

/// The issues repository: the columns that opening, pinning, evicting and measuring an
/// issue change, each one UPDATE of what changes (never a whole stale row written back).
extension LibraryStore {
    /// The covers of a publication's newest issues (a catalog of thousands would otherwise
    /// mean thousands of requests at every refresh).
    static func newestCoverURLs(_ db: Database, publicationID: Int64, limit: Int) throws -> [String] {
        try String.fetchAll(db, sql: """
            SELECT coverURL FROM issue WHERE publicationId = ? AND coverURL IS NOT NULL ORDER BY date DESC, id DESC LIMIT ?
            """, arguments: [publicationID, limit])
    }

    /// Removes an issue (its downloads go with it); it is no longer the one being read.
    func removeIssue(id: Int64, name: String) throws {
        try write { db in
            _ = try Issue.deleteOne(db, key: id)
            if try Setting.value(db, .currentlyReading) == name { try Setting.set(db, .currentlyReading, nil) }
        }
    }

    /// The content is gone; `toSaveSpace` marks the issue evicted (its tile says so).
    func markContentRemoved(issueID: Int64, toSaveSpace: Bool) throws {
        try write { db in
            try db.execute(sql: "UPDATE issue SET status = 'none', evicted = ?, contentSize = NULL WHERE id = ?", arguments: [toSaveSpace, issueID])
        }
    }

    /// Evicted to keep the cache within its budget, unless pinned, being read or no
    /// longer there; whether it was.
    func markEvictedToSaveSpace(issueID: Int64) throws -> Bool {
        try write { db in
            let reading = try Setting.value(db, .currentlyReading)
            try db.execute(sql: """
                UPDATE issue SET status = 'none', evicted = 1, contentSize = NULL
                WHERE id = ? AND status = 'available' AND pinned = 0 AND name IS NOT ?
                """, arguments: [issueID, reading])
            return db.changesCount == 1
        }
    }

    /// Opening an issue makes it the currently reading one and clears its NEW mark.
    func markOpened(issueID: Int64, name: String, at date: Date) throws {
        try write { db in
            try db.execute(sql: "UPDATE issue SET unread = 0, lastOpenedAt = ? WHERE id = ?", arguments: [date, issueID])
            try Setting.set(db, .currentlyReading, name)
        }
    }

    func setPinned(_ pinned: Bool, issueID: Int64) throws {
        try write { db in try db.execute(sql: "UPDATE issue SET pinned = ? WHERE id = ?", arguments: [pinned, issueID]) }
    }

    /// The measured size of an installed issue's content.
    func recordContentSize(_ size: Int64, issueID: Int64?) throws {
        try write { db in
            try db.execute(sql: "UPDATE issue SET contentSize = ? WHERE id = ? AND status = 'available'", arguments: [size, issueID])
        }
    }

    /// Says in each issue's error why it cannot be read (issue id → reason).
    func recordErrors(_ errors: [(issueID: Int64?, reason: String)]) throws {
        try write { db in
            for (id, reason) in errors {
                try db.execute(sql: "UPDATE issue SET lastError = ? WHERE id = ?", arguments: [reason, id])
            }
        }
    }

    /// What the issue's installed content says of itself (authors one a line; the cover's
    /// path inside the content); nil values clear an earlier install's. The issue as it now is.
    func recordContentDetails(title: String?, authors: String?, cover: String?, issueID: Int64?) throws -> Issue? {
        try write { db in
            try db.execute(sql: "UPDATE issue SET contentTitle = ?, contentAuthors = ?, contentCover = ? WHERE id = ?",
                           arguments: [title, authors, cover, issueID])
            return try Issue.fetchOne(db, key: issueID)
        }
    }

    func readerView(issueID: Int64) throws -> String? {
        try read { db in try String.fetchOne(db, sql: "SELECT readerView FROM issue WHERE id = ?", arguments: [issueID]) }
    }

    func setReaderView(_ view: String, issueID: Int64) throws {
        try write { db in try db.execute(sql: "UPDATE issue SET readerView = ? WHERE id = ?", arguments: [view, issueID]) }
    }
}
