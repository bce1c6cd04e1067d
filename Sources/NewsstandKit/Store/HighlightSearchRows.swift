import Foundation
import GRDB

/// Highlights' quotes and notes in the search: an FTS5 table of their own
/// (`highlightSearch`, tokenized as `searchText` is, a row per live highlight named by its
/// id), written in the same transaction as the highlight it mirrors, so a search finds a
/// highlight as soon as it is made, edited or deleted. Kept apart from the issues' index:
/// a highlight's words are the reader's, few and changed one at a time.
extension LibraryStore {
    static func registerHighlightSearchMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v20-hlpdf-highlight-search: highlights' quotes and notes found by search") { db in
            try db.execute(sql: """
                CREATE VIRTUAL TABLE highlightSearch USING fts5(quote, note, highlightId UNINDEXED,
                                                                tokenize = 'unicode61 remove_diacritics 2');
                CREATE TRIGGER highlightSearch_gone AFTER DELETE ON highlight BEGIN
                    DELETE FROM highlightSearch WHERE highlightId = OLD.id;
                END;
                """)
            for row in try Row.fetchAll(db, sql: "SELECT id, exact, note FROM highlight WHERE NOT deleted") {
                try insertHighlightSearch(db, id: row["id"], quote: row["exact"], note: row["note"])
            }
        }
    }

    /// The search's row of `highlight` made again from it: none for a tombstone.
    static func indexHighlight(_ db: Database, _ highlight: Highlight) throws {
        try db.execute(sql: "DELETE FROM highlightSearch WHERE highlightId = ?", arguments: [highlight.id])
        guard !highlight.deleted else { return }
        try insertHighlightSearch(db, id: highlight.id, quote: highlight.quote.exact, note: highlight.note)
    }

    private static func insertHighlightSearch(_ db: Database, id: String, quote: String, note: String?) throws {
        try db.execute(sql: "INSERT INTO highlightSearch (quote, note, highlightId) VALUES (?, ?, ?)",
                       arguments: [SearchText.indexable(quote), SearchText.indexable(note ?? ""), id])
    }

    /// The best `limit` highlights for `match` (an FTS5 query), their quotes weighing more
    /// than their notes, the newest first on ties; with `publicationIDs`, only their issues'.
    /// Each is a hit of kind `note` when its note holds the words, else `highlight`.
    static func highlightSearchHits(_ db: Database, match: String, publicationIDs: [Int64]?, limit: Int) throws -> [SearchHit] {
        do {
            var filter = ""
            if let publicationIDs {
                filter = "AND issue.publicationId IN (\(publicationIDs.map(String.init).joined(separator: ",")))"
            }
            return try Row.fetchAll(db, sql: """
                SELECT highlight.*, bm25(highlightSearch, 4.0, 1.0) AS score,
                       snippet(highlightSearch, 0, char(2), char(3), '…', 14) AS quoteSnippet,
                       snippet(highlightSearch, 1, char(2), char(3), '…', 14) AS noteSnippet
                FROM highlightSearch JOIN highlight ON highlight.id = highlightSearch.highlightId
                     JOIN issue ON issue.id = highlight.issueId
                WHERE highlightSearch MATCH ? AND NOT highlight.deleted \(filter)
                ORDER BY score, highlight.createdAt DESC
                LIMIT ?
                """, arguments: [match, limit]).compactMap { row -> SearchHit? in
                guard let highlight = Self.highlight(row) else { return nil }
                let noteSnippet: String = row["noteSnippet"] ?? ""
                let inNote = noteSnippet.contains("\u{2}")
                let part = SearchablePart(kind: inNote ? .note : .highlight, resource: highlight.resource, page: highlight.locator.page,
                                          position: highlight.position, label: highlight.chapter, title: "", text: "",
                                          highlight: highlight)
                return SearchHit(issueID: highlight.issueID, part: part, score: row["score"],
                                 snippet: SearchSnippet(marked: inNote ? noteSnippet : row["quoteSnippet"] ?? ""))
            }
        }
    }
}

extension SearchHit {
    /// The issues' parts and the highlights that matched, each list best first, as one list
    /// best first (a part before a highlight on a tie).
    static func merged(_ parts: [SearchHit], _ highlights: [SearchHit]) -> [SearchHit] {
        var merged: [SearchHit] = []
        merged.reserveCapacity(parts.count + highlights.count)
        var (part, highlight) = (0, 0)
        while part < parts.count || highlight < highlights.count {
            if highlight == highlights.count || (part < parts.count && parts[part].score <= highlights[highlight].score) {
                merged.append(parts[part]); part += 1
            } else {
                merged.append(highlights[highlight]); highlight += 1
            }
        }
        return merged
    }
}
