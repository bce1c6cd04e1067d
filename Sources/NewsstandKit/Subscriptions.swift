import Foundation
import Feeds

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

    /// Brings http(s) covers of a publication and its newest issues into the cover cache, so
    /// the shelf can draw them offline. A cover that fails stays a placeholder until the next
    /// refresh; it never fails the refresh.
    static let remoteCoversPerRefresh = 48

    @discardableResult
    public func fetchRemoteCovers(for publication: Publication) -> Int {
        guard let id = publication.id else { return 0 }
        // The newest issues' covers only: a catalog of thousands would otherwise mean
        // thousands of requests at every refresh.
        let issueCovers = ((try? issues(publicationID: id)) ?? []).prefix(Self.remoteCoversPerRefresh).compactMap(\.coverURL)
        var fetched = 0
        for text in [publication.coverURL].compactMap({ $0 }) + issueCovers {
            guard let url = URL(string: text), !url.isFileURL, localFile(forCover: text) == nil else { continue }
            let target = paths.coversDirectory.appendingPathComponent(CoverFileName.make(for: url))
            let part = target.appendingPathExtension("part")
            let transfer = Transfer(request: TransferRequest(url: url, headers: [:]), partFile: part)
            do {
                let result = try TransferRunner.run(transfer, validator: nil, policy: RetryPolicy(maxAttempts: 2, baseDelay: 0.5, maxDelay: 1),
                                                    progress: { _ in })
                guard result.bytes <= FeedFetcher.maximumCoverSize else { throw DownloadError(message: "cover too large") }
                try? FileManager.default.removeItem(at: target)
                try FileManager.default.moveItem(at: result.file, to: target)
                fetched += 1
            } catch {
                try? FileManager.default.removeItem(at: part)
            }
        }
        return fetched
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
            // One query for what is known (a catalog may list tens of thousands of issues),
            // and an UPDATE only for an issue whose feed metadata changed.
            var known: [String: Issue] = [:]
            for issue in try Issue.fetchAll(db) { known[issue.name] = issue }
            for entry in entries {
                if let existing = known[entry.name] {
                    guard existing.publicationId == publicationID else { continue }
                    var changed = existing
                    changed.title = entry.title
                    changed.date = entry.date
                    changed.summary = entry.summary
                    changed.coverURL = (entry.coverURL ?? entry.thumbnailURL)?.absoluteString ?? existing.coverURL
                    changed.contentURL = entry.contentURL?.absoluteString ?? existing.contentURL
                    changed.contentType = entry.contentType ?? existing.contentType
                    changed.contentLength = entry.contentLength ?? existing.contentLength
                    changed.sha256 = entry.sha256 ?? existing.sha256
                    if changed != existing {
                        try changed.update(db)
                        updated += 1
                    }
                } else {
                    var issue = Issue(publicationId: publicationID, name: entry.name, date: entry.date, title: entry.title,
                                      summary: entry.summary, coverURL: (entry.coverURL ?? entry.thumbnailURL)?.absoluteString,
                                      contentURL: entry.contentURL?.absoluteString, contentType: entry.contentType,
                                      contentLength: entry.contentLength, sha256: entry.sha256)
                    try issue.insert(db)
                    known[entry.name] = issue
                    added.append(entry.name)
                }
            }
        }
        return SyncResult(added: added, updated: updated)
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

