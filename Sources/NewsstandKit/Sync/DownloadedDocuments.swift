import Foundation
import GRDB

/// How KOReader names a downloaded issue on a kosync server, taken from the file as it was
/// downloaded, before an EPUB or a comic is unpacked into the cache (after which no file is
/// left to name): its partial MD5 and its file name.
public struct DownloadedDocument: Sendable, Equatable {
    public var partialMD5: String
    public var fileName: String

    /// The id of the downloaded `file`, which the server named `fileName`.
    public init(file: URL, fileName: String) throws {
        partialMD5 = try KOSyncWire.partialMD5(of: file)
        self.fileName = fileName
    }

    init(partialMD5: String, fileName: String) { (self.partialMD5, self.fileName) = (partialMD5, fileName) }

    /// The id by the target's setting (KOReader's "document matching method").
    func id(by identity: KOSyncWire.DocumentIdentity) -> String {
        identity == .binary ? partialMD5 : KOSyncWire.fileNameMD5(fileName)
    }
}

extension LibraryStore {
    static func registerDownloadedDocumentMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v20-offer-document-ids: KOReader's id of each downloaded file, taken before it is unpacked") { db in
            try db.execute(sql: """
                CREATE TABLE syncDocument (
                    issueId INTEGER PRIMARY KEY REFERENCES issue(id) ON DELETE CASCADE,
                    partialMD5 TEXT NOT NULL,
                    fileName TEXT NOT NULL)
                """)
        }
    }

    /// Keeps the id of the file just downloaded for `issue` (a new download replaces it); the
    /// ids the servers knew the issue by are worked out again from it.
    public func recordDownloadedDocument(_ document: DownloadedDocument, for issue: Issue) throws {
        try write { db in
            try db.execute(sql: """
                INSERT INTO syncDocument (issueId, partialMD5, fileName) VALUES (?, ?, ?)
                ON CONFLICT (issueId) DO UPDATE SET partialMD5 = excluded.partialMD5, fileName = excluded.fileName
                """, arguments: [issue.id, document.partialMD5, document.fileName])
            try db.execute(sql: "UPDATE syncPlace SET document = NULL WHERE issueId = ?", arguments: [issue.id])
        }
    }

    public func downloadedDocument(of issue: Issue) throws -> DownloadedDocument? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT partialMD5, fileName FROM syncDocument WHERE issueId = ?", arguments: [issue.id]).map {
                DownloadedDocument(partialMD5: $0["partialMD5"], fileName: $0["fileName"])
            }
        }
    }
}
