import Foundation
import Feeds
import GRDB
import GRDBSQLite

/// Subscribing and refreshing: feed bytes → `Feeds` → the library.
extension Library {
    /// Adds a publication by its feed URL and lists its issues. `pushURL` overrides the
    /// feed's push channel; `autoDownload` turns automatic download of new issues on or off
    /// (nil leaves it as it is).
    @discardableResult
    public func subscribe(feedURL: URL, pushURL: URL? = nil, autoDownload: Bool? = nil) throws -> (Publication, SyncResult) {
        guard case let .modified(data, validator) = try FeedFetcher.fetch(feedURL, validator: nil) else {
            throw DownloadError(message: "\(feedURL.absoluteString) answered 304 Not Modified to an unconditional request")
        }
        return try store(data, validator: validator, from: feedURL, into: nil) { publication in
            if let pushURL { publication.pushURL = pushURL.absoluteString }
            if let autoDownload { publication.autoDownload = autoDownload }
        }
    }

    /// Fetches a publication's feed again and brings its issues up to date. The stored
    /// ETag / Last-Modified make the request conditional: a 304 leaves everything as it
    /// was (`SyncResult.unchanged`), without parsing anything.
    @discardableResult
    public func refresh(_ publication: Publication) throws -> SyncResult {
        guard let url = URL(string: publication.feedURL) else {
            throw DownloadError(message: "'\(publication.feedURL)' is not a URL")
        }
        do {
            let stored = TransferValidator(etag: publication.etag, lastModified: publication.lastModified)
            guard case let .modified(data, validator) = try FeedFetcher.fetch(url, validator: stored.isEmpty ? nil : stored) else {
                try write { db in
                    try db.execute(sql: "UPDATE publication SET lastRefresh = ?, lastError = NULL WHERE id = ?",
                                   arguments: [Date(), publication.id])
                }
                return SyncResult(added: [], updated: 0, unchanged: true)
            }
            return try store(data, validator: validator, from: url, into: publication) { _ in }.1
        } catch {
            var failed = publication
            failed.lastError = "\(error)"
            _ = try? save(failed)
            throw error
        }
    }

    /// Reads a fetched feed into the library: the publication (`existing`, else the one with
    /// this feed URL, else a new one), its details from the feed, then `adjust`, and its
    /// issues, all in one transaction, and brings its remote covers into the cache. The
    /// feed is parsed on a thread of its own and its entries are stored while the rest is
    /// still being read; when the end of the feed changes them (an undated entry, entries
    /// without content, more pages), that work is rolled back and the whole feed, with its
    /// pages, is stored as `sync` does. Covers are fetched while the transaction commits
    /// and its log is written back into the library: both are mostly waiting.
    private func store(_ data: Data, validator: TransferValidator, from url: URL, into existing: Publication?,
                       adjust: (inout Publication) -> Void) throws -> (Publication, SyncResult) {
        let parse = StreamedParse(data, url: url)
        defer { parse.cancel() }
        let covers = DispatchGroup()
        // Also when the commit fails: no cover is left half written as the process ends.
        defer { covers.wait() }
        let document: FeedDocument
        do {
            let stored = try write { db in
                var publication = try existing ?? Publication.filter(Column("feedURL") == url.absoluteString).fetchOne(db)
                    ?? Publication(feedURL: url.absoluteString, title: url.absoluteString)
                if publication.id == nil { try publication.insert(db) }  // titled from the feed below
                guard let publicationID = publication.id else { throw LibraryError.noSuchPublication(publication.title) }
                var writer = try IssueWriter(db, publicationID: publicationID)
                while let batch = parse.next() { try writer.add(batch) }
                let (document, streamedAreFinal) = try parse.result()
                guard streamedAreFinal, document.publication.nextPage == nil else { throw WholeFeedNeeded(document: document) }
                update(&publication, from: document.publication, validator: validator, adjust: adjust)
                try publication.save(db)
                let result = try writer.finish()
                let wanted = try remoteCoversWanted(db, for: publication, now: Date())
                DispatchQueue.global().async(group: covers) { self.fetchCovers(wanted) }
                return (publication, result)
            }
            // The log (long after a long feed) is written back into the library now, while
            // the covers arrive, rather than by the last connection to close.
            _ = try? db.writeWithoutTransaction { try $0.checkpoint(.passive) }
            return stored
        } catch let whole as WholeFeedNeeded {
            var first = whole.document
            FeedFetcher.followPages(of: &first, from: url)
            document = first
        }
        var publication = try existing ?? publications().first { $0.feedURL == url.absoluteString }
            ?? Publication(feedURL: url.absoluteString, title: document.publication.title)
        update(&publication, from: document.publication, validator: validator, adjust: adjust)
        publication = try save(publication)
        let result = try sync(publication, entries: document.entries)
        fetchRemoteCovers(for: publication)
        return (publication, result)
    }

