import FlyingFox
import FlyingSocks
import Foundation
import Synchronization

/// FlyingFox waits for a client's bytes as long as the client likes (it has no read timeout),
/// so a client that sends half a request and then nothing would hold its connection forever.
/// Every connection's wait goes through this pool, which wraps FlyingFox's own: a wait to
/// read or to write that lasts longer than `idle` fails, and FlyingFox closes the
/// connection. So a silent client, an idle kept-alive connection and a download nobody reads
/// any more are all cut off after `idle`. And a request must have arrived whole within
/// `request` of the first wait for it (`RequestClocks`), so a client that sends a byte now and
/// then is cut off too. The listening socket waits without either.
struct ClientDeadline: AsyncSocketPool {
    let pool: any AsyncSocketPool
    let idle: Duration
    let request: Duration
    let clocks: RequestClocks

    func prepare() async throws { try await pool.prepare() }

    func run() async throws { try await pool.run() }

    func suspendSocket(_ socket: Socket, untilReadyFor events: Socket.Events) async throws {
        if Self.isListening(socket.file.rawValue) { return try await pool.suspendSocket(socket, untilReadyFor: events) }
        var limit = idle
        let peer = events.contains(.read) ? (try? socket.remotePeer()).flatMap(RequestClocks.key) : nil
        if let peer {
            let left = request - clocks.reading(peer).duration(to: .now)
            guard left > .zero else {
                clocks.answered(peer)
                throw SocketError.disconnected
            }
            limit = min(limit, left)
        }
        let pool = self.pool, wait = limit
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask { try await pool.suspendSocket(socket, untilReadyFor: events); return true }
            group.addTask { try await Task.sleep(for: wait); return false }
            defer { group.cancelAll() }
            guard try await group.next() == true else {
                if let peer { clocks.answered(peer) }
                throw SocketError.disconnected
            }
        }
    }

    /// Whether `fd` is a socket that accepts connections (the server's own).
    static func isListening(_ fd: Int32) -> Bool {
        var listening: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &size) == 0 && listening == 1
    }
}

/// When each connection began to wait for its next request, by the client's address and
/// port: set by the first wait to read, cleared when the request has been read and answered.
final class RequestClocks: Sendable {
    private let started = Mutex<[String: ContinuousClock.Instant]>([:])

    /// When the connection began waiting for the request it is reading now.
    func reading(_ peer: String) -> ContinuousClock.Instant {
        started.withLock { started in
            if let since = started[peer] { return since }
            // Connections that close while waiting leave their clock: dropped when long past.
            if started.count > 10_000 { started = started.filter { $0.value.duration(to: .now) < .seconds(600) } }
            let now = ContinuousClock.now
            started[peer] = now
            return now
        }
    }

    func answered(_ peer: String) { _ = started.withLock { $0.removeValue(forKey: peer) } }

    static func key(_ address: Socket.Address) -> String? {
        switch address {
        case .ip4(let host, let port), .ip6(let host, let port): "\(host):\(port)"
        case .unix: nil
        }
    }

    /// The same key, of the address FlyingFox gives a request.
    static func key(_ address: HTTPRequest.Address) -> String? {
        switch address {
        case .ip4(let host, let port): key(Socket.Address.ip4(host, port: port))
        case .ip6(let host, let port): key(Socket.Address.ip6(host, port: port))
        case .unix: nil
        }
    }
}
