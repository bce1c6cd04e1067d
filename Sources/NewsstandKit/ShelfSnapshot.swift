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
    public var cover: CoverPicture?
    /// The file `cover` is drawn from.
    public var coverFile: URL? { cover?.file }
    /// The newest issue whatever its state: `d` on the shelf downloads it without a query.
    public var newestIssue: Issue? = nil
}

/// What the store shows of one issue: the issue, its current or last download, and the
/// picture its cover is drawn from, found when the store was read (on the shelf's reads
/// queue), so drawing a tile never looks at the disk.
public struct IssueTile: Sendable, Equatable {
    public var issue: Issue
    /// The issue's cover as `CoverFetcher.cover(of:)` found it at the read; nil: none on disk then.
    public var cover: CoverPicture?
    /// The issue's current or last download. Kept in a box: most tiles have none, and an
    /// inline `AssetDownload?` made each of a store's 20,000 tiles 280 bytes larger.
    public var download: AssetDownload? {
        get { downloadBox?.value }
        set { downloadBox = newValue.map(DownloadBox.init) }
    }
    private var downloadBox: DownloadBox?
    /// A push could not download this issue by itself (the 24 h limit): why, and when next.
    public var throttle: PushThrottle? = nil

    public init(issue: Issue, download: AssetDownload? = nil, throttle: PushThrottle? = nil, cover: CoverPicture? = nil) {
        self.issue = issue
        self.cover = cover
        self.downloadBox = download.map(DownloadBox.init)
        self.throttle = throttle
    }

    public static func == (a: IssueTile, b: IssueTile) -> Bool {
        a.issue == b.issue && a.download == b.download && a.throttle == b.throttle && a.cover == b.cover
    }

    /// Immutable, so sharing one between tiles and threads is safe.
    private final class DownloadBox: Sendable {
        let value: AssetDownload
        init(_ value: AssetDownload) { self.value = value }
    }
}

extension CoverFetcher {
    /// The file for a cover URL: file URLs as they are, remote covers from the cover cache
    /// (fetched at refresh). Nil when there is no such file yet.
    public func localFile(forCover urlString: String?) -> URL? { localFile(forCover: urlString, fetched: nil) }

    /// `localFile(forCover:)`, remote covers looked up in `fetched` (the covers directory
    /// listed once) rather than each on disk.
    func localFile(forCover urlString: String?, fetched: FetchedCovers?) -> URL? {
        guard let urlString else { return nil }
        // Most of a big store's covers are not fetched: their name's hash rules them out
        // without parsing the URL (a plain URL string is its own `absoluteString`).
        if let fetched, urlString.hasPrefix("http://") || urlString.hasPrefix("https://"), CoverFileName.isPlain(urlString),
           !fetched.stems.contains(CoverFileName.stem(urlString)) {
            return nil
        }
        guard let url = URL(string: urlString) else { return nil }
        if !url.isFileURL, let fetched {
            let name = CoverFileName.make(for: url)
            return fetched.names.contains(name) ? paths.coversDirectory.appendingPathComponent(name) : nil
        }
        let file = CoverFileName.location(for: url, in: paths.coversDirectory)
        return FileManager.default.fileExists(atPath: file.path) ? file : nil
    }

    /// The names of the covers fetched so far: one listing for a store's thousands of issues.
    func fetchedCovers() -> FetchedCovers {
        let names = Set((try? FileManager.default.contentsOfDirectory(atPath: paths.coversDirectory.path)) ?? [])
        return FetchedCovers(names: names, stems: Set(names.map { String($0.prefix { $0 != "." }) }))
    }
}

/// The file names in the covers directory, listed once, and their hashes (before the extension).
struct FetchedCovers {
    var names: Set<String>
    var stems: Set<String>
}

/// Remote covers are cached under a name derived from their URL.
public enum CoverFileName {
    /// Where the cover at `url` is once fetched into `coversDirectory` (a file URL is its
    /// own place). Only a name: nothing on disk is looked at.
    public static func location(for url: URL, in coversDirectory: URL) -> URL {
        url.isFileURL ? url : coversDirectory.appendingPathComponent(make(for: url))
    }

    static func make(for url: URL) -> String {
        let ext = url.pathExtension.lowercased()
        let safeExt = ["png", "jpg", "jpeg"].contains(ext) ? ext : "img"
        return stem(url.absoluteString) + "." + safeExt
    }

    /// The name's hash part, for a URL's absolute string.
    static func stem(_ absoluteString: String) -> String {
        var hash: UInt64 = 0xcbf29ce484222325
        for byte in absoluteString.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100000001b3 }
        return String(hash, radix: 16)
    }

    /// Whether `string` holds only the characters a URL may hold as they are (RFC 3986's
    /// unreserved and reserved ones): `URL(string:)` then keeps it unchanged.
    static func isPlain(_ string: String) -> Bool {
        string.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || Self.urlPunctuation.contains(byte)
        }
    }

    private static let urlPunctuation = Set("-._~:/?#[]@!$&'()*+,;=".utf8)
}