    /// Thrown inside `store`'s transaction to roll back what was stored while parsing.
    private struct WholeFeedNeeded: Error {
        let document: FeedDocument
    }

    private func update(_ publication: inout Publication, from info: PublicationInfo, validator: TransferValidator,
                        adjust: (inout Publication) -> Void) {
        apply(info, to: &publication)
        adjust(&publication)
        publication.etag = validator.etag
        publication.lastModified = validator.lastModified
        publication.lastRefresh = Date()
        publication.lastError = nil
    }

    static let remoteCoversPerRefresh = 48
    /// Covers fetched at once: over a real network each one is mostly waiting.
    static let coverFetchesAtOnce = 6
    /// A cover its server said is not there (404, 410) is asked for again only this long
    /// after, not at every refresh: the agent refreshes every hour.
    static let missingCoverRetry: TimeInterval = 24 * 3600

    /// Brings http(s) covers of a publication and its newest issues into the cover cache, so
    /// the shelf can draw them offline. A cover that fails stays a placeholder until the next
    /// refresh (a day later if the server said it does not exist); it never fails the refresh.
    @discardableResult
    public func fetchRemoteCovers(for publication: Publication, now: Date = Date()) -> Int {
        fetchCovers((try? db.read { db in try remoteCoversWanted(db, for: publication, now: now) }) ?? [])
    }

    /// The http(s) covers of a publication and its newest issues that the cache lacks and
    /// that their server has not lately said are missing.
    private func remoteCoversWanted(_ db: Database, for publication: Publication, now: Date) throws -> [URL] {
        guard let id = publication.id else { return [] }
        // The newest issues' covers only: a catalog of thousands would otherwise mean
        // thousands of requests at every refresh.
        let newest = try String.fetchAll(db, sql: """
            SELECT coverURL FROM issue WHERE publicationId = ? AND coverURL IS NOT NULL ORDER BY date DESC, id DESC LIMIT ?
            """, arguments: [id, Self.remoteCoversPerRefresh])
        var seen = Set<String>()
        return ([publication.coverURL].compactMap { $0 } + newest).compactMap { text -> URL? in
            guard seen.insert(text).inserted, let url = URL(string: text), !url.isFileURL, localFile(forCover: text) == nil,
                  !knownMissing(url, now: now) else { return nil }
            return url
        }
    }

    /// Fetches covers into the cache, a few at once; how many arrived.
    @discardableResult
    private func fetchCovers(_ wanted: [URL]) -> Int {
        guard !wanted.isEmpty else { return 0 }
        let lock = NSLock()
        var next = 0
        var fetched = 0
        DispatchQueue.concurrentPerform(iterations: min(Self.coverFetchesAtOnce, wanted.count)) { _ in
            while true {
                let index: Int = lock.withLock { defer { next += 1 }; return next }
                guard index < wanted.count else { return }
                if fetchCover(wanted[index]) { lock.withLock { fetched += 1 } }
            }
        }
        return fetched
    }

    /// Where the cover cache notes that `url` answered 404 or 410: an empty file, dated.
    private func missingMarker(for url: URL) -> URL {
        paths.coversDirectory.appendingPathComponent(CoverFileName.make(for: url)).appendingPathExtension("missing")
    }

    private func knownMissing(_ url: URL, now: Date) -> Bool {
        let attributes = try? FileManager.default.attributesOfItem(atPath: missingMarker(for: url).path)
        guard let noted = attributes?[.modificationDate] as? Date else { return false }
        return now.timeIntervalSince(noted) < Self.missingCoverRetry
    }

