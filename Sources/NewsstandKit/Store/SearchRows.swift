import Foundation
import GRDB

/// The search index's repository: an SQLite FTS5 table (`searchText`, its rowid a
/// `searchPart`'s id) beside the parts it indexes, one row per (issue, part): the issue's
/// title, authors and summary (`about`, every issue, downloaded or not) and each article,
/// chapter or PDF page of what was downloaded. Triggers on `issue` keep the work to do in
/// `searchPending` (whatever writes an issue, in any process, marks it) and drop what is
/// gone: an issue removed takes its parts with it, content removed by the user takes its
/// text, an eviction keeps it (the issue stays findable and says it must be downloaded
/// again). The text itself is read and written by `SearchIndexer`, off the shelf's keys.
extension LibraryStore {
    static func registerSearchMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v18-search: an FTS5 index of every issue's text and details, built by the agent") { db in
            try db.execute(sql: """
                CREATE TABLE searchPart (
                    id INTEGER PRIMARY KEY,
                    issueId INTEGER NOT NULL REFERENCES issue(id) ON DELETE CASCADE,
                    kind TEXT NOT NULL,
                    resource TEXT,
                    page INTEGER,
                    position INTEGER NOT NULL DEFAULT 0,
                    label TEXT);
                CREATE INDEX searchPart_by_issue ON searchPart(issueId, kind);
                CREATE VIRTUAL TABLE searchText USING fts5(title, body, tokenize = 'unicode61 remove_diacritics 2');
                CREATE TABLE searchPending (
                    issueId INTEGER PRIMARY KEY REFERENCES issue(id) ON DELETE CASCADE,
                    content BOOLEAN NOT NULL,
                    stamp INTEGER NOT NULL);
                CREATE TRIGGER searchPart_gone AFTER DELETE ON searchPart BEGIN
                    DELETE FROM searchText WHERE rowid = OLD.id;
                END;
                CREATE TRIGGER search_issue_added AFTER INSERT ON issue BEGIN
                    INSERT OR REPLACE INTO searchPending (issueId, content, stamp) VALUES (NEW.id, NEW.status = 'available', random());
                END;
                CREATE TRIGGER search_issue_described AFTER UPDATE OF title, summary, feedAuthors, contentTitle, contentAuthors ON issue BEGIN
                    INSERT INTO searchPending (issueId, content, stamp) VALUES (NEW.id, 0, random())
                    ON CONFLICT (issueId) DO UPDATE SET stamp = excluded.stamp;
                END;
                CREATE TRIGGER search_issue_installed AFTER UPDATE OF status, downloadedAt ON issue
                WHEN NEW.status = 'available' AND (OLD.status IS NOT 'available' OR NEW.downloadedAt IS NOT OLD.downloadedAt) BEGIN
                    INSERT INTO searchPending (issueId, content, stamp) VALUES (NEW.id, 1, random())
                    ON CONFLICT (issueId) DO UPDATE SET content = 1, stamp = excluded.stamp;
                END;
                CREATE TRIGGER search_issue_content_removed AFTER UPDATE OF status ON issue
                WHEN OLD.status = 'available' AND NEW.status IS NOT 'available' AND NOT NEW.evicted BEGIN
                    DELETE FROM searchPart WHERE issueId = NEW.id AND kind <> 'about';
                END;
                CREATE TRIGGER search_issue_removed AFTER DELETE ON issue BEGIN
                    DELETE FROM searchPart WHERE issueId = OLD.id;
                END;
                INSERT INTO searchPending (issueId, content, stamp) SELECT id, status = 'available', random() FROM issue;
                """)
        }
    }

    /// The index's text before its titles. FTS5 writes a position list's column only when
    /// it is not the first, so with `title` first each word of a part's text carried two more
    /// bytes: the index was 44 % of the text it holds, and is 30 % with `body` first (the
    /// benchmark's 10,000 articles). The rows are carried over, evicted issues' text with them
    /// (it cannot be read again), and merged once.
    static func registerSearchBodyFirstMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v20-searchp95-body-first: the search index's text column first, a third smaller") { db in
            try db.execute(sql: """
                CREATE TEMP TABLE searchTextBefore AS SELECT rowid AS id, title, body FROM searchText;
                DROP TABLE searchText;
                CREATE VIRTUAL TABLE searchText USING fts5(body, title, tokenize = 'unicode61 remove_diacritics 2');
                INSERT INTO searchText (rowid, body, title) SELECT id, body, title FROM temp.searchTextBefore ORDER BY id;
                DROP TABLE temp.searchTextBefore;
                INSERT INTO searchText (searchText) VALUES ('optimize');
                """)
        }
    }

    /// An issue the index has still to catch up with: its details always, its content when
    /// `content` (it was installed since); `stamp` tells a later mark from this one.
    struct SearchWork: Sendable, Equatable {
        var issueID: Int64
        var content: Bool
        var stamp: Int64
    }

    /// The issues waiting for the index, those whose details alone are due first (they
    /// are quick).
    func pendingSearchWork() throws -> [SearchWork] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT issueId, content, stamp FROM searchPending ORDER BY content, issueId")
                .map { SearchWork(issueID: $0["issueId"], content: $0["content"], stamp: $0["stamp"]) }
        }
    }

    func pendingSearchCount() throws -> Int { try read(Self.pendingSearchCount) }

    static func pendingSearchCount(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM searchPending") ?? 0
    }

    /// Every issue marked for the index again, its content too when it is on disk: the
    /// rebuild. The text of evicted issues is kept (it cannot be read again).
    func markAllForSearch() throws {
        try write { db in
            try db.execute(sql: """
                INSERT OR REPLACE INTO searchPending (issueId, content, stamp) SELECT id, status = 'available', random() FROM issue
                """)
        }
    }

    /// Writes what `work` found in one transaction: the issue's `about` row, and, when
    /// `content` is given, its parts in place of the old ones. The mark is cleared unless
    /// the issue was marked again meanwhile (a second install while its text was read), or
    /// the work is not `done`.
    func writeSearchParts(_ work: SearchWork, about: SearchablePart?, content: [SearchablePart]?, done: Bool = true) throws {
        try write { db in
            if let about {
                try Self.replaceSearchParts(db, issueID: work.issueID, kinds: "kind = 'about'", with: [about])
            }
            if let content {
                try Self.replaceSearchParts(db, issueID: work.issueID, kinds: "kind <> 'about'", with: content)
            }
            if done {
                try db.execute(sql: "DELETE FROM searchPending WHERE issueId = ? AND stamp = ?", arguments: [work.issueID, work.stamp])
            }
        }
    }

    private static func replaceSearchParts(_ db: Database, issueID: Int64, kinds: String, with parts: [SearchablePart]) throws {
        try db.execute(sql: "DELETE FROM searchPart WHERE issueId = ? AND \(kinds)", arguments: [issueID])
        let part = try db.cachedStatement(sql: "INSERT INTO searchPart (issueId, kind, resource, page, position, label) VALUES (?, ?, ?, ?, ?, ?)")
        let text = try db.cachedStatement(sql: "INSERT INTO searchText (rowid, body, title) VALUES (?, ?, ?)")
        for each in parts {
            try part.execute(arguments: [issueID, each.kind.rawValue, each.resource, each.page, each.position, each.label])
            try text.execute(arguments: [db.lastInsertedRowID, SearchText.indexable(each.text), SearchText.indexable(each.title)])
        }
    }

    /// Merges the index's segments after a build, so queries read few of them.
    func optimizeSearchIndex() throws {
        try write { db in try db.execute(sql: "INSERT INTO searchText (searchText) VALUES ('optimize')") }
    }

    /// The best `limit` parts for `match` (an FTS5 query), titles weighing more than text,
    /// newest issue first on ties; with `publicationIDs`, only their issues. bm25 is worked
    /// out once a part into a table (`MATERIALIZED`); the `limit`-th best score is the cut,
    /// and only the parts at or above it (ties with it included, so the order among equal
    /// scores is the same) are joined to their issues to be ordered: not each of the 10,000
    /// parts a common word is in.
    static func searchHits(_ db: Database, match: String, publicationIDs: [Int64]?, limit: Int) throws -> [SearchHit] {
        var filter = ""
        if let publicationIDs {
            filter = """
                AND +rowid IN (SELECT searchPart.id FROM searchPart JOIN issue ON issue.id = searchPart.issueId
                               WHERE issue.publicationId IN (\(publicationIDs.map(String.init).joined(separator: ","))))
                """
        }
        return try Row.fetchAll(db, sql: """
            WITH scored AS MATERIALIZED (
                SELECT rowid AS id, bm25(searchText, 1.0, 4.0) AS score FROM searchText WHERE searchText MATCH ?1 \(filter)),
            cut AS (SELECT score FROM scored ORDER BY score LIMIT 1 OFFSET ?2 - 1)
            SELECT searchPart.id, searchPart.issueId, kind, resource, page, position, label, scored.score
            FROM scored JOIN searchPart ON searchPart.id = scored.id JOIN issue ON issue.id = searchPart.issueId
            WHERE scored.score <= coalesce((SELECT score FROM cut), 1e308)
            ORDER BY scored.score, issue.date DESC, issue.id DESC, position
            LIMIT ?2
            """, arguments: [match, limit]).map { row in
            let part = SearchablePart(kind: SearchablePart.Kind(rawValue: row["kind"]) ?? .text, resource: row["resource"],
                                      page: row["page"], position: row["position"], label: row["label"], title: "", text: "")
            return SearchHit(partID: row["id"], issueID: row["issueId"], part: part, score: row["score"], snippet: SearchSnippet(pieces: []))
        }
    }

    /// The snippets of the parts shown, not of every part that matched: each around what
    /// `match` found in it, in one statement. `+rowid` keeps the parts' ids away from FTS5:
    /// given them, it would look each one up and expand a prefix (`beln*`) again for each
    /// (60 snippets: 12–80 ms); filtered after its one pass over the matches, ~1 ms.
    static func searchSnippets(_ db: Database, match: String, partIDs: [Int64]) throws -> [Int64: SearchSnippet] {
        guard !partIDs.isEmpty else { return [:] }
        let rows = try Row.fetchAll(db, sql: """
            SELECT rowid, snippet(searchText, -1, char(2), char(3), '…', 14) AS marked FROM searchText
            WHERE searchText MATCH ? AND +rowid IN (\(partIDs.map(String.init).joined(separator: ",")))
            """, arguments: [match])
        var snippets: [Int64: SearchSnippet] = [:]
        for row in rows { snippets[row["rowid"]] = SearchSnippet(marked: row["marked"] ?? "") }
        return snippets
    }

    /// The index's size on disk and the size of the text it holds, in bytes.
    func searchIndexSize() throws -> (index: Int64, text: Int64) {
        try read { db in
            let index = try Int64.fetchOne(db, sql: """
                SELECT coalesce(sum(length(block)), 0) FROM searchText_data
                """) ?? 0
            let text = try Int64.fetchOne(db, sql: """
                SELECT coalesce(sum(length(CAST(title AS BLOB)) + length(CAST(body AS BLOB))), 0) FROM searchText
                """) ?? 0
            return (index, text)
        }
    }
}

