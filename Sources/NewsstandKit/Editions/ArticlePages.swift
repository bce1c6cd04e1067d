import Foundation
import IssueArchive

/// How much of the web one article's page may take: full text is optional, so a slow or
/// huge page is given up on (the feed's summary stays) rather than holding the edition back.
public struct ArticlePageLimits: Sendable {
    public var maximumBytes: Int64 = 4 << 20
    /// One page's request: a silent server is given up on after this.
    public var timeout: TimeInterval = 15
    /// No new page is started once the edition has spent this long fetching pages.
    public var totalTime: TimeInterval = 90
    public init() {}
}

/// Reads an article's web page from a file or over HTTP(S) through the library's
/// `HTTPAccess`, within `ArticlePageLimits`.
public struct ArticlePages: Sendable {
    let access: HTTPAccess
    var limits = ArticlePageLimits()

    /// A page as text, and the URL its relative links resolve against.
    public struct Page: Sendable {
        public var html: String
        public var url: URL
    }

    /// A page, without credentials (for `inspect article`).
    public static func fetch(_ url: URL) throws -> Page { try ArticlePages(access: .anonymous).fetch(url) }

    func fetch(_ url: URL) throws -> Page {
        if url.isFileURL {
            do { return Page(html: ArticleExtraction.text(of: try Data(contentsOf: url)), url: url) } catch {
                throw DownloadError(message: "cannot read the page \(url.path): \(error.localizedDescription)")
            }
        }
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw DownloadError(message: "'\(url.absoluteString)' is not an http, https or file URL")
        }
        let part = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-page-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: part) }
        let transfer = access.transfer(url, headers: ["Accept": "text/html, application/xhtml+xml;q=0.9, */*;q=0.5"], into: part,
                                       timeout: limits.timeout, maximumLength: limits.maximumBytes,
                                       lowSpeedLimit: Transfer.LowSpeedLimit(minimumBytes: 1024, window: limits.timeout))
        let result = try TransferRunner.run(transfer, validator: nil, policy: RetryPolicy(maxAttempts: 1, baseDelay: 0, maxDelay: 0),
                                            progress: { _ in })
        defer { try? FileManager.default.removeItem(at: result.file) }
        guard result.bytes <= limits.maximumBytes else {
            throw DownloadError(message: "the page \(url.absoluteString) is larger than \(ByteSize.format(limits.maximumBytes))")
        }
        return Page(html: ArticleExtraction.text(of: try Data(contentsOf: result.file)), url: url)
    }
}
