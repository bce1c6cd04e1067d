import Foundation
import GRDB

/// Where a catalog keeps an issue's place (its OPDS 2 progression link), recorded when the
/// book is taken from the catalog: such a catalog is a sync target for that issue without
/// being added. One link an issue; it goes with its issue.
extension LibraryStore {
    static func registerCatalogPlaceMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v20-opdsprog: the progression link of each issue taken from a catalog that keeps places") { db in
            try db.execute(sql: """
                CREATE TABLE catalogPlace (
                    issueId INTEGER PRIMARY KEY REFERENCES issue(id) ON DELETE CASCADE,
                    url TEXT NOT NULL,
                    checkedAt DATETIME,
                    seen TEXT);
                """)
        }
    }

    /// Records (or replaces) the progression link of an issue.
    public func recordCatalogPlace(_ url: URL, for issue: Issue) throws {
        guard let issueID = issue.id else { return }
        try write { db in
            try db.execute(sql: "INSERT INTO catalogPlace (issueId, url) VALUES (?, ?) ON CONFLICT (issueId) DO UPDATE SET url = excluded.url",
                           arguments: [issueID, url.absoluteString])
        }
    }

    /// An issue's progression link and when its place was last checked with it.
    public struct CatalogPlace: Sendable {
        public var issue: Issue
        public var url: URL
        public var checkedAt: Date?
        /// The catalog's place as it was last seen (or as we last wrote it): a place that has
        /// not moved since is not news, however new its time (Codex stamps a bookmark again,
        /// unmoved, seconds after it was written).
        public var seen: Locator?
        /// Our place changed since it was last checked: the agent's sync sends it.
        public var isDue: Bool { issue.locator.map { $0.updated > (checkedAt ?? .distantPast) } ?? false }
    }

    /// The issues with a progression link (all, or those of `issues`) and their links.
    public func catalogPlaces(issues: [Int64]? = nil) throws -> [CatalogPlace] {
        try read { db in
            // One read with the issues (the agent asks at every step whether any is due).
            var only = ""
            var arguments: StatementArguments = []
            if let issues {
                only = "WHERE c.issueId IN (SELECT value FROM json_each(?))"
                arguments += [String(decoding: try JSONEncoder().encode(issues), as: UTF8.self)]
            }
            let rows = try Row.fetchAll(db, sql: """
                SELECT issue.*, c.url AS placeURL, c.checkedAt AS placeCheckedAt, c.seen AS placeSeen
                FROM catalogPlace c JOIN issue ON issue.id = c.issueId \(only)
                ORDER BY c.issueId
                """, arguments: arguments)
            return try rows.compactMap { row -> CatalogPlace? in
                guard let url = URL(string: row["placeURL"]) else { return nil }
                return CatalogPlace(issue: try Issue(row: row), url: url, checkedAt: row["placeCheckedAt"], seen: row["placeSeen"])
            }
        }
    }

    /// The issue's place was checked with its catalog at `now`, which keeps `seen` (nil: as it was).
    func noteCatalogPlaceChecked(_ issue: Issue, at now: Date, seen: Locator?) throws {
        try write { db in
            try db.execute(sql: "UPDATE catalogPlace SET checkedAt = ?, seen = coalesce(?, seen) WHERE issueId = ?", arguments: [now, seen, issue.id])
        }
    }
}
