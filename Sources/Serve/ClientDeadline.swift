import FlyingSocks
import Foundation

/// FlyingFox waits for a client's bytes as long as the client likes (it has no read timeout),
/// so a client that sends half a request and then nothing would hold its connection forever.
/// Every connection's wait goes through this pool, which wraps FlyingFox's own: a wait to
/// read or to write that lasts longer than `limit` fails, and FlyingFox closes the
/// connection. So a silent client, an idle kept-alive connection and a download nobody reads
/// any more are all cut off after `limit`. The listening socket waits without one.
struct ClientDeadline: AsyncSocketPool {
    let pool: any AsyncSocketPool
    let limit: Duration

    func prepare() async throws { try await pool.prepare() }

    func run() async throws { try await pool.run() }

    func suspendSocket(_ socket: Socket, untilReadyFor events: Socket.Events) async throws {
        if Self.isListening(socket.file.rawValue) { return try await pool.suspendSocket(socket, untilReadyFor: events) }
        let pool = self.pool, limit = self.limit
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask { try await pool.suspendSocket(socket, untilReadyFor: events); return true }
            group.addTask { try await Task.sleep(for: limit); return false }
            defer { group.cancelAll() }
            guard try await group.next() == true else { throw SocketError.disconnected }
        }
    }

    /// Whether `fd` is a socket that accepts connections (the server's own).
    static func isListening(_ fd: Int32) -> Bool {
        var listening: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        return getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &size) == 0 && listening == 1
    }
}