    private func fetchCover(_ url: URL) -> Bool {
        let target = paths.coversDirectory.appendingPathComponent(CoverFileName.make(for: url))
        let part = target.appendingPathExtension("part")
        let marker = missingMarker(for: url)
        let transfer = Transfer(request: TransferRequest(url: url, headers: [:]), partFile: part, timeout: 20,
                                maximumLength: FeedFetcher.maximumCoverSize, lowSpeedLimit: FeedFetcher.interactiveLowSpeed)
        do {
            let result = try TransferRunner.run(transfer, validator: nil, policy: RetryPolicy(maxAttempts: 2, baseDelay: 0.5, maxDelay: 1),
                                                progress: { _ in })
            guard result.bytes <= FeedFetcher.maximumCoverSize else { throw DownloadError(message: "cover too large") }
            try? FileManager.default.removeItem(at: target)
            try FileManager.default.moveItem(at: result.file, to: target)
            try? FileManager.default.removeItem(at: marker)
            return true
        } catch {
            try? FileManager.default.removeItem(at: part)
            if let status = (error as? TransferError)?.httpStatus, status == 404 || status == 410 {
                // Written anew, so its date is when the server last said so.
                try? FileManager.default.removeItem(at: marker)
                _ = FileManager.default.createFile(atPath: marker.path, contents: nil)
            }
            return false
        }
    }

    private func apply(_ info: PublicationInfo, to publication: inout Publication) {
        if !info.title.isEmpty { publication.title = info.title }
        publication.subtitle = info.subtitle ?? publication.subtitle
        publication.coverURL = info.coverURL?.absoluteString ?? publication.coverURL
        if let type = info.bindingType, ["magazine", "newspaper"].contains(type) { publication.bindingType = type }
        if let edge = info.bindingEdge, ["left", "right", "bottom"].contains(edge) { publication.bindingEdge = edge }
        else if info.bindingType == "newspaper" { publication.bindingEdge = "bottom" }
        // A channel given with `subscribe --push` (or found earlier) stays.
        publication.pushURL = publication.pushURL ?? info.pushURL?.absoluteString
    }

    public struct SyncResult: Sendable, Equatable {
        public var added: [String]
        public var updated: Int
        /// The server answered 304: the feed has not changed since the last refresh.
        public var unchanged = false
    }

    /// Adds entries not yet in the library and refreshes the metadata of known ones, in
    /// one transaction. An entry whose name belongs to another publication is left alone.
    /// `updated` counts the known issues whose metadata changed.
    public func sync(_ publication: Publication, entries: [FeedEntry]) throws -> SyncResult {
        guard let publicationID = publication.id else { throw LibraryError.noSuchPublication(publication.title) }
        return try write { db in
            var writer = try IssueWriter(db, publicationID: publicationID)
            try writer.add(entries)
            return try writer.finish()
        }
    }

    /// Stores feed entries as issues of one publication inside a transaction, a batch at a
    /// time: new ones inserted, known ones updated when their feed metadata changed.
    private struct IssueWriter {
        let db: Database
        let publicationID: Int64
        /// Whether the library held issues when the writer started: a first subscription
        /// into an empty library has no names to look up.
        private let libraryHadIssues: Bool
        private var insert: InsertBatch
        private let update: Statement
        private var added: [String] = []
        private var updated = 0
        static let columns = "id, publicationId, name, date, title, summary, coverURL, contentURL, contentType, contentLength, sha256"

        init(_ db: Database, publicationID: Int64) throws {
            self.db = db
            self.publicationID = publicationID
            libraryHadIssues = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM issue)") ?? true
            insert = InsertBatch(publicationID: publicationID)
            update = try db.cachedStatement(sql: """
                UPDATE issue SET date = ?, title = ?, summary = ?, coverURL = ?, contentURL = ?, contentType = ?,
                contentLength = ?, sha256 = ? WHERE id = ?
                """)
        }

