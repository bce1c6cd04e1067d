import Foundation
import GRDB

/// The highlights repository: one row per highlight (`highlight`), its anchors in columns
/// of their own (the locator as JSON, the quote and its context, the CFI), a tombstone
/// (`deleted`) kept for sync and left out of every list. A highlight goes with its issue.
extension LibraryStore {
    static func registerHighlightMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v19-highlights: passages marked in an issue, with a colour, a note and anchors that survive a re-layout") { db in
            try db.execute(sql: """
                CREATE TABLE highlight (
                    id TEXT PRIMARY KEY NOT NULL,
                    issueId INTEGER NOT NULL REFERENCES issue(id) ON DELETE CASCADE,
                    resource TEXT NOT NULL,
                    position INTEGER NOT NULL,
                    textOffset INTEGER NOT NULL,
                    locator TEXT NOT NULL,
                    exact TEXT NOT NULL CHECK (exact <> ''),
                    prefix TEXT NOT NULL,
                    suffix TEXT NOT NULL,
                    cfi TEXT,
                    color TEXT NOT NULL,
                    note TEXT,
                    chapter TEXT,
                    createdAt DATETIME NOT NULL,
                    modifiedAt DATETIME NOT NULL,
                    deleted BOOLEAN NOT NULL DEFAULT 0);
                CREATE INDEX highlight_by_issue ON highlight(issueId, position, textOffset);
                CREATE INDEX highlight_by_time ON highlight(createdAt);
                """)
        }
    }

    func insertHighlight(_ highlight: Highlight) throws {
        try write { db in
            try db.execute(sql: """
                INSERT INTO highlight (id, issueId, resource, position, textOffset, locator, exact, prefix, suffix, cfi,
                                       color, note, chapter, createdAt, modifiedAt, deleted)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [highlight.id, highlight.issueID, highlight.resource, highlight.position, highlight.textOffset,
                                 highlight.locator, highlight.quote.exact, highlight.quote.prefix, highlight.quote.suffix,
                                 highlight.cfi, highlight.color.rawValue, highlight.note, highlight.chapter,
                                 highlight.created, highlight.modified, highlight.deleted])
            try Self.indexHighlight(db, highlight)
        }
    }

    /// Changes a live highlight in one transaction; the highlight as it is now, nil when
    /// there is none by that id (or it was deleted).
    func updateHighlight(id: String, _ change: (inout Highlight) -> Void) throws -> Highlight? {
        try write { db in
            guard var highlight = try Row.fetchOne(db, sql: "SELECT * FROM highlight WHERE id = ? AND NOT deleted", arguments: [id])
                .flatMap(Self.highlight) else { return nil }
            change(&highlight)
            try db.execute(sql: "UPDATE highlight SET color = ?, note = ?, modifiedAt = ?, deleted = ? WHERE id = ?",
                           arguments: [highlight.color.rawValue, highlight.note, highlight.modified, highlight.deleted, id])
            try Self.indexHighlight(db, highlight)
            return highlight
        }
    }

    /// The highlight by id, a tombstone too.
    func highlight(id: String) throws -> Highlight? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM highlight WHERE id = ?", arguments: [id]).flatMap(Self.highlight)
        }
    }

    /// An issue's highlights in reading order.
    func highlights(issueID: Int64) throws -> [Highlight] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT * FROM highlight WHERE issueId = ? AND NOT deleted ORDER BY position, textOffset, createdAt, id
                """, arguments: [issueID]).compactMap(Self.highlight)
        }
    }

    /// Every highlight newest first, with its issue and publication; with `publicationIDs`,
    /// only theirs; with `containing`, only those whose quote, note or chapter holds it
    /// (case-insensitive for ASCII letters, as SQLite's `LIKE`).
    func listedHighlights(publicationIDs: [Int64]?, containing text: String?) throws -> [ListedHighlight] {
        try read { db in
            var conditions = ["NOT highlight.deleted"]
            var arguments: StatementArguments = []
            if let publicationIDs {
                conditions.append("issue.publicationId IN (SELECT value FROM json_each(?))")
                arguments += [String(decoding: try JSONEncoder().encode(publicationIDs), as: UTF8.self)]
            }
            if let text, !text.isEmpty {
                let pattern = "%" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
                    .replacingOccurrences(of: "_", with: "\\_") + "%"
                conditions.append("(exact LIKE ? ESCAPE '\\' OR note LIKE ? ESCAPE '\\' OR chapter LIKE ? ESCAPE '\\')")
                arguments += [pattern, pattern, pattern]
            }
            let rows = try Row.fetchAll(db, sql: """
                SELECT highlight.*, publication.title AS publicationTitle
                FROM highlight JOIN issue ON issue.id = highlight.issueId LEFT JOIN publication ON publication.id = issue.publicationId
                WHERE \(conditions.joined(separator: " AND "))
                ORDER BY highlight.createdAt DESC, highlight.id
                """, arguments: arguments)
            let issues = Dictionary(try Issue.fetchAll(db, keys: Set(rows.map { $0["issueId"] as Int64 })).map { ($0.id ?? 0, $0) },
                                    uniquingKeysWith: { first, _ in first })
            return rows.compactMap { row in
                guard let highlight = Self.highlight(row), let issue = issues[highlight.issueID] else { return nil }
                return ListedHighlight(highlight: highlight, issue: issue, publicationTitle: row["publicationTitle"])
            }
        }
    }

    /// A row as a highlight; nil for one this version cannot read (a colour from a later one).
    static func highlight(_ row: Row) -> Highlight? {
        guard let color = Highlight.Color(rawValue: row["color"]), let locator: Locator = row["locator"] else { return nil }
        return Highlight(id: row["id"], issueID: row["issueId"], locator: locator, position: row["position"],
                         textOffset: row["textOffset"],
                         quote: TextQuoteSelector(exact: row["exact"], prefix: row["prefix"], suffix: row["suffix"]),
                         cfi: row["cfi"], color: color, note: row["note"], chapter: row["chapter"],
                         created: row["createdAt"], modified: row["modifiedAt"], deleted: row["deleted"])
    }
}
