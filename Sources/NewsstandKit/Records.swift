import Foundation
import GRDB

/// One title with one feed (NewsstandKit's "app").
public struct Publication: Codable, Sendable, Equatable, Identifiable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "publication"
    public var id: Int64?
    public var feedURL: String
    public var title: String
    public var subtitle: String?
    /// Default cover shown until an issue is downloaded.
    public var coverURL: String?
    public var bindingType: BindingType
    public var bindingEdge: BindingEdge
    public var pushURL: String?
    public var etag: String?
    public var lastModified: String?
    public var lastRefresh: Date?
    public var lastError: String?
    public var autoDownload: Bool
    public var lastAutoDownload: Date?
    public var addedAt: Date
    /// For the user's own files (see `Subscriptions.subscribe(localPath:copy:)`): true when they are
    /// downloaded into the library like a feed's, nil or false when read where they are.
    public var copiesFiles: Bool?
    /// When the user unsubscribed: the row stays, hidden from the shelf and never refreshed,
    /// so that subscribing to the same feed again brings back its issues, places and marks.
    public var unsubscribedAt: Date?
    /// The publication's web site as its feed (or an imported OPML list's `htmlUrl`) names it.
    public var siteURL: String?

    public init(id: Int64? = nil, feedURL: String, title: String, subtitle: String? = nil, coverURL: String? = nil,
                bindingType: BindingType = .magazine, bindingEdge: BindingEdge = .left, pushURL: String? = nil,
                autoDownload: Bool = false, addedAt: Date = Date()) {
        self.id = id; self.feedURL = feedURL; self.title = title; self.subtitle = subtitle
        self.coverURL = coverURL; self.bindingType = bindingType; self.bindingEdge = bindingEdge
        self.pushURL = pushURL; self.autoDownload = autoDownload; self.addedAt = addedAt
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// How the issue is bound; stored as its raw value (Imaging's `BindingType` has the same).
    public enum BindingType: String, Codable, Sendable, CaseIterable, DatabaseValueConvertible {
        case magazine, newspaper
    }

    /// The edge of the cover where it is bound (or, for a newspaper, folded).
    public enum BindingEdge: String, Codable, Sendable, CaseIterable, DatabaseValueConvertible {
        case left, right, bottom
    }
}

/// NKIssue: a unique name and a date, content on disk when `status == .available`.
public struct Issue: Codable, Sendable, Equatable, Identifiable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "issue"

    public enum Status: String, Codable, Sendable, DatabaseValueConvertible {
        case none, downloading, available
    }

    public var id: Int64?
    public var publicationId: Int64?
    public var name: String
    public var date: Date
    public var title: String
    public var summary: String?
    public var coverURL: String?
    public var contentURL: String?
    public var contentType: String?
    public var contentLength: Int64?
    public var sha256: String?
    public var status: Status
    public var unread: Bool
    public var pinned: Bool
    /// Set when the content was removed to save space; the row, position and cover stay.
    public var evicted: Bool
    public var downloadedAt: Date?
    public var lastOpenedAt: Date?
    /// Where the reader is (see `Locator`), and how far through the issue (its
    /// `totalProgression`, the store's bar); nil until the issue is first read.
    public var locator: Locator?
    public var lastError: String?
    /// Bytes of the installed content, measured on disk after the install (nil: not yet).
    public var contentSize: Int64?
    /// What the installed content says of itself (EPUB package, ComicInfo, a PDF's info),
    /// recorded at install; nil until then or when it says nothing.
    public var contentTitle: String?
    /// The content's author(s), one a line.
    public var contentAuthors: String?
    /// The content's cover picture, relative to the issue's content directory.
    public var contentCover: String?
    /// The author(s) the feed names (an OPDS catalog's book), one a line; nil when it names none.
    public var feedAuthors: String?

    /// The issue's author(s), in the order they are named: the feed's where it names them
    /// (known before the download), else the installed content's.
    public var authors: [String] { (feedAuthors ?? contentAuthors)?.split(separator: "\n").map(String.init) ?? [] }

    public init(id: Int64? = nil, publicationId: Int64?, name: String, date: Date, title: String,
                summary: String? = nil, coverURL: String? = nil, contentURL: String? = nil,
                contentType: String? = nil, contentLength: Int64? = nil, sha256: String? = nil) {
        self.id = id; self.publicationId = publicationId; self.name = name; self.date = date
        self.title = title; self.summary = summary; self.coverURL = coverURL; self.contentURL = contentURL
        self.contentType = contentType; self.contentLength = contentLength; self.sha256 = sha256
        status = .none; unread = false; pinned = false; evicted = false
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// Read column by column rather than through `Decodable`, whose keyed container looks
    /// every column up by name three times. Writing still goes through `Encodable`; a
    /// round-trip test keeps the two in step.
    public init(row: Row) throws {
        try self.init(row: row, at: ColumnPositions(row.columnNames))
    }

    /// Where each column is in the rows of one statement.
    struct ColumnPositions {
        /// In any order; a case's name is its column's name.
        enum Column: Int, CaseIterable {
            case id, publicationId, name, date, title, summary, coverURL, contentURL, contentType, contentLength,
                 sha256, status, unread, pinned, evicted, downloadedAt, lastOpenedAt, lastError, contentSize, locator, contentTitle, contentAuthors, contentCover, feedAuthors
        }
        private var positions: [Int] = []

        init<Names: Sequence<String>>(_ names: Names) throws {
            var found: [String: Int] = [:]
            for (index, name) in names.enumerated() where found[name.lowercased()] == nil { found[name.lowercased()] = index }
            for column in Column.allCases {
                let name = String(describing: column)
                guard let index = found[name.lowercased()] else {
                    throw DatabaseError(resultCode: .SQLITE_ERROR, message: "issue rows lack the column \(name)")
                }
                positions.append(index)
            }
        }

        subscript(column: Column) -> Int { positions[column.rawValue] }
    }

    init(row: Row, at columns: ColumnPositions) throws {
        id = try row.decode(atIndex: columns[.id])
        publicationId = try row.decode(atIndex: columns[.publicationId])
        name = try row.decode(atIndex: columns[.name])
        date = try row.decode(atIndex: columns[.date])
        title = try row.decode(atIndex: columns[.title])
        summary = try row.decode(atIndex: columns[.summary])
        coverURL = try row.decode(atIndex: columns[.coverURL])
        contentURL = try row.decode(atIndex: columns[.contentURL])
        contentType = try row.decode(atIndex: columns[.contentType])
        contentLength = try row.decode(atIndex: columns[.contentLength])
        sha256 = try row.decode(atIndex: columns[.sha256])
        status = try row.decode(atIndex: columns[.status])
        unread = try row.decode(atIndex: columns[.unread])
        pinned = try row.decode(atIndex: columns[.pinned])
        evicted = try row.decode(atIndex: columns[.evicted])
        downloadedAt = try row.decode(atIndex: columns[.downloadedAt])
        lastOpenedAt = try row.decode(atIndex: columns[.lastOpenedAt])
        lastError = try row.decode(atIndex: columns[.lastError])
        contentSize = try row.decode(atIndex: columns[.contentSize])
        locator = try row.decode(atIndex: columns[.locator])
        contentTitle = try row.decode(atIndex: columns[.contentTitle])
        contentAuthors = try row.decode(atIndex: columns[.contentAuthors])
        contentCover = try row.decode(atIndex: columns[.contentCover])
        feedAuthors = try row.decode(atIndex: columns[.feedAuthors])
    }

    /// Many issues at once: the column positions are found once for the statement, not
    /// once per row (a store of 20,000 issues opens several times faster than through
    /// `fetchAll`).
    static func fetchMany(_ db: Database, _ request: QueryInterfaceRequest<Issue>) throws -> [Issue] {
        let statement = try request.makePreparedRequest(db, forSingleResult: false).statement
        let columns = try ColumnPositions(statement.columnNames)
        var issues: [Issue] = []
        // Room for all at once: growing by doubling copied 20,000 issues about twice over.
        issues.reserveCapacity(try request.fetchCount(db))
        let rows = try Row.fetchCursor(statement)
        while let row = try rows.next() { issues.append(try Issue(row: row, at: columns)) }
        return issues
    }
}

