import Foundation
import Feeds

/// Subscribing and refreshing: feed bytes → `Feeds` → the library.
extension Library {
    /// Adds a publication by its feed URL and lists its issues.
    @discardableResult
    public func subscribe(feedURL: URL) throws -> (Publication, SyncResult) {
        let data = try FeedFetcher.fetch(feedURL)
        let document = try FeedParser.parse(data, url: feedURL)
        var publication = try publications().first { $0.feedURL == feedURL.absoluteString }
            ?? Publication(feedURL: feedURL.absoluteString, title: document.publication.title)
        apply(document.publication, to: &publication)
        publication.lastRefresh = Date()
        publication.lastError = nil
        publication = try save(publication)
        let result = try sync(publication, entries: document.entries)
        fetchRemoteCovers(for: publication)
        return (publication, result)
    }

    /// Fetches a publication's feed again and brings its issues up to date.
    @discardableResult
    public func refresh(_ publication: Publication) throws -> SyncResult {
        guard let url = URL(string: publication.feedURL) else {
            throw DownloadError(message: "'\(publication.feedURL)' is not a URL")
        }
        var updated = publication
        do {
            let data = try FeedFetcher.fetch(url)
            let document = try FeedParser.parse(data, url: url)
            apply(document.publication, to: &updated)
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

    /// Brings http(s) covers of a publication and its issues into the cover cache, so the
    /// shelf can draw them offline. A cover that fails stays a placeholder until the next
    /// refresh; it never fails the refresh.
    @discardableResult
    public func fetchRemoteCovers(for publication: Publication) -> Int {
        guard let id = publication.id else { return 0 }
        let issueCovers = ((try? issues(publicationID: id)) ?? []).compactMap(\.coverURL)
        var fetched = 0
        for text in [publication.coverURL].compactMap({ $0 }) + issueCovers {
            guard let url = URL(string: text), !url.isFileURL, localFile(forCover: text) == nil else { continue }
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
        publication.pushURL = info.pushURL?.absoluteString ?? publication.pushURL
    }

    public struct SyncResult: Sendable, Equatable {
        public var added: [String]
        public var updated: Int
    }

    /// Adds entries not yet in the library and refreshes the metadata of known ones, in
    /// one transaction. An entry whose name belongs to another publication is left alone.
    public func sync(_ publication: Publication, entries: [FeedEntry]) throws -> SyncResult {
        guard let publicationID = publication.id else { throw LibraryError.noSuchPublication(publication.title) }
        var added: [String] = []
        var updated = 0
        try db.write { db in
            for entry in entries {
                if var existing = try Issue.filter(sql: "name = ?", arguments: [entry.name]).fetchOne(db) {
                    guard existing.publicationId == publicationID else { continue }
                    existing.title = entry.title
                    existing.date = entry.date
                    existing.summary = entry.summary
                    existing.coverURL = (entry.coverURL ?? entry.thumbnailURL)?.absoluteString ?? existing.coverURL
                    existing.contentURL = entry.contentURL?.absoluteString ?? existing.contentURL
                    existing.contentType = entry.contentType ?? existing.contentType
                    existing.contentLength = entry.contentLength ?? existing.contentLength
                    existing.sha256 = entry.sha256 ?? existing.sha256
                    try existing.update(db)
                    updated += 1
                } else {
                    var issue = Issue(publicationId: publicationID, name: entry.name, date: entry.date, title: entry.title,
                                      summary: entry.summary, coverURL: (entry.coverURL ?? entry.thumbnailURL)?.absoluteString,
                                      contentURL: entry.contentURL?.absoluteString, contentType: entry.contentType,
                                      contentLength: entry.contentLength, sha256: entry.sha256)
                    try issue.insert(db)
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

/// Reads a feed's bytes from a file or over HTTP(S).
public enum FeedFetcher {
    static let maximumSize = 64 << 20
    static let maximumCoverSize: Int64 = 32 << 20
    /// Feeds and covers are small: less than 1 KiB in 20 s is a stall.
    static let interactiveLowSpeed = Transfer.LowSpeedLimit(minimumBytes: 1024, window: 20)

    public static func fetch(_ url: URL) throws -> Data {
        if url.isFileURL {
            do { return try Data(contentsOf: url) } catch {
                throw DownloadError(message: "cannot read feed \(url.path): \(error.localizedDescription)")
            }
        }
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw DownloadError(message: "'\(url.absoluteString)' is not an http, https or file URL")
        }
        let part = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-feed-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: part) }
        // An endless body stops at the size limit; a silent or trickling server gives up
        // after three attempts (about a minute), since someone is usually waiting.
        let transfer = Transfer(request: TransferRequest(url: url, headers: ["Accept": "application/atom+xml, application/xml, application/json;q=0.9, */*;q=0.5"]),
                                partFile: part, timeout: 20, maximumLength: Int64(maximumSize), lowSpeedLimit: interactiveLowSpeed)
        let result = try TransferRunner.run(transfer, validator: nil, policy: RetryPolicy(maxAttempts: 3, baseDelay: 1, maxDelay: 2, maxRetryAfter: 10),
                                            progress: { _ in })
        let data = try Data(contentsOf: result.file)
        guard data.count <= maximumSize else { throw DownloadError(message: "feed at \(url.absoluteString) is larger than 64 MB") }
        return data
    }
}
