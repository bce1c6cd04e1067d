import Foundation
import GRDB

/// The downloads repository: the queue every process shares, and the states an asset
/// moves through (queued → active → finished, failed or cancelled), each change one
/// statement or one transaction.
extension LibraryStore {
    /// Columns cleared whenever a download stops waiting to try again.
    private static let noRetry = "retryAttempt = NULL, retryAttempts = NULL, retryReason = NULL"

    /// Each issue's latest download (one query, not one per issue), of one publication or all.
    static func latestDownloads(_ db: Database, publicationID: Int64?) throws -> [Int64: AssetDownload] {
        let downloads = try AssetDownload.fetchAll(db, sql: """
            SELECT assetDownload.* FROM assetDownload JOIN issue ON issue.id = assetDownload.issueId
            WHERE ?1 IS NULL OR issue.publicationId = ?1 ORDER BY assetDownload.id
            """, arguments: [publicationID])
        return Dictionary(downloads.map { ($0.issueId, $0) }, uniquingKeysWith: { _, newer in newer })
    }

    public func latestDownloads(publicationID: Int64? = nil) throws -> [Int64: AssetDownload] {
        try read { db in try Self.latestDownloads(db, publicationID: publicationID) }
    }

    /// An issue's downloads, oldest first.
    public func downloads(issueID: Int64) throws -> [AssetDownload] {
        try read { db in try AssetDownload.filter(Column("issueId") == issueID).order(Column("id")).fetchAll(db) }
    }

    func download(identifier: String) throws -> AssetDownload? {
        try read { db in try AssetDownload.filter(Column("identifier") == identifier).fetchOne(db) }
    }

    /// Assets still to fetch (queued or interrupted while active), oldest first.
    func pendingDownloads() throws -> [AssetDownload] {
        try read { db in
            try AssetDownload.filter(["queued", "active"].contains(Column("state")))
                .order(Column("createdAt"), Column("id")).fetchAll(db)
        }
    }

    /// Of the assets `identifiers` names, those still there and not cancelled.
    func uncancelledDownloads(among identifiers: [String]) throws -> [String] {
        try read { db in
            try String.fetchAll(db, AssetDownload.select(Column("identifier"))
                .filter(identifiers.contains(Column("identifier")) && Column("state") != AssetDownload.State.cancelled.rawValue))
        }
    }

    /// Downloads paused because the disk is full, each with its issue (gone issues left out).
    func downloadsWaitingForSpace() throws -> [(AssetDownload, Issue)] {
        try read { db in
            try AssetDownload.filter(Column("waitingForSpace") != nil).order(Column("id")).fetchAll(db).compactMap { asset in
                try Issue.fetchOne(db, key: asset.issueId).map { (asset, $0) }
            }
        }
    }

    /// Adds an asset to fetch; its issue shows it is downloading (unless already there).
    func insert(_ asset: AssetDownload) throws -> AssetDownload {
        try write { db in
            var asset = asset
            try asset.insert(db)
            try db.execute(sql: "UPDATE issue SET status = 'downloading', lastError = NULL WHERE id = ? AND status != 'available'",
                           arguments: [asset.issueId])
            return asset
        }
    }

    /// Old failed, finished or cancelled attempts make room for a new one.
    func removeEndedDownloads(issueID: Int64) throws {
        try write { db in
            try db.execute(sql: "DELETE FROM assetDownload WHERE issueId = ? AND state IN ('failed', 'finished', 'cancelled')",
                           arguments: [issueID])
        }
    }

    func setUserInfo(_ text: String, downloadID: Int64) throws {
        try write { db in try db.execute(sql: "UPDATE assetDownload SET userInfo = ? WHERE id = ?", arguments: [text, downloadID]) }
    }

    /// An issue's queued and running assets become `cancelled` and the issue goes back to
    /// not downloaded, with no error. Returns the assets cancelled.
    func cancelDownloads(issueID: Int64) throws -> [AssetDownload] {
        try write { db in
            let running = try AssetDownload.filter(Column("issueId") == issueID && ["queued", "active"].contains(Column("state"))).fetchAll(db)
            guard !running.isEmpty else { return [] }
            try db.execute(sql: """
                UPDATE assetDownload SET state = 'cancelled', bytesPerSecond = NULL, waitingForSpace = NULL, lastError = NULL, \(Self.noRetry)
                WHERE issueId = ? AND state IN ('queued', 'active')
                """, arguments: [issueID])
            try db.execute(sql: "UPDATE issue SET status = 'none', lastError = NULL WHERE id = ? AND status = 'downloading'",
                           arguments: [issueID])
            return running
        }
    }

    /// The asset's state; nil when its row is gone (its issue removed).
    func downloadState(id: Int64?) throws -> String? {
        try read { db in try String.fetchOne(db, sql: "SELECT state FROM assetDownload WHERE id = ?", arguments: [id]) }
    }

