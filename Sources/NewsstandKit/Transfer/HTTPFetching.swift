import Foundation

/// The status line and headers of one HTTP response (header names lower-cased).
struct HTTPResponseHead: Sendable {
    var status: Int
    var headers: [String: String]

    func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// `Content-Length` when present and well-formed.
    var contentLength: Int64? {
        guard let value = header("content-length") else { return nil }
        // Repeated identical values ("10, 10") are allowed by RFC 9110; different ones are not.
        let values = Set(value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        guard values.count == 1, let only = values.first, let length = Int64(only), length >= 0 else { return nil }
        return length
    }

    var validator: TransferValidator {
        TransferValidator(etag: header("etag"), lastModified: header("last-modified"))
    }
}

/// What the transfer wants after seeing a response head.
enum BodyDecision {
    case read
    case skip
}

/// Cancels whatever the current attempt is blocked on (a socket read, a URLSession task).
// @unchecked: `cancelled` and `handler` are read and written only under `lock`.
final class Cancellation: @unchecked Sendable {
    private let lock = NSCondition()
    private var cancelled = false
    private var handler: (() -> Void)?

    var isCancelled: Bool { lock.withLock { cancelled } }

    func cancel() {
        let handler: (() -> Void)? = lock.withLock {
            cancelled = true
            lock.broadcast()
            defer { self.handler = nil }
            return self.handler
        }
        handler?()
    }

    /// Sleeps up to `seconds`, waking early when cancelled.
    func wait(_ seconds: TimeInterval) {
        let deadline = Date().addingTimeInterval(max(0, seconds))
        lock.withLock {
            while !cancelled && lock.wait(until: deadline) {}
        }
    }

    /// Installs what `cancel()` must call while a blocking operation runs; runs it at
    /// once when already cancelled.
    func whileBlocked<T>(onCancel: @escaping () -> Void, _ body: () throws -> T) rethrows -> T {
        let already: Bool = lock.withLock {
            if !cancelled { handler = onCancel }
            return cancelled
        }
        if already { onCancel() }
        defer { lock.withLock { handler = nil } }
        return try body()
    }

    func check() throws {
        if isCancelled { throw TransferError.cancelled }
    }
}

/// A file that the socket client may move body bytes into directly (splice), instead of
/// handing them to `onBody`; `didWrite` is told how many bytes went in each time.
struct SpliceTarget {
    var fd: Int32
    var didWrite: (Int) throws -> Void
}

/// The one choice of client by scheme, for transfers and event streams alike: our own
/// sockets for http (splice, exact Range and framing), URLSession for https.
func httpClient(for url: URL) -> any HTTPFetching {
    url.scheme?.lowercased() == "https" ? URLSessionHTTPClient() : SocketHTTPClient()
}

/// One GET request and its response, streamed. Implementations: `SocketHTTPClient` (http)
/// and `URLSessionHTTPClient` (https).
protocol HTTPFetching: Sendable {
    /// Sends the request, calls `onHead` once with the response head and, when it answers
    /// `.read`, `onBody` with each piece of the body until the body is complete.
    /// A body that ends early is a retryable `TransferError`. `splice`, when given, may
    /// receive the body instead of `onBody` (bytes already written to its file).
    func fetch(
        url: URL,
        headers: [(String, String)],
        timeout: TimeInterval,
        cancellation: Cancellation,
        splice: SpliceTarget?,
        onHead: @escaping (HTTPResponseHead) throws -> BodyDecision,
        onBody: @escaping (UnsafeRawBufferPointer) throws -> Void
    ) throws
}
