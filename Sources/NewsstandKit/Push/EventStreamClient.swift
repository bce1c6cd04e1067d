import Foundation

/// A server-sent-events connection that stays up: it reconnects after the stream ends or
/// fails, sending `Last-Event-ID` so the server can resume, waiting the server's `retry`
/// time after a stream that delivered events and backing off exponentially while attempts
/// deliver nothing. Runs on the project's own HTTP clients (sockets for http, libcurl
/// for https). `run()` blocks until `stop()`, or until the server answers 204 (the spec's
/// way of saying "stop reconnecting").
// @unchecked: currentLastEventID, connectionCount and reconnection change only under `lock`; stopping goes through `Cancellation`.
public final class EventStreamClient: @unchecked Sendable {
    public struct Options: Sendable {
        /// Wait before reconnecting, until the server sends `retry:`.
        public var reconnectionTime: TimeInterval = 3
        /// Ceiling of the backoff.
        public var maximumDelay: TimeInterval = 300
        /// A stream silent this long (not even a comment) is dropped and reconnected.
        public var inactivityTimeout: TimeInterval = 120
        public init() {}
    }

    public let url: URL
    let options: Options
    private let onEvent: (ServerSentEvent) -> Void
    private let onProblem: (String) -> Void
    private let cancellation = Cancellation()
    private let lock = NSLock()
    private var currentLastEventID: String
    private var connectionCount = 0
    private var reconnection: TimeInterval

    public init(url: URL, lastEventID: String? = nil, options: Options = Options(),
                onEvent: @escaping (ServerSentEvent) -> Void, onProblem: @escaping (String) -> Void = { _ in }) {
        self.url = url
        self.options = options
        self.onEvent = onEvent
        self.onProblem = onProblem
        currentLastEventID = lastEventID ?? ""
        reconnection = options.reconnectionTime
    }

    public var lastEventID: String { lock.withLock { currentLastEventID } }
    /// Connections attempted so far.
    public var connections: Int { lock.withLock { connectionCount } }

    public func stop() { cancellation.cancel() }

    public var isStopped: Bool { cancellation.isCancelled }

    /// Connects, reads, reconnects, until stopped.
    public func run() {
        var failuresInARow = 0
        while !cancellation.isCancelled {
            lock.withLock { connectionCount += 1 }
            let delivered: Int
            do {
                delivered = try connectOnce()
            } catch StreamEnd.serverSaidStop {
                onProblem("\(url.absoluteString) answered 204: no more events")
                return
            } catch {
                if cancellation.isCancelled { return }
                onProblem("\(url.absoluteString): \(error)")
                delivered = 0
            }
            failuresInARow = delivered > 0 ? 0 : failuresInARow + 1
            cancellation.wait(delay(afterFailuresInARow: failuresInARow))
        }
    }

    /// The wait before the next connection: the reconnection time after a stream that
    /// delivered events, doubled for each attempt in a row that delivered none.
    func delay(afterFailuresInARow failures: Int) -> TimeInterval {
        let base = lock.withLock { reconnection }
        guard failures > 0 else { return base }
        return min(options.maximumDelay, base * pow(2, Double(min(failures - 1, 30))))
    }

    private enum StreamEnd: Error { case serverSaidStop }

    /// One connection (following redirects); returns how many events it delivered.
    private func connectOnce() throws -> Int {
        var target = url
        var parser = ServerSentEventParser(lastEventID: lastEventID)
        var delivered = 0
        for _ in 0...Transfer.maxRedirects {
            var headers: [(String, String)] = [("Accept", "text/event-stream"), ("Cache-Control", "no-cache"),
                                               ("User-Agent", "Newsstand/1.0"), ("Accept-Encoding", "identity")]
            let last = lastEventID
            if !last.isEmpty, !last.contains(where: { $0 == "\r" || $0 == "\n" }) { headers.append(("Last-Event-ID", last)) }
            var redirect: URL?
            try httpClient(for: target).fetch(url: target, headers: headers, timeout: options.inactivityTimeout, cancellation: cancellation, splice: nil,
                             onHead: { head in
                switch head.status {
                case 200:
                    let type = head.header("content-type")?.lowercased() ?? ""
                    guard type.hasPrefix("text/event-stream") else {
                        throw TransferError.fatal("\(target.absoluteString) is not an event stream (Content-Type \(type.isEmpty ? "missing" : type))")
                    }
                    return .read
                case 204:
                    throw StreamEnd.serverSaidStop
                case 301, 302, 303, 307, 308:
                    guard let location = head.header("location"), let next = URL(string: location, relativeTo: target)?.absoluteURL,
                          ["http", "https"].contains(next.scheme?.lowercased() ?? "") else {
                        throw TransferError.fatal("\(target.absoluteString) redirects without a usable Location")
                    }
                    redirect = next
                    return .skip
                default:
                    throw Transfer.statusError(head, url: target)
                }
            }, onBody: { [self] bytes in
                for event in try parser.consume(bytes) {
                    lock.withLock { currentLastEventID = event.lastEventID }
                    delivered += 1
                    onEvent(event)
                }
                // An `id:` line alone (no data) still moves the resume point.
                let id = parser.lastEventID
                lock.withLock {
                    currentLastEventID = id
                    if let retry = parser.reconnectionTime { reconnection = TimeInterval(retry) / 1000 }
                }
            })
            guard let next = redirect else { return delivered }
            target = next
        }
        throw TransferError.fatal("\(url.absoluteString) redirects more than \(Transfer.maxRedirects) times")
    }
}