/// NKAssetDownload: one URL to fetch for an issue; identifier and userInfo survive restarts.
public struct AssetDownload: Codable, Sendable, Equatable, Identifiable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "assetDownload"

    public enum State: String, Codable, Sendable, DatabaseValueConvertible {
        case queued, active, finished, failed
        /// Stopped by the user (`DownloadQueue.cancelDownload`): never retried or resumed, not a failure.
        case cancelled
    }

    /// What to do with the bytes once they are all here.
    public enum Kind: String, Codable, Sendable, DatabaseValueConvertible {
        /// An issue archive, unpacked into the content directory.
        case archive
        /// A plain file, moved into the content directory under `userInfo["fileName"]`.
        case file
    }

    public var id: Int64?
    public var identifier: String
    public var issueId: Int64
    public var url: String
    public var headers: String        // JSON object of strings
    public var userInfo: String       // JSON object
    public var kind: Kind
    public var state: State
    public var bytesWritten: Int64
    public var bytesExpected: Int64?
    public var bytesPerSecond: Double?
    public var etag: String?
    public var lastModified: String?
    public var attempts: Int
    public var lastError: String?
    public var createdAt: Date
    public var finishedAt: Date?
    /// Set while the download is paused because the disk is full: the bytes it needs free
    /// before it goes on (`lastError` says why).
    public var waitingForSpace: Int64? = nil
    /// Set while the transfer waits to try again (see `retry`).
    public var retryAttempt: Int? = nil
    public var retryAttempts: Int? = nil
    public var retryReason: String? = nil
    /// An edition's build counts articles and pictures, not bytes (see `build`).
    public var builtArticles: Int? = nil
    public var articlesToBuild: Int? = nil
    public var builtPictures: Int? = nil
    public var picturesToBuild: Int? = nil

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    /// While the agent waits to try again: "retrying (2 of 6) — cannot resolve host" as its
    /// `description`. Nil once bytes flow again, and when the download ends.
    public var retry: TransferRetry? {
        guard let retryAttempt, let retryAttempts else { return nil }
        return TransferRetry(attempt: retryAttempt, attempts: retryAttempts, reason: retryReason ?? "")
    }

    /// How far an edition's build is; nil for a download, or a build not started.
    public var build: EditionBuildProgress? {
        guard let builtArticles, let articlesToBuild else { return nil }
        return EditionBuildProgress(articles: builtArticles, articlesTotal: articlesToBuild, pictures: builtPictures ?? 0,
                                    picturesTotal: picturesToBuild)
    }

    public var fraction: Double? {
        if let build { return build.fraction }
        guard let expected = bytesExpected, expected > 0 else { return nil }
        return min(1, Double(bytesWritten) / Double(expected))
    }
}
