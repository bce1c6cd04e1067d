import Foundation
import GRDB
import Synchronization

/// Brings http(s) covers into the cover cache, so the shelf can draw them offline, through
/// the library's `HTTPAccess` (with the credentials of each cover's host). A cover that
/// fails stays a placeholder until the next refresh (a day later if its server said it
/// does not exist); it never fails a refresh. It also says which picture an issue's tile
/// shows (`ContentDetails.swift`), from the cover cache or the installed content.
public struct CoverFetcher: Sendable {
    let paths: Paths
    let access: HTTPAccess
    let clock: WallClock

    static let coversPerRefresh = 48
    /// Covers fetched at once: over a real network each one is mostly waiting.
    static let fetchesAtOnce = 6
    /// A cover its server said is not there (404, 410) is asked for again only this long
    /// after, not at every refresh: the agent refreshes every hour.
    public static let missingCoverRetry: TimeInterval = 24 * 3600

    /// The http(s) covers of a publication and its newest issues that the cache lacks and
    /// that their server has not lately said are missing.
    func wanted(_ db: Database, for publication: Publication, now: Date) throws -> [URL] {
        guard let id = publication.id else { return [] }
        // The newest issues' covers only: a catalog of thousands would otherwise mean
        // thousands of requests at every refresh.
        let newest = try LibraryStore.newestCoverURLs(db, publicationID: id, limit: Self.coversPerRefresh)
        var seen = Set<String>()
        return ([publication.coverURL].compactMap { $0 } + newest).compactMap { text -> URL? in
            guard seen.insert(text).inserted, let url = URL(string: text), !url.isFileURL, cachedFile(for: url) == nil,
                  !knownMissing(url, now: now) else { return nil }
            return url
        }
    }

    /// Fetches covers into the cache, a few at once; how many arrived.
    @discardableResult
    func fetch(_ wanted: [URL]) -> Int {
        guard !wanted.isEmpty else { return 0 }
        let fetched = Mutex(0)
        FetchPool.run(wanted.count, width: Self.fetchesAtOnce) { index in
            if fetchOne(wanted[index]) { fetched.withLock { $0 += 1 } }
        }
        return fetched.withLock { $0 }
    }

    private func target(for url: URL) -> URL {
        paths.coversDirectory.appendingPathComponent(CoverFileName.make(for: url))
    }

    private func cachedFile(for url: URL) -> URL? {
        FileManager.default.fileExists(atPath: target(for: url).path) ? target(for: url) : nil
    }

    /// Where the cover cache notes that `url` answered 404 or 410: an empty file, dated.
    private func missingMarker(for url: URL) -> URL {
        target(for: url).appendingPathExtension("missing")
    }

    private func knownMissing(_ url: URL, now: Date) -> Bool {
        let attributes = try? FileManager.default.attributesOfItem(atPath: missingMarker(for: url).path)
        guard let noted = attributes?[.modificationDate] as? Date else { return false }
        return now.timeIntervalSince(noted) < Self.missingCoverRetry
    }

    private func fetchOne(_ url: URL) -> Bool {
        let target = target(for: url)
        let part = target.appendingPathExtension("part")
        let marker = missingMarker(for: url)
        let transfer = access.transfer(url, into: part, timeout: 20, maximumLength: FeedFetcher.maximumCoverSize,
                                       lowSpeedLimit: FeedFetcher.interactiveLowSpeed)
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
}
