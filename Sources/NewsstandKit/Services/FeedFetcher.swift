import Foundation
import Feeds

/// Reads a feed's bytes from a file or over HTTP(S), conditionally when the library
/// knows the feed's validators, and follows `next` pages. The library's fetcher goes
/// through its `HTTPAccess` (credentials of the feed's host); the static calls use none.
public struct FeedFetcher: Sendable {
    let access: HTTPAccess
    static let maximumSize = 64 << 20
    static let maximumCoverSize: Int64 = 32 << 20
    /// Feeds and covers are small: less than 1 KiB in 20 s is a stall.
    static let interactiveLowSpeed = Transfer.LowSpeedLimit(minimumBytes: 1024, window: 20)
    /// Feeds are fetched again at the next refresh, and someone is usually waiting: a few
    /// quick retries (about a minute at most for a silent server), not the patient backoff
    /// of an issue download.
    static let retryPolicy = RetryPolicy(maxAttempts: 3, baseDelay: 0.5, maxDelay: 2, maxRetryAfter: 10)

    /// One response: the body and its validators, or "not modified" (304).
    public enum Response: Sendable, Equatable {
        case modified(Data, TransferValidator)
        case notModified
    }

    /// A whole feed: every page parsed and joined, or "unchanged since the validators".
    public enum Outcome: Sendable {
        case fetched(FeedDocument, TransferValidator)
        case unchanged
    }

    /// The bytes of a feed (unconditionally), without credentials.
    public static func fetch(_ url: URL) throws -> Data { try FeedFetcher(access: .anonymous).fetch(url) }

    /// The bytes of a feed, answering a 401 with the user's credentials for its host
    /// (config.toml's, then what `newsstand login` kept) as the library does.
    public static func fetch(_ url: URL, signedInAs paths: Paths) throws -> Data { try FeedFetcher(access: .system(paths: paths)).fetch(url) }

    /// Sends `If-None-Match` / `If-Modified-Since` from `validator`, without credentials.
    public static func fetch(_ url: URL, validator: TransferValidator?) throws -> Response {
        try FeedFetcher(access: .anonymous).fetch(url, validator: validator)
    }

    /// A whole feed, every page, without credentials.
    public static func document(at url: URL, validator: TransferValidator?) throws -> Outcome {
        try FeedFetcher(access: .anonymous).document(at: url, validator: validator)
    }

    /// The bytes of a feed (unconditionally).
    func fetch(_ url: URL) throws -> Data {
        switch try fetch(url, validator: nil) {
        case let .modified(data, _): return data
        case .notModified: throw DownloadError(message: "\(url.absoluteString) answered 304 Not Modified to an unconditional request")
        }
    }

    /// Sends `If-None-Match` / `If-Modified-Since` from `validator`; 304 is `.notModified`.
    func fetch(_ url: URL, validator: TransferValidator?) throws -> Response {
        if url.isFileURL {
            do { return .modified(try Data(contentsOf: url), TransferValidator()) } catch {
                throw DownloadError(message: "cannot read feed \(url.path): \(error.localizedDescription)")
            }
        }
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw DownloadError(message: "'\(url.absoluteString)' is not an http, https or file URL")
        }
        var headers = ["Accept": "application/atom+xml, application/xml, application/json;q=0.9, */*;q=0.5"]
        if let etag = validator?.etag { headers["If-None-Match"] = etag }
        if let lastModified = validator?.lastModified { headers["If-Modified-Since"] = lastModified }
        let part = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-feed-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: part) }
        // An endless body stops at the size limit; a silent or trickling server at the low-speed limit.
        let transfer = access.transfer(url, headers: headers, into: part, timeout: 20,
                                       maximumLength: Int64(Self.maximumSize), lowSpeedLimit: Self.interactiveLowSpeed)
        let result: TransferResult
        do {
            result = try TransferRunner.run(transfer, validator: nil, policy: Self.retryPolicy, progress: { _ in })
        } catch let error as TransferError where error.httpStatus == 304 {
            return .notModified
        }
        guard result.bytes <= Self.maximumSize else {
            throw DownloadError(message: "feed at \(url.absoluteString) is larger than \(ByteSize.format(Int64(Self.maximumSize)))")
        }
        // Mapped, not copied: the body is parsed once and the file removed (it stays readable while mapped).
        return .modified(try Data(contentsOf: result.file, options: .alwaysMapped), result.validator)
    }

    /// Fetches and parses a feed, then its `next` pages (OPDS, RFC 5005, JSON Feed) up to
    /// `FeedParser.maxPages` in all, never the same page twice. Only the first page is
    /// asked conditionally: when it has not changed, neither has the feed.
    func document(at url: URL, validator: TransferValidator?) throws -> Outcome {
        guard case let .modified(data, fresh) = try fetch(url, validator: validator) else { return .unchanged }
        var document = try FeedParser.parse(data, url: url)
        followPages(of: &document, from: url)
        return .fetched(document, fresh)
    }

    /// Fetches and appends the pages after `document`, the first page of the feed at `url`.
    func followPages(of document: inout FeedDocument, from url: URL) {
        var visited: Set<String> = [url.absoluteString]
        var pages = 1
        while let next = document.publication.nextPage, pages < FeedParser.maxPages {
            guard visited.insert(next.absoluteString).inserted else {
                document.problems.append("page \(next.absoluteString) links back to an earlier page; stopped there")
                break
            }
            do {
                document.append(page: try FeedParser.parse(try fetch(next), url: next))
                pages += 1
            } catch {
                document.problems.append("page \(next.absoluteString) could not be read: \(error)")
                break
            }
        }
        if pages == FeedParser.maxPages, let next = document.publication.nextPage, !visited.contains(next.absoluteString) {
            document.problems.append("stopped after \(FeedParser.maxPages) pages; \(next.absoluteString) and later pages were not read")
        }
        document.publication.nextPage = nil
    }
}