    /// The agent takes the asset up; false when it was cancelled (or is gone) before.
    func markActive(downloadID: Int64?) throws -> Bool {
        try write { db in
            try db.execute(sql: """
                UPDATE assetDownload SET state = 'active', attempts = attempts + 1, waitingForSpace = NULL,
                    lastError = CASE WHEN waitingForSpace IS NULL THEN lastError END, \(Self.noRetry)
                WHERE id = ? AND state IN ('queued', 'active')
                """, arguments: [downloadID])
            return db.changesCount > 0
        }
    }

    func recordRetry(downloadID: Int64?, _ retry: TransferRetry) throws {
        try write { db in
            try db.execute(sql: """
                UPDATE assetDownload SET retryAttempt = ?, retryAttempts = ?, retryReason = ?, bytesPerSecond = NULL
                WHERE id = ? AND state IN ('queued', 'active')
                """, arguments: [retry.attempt, retry.attempts, retry.reason, downloadID])
        }
    }

    /// Back to queued until `needed` bytes are free, saying why.
    func waitForSpace(downloadID: Int64?, needed: Int64, reason: String) throws {
        try write { db in
            try db.execute(sql: """
                UPDATE assetDownload SET state = 'queued', waitingForSpace = ?, lastError = ?, bytesPerSecond = NULL, \(Self.noRetry)
                WHERE id = ? AND state IN ('queued', 'active')
                """, arguments: [needed, reason, downloadID])
        }
    }

    /// Bytes flowing again: no longer retrying.
    func recordProgress(downloadID: Int64?, written: Int64, expected: Int64?, bytesPerSecond: Double?) throws {
        try write { db in
            try db.execute(sql: """
                UPDATE assetDownload SET bytesWritten = ?, bytesExpected = COALESCE(?, bytesExpected), bytesPerSecond = ?, \(Self.noRetry)
                WHERE id = ? AND state IN ('queued', 'active')
                """, arguments: [written, expected, bytesPerSecond, downloadID])
        }
    }

    func recordBuildProgress(downloadID: Int64?, _ progress: EditionBuildProgress) throws {
        try write { db in
            try db.execute(sql: """
                UPDATE assetDownload SET builtArticles = ?, articlesToBuild = ?, builtPictures = ?, picturesToBuild = ?
                WHERE id = ? AND state IN ('queued', 'active')
                """, arguments: [progress.articles, progress.articlesTotal, progress.pictures, progress.picturesTotal, downloadID])
        }
    }

    func recordValidator(downloadID: Int64?, etag: String?, lastModified: String?) throws {
        try write { db in
            try db.execute(sql: "UPDATE assetDownload SET etag = ?, lastModified = ? WHERE id = ?",
                           arguments: [etag, lastModified, downloadID])
        }
    }

    /// The download failed (unless it was cancelled meanwhile: a cancel is not a failure);
    /// its issue goes back to not downloaded, with why.
    func fail(_ asset: AssetDownload, reason: String) throws {
        try write { db in
            try db.execute(sql: """
                UPDATE assetDownload SET state = 'failed', lastError = ?, bytesPerSecond = NULL, \(Self.noRetry)
                WHERE id = ? AND state != 'cancelled'
                """, arguments: [reason, asset.id])
            guard db.changesCount > 0 else { return }
            try db.execute(sql: "UPDATE issue SET status = 'none', lastError = ? WHERE id = ? AND status = 'downloading'",
                           arguments: [reason, asset.issueId])
        }
    }

    /// Marks an asset finished; when it was the issue's last, the issue becomes available
    /// in the same transaction, and unread unless it was opened before. Returns the issue
    /// when it completed; throws `TransferError.cancelled` when it was cancelled meanwhile.
    func finish(_ asset: AssetDownload, at now: Date) throws -> Issue? {
        try write { db in
            try db.execute(sql: """
                UPDATE assetDownload SET state = 'finished', finishedAt = ?, bytesPerSecond = NULL, \(Self.noRetry)
                WHERE id = ? AND state IN ('queued', 'active')
                """, arguments: [now, asset.id])
            guard db.changesCount > 0 else { throw TransferError.cancelled }
            let remaining = try AssetDownload.filter(Column("issueId") == asset.issueId && Column("state") != "finished").fetchCount(db)
            guard remaining == 0 else { return nil }
            try db.execute(sql: """
                UPDATE issue SET status = 'available', unread = CASE WHEN lastOpenedAt IS NULL THEN 1 ELSE unread END, evicted = 0,
                    downloadedAt = ?, lastError = NULL WHERE id = ?
                """, arguments: [now, asset.issueId])
            return try Issue.fetchOne(db, key: asset.issueId)
        }
    }

    /// The identifiers of the assets still to fetch: their `.part` files are kept.
    func unfinishedDownloadIdentifiers() throws -> Set<String> {
        Set(try read { db in try String.fetchAll(db, sql: "SELECT identifier FROM assetDownload WHERE state IN ('queued','active')") })
    }
}