        /// Issues already stored under these entries' names, read before any of them is written.
        private func known(_ entries: [FeedEntry]) throws -> [String: FeedFields] {
            guard libraryHadIssues, !entries.isEmpty else { return [:] }
            var known: [String: FeedFields] = [:]
            let stored = try Int.fetchOne(db, sql: "SELECT count(*) FROM issue") ?? 0
            if stored <= 2 * entries.count {
                // A library not much larger than the entries (a refresh of the only big
                // catalog): reading every issue is cheaper than looking each name up.
                let wanted = Set(entries.lazy.map(\.name))
                let rows = try Row.fetchCursor(db, sql: "SELECT \(Self.columns) FROM issue")
                while let row = try rows.next() {
                    let name: String = row[2]
                    if wanted.contains(name) { known[name] = FeedFields(row) }
                }
            } else {
                let rows = try Row.fetchCursor(db, sql: """
                    SELECT \(Self.columns) FROM issue WHERE name IN (SELECT value FROM json_each(?))
                    """, arguments: [Library.jsonArray(entries.lazy.map(\.name))])
                while let row = try rows.next() { known[row[2]] = FeedFields(row) }
            }
            return known
        }

        /// Plain SQL: Codable encoding of 20,000 records cost more than parsing their feed.
        /// An issue whose name belongs to another publication is left alone.
        mutating func add(_ entries: [FeedEntry]) throws {
            let known = try known(entries)
            for entry in entries {
                if let existing = known[entry.name] {
                    guard existing.publicationId == publicationID else { continue }
                    var changed = existing
                    changed.date = entry.date
                    changed.title = entry.title
                    changed.summary = entry.summary
                    changed.coverURL = (entry.coverURL ?? entry.thumbnailURL)?.absoluteString ?? existing.coverURL
                    changed.contentURL = entry.contentURL?.absoluteString ?? existing.contentURL
                    changed.contentType = entry.contentType ?? existing.contentType
                    changed.contentLength = entry.contentLength ?? existing.contentLength
                    changed.sha256 = entry.sha256 ?? existing.sha256
                    if changed != existing {
                        try update.execute(arguments: [DatabaseDate.value(changed.date), changed.title, changed.summary, changed.coverURL, changed.contentURL,
                                                       changed.contentType, changed.contentLength, changed.sha256, changed.id])
                        updated += 1
                    }
                } else {
                    insert.append(entry)
                    if insert.isFull { try insert.flush(db, into: &added) }
                }
            }
        }

