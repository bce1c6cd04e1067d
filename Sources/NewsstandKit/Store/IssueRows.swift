import Foundation
import GRDB

/// The issues repository: issues found by id, name or publication; the columns that
/// opening, pinning, evicting and measuring an issue change, each one UPDATE of what
/// changes (never a whole stale row written back).
extension LibraryStore {
    /// A publication's issues (every issue for nil), newest first, in the reads of `db`.
    static func issues(_ db: Database, publicationID: Int64?) throws -> [Issue] {
        let newestFirst = Issue.order(Column("date").desc, Column("id").desc)
        return try Issue.fetchMany(db, publicationID.map { newestFirst.filter(Column("publicationId") == $0) } ?? newestFirst)
    }

    public func issues(publicationID: Int64? = nil) throws -> [Issue] { try read { db in try Self.issues(db, publicationID: publicationID) } }

    /// Every issue whose content is on disk, in the order they were added.
    func availableIssues() throws -> [Issue] {
        try read { db in try Issue.fetchMany(db, Issue.filter(Column("status") == Issue.Status.available.rawValue).order(Column("id"))) }
    }

    public func issue(id: Int64) throws -> Issue? { try read { db in try Issue.fetchOne(db, key: id) } }

    public func issue(named name: String) throws -> Issue? {
        try read { db in try Issue.filter(Column("name") == name).fetchOne(db) }
    }

    /// NKLibrary's addIssueWithName:date:. A second issue with the same name is an error.
    @discardableResult
    public func addIssue(name: String, date: Date, publicationID: Int64? = nil, title: String? = nil) throws -> Issue {
        try insert(Issue(publicationId: publicationID, name: name, date: date, title: title ?? name))
    }

    /// Adds a new issue; a second issue with the same name is an error.
    func insert(_ issue: Issue) throws -> Issue {
        try write { db in
            if try Issue.filter(Column("name") == issue.name).fetchCount(db) > 0 {
                throw LibraryError.duplicateIssueName(issue.name)
            }
            var issue = issue
            try issue.insert(db)
            return issue
        }
    }

    /// Inserts or updates the whole row; returns it with its id.
    @discardableResult
    public func save(_ issue: Issue) throws -> Issue {
        try write { db in
            var copy = issue
            try copy.save(db)
            return copy
        }
    }

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
    public func markOpened(_ issue: Issue, at date: Date) throws {
        guard let issueID = issue.id else { return }
        let name = issue.name
        try write { db in
            try db.execute(sql: "UPDATE issue SET unread = 0, lastOpenedAt = ? WHERE id = ?", arguments: [date, issueID])
            try Setting.set(db, .currentlyReading, name)
        }
    }

    public func setPinned(_ issue: Issue, _ pinned: Bool) throws {
        guard let issueID = issue.id else { return }
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
    /// path inside the content); nil values clear an earlier install's, and the identifiers
    /// an earlier content gave are read again when asked for. The issue as it now is.
    func recordContentDetails(title: String?, authors: String?, cover: String?, issueID: Int64?) throws -> Issue? {
        try write { db in
            try db.execute(sql: "UPDATE issue SET contentTitle = ?, contentAuthors = ?, contentCover = ?, contentIdentifiers = NULL WHERE id = ?",
                           arguments: [title, authors, cover, issueID])
            return try Issue.fetchOne(db, key: issueID)
        }
    }

    /// The view the reader last used for `issue`; nil when it was never switched.
    public func readerView(for issue: Issue) -> ReaderView? {
        guard let id = issue.id else { return nil }
        let value = try? read { db in try String.fetchOne(db, sql: "SELECT readerView FROM issue WHERE id = ?", arguments: [id]) }
        return value.flatMap(ReaderView.init(rawValue:))
    }

    /// Keeps the view for the next time `issue` is opened.
    public func setReaderView(_ view: ReaderView, for issue: Issue) throws {
        guard let id = issue.id else { return }
        try write { db in try db.execute(sql: "UPDATE issue SET readerView = ? WHERE id = ?", arguments: [view.rawValue, id]) }
    }

    /// Whether `issue`'s pages were last fitted to the width (`w`); false when never chosen.
    public func readerFitsWidth(for issue: Issue) -> Bool {
        guard let id = issue.id else { return false }
        let value = try? read { db in try Bool.fetchOne(db, sql: "SELECT readerFitWidth FROM issue WHERE id = ?", arguments: [id]) }
        return (value ?? nil) ?? false
    }

    /// Keeps the fit for the next time `issue` is opened.
    public func setReaderFitsWidth(_ fits: Bool, for issue: Issue) throws {
        guard let id = issue.id else { return }
        try write { db in try db.execute(sql: "UPDATE issue SET readerFitWidth = ? WHERE id = ?", arguments: [fits, id]) }
    }
}
