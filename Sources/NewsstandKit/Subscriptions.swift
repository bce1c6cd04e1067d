import Foundation
import Feeds
import GRDB

/// Subscribing and refreshing: feed bytes → `Feeds` → the library.
extension Library {
    /// Adds a publication by its feed URL and lists its issues. `pushURL` overrides the
    /// feed's push channel; `autoDownload` turns automatic download of new issues on or off
    /// (nil leaves it as it is).
    @discardableResult
    public func subscribe(feedURL: URL, pushURL: URL? = nil, autoDownload: Bool? = nil) throws -> (Publication, SyncResult) {
        guard case let .fetched(document, validator) = try FeedFetcher.document(at: feedURL, validator: nil) else {
            throw DownloadError(message: "\(feedURL.absoluteString) answered 304 Not Modified to an unconditional request")
        }
        var publication = try publications().first { $0.feedURL == feedURL.absoluteString }
            ?? Publication(feedURL: feedURL.absoluteString, title: document.publication.title)
        apply(document.publication, to: &publication)
        if let pushURL { publication.pushURL = pushURL.absoluteString }
        if let autoDownload { publication.autoDownload = autoDownload }
        publication.etag = validator.etag
        publication.lastModified = validator.lastModified
        publication.lastRefresh = Date()
        publication.lastError = nil
        publication = try save(publication)
        let result = try sync(publication, entries: document.entries)
        fetchRemoteCovers(for: publication)
        return (publication, result)
    }

    /// Fetches a publication's feed again and brings its issues up to date. The stored
    /// ETag / Last-Modified make the request conditional: a 304 leaves everything as it
    /// was (`SyncResult.unchanged`), without parsing anything.
    @discardableResult
    public func refresh(_ publication: Publication) throws -> SyncResult {
        guard let url = URL(string: publication.feedURL) else {
            throw DownloadError(message: "'\(publication.feedURL)' is not a URL")
        }
        var updated = publication
        do {
            let stored = TransferValidator(etag: publication.etag, lastModified: publication.lastModified)
            guard case let .fetched(document, validator) = try FeedFetcher.document(at: url, validator: stored.isEmpty ? nil : stored) else {
                try db.write { db in
                    try db.execute(sql: "UPDATE publication SET lastRefresh = ?, lastError = NULL WHERE id = ?",
                                   arguments: [Date(), publication.id])
                }
                return SyncResult(added: [], updated: 0, unchanged: true)
            }
            apply(document.publication, to: &updated)
            updated.etag = validator.etag
            updated.lastModified = validator.lastModified
            updated.lastRefresh = Date()
            updated.lastError = nil
            updated = try save(updated)
            let result = try sync(updated, entries: document.entries)
            fetchRemoteCovers(for: updated)
            return result
        } catch {
            updated.lastError = "\(error)"
            _ = try? save(updated)
            throw error
        }
    }

    static let remoteCoversPerRefresh = 48
    /// Covers fetched at once: over a real network each one is mostly waiting.
    static let coverFetchesAtOnce = 6

    /// Brings http(s) covers of a publication and its newest issues into the cover cache, so
    /// the shelf can draw them offline. A cover that fails stays a placeholder until the next
    /// refresh; it never fails the refresh.
    @discardableResult
    public func fetchRemoteCovers(for publication: Publication) -> Int {
        guard let id = publication.id else { return 0 }
        // The newest issues' covers only: a catalog of thousands would otherwise mean
        // thousands of requests at every refresh.
        let newest = (try? db.read { db in
            try String.fetchAll(db, sql: """
                SELECT coverURL FROM issue WHERE publicationId = ? AND coverURL IS NOT NULL ORDER BY date DESC, id DESC LIMIT ?
                """, arguments: [id, Self.remoteCoversPerRefresh])
        }) ?? []
        var seen = Set<String>()
        let wanted = ([publication.coverURL].compactMap { $0 } + newest).compactMap { text -> URL? in
            guard seen.insert(text).inserted, let url = URL(string: text), !url.isFileURL, localFile(forCover: text) == nil else { return nil }
            return url
        }
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

    private func fetchCover(_ url: URL) -> Bool {
        let target = paths.coversDirectory.appendingPathComponent(CoverFileName.make(for: url))
        let part = target.appendingPathExtension("part")
        let transfer = Transfer(request: TransferRequest(url: url, headers: [:]), partFile: part, timeout: 20,
                                maximumLength: FeedFetcher.maximumCoverSize, lowSpeedLimit: FeedFetcher.interactiveLowSpeed)
        do {
            let result = try TransferRunner.run(transfer, validator: nil, policy: RetryPolicy(maxAttempts: 2, baseDelay: 0.5, maxDelay: 1),
                                                progress: { _ in })
            guard result.bytes <= FeedFetcher.maximumCoverSize else { throw DownloadError(message: "cover too large") }
            try? FileManager.default.removeItem(at: target)
            try FileManager.default.moveItem(at: result.file, to: target)
            return true
        } catch {
            try? FileManager.default.removeItem(at: part)
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
        var added: [String] = []
        var updated = 0
        try db.write { db in
            // One query for the entries already known (a catalog may list tens of thousands),
            // and an UPDATE only for an issue whose feed metadata changed.
            let names = String(decoding: try JSONEncoder().encode(entries.map(\.name)), as: UTF8.self)
            var known: [String: FeedFields] = [:]
            let rows = try Row.fetchCursor(db, sql: """
                SELECT id, publicationId, name, date, title, summary, coverURL, contentURL, contentType, contentLength, sha256
                FROM issue WHERE name IN (SELECT value FROM json_each(?))
                """, arguments: [names])
            while let row = try rows.next() { known[row[2]] = FeedFields(row) }
            // Plain SQL: Codable encoding of 20,000 records cost more than parsing their feed.
            let insert = try db.cachedStatement(sql: """
                INSERT INTO issue (publicationId, name, date, title, summary, coverURL, contentURL, contentType, contentLength, sha256)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(name) DO NOTHING
                """)
            let update = try db.cachedStatement(sql: """
                UPDATE issue SET date = ?, title = ?, summary = ?, coverURL = ?, contentURL = ?, contentType = ?,
                contentLength = ?, sha256 = ? WHERE id = ?
                """)
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
                    try insert.execute(arguments: [publicationID, entry.name, DatabaseDate.value(entry.date), entry.title, entry.summary,
                                                   (entry.coverURL ?? entry.thumbnailURL)?.absoluteString,
                                                   entry.contentURL?.absoluteString, entry.contentType, entry.contentLength, entry.sha256])
                    if db.changesCount > 0 { added.append(entry.name) }  // a name twice in one feed: the first stays
                }
            }
        }
        return SyncResult(added: added, updated: updated)
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

