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

    /// The status's reason phrase (RFC 9110), or its class's name for one it does not define.
    static func reason(forStatus status: Int) -> String {
        switch status {
        case 100: return "Continue"
        case 101: return "Switching Protocols"
        case 200: return "OK"
        case 201: return "Created"
        case 202: return "Accepted"
        case 203: return "Non-Authoritative Information"
        case 204: return "No Content"
        case 205: return "Reset Content"
        case 206: return "Partial Content"
        case 300: return "Multiple Choices"
        case 301: return "Moved Permanently"
        case 302: return "Found"
        case 303: return "See Other"
        case 304: return "Not Modified"
        case 305: return "Use Proxy"
        case 307: return "Temporary Redirect"
        case 308: return "Permanent Redirect"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 402: return "Payment Required"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 406: return "Not Acceptable"
        case 407: return "Proxy Authentication Required"
        case 408: return "Request Timeout"
        case 409: return "Conflict"
        case 410: return "Gone"
        case 411: return "Length Required"
        case 412: return "Precondition Failed"
        case 413: return "Content Too Large"
        case 414: return "URI Too Long"
        case 415: return "Unsupported Media Type"
        case 416: return "Range Not Satisfiable"
        case 417: return "Expectation Failed"
        case 421: return "Misdirected Request"
        case 422: return "Unprocessable Content"
        case 426: return "Upgrade Required"
        case 429: return "Too Many Requests"
        case 431: return "Request Header Fields Too Large"
        case 451: return "Unavailable For Legal Reasons"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        case 505: return "HTTP Version Not Supported"
        case 100...199: return "Informational"
        case 200...299: return "Success"
        case 300...399: return "Redirection"
        case 400...499: return "Client Error"
        default: return "Server Error"
        }
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

/// Cancels whatever the current attempt is blocked on (a socket read, a libcurl request).
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
/// sockets for http (splice, exact Range and framing), libcurl for https.
func httpClient(for url: URL) -> any HTTPFetching {
    url.scheme?.lowercased() == "https" ? CurlHTTPClient() : SocketHTTPClient()
}

/// One GET request and its response, streamed. Implementations: `SocketHTTPClient` (http)
/// and `CurlHTTPClient` (https).
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

/// One request with any method and an optional body, and its whole (small) answer: sync's
/// PUTs and POSTs, beside the streamed GETs of `HTTPFetching`. The same two clients
/// implement it, over the same connections and parsing.
protocol HTTPExchanging: Sendable {
    /// Sends `method` with `body`; `onHead` and `onBody` as in `HTTPFetching.fetch`.
    func request(method: String, url: URL, headers: [(String, String)], body: Data?, timeout: TimeInterval, cancellation: Cancellation,
                 onHead: @escaping (HTTPResponseHead) throws -> BodyDecision, onBody: @escaping (UnsafeRawBufferPointer) throws -> Void) throws
}

extension HTTPExchanging {
    /// Sends `method` with `body` and reads the answer whatever its status; a body longer
    /// than `limit` bytes is a fatal `TransferError`.
    func exchange(method: String, url: URL, headers: [(String, String)], body: Data?,
                  timeout: TimeInterval, limit: Int) throws -> (head: HTTPResponseHead, body: Data) {
        let answer = ExchangeAnswer(limit: limit)
        try request(method: method, url: url, headers: headers, body: body, timeout: timeout, cancellation: Cancellation(),
                    onHead: { answer.head = $0; return .read }, onBody: answer.append)
        guard let head = answer.head else { throw TransferError.network("the server did not answer", summary: "no answer from the server") }
        return (head, answer.data)
    }
}

/// The answer to one exchange, collected by its client's callbacks (one thread).
final class ExchangeAnswer {
    let limit: Int
    var head: HTTPResponseHead?
    private(set) var data = Data()

    init(limit: Int) { self.limit = limit }

    func append(_ bytes: UnsafeRawBufferPointer) throws {
        guard data.count + bytes.count <= limit else {
            throw TransferError.fatal("the server answered more than \(limit) bytes")
        }
        data.append(contentsOf: bytes)
    }
}