extension LibraryStore {
    /// What `match` (an FTS5 query) finds, by issue, best first, in one read: at most
    /// `issues` issues and `perIssue` hits each (`SearchIndex.find`); with `publicationIDs`,
    /// only their issues'.
    func searchResults(match: String, publicationIDs: [Int64]?, issues: Int, perIssue: Int) throws -> SearchResults {
        try read { db in
            let limit = max(issues * perIssue * 4, 100)
            let parts = try Self.searchHits(db, match: match, publicationIDs: publicationIDs, limit: limit)
            let highlights = try Self.highlightSearchHits(db, match: match, publicationIDs: publicationIDs, limit: limit)
            var order: [Int64] = []
            var byIssue: [Int64: [SearchHit]] = [:]
            // The issues in the order of their best part or highlight; in each, the reader's own
            // highlights and notes first (their scores, from a table of a few rows, are not the
            // parts' to compare with), then its parts.
            for hit in SearchHit.merged(parts, highlights) where byIssue[hit.issueID] == nil && order.count < issues {
                order.append(hit.issueID)
                byIssue[hit.issueID] = []
            }
            for hit in highlights + parts where byIssue[hit.issueID].map({ $0.count < perIssue }) ?? false {
                byIssue[hit.issueID, default: []].append(hit)
            }
            let snippets = try Self.searchSnippets(db, match: match,
                                                 partIDs: order.flatMap { byIssue[$0] ?? [] }.filter { $0.part.highlight == nil }.map(\.partID))
            let found = Dictionary(try Issue.fetchMany(db, Issue.filter(keys: order)).map { ($0.id ?? -1, $0) }, uniquingKeysWith: { first, _ in first })
            let publications = try Publication.fetchAll(db)
            let titles = Dictionary(publications.compactMap { each in each.id.map { ($0, each.title) } }, uniquingKeysWith: { first, _ in first })
            // A short name counts its publication's issues: those of the publications shown are enough
            // (`fetchMany`: Codable's `fetchAll` decodes an issue several times slower).
            let shown = Set(found.values.compactMap(\.publicationId))
            let names = shown.isEmpty ? [:] : IssueShortNames.names(
                publications: publications, issues: try Issue.fetchMany(db, Issue.filter(shown.contains(Column("publicationId")))))
            let groups = order.compactMap { id -> SearchResults.Group? in
                guard let issue = found[id] else { return nil }
                let shownHits = (byIssue[id] ?? []).map { hit in
                    var hit = hit
                    if hit.part.highlight == nil { hit.snippet = snippets[hit.partID] ?? hit.snippet }
                    return hit
                }
                return SearchResults.Group(issue: issue, shortName: names[id], publication: issue.publicationId.flatMap { titles[$0] },
                                           hits: shownHits)
            }
            return SearchResults(groups: groups, pending: try Self.pendingSearchCount(db))
        }
    }
}