        mutating func finish() throws -> SyncResult {
            try insert.flush(db, into: &added)
            return SyncResult(added: added, updated: updated)
        }
    }

    /// New issues waiting to be inserted, `rowsPerStatement` at a time. A name given twice
    /// is inserted once, the first entry with it.
    private struct InsertBatch {
        static let rowsPerStatement = 100
        static let columns = 10
        let publicationID: Int64
        /// Every name queued so far, in this batch or an earlier one.
        private var queued = Set<String>()
        private var names: [String] = []
        private var values: [DatabaseValue] = []

        init(publicationID: Int64) {
            self.publicationID = publicationID
            names.reserveCapacity(Self.rowsPerStatement)
            values.reserveCapacity(Self.rowsPerStatement * Self.columns)
        }

        var isFull: Bool { names.count >= Self.rowsPerStatement }

        mutating func append(_ entry: FeedEntry) {
            guard queued.insert(entry.name).inserted else { return }
            names.append(entry.name)
            values.append(publicationID.databaseValue)
            values.append(entry.name.databaseValue)
            values.append(DatabaseDate.value(entry.date).databaseValue)
            values.append(entry.title.databaseValue)
            values.append(entry.summary.databaseValue)
            values.append((entry.coverURL ?? entry.thumbnailURL)?.absoluteString.databaseValue ?? .null)
            values.append(entry.contentURL?.absoluteString.databaseValue ?? .null)
            values.append(entry.contentType.databaseValue)
            values.append(entry.contentLength.databaseValue)
            values.append(entry.sha256.databaseValue)
        }

        mutating func flush(_ db: Database, into added: inout [String]) throws {
            guard !names.isEmpty else { return }
            let row = "(" + Array(repeating: "?", count: Self.columns).joined(separator: ",") + ")"
            let statement = try db.cachedStatement(sql: """
                INSERT INTO issue (publicationId, name, date, title, summary, coverURL, contentURL, contentType, contentLength, sha256)
                VALUES \(Array(repeating: row, count: names.count).joined(separator: ","))
                """)
            // Bound and stepped with SQLite's own calls: GRDB's argument handling cost more
            // per value than the insert itself. Every parameter is bound below, and none is
            // left behind.
            let raw = statement.sqliteStatement
            sqlite3_reset(raw)
            defer {
                sqlite3_reset(raw)
                sqlite3_clear_bindings(raw)
            }
            let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
            for (offset, value) in values.enumerated() {
                let index = Int32(offset + 1)
                let code: Int32
                switch value.storage {
                case .null: code = sqlite3_bind_null(raw, index)
                case .int64(let number): code = sqlite3_bind_int64(raw, index, number)
                case .double(let number): code = sqlite3_bind_double(raw, index, number)
                case .string(let text):
                    let length = Int32(text.utf8.count)
                    code = text.withCString { sqlite3_bind_text(raw, index, $0, length, transient) }
                case .blob(let data):
                    code = data.withUnsafeBytes { sqlite3_bind_blob(raw, index, $0.baseAddress, Int32($0.count), transient) }
                }
                guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage) }
            }
            let code = sqlite3_step(raw)
            guard code == SQLITE_DONE else { throw DatabaseError(resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage) }
            // Every row went in: no name is queued twice, `known` kept back the names stored
            // before, and this transaction is the only writer (a name taken all the same
            // fails the step above, and the transaction with it).
            added.append(contentsOf: names)
            names.removeAll(keepingCapacity: true)
            values.removeAll(keepingCapacity: true)
        }
    }

    /// A JSON array of strings, for `json_each`: faster than JSONEncoder for 20,000 names.
    static func jsonArray<S: Sequence>(_ strings: S) -> String where S.Element == String {
        var out: [UInt8] = [UInt8(ascii: "[")]
        let hex = Array("0123456789abcdef".utf8)
        for (index, string) in strings.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: "\""))
            for byte in string.utf8 {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                    out.append(UInt8(ascii: "\\"))
                    out.append(byte)
                case 0..<0x20:
                    out.append(contentsOf: Array("\\u00".utf8))
                    out.append(hex[Int(byte >> 4)])
                    out.append(hex[Int(byte & 0xF)])
                default:
                    out.append(byte)
                }
            }
            out.append(UInt8(ascii: "\""))
        }
        out.append(UInt8(ascii: "]"))
        return String(decoding: out, as: UTF8.self)
    }

    /// The columns of an issue that its feed entry sets, read without Codable (fast for a
    /// catalog of tens of thousands).
    private struct FeedFields: Equatable {
        var id: Int64
        var publicationId: Int64?
        var date: Date
        var title: String
        var summary: String?
        var coverURL: String?
        var contentURL: String?
        var contentType: String?
        var contentLength: Int64?
        var sha256: String?

        init(_ row: Row) {
            id = row[0]; publicationId = row[1]; date = row[3]; title = row[4]; summary = row[5]
            coverURL = row[6]; contentURL = row[7]; contentType = row[8]; contentLength = row[9]; sha256 = row[10]
        }
    }

    /// On the very first run, subscribes the publications that ship with the program.
    /// Returns the problems met (one line each); an empty list when all went well.
    @discardableResult
    public func subscribeSamplesOnFirstRun(sampleFeedDirectory: URL?) -> [String] {
        guard setting(.sampleSubscribed) == nil else { return [] }
        guard let directory = sampleFeedDirectory else { return [] }
        var problems: [String] = []
        let list = directory.appendingPathComponent("publications.txt")
        let lines = ((try? String(contentsOf: list, encoding: .utf8)) ?? "")
            .split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        for line in lines {
            let feed = directory.appendingPathComponent(line)
            do { try subscribe(feedURL: feed) } catch { problems.append("\(line): \(error)") }
        }
        try? setSetting(.sampleSubscribed, "1")
        return problems
    }
}
