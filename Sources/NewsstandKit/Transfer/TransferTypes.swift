import Foundation
import IssueArchive

/// What to fetch: one asset URL (http, https or file) and the extra request headers the
/// feed or the publication's configuration asks for.
public struct TransferRequest: Codable, Sendable, Equatable {
    public var url: URL
    public var headers: [String: String]

    public init(url: URL, headers: [String: String] = [:]) {
        self.url = url
        self.headers = headers
    }
}

/// What identifies the version of a resource whose bytes are in a `.part` file, so that a
/// resumed transfer only appends bytes of the same version (`If-Range`).
/// The caller persists it (see `Transfer.run(validator:onValidator:progress:)`).
public struct TransferValidator: Codable, Sendable, Equatable {
    public var etag: String?
    public var lastModified: String?

    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }

    /// The value for `If-Range`: a strong ETag, else Last-Modified (RFC 9110 §13.1.5 forbids
    /// weak ETags there). Nil when nothing can prove the bytes on disk are still current.
    var ifRangeValue: String? {
        if let etag, !etag.hasPrefix("W/") { return etag }
        return lastModified
    }

    /// Whether a response carrying `other` describes a different version than `self`.
    /// Only fields both sides know are compared.
    func differs(from other: TransferValidator) -> Bool {
        if let mine = etag, let theirs = other.etag { return mine != theirs }
        if let mine = lastModified, let theirs = other.lastModified { return mine != theirs }
        return false
    }

    var isEmpty: Bool { etag == nil && lastModified == nil }
}

/// Bytes in the `.part` file so far (including bytes kept from an earlier attempt) and the
/// full size when the server or the feed told it.
public struct TransferProgress: Sendable, Equatable {
    public var bytesWritten: Int64
    public var bytesExpected: Int64?

    public init(bytesWritten: Int64, bytesExpected: Int64?) {
        self.bytesWritten = bytesWritten
        self.bytesExpected = bytesExpected
    }

    /// 0…1 when the size is known.
    public var fraction: Double? {
        guard let bytesExpected, bytesExpected > 0 else { return nil }
        return min(1, Double(bytesWritten) / Double(bytesExpected))
    }
}

/// What answers a host's 401 (from config.toml's `[credentials]` or the `CredentialStore`).
/// Printing one never shows the secret.
public enum Credentials: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// A user name and password, sent with HTTP Digest or Basic, whichever the server asks for.
    case basic(user: String, password: String)
    /// A token, sent as `Bearer`.
    case bearer(String)

    public var description: String {
        switch self {
        case let .basic(user, _): return "user \(user.debugDescription) with a password"
        case .bearer: return "a token"
        }
    }

    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }

    var authorizationHeader: String {
        switch self {
        case let .basic(user, password):
            return "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
        case let .bearer(token):
            return "Bearer " + token
        }
    }
}

/// Why a transfer stopped. `isRetryable` says whether trying again later may succeed
/// (network errors, 5xx, 408, 429); `retryAfter` is the server's `Retry-After` in seconds.
public struct TransferError: Error, CustomStringConvertible, Sendable, Equatable {
    public var message: String
    public var isRetryable: Bool
    public var retryAfter: TimeInterval?
    public var httpStatus: Int?
    /// True when `Transfer.cancel()` stopped the transfer.
    public var isCancelled: Bool
    /// True when the disk (or quota) is full: the bytes so far are kept, and the caller
    /// pauses until there is room rather than retrying at once or failing.
    public var isOutOfSpace: Bool
    /// What went wrong in a few plain words ("cannot resolve host"), set where the cause is
    /// known; `inPlainWords` falls back on the status or the message.
    public var summary: String?

    public init(message: String, isRetryable: Bool, retryAfter: TimeInterval? = nil, httpStatus: Int? = nil,
                isCancelled: Bool = false, isOutOfSpace: Bool = false, summary: String? = nil) {
        self.message = message
        self.isRetryable = isRetryable
        self.retryAfter = retryAfter
        self.httpStatus = httpStatus
        self.isCancelled = isCancelled
        self.isOutOfSpace = isOutOfSpace
        self.summary = summary
    }

    /// The error as a retrying download's line shows it: "connection refused", "the server answered 503".
    public var inPlainWords: String {
        summary ?? httpStatus.map { "the server answered \($0)" } ?? message
    }

    /// A write into the `.part` file failed with `code`.
    static func writeFailed(_ what: String, code: Int32) -> TransferError {
        let outOfSpace = isOutOfSpaceError(code)
        return TransferError(message: "cannot write \(what): \(String(cString: strerror(code)))",
                             isRetryable: false, isOutOfSpace: outOfSpace)
    }

    public var description: String { message }

    static func network(_ message: String, summary: String? = nil) -> TransferError {
        TransferError(message: message, isRetryable: true, summary: summary)
    }

    static func fatal(_ message: String) -> TransferError {
        TransferError(message: message, isRetryable: false)
    }

    static let cancelled = TransferError(message: "the transfer was cancelled", isRetryable: false, isCancelled: true)
}

/// A finished transfer: `file` is the complete, verified `.part` file, ready to install.
public struct TransferResult: Sendable, Equatable {
    public var file: URL
    public var bytes: Int64
    public var validator: TransferValidator
    /// Bytes that were already on disk and were not fetched again (0 when started over).
    public var resumedFrom: Int64

    public init(file: URL, bytes: Int64, validator: TransferValidator, resumedFrom: Int64) {
        self.file = file
        self.bytes = bytes
        self.validator = validator
        self.resumedFrom = resumedFrom
    }
}

/// A transfer about to try again: which attempt comes next, of how many in a row the retry
/// policy allows, and why the last one failed, in plain words. The agent keeps it on the
/// download's record (`AssetDownload.retry`) so the shelf and `download --wait` can say it.
public struct TransferRetry: Sendable, Equatable, CustomStringConvertible {
    public var attempt: Int
    public var attempts: Int
    public var reason: String

    public init(attempt: Int, attempts: Int, reason: String) {
        self.attempt = attempt
        self.attempts = attempts
        self.reason = reason
    }

    /// "retrying (2 of 6) — cannot resolve host".
    public var description: String { "retrying (\(attempt) of \(attempts)) — \(reason)" }
}
