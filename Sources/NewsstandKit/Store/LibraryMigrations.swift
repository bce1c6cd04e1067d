import Foundation
import GRDB

/// The library's schema, grown one named migration per change (the cache, push and shelf
/// parts register theirs beside the code that uses them): the store's migrator.
extension LibraryStore {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: publications, issues, asset downloads, settings") { db in
            try db.create(table: "publication") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("feedURL", .text).notNull().unique()
                t.column("title", .text).notNull()
                t.column("subtitle", .text)
                t.column("coverURL", .text)
                t.column("bindingType", .text).notNull().defaults(to: "magazine")
                t.column("bindingEdge", .text).notNull().defaults(to: "left")
                t.column("pushURL", .text)
                t.column("etag", .text)
                t.column("lastModified", .text)
                t.column("lastRefresh", .datetime)
                t.column("lastError", .text)
                t.column("autoDownload", .boolean).notNull().defaults(to: false)
                t.column("lastAutoDownload", .datetime)
                t.column("addedAt", .datetime).notNull()
            }
            try db.create(table: "issue") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("publicationId", .integer).references("publication", onDelete: .setNull)
                t.column("name", .text).notNull().unique()
                t.column("date", .datetime).notNull()
                t.column("title", .text).notNull()
                t.column("summary", .text)
                t.column("coverURL", .text)
                t.column("contentURL", .text)
                t.column("contentType", .text)
                t.column("contentLength", .integer)
                t.column("sha256", .text)
                t.column("status", .text).notNull().defaults(to: "none")
                t.column("unread", .boolean).notNull().defaults(to: false)
                t.column("pinned", .boolean).notNull().defaults(to: false)
                t.column("evicted", .boolean).notNull().defaults(to: false)
                t.column("downloadedAt", .datetime)
                t.column("lastOpenedAt", .datetime)
                t.column("readingPosition", .text)
                t.column("readingProgress", .double)
                t.column("lastError", .text)
            }
            try db.create(index: "issue_by_publication_date", on: "issue", columns: ["publicationId", "date"])
            try db.create(table: "assetDownload") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("identifier", .text).notNull().unique()
                t.column("issueId", .integer).notNull().references("issue", onDelete: .cascade)
                t.column("url", .text).notNull()
                t.column("headers", .text).notNull().defaults(to: "{}")
                t.column("userInfo", .text).notNull().defaults(to: "{}")
                t.column("kind", .text).notNull()
                t.column("state", .text).notNull()
                t.column("bytesWritten", .integer).notNull().defaults(to: 0)
                t.column("bytesExpected", .integer)
                t.column("bytesPerSecond", .double)
                t.column("etag", .text)
                t.column("lastModified", .text)
                t.column("attempts", .integer).notNull().defaults(to: 0)
                t.column("lastError", .text)
                t.column("createdAt", .datetime).notNull()
                t.column("finishedAt", .datetime)
            }
            try db.create(table: "setting") { t in
                t.primaryKey("key", .text)
                t.column("value", .text)
            }
        }
        registerCacheMigration(&migrator)
        registerPushMigration(&migrator)
        registerShelfMigration(&migrator)
        migrator.registerMigration("v4-locator: reading places as locators") { db in
            try db.alter(table: "issue") { t in t.add(column: "locator", .text) }
        }
        migrator.registerMigration("v5-retry: a download says while it waits to try again") { db in
            try db.alter(table: "assetDownload") { t in
                t.add(column: "retryAttempt", .integer)
                t.add(column: "retryAttempts", .integer)
                t.add(column: "retryReason", .text)
            }
        }
        migrator.registerMigration("v6-contents: what an issue's content says of itself; the user's own files") { db in
            try db.alter(table: "issue") { t in
                t.add(column: "contentTitle", .text)
                t.add(column: "contentAuthors", .text)
                t.add(column: "contentCover", .text)
            }
            try db.alter(table: "publication") { t in t.add(column: "copiesFiles", .boolean) }
        }
        migrator.registerMigration("v7-reader-view: a PDF issue is read as pages or as text, kept per issue") { db in
            try db.alter(table: "issue") { t in t.add(column: "readerView", .text) }
        }
        migrator.registerMigration("v8-editions: a feed's articles, gathered into editions") { db in
            try db.alter(table: "publication") { t in t.add(column: "editionSchedule", .text) }
            try db.create(table: "article") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("publicationId", .integer).notNull().references("publication", onDelete: .cascade)
                t.column("name", .text).notNull()
                t.column("title", .text).notNull()
                t.column("link", .text)
                t.column("date", .datetime)
                t.column("firstSeen", .datetime).notNull()
                t.column("author", .text)
                t.column("categories", .text).notNull()
                t.column("html", .text)
                t.column("baseURL", .text).notNull()
                t.column("pictures", .text).notNull()
                // An edition removed leaves its articles known (a refresh does not bring them back) but in none.
                t.column("editionId", .integer).references("issue", onDelete: .setNull)
                t.uniqueKey(["publicationId", "name"])
            }
            try db.create(index: "article_by_edition", on: "article", columns: ["editionId"])
        }
        migrator.registerMigration("v9-full-text: a publication whose articles are read from their web pages") { db in
            try db.alter(table: "publication") { t in t.add(column: "fullText", .boolean).notNull().defaults(to: false) }
        }
        migrator.registerMigration("v10-article-details: each article's language, and whether its feed gave its content") { db in
            try db.alter(table: "article") { t in
                t.add(column: "language", .text)
                t.add(column: "hasContent", .boolean).notNull().defaults(to: false)
            }
        }
        migrator.registerMigration("v11-edition-build-progress: an edition's build, counted in articles and pictures") { db in
            try db.alter(table: "assetDownload") { t in
                t.add(column: "builtArticles", .integer)
                t.add(column: "articlesToBuild", .integer)
                t.add(column: "builtPictures", .integer)
                t.add(column: "picturesToBuild", .integer)
            }
        }
        registerCatalogMigration(&migrator)
        migrator.registerMigration("v12-issue-authors-from-feed: the author(s) a catalog's feed names, shown before the download") { db in
            try db.alter(table: "issue") { t in t.add(column: "feedAuthors", .text) }
        }
        migrator.registerMigration("v13-unsubscribed: an unsubscribed publication is kept, hidden; no issue without a publication") { db in
            try db.alter(table: "publication") { t in t.add(column: "unsubscribedAt", .datetime) }
            // Unsubscribing used to delete the publication and leave its issues under none:
            // they are gathered into "Kept issues", from which their feed, subscribed again, takes them back.
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM issue WHERE publicationId IS NULL)") == true else { return }
            try db.execute(sql: "INSERT OR IGNORE INTO publication (feedURL, title, addedAt) VALUES (?, ?, ?)",
                           arguments: [Library.keptIssuesFeedURL, Library.keptIssuesTitle, Date()])
            try db.execute(sql: """
                UPDATE issue SET publicationId = (SELECT id FROM publication WHERE feedURL = ?) WHERE publicationId IS NULL
                """, arguments: [Library.keptIssuesFeedURL])
        }
        migrator.registerMigration("v14-own-files-series: the series and number a file names, to order a folder by") { db in
            try db.alter(table: "issue") { t in
                t.add(column: "contentSeries", .text)
                t.add(column: "contentNumber", .text)
            }
        }
        migrator.registerMigration("v15-one-place: places saved before locators become locators; their columns go") { db in
            try migrateLegacyPlaces(db)
            try db.alter(table: "issue") { t in
                t.drop(column: "readingPosition")
                t.drop(column: "readingProgress")
            }
        }
        migrator.registerMigration("v16-site: a publication's web site, for an OPML list's htmlUrl") { db in
            try db.alter(table: "publication") { t in t.add(column: "siteURL", .text) }
        }
        migrator.registerMigration("v17-fit-width: a paged issue's pages fitted to the width (w), kept per issue") { db in
            try db.alter(table: "issue") { t in t.add(column: "readerFitWidth", .boolean) }
        }
        registerSearchMigration(&migrator)  // "v18-search" (SearchRows.swift)
        migrator.registerMigration("v19b-pdf-text-again: installed PDFs' pages indexed again with poppler-cpp's text layer") { db in
            // Their words were read by poppler-glib, which gave turned pages no text and read
            // columns out of order; the agent reads them again once (`SearchIndexer`).
            try db.execute(sql: """
                INSERT INTO searchPending (issueId, content, stamp)
                SELECT DISTINCT searchPart.issueId, 1, random() FROM searchPart JOIN issue ON issue.id = searchPart.issueId
                WHERE searchPart.kind = 'page' AND issue.status = 'available'
                ON CONFLICT (issueId) DO UPDATE SET content = 1, stamp = excluded.stamp
                """)
        }
        registerHighlightMigration(&migrator)  // "v19-highlights" (HighlightRows.swift)
        registerSyncMigration(&migrator)  // "v19d-sync" (Sync/SyncRows.swift)
        registerHighlightSearchMigration(&migrator)  // "v20-hlpdf-highlight-search" (HighlightSearchRows.swift)
        registerSearchBodyFirstMigration(&migrator)  // "v20-searchp95-body-first" (SearchRows.swift)
        registerCatalogPlaceMigration(&migrator)  // "v20-opdsprog" (Sync/CatalogPlaceRows.swift)
        registerDownloadedDocumentMigration(&migrator)  // "v20-offer-document-ids" (Sync/DownloadedDocuments.swift)
        registerHighlightSyncMigration(&migrator)  // "v20-hlsync" (Sync/SyncRows.swift)
        registerSeenOwnMigration(&migrator)  // "v20-seenown" (Sync/SyncRows.swift)
        registerContentIdentifierMigration(&migrator)  // "v21-content-identifiers" (Sync/ContentIdentifierRows.swift)
        return migrator
    }

    /// Each place kept as `readingPosition` (and `readingProgress`) by versions before the
    /// locator, and never read since, becomes the issue's locator, dated when it was last
    /// opened; a position that does not decode is dropped, as the reader ignored it.
    private static func migrateLegacyPlaces(_ db: Database) throws {
        let rows = try Row.fetchAll(db, sql: """
            SELECT id, readingPosition, readingProgress, lastOpenedAt FROM issue
            WHERE locator IS NULL AND readingPosition IS NOT NULL
            """)
        for row in rows {
            let opened: Date? = row["lastOpenedAt"]
            guard let place = Locator(legacyPosition: row["readingPosition"], progress: row["readingProgress"],
                                      updated: opened ?? Date(timeIntervalSince1970: 0)) else { continue }
            try db.execute(sql: "UPDATE issue SET locator = ? WHERE id = ?", arguments: [place, row["id"] as Int64])
        }
    }
}
