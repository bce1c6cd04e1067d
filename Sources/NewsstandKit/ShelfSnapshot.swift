import Foundation
import GRDB

/// What the shelf shows of one publication.
public struct PublicationSummary: Sendable, Equatable {
    public var publication: Publication
    public var issueCount: Int
    public var unreadCount: Int
    /// The newest issue whose content is on disk: its cover stands on the shelf.
    public var newestAvailable: Issue?
    /// Newest available issue's cover, else the publication's default cover (local files only).
    public var coverFile: URL?
}

/// What the store shows of one issue: the issue and its current or last download. Its
/// cover file is looked up when the tile is drawn (`localFile(forCover:)`): a store of
/// 20,000 issues shows a handful at a time.
public struct IssueTile: Sendable, Equatable {
    public var issue: Issue
    public var download: AssetDownload?
    /// A push could not download this issue by itself (the 24 h limit): why, and when next.
    public var throttle: PushThrottle? = nil
}

extension Library {
    /// One row per publication, in subscription order. Counts come from SQL and only each
    /// publication's newest available issue is read whole: a library of thousands of
    /// issues costs the shelf a few rows, not thousands of decoded records.
    public func shelfSummaries() throws -> [PublicationSummary] {
        let (publications, counts, newest) = try db.read { db in
            let publications = try Publication.order(Column("addedAt"), Column("id")).fetchAll(db)
            let rows = try Row.fetchAll(db, sql: """
                SELECT publicationId, COUNT(*) AS issues,
                       SUM(unread AND status = 'available') AS unread
                FROM issue GROUP BY publicationId
                """)
            let counts = Dictionary(rows.map { ($0["publicationId"] as Int64? ?? -1, (issues: $0["issues"] as Int, unread: $0["unread"] as Int? ?? 0)) },
                                    uniquingKeysWith: { first, _ in first })
            let newest = try Issue.fetchAll(db, sql: """
                SELECT * FROM issue WHERE id IN (
                    SELECT (SELECT id FROM issue WHERE publicationId = publication.id AND status = 'available'
                            ORDER BY date DESC, id DESC LIMIT 1)
                    FROM publication)
                """)
            return (publications, counts, Dictionary(newest.map { ($0.publicationId ?? -1, $0) }, uniquingKeysWith: { first, _ in first }))
        }
        return publications.map { publication in
            let id = publication.id ?? -2
            let available = newest[id]
            let cover = available.flatMap { localFile(forCover: $0.coverURL) } ?? localFile(forCover: publication.coverURL)
            return PublicationSummary(publication: publication, issueCount: counts[id]?.issues ?? 0,
                                      unreadCount: counts[id]?.unread ?? 0, newestAvailable: available, coverFile: cover)
        }
    }

    /// A publication's issues, newest first, each with its latest download.
    public func storeTiles(publicationID: Int64) throws -> [IssueTile] {
        let (issues, latest) = try db.read { db in
            (try Issue.fetchMany(db, Issue.filter(Column("publicationId") == publicationID).order(Column("date").desc, Column("id").desc)),
             try Self.latestDownloads(db, publicationID: publicationID))
        }
        let pushStates = (try? pushStates()) ?? [:]
        let now = Date()
        return issues.map {
            IssueTile(issue: $0, download: latest[$0.id ?? -1],
                      throttle: PushStatus.throttle(for: $0, states: pushStates, now: now))
        }
    }

    /// The file for a cover URL: file URLs as they are, remote covers from the cover cache
    /// (fetched at refresh). Nil when there is no such file yet.
    public func localFile(forCover urlString: String?) -> URL? {
        guard let urlString, let url = URL(string: urlString) else { return nil }
        let file = url.isFileURL ? url : paths.coversDirectory.appendingPathComponent(CoverFileName.make(for: url))
        return FileManager.default.fileExists(atPath: file.path) ? file : nil
    }
}

/// Remote covers are cached under a name derived from their URL.
enum CoverFileName {
    static func make(for url: URL) -> String {
        var hash: UInt64 = 0xcbf29ce484222325
        for byte in url.absoluteString.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100000001b3 }
        let ext = url.pathExtension.lowercased()
        let safeExt = ["png", "jpg", "jpeg"].contains(ext) ? ext : "img"
        return String(hash, radix: 16) + "." + safeExt
    }
}
