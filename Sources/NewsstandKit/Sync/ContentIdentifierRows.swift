import Foundation
import GRDB
import IssueArchive

/// The identifiers an issue's installed content gives itself (`IssueFormatReader.identifiers`),
/// kept once read: a PDF's are read by the worker, and a sync with calibre asks for every
/// file not yet known to the server, each time. NULL until read; cleared by a new install.
extension LibraryStore {
    static func registerContentIdentifierMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v21-content-identifiers: the identifiers each issue's content gives, kept once read") { db in
            try db.execute(sql: "ALTER TABLE issue ADD COLUMN contentIdentifiers TEXT")
        }
    }

    /// The identifiers kept for each of `issueIDs` that were read (an empty list: read, none given).
    func contentIdentifiers(of issueIDs: [Int64]) throws -> [Int64: [BookIdentifier]] {
        try read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT id, contentIdentifiers FROM issue
                WHERE contentIdentifiers IS NOT NULL AND id IN (SELECT value FROM json_each(?))
                """, arguments: [String(decoding: try JSONEncoder().encode(issueIDs), as: UTF8.self)])
            return Dictionary(rows.map { row -> (Int64, [BookIdentifier]) in
                let text: String = row["contentIdentifiers"]
                return (row["id"], (try? JSONDecoder().decode([BookIdentifier].self, from: Data(text.utf8))) ?? [])
            }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// Keeps what each issue's content was read to give.
    func recordContentIdentifiers(_ identifiers: [Int64: [BookIdentifier]]) throws {
        guard !identifiers.isEmpty else { return }
        try write { db in
            for (id, given) in identifiers {
                let text = String(decoding: try JSONEncoder().encode(given), as: UTF8.self)
                try db.execute(sql: "UPDATE issue SET contentIdentifiers = ? WHERE id = ?", arguments: [text, id])
            }
        }
    }
}
