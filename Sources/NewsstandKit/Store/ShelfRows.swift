import Foundation
import GRDB

/// Which issues the library holds and what they say, in three numbers: their count, the
/// highest id (ids are never reused, so an insert raises it) and a counter a trigger
/// raises at every update. Equal versions: no issue row was added, removed or changed.
struct IssuesVersion: Equatable {
    var count: Int
    var maxID: Int64
    var updates: Int64
}

/// The shelf's reads (`ShelfReader`), each inside a read the reader holds, so the version
/// and the rows it vouches for come from one snapshot; and the counter behind the version.
extension LibraryStore {
    /// "v3-shelf": the update counter behind `IssuesVersion`. Inserts and deletes need no
    /// trigger (the count and the highest id tell), so a subscription to 20,000 issues pays nothing.
    static func registerShelfMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v3-shelf: a counter of issue updates") { db in
            try db.execute(sql: """
                CREATE TABLE issueChanges (id INTEGER PRIMARY KEY CHECK (id = 1), updates INTEGER NOT NULL);
                INSERT INTO issueChanges VALUES (1, 0);
                CREATE TRIGGER issueUpdated AFTER UPDATE ON issue BEGIN
                    UPDATE issueChanges SET updates = updates + 1 WHERE id = 1;
                END;
                """)
        }
    }

    static func issuesVersion(_ db: Database) throws -> IssuesVersion {
        let row = try Row.fetchOne(db, sql: """
            SELECT (SELECT count(*) FROM issue), (SELECT max(id) FROM issue), (SELECT updates FROM issueChanges)
            """)
        return IssuesVersion(count: row?[0] ?? 0, maxID: row?[1] ?? 0, updates: row?[2] ?? 0)
    }

    /// Each publication's issues and unread available ones, counted in SQL (publication id → counts).
    static func issueCounts(_ db: Database) throws -> [Int64: (issues: Int, unread: Int)] {
        let rows = try Row.fetchAll(db, sql: """
            SELECT publicationId, COUNT(*) AS issues,
                   SUM(unread AND status = 'available') AS unread
            FROM issue GROUP BY publicationId
            """)
        return Dictionary(rows.map { ($0["publicationId"] as Int64? ?? -1, (issues: $0["issues"] as Int, unread: $0["unread"] as Int? ?? 0)) },
                          uniquingKeysWith: { first, _ in first })
    }

    /// Each publication's newest issue whose content is on disk: one query for the shelf.
    static func newestAvailableIssues(_ db: Database) throws -> [Issue] {
        try Issue.fetchAll(db, sql: """
            SELECT * FROM issue WHERE id IN (
                SELECT (SELECT id FROM issue WHERE publicationId = publication.id AND status = 'available'
                        ORDER BY date DESC, id DESC LIMIT 1)
                FROM publication)
            """)
    }

    /// Each publication's newest issue whatever its state: one query for the shelf.
    static func newestIssues(_ db: Database) throws -> [Issue] {
        try Issue.fetchAll(db, sql: """
            SELECT * FROM issue WHERE id IN (
                SELECT (SELECT id FROM issue WHERE publicationId = publication.id ORDER BY date DESC, id DESC LIMIT 1)
                FROM publication)
            """)
    }
}