/// Reads what the shelf and the store show, and reads issues again only when they changed:
/// while a download reports its progress four times a second, the shelf re-reads the
/// downloads and publications, not 20,000 issues.
public final class ShelfReader {
    let store: LibraryStore
    /// Where each tile's cover is found.
    let covers: CoverFetcher
    let clock: WallClock
    private var counted: (version: IssuesVersion, counts: [Int64: (issues: Int, unread: Int)], newest: [Int64: Issue], latest: [Int64: Issue])?
    private var listed: (version: IssuesVersion, publicationID: Int64, issues: [Issue])?
    /// The covers of `listed`'s issues, and the covers directory's modification time when
    /// they were found: a download's progress reads the store again and again, and a store
    /// of 20,000 issues would look for 20,000 files each time.
    private var listedCovers: (version: IssuesVersion, publicationID: Int64, coversChanged: Date?, covers: [CoverPicture?])?
    /// How many times issue rows were read (for tests).
    public private(set) var issueReads = 0

    init(store: LibraryStore, covers: CoverFetcher, clock: WallClock) {
        self.store = store
        self.covers = covers
        self.clock = clock
    }

    /// The reader of `library`'s store and covers (it keeps those, not the `Library`).
    public convenience init(library: Library) { self.init(store: library.store, covers: library.covers, clock: library.clock) }

    /// One row per publication, in subscription order. Counts come from SQL and only each
    /// publication's newest available issue is read whole: a library of thousands of
    /// issues costs the shelf a few rows, not thousands of decoded records.
    public func summaries() throws -> [PublicationSummary] {
        let (publications, counted) = try store.read { db in
            let publications = try LibraryStore.publications(db)
            let version = try LibraryStore.issuesVersion(db)
            if let counted = self.counted, counted.version == version { return (publications, counted) }
            issueReads += 1
            let counts = try LibraryStore.issueCounts(db)
            let newest = try LibraryStore.newestAvailableIssues(db)
            let latest = try LibraryStore.newestIssues(db)
            func byPublication(_ issues: [Issue]) -> [Int64: Issue] {
                Dictionary(issues.map { ($0.publicationId ?? -1, $0) }, uniquingKeysWith: { first, _ in first })
            }
            return (publications, (version, counts, byPublication(newest), byPublication(latest)))
        }
        self.counted = counted
        return publications.map { publication in
            let id = publication.id ?? -2
            let available = counted.newest[id]
            let cover = available.flatMap { covers.cover(of: $0) } ?? covers.localFile(forCover: publication.coverURL).map { CoverPicture(file: $0) }
            return PublicationSummary(publication: publication, issueCount: counted.counts[id]?.issues ?? 0,
                                      unreadCount: counted.counts[id]?.unread ?? 0, newestAvailable: available, cover: cover,
                                      newestIssue: counted.latest[id])
        }
    }

    /// A publication's issues, newest first, each with its latest download and its cover.
    public func storeTiles(publicationID: Int64) throws -> [IssueTile] {
        let (listed, latest) = try store.read { db in
            let version = try LibraryStore.issuesVersion(db)
            let latest = try LibraryStore.latestDownloads(db, publicationID: publicationID)
            if let listed = self.listed, listed.version == version, listed.publicationID == publicationID { return (listed, latest) }
            issueReads += 1
            let issues = try Library.inFolderOrder(LibraryStore.issues(db, publicationID: publicationID),
                                                   db, publicationID: publicationID)
            return ((version, publicationID, issues), latest)
        }
        self.listed = listed
        let covers = covers(of: listed)
        let pushStates = (try? store.pushStates()) ?? [:]
        let now = clock.now()
        return zip(listed.issues, covers).map { issue, cover in
            IssueTile(issue: issue, download: latest[issue.id ?? -1],
                      throttle: PushStatus.throttle(for: issue, states: pushStates, now: now), cover: cover)
        }
    }

    /// Each listed issue's cover (`CoverFetcher.cover(of:)`), found again only when the issues
    /// changed (an install records its content's cover) or a cover was fetched or removed.
    private func covers(of listed: (version: IssuesVersion, publicationID: Int64, issues: [Issue])) -> [CoverPicture?] {
        let changed = (try? FileManager.default.attributesOfItem(atPath: covers.paths.coversDirectory.path))?[.modificationDate] as? Date
        if let known = listedCovers, known.version == listed.version, known.publicationID == listed.publicationID,
           known.coversChanged == changed {
            return known.covers
        }
        let covers = covers.covers(of: listed.issues)
        listedCovers = (listed.version, listed.publicationID, changed, covers)
        return covers
    }
}
