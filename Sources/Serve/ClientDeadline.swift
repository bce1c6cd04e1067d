import FlyingFox
import FlyingSocks
import Foundation
import Synchronization

/// FlyingFox waits for a client's bytes as long as the client likes (it has no read timeout),
/// so a client that sends half a request and then nothing would hold its connection forever.
/// Every connection's wait goes through this pool, which wraps FlyingFox's own: a wait to
/// read or to write that lasts longer than `idle` fails, and FlyingFox closes the
/// connection. So a silent client, an idle kept-alive connection and a download nobody reads
/// any more are all cut off after `idle`. What a wait cannot see, a client that sends a byte
/// now and then or one that never stops sending, `RequestWatch` cuts off; the pool tells it
/// of every connection's waits to read and runs it. The listening socket waits without either.
struct ClientDeadline: AsyncSocketPool {
    let pool: any AsyncSocketPool
    let idle: Duration
    let watch: RequestWatch

    func prepare() async throws { try await pool.prepare() }

    func run() async throws {
        let pool = self.pool, watch = self.watch
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await pool.run() }
            group.addTask { await watch.run() }
            defer { group.cancelAll() }
            try await group.next()
        }
    }

    func suspendSocket(_ socket: Socket, untilReadyFor events: Socket.Events) async throws {
        if Self.isListening(socket.file.rawValue) { return try await pool.suspendSocket(socket, untilReadyFor: events) }
        if events.contains(.read), let peer = (try? socket.remotePeer()).flatMap(RequestWatch.key) { watch.reading(peer) }
        let pool = self.pool, wait = idle
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask { try await pool.suspendSocket(socket, untilReadyFor: events); return true }
            group.addTask { try await Task.sleep(for: wait); return false }
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

/// Each connection's next request, watched as it arrives: it must have arrived whole within
/// `time` of the first wait for it, and the client may send no more than `bytes` from the
/// moment the request before it went in (what one request may hold: its line, headers and a
/// sync body). A connection past either is shut down and drained (`cutOff`), which ends
/// FlyingFox's read of it.
///
/// Both are checked by the clock, every `tick`, not when FlyingFox waits: a client sending
/// faster than FlyingFox reads (it splits lines a byte at a time, and a long header line costs
/// it time in the square of its length) keeps it from ever waiting, and held a core for as long
/// as it liked. Bytes are counted by the kernel (`TCP_INFO`), so those not yet read count too.
/// Connections are found by the sweep among the process's descriptors and known by the
/// client's address and port, which is all FlyingFox gives a request (`answering`).
final class RequestWatch: Sendable {
    struct Connection {
        var peer: String
        /// When the request now awaited began to be waited for; nil while one is answered.
        var since: ContinuousClock.Instant?
        /// The bytes read when the request before it went in (0 before the first).
        var baseline: UInt64
    }

    /// The descriptors seen: a connection, or nil for one that is not a client's (a file, the
    /// listening socket); each known by its inode, so a number used again is seen again.
    struct Seen {
        var descriptors: [Int32: (inode: UInt, connection: Connection?)] = [:]
        var byPeer: [String: Int32] = [:]
    }

    let time: Duration
    let bytes: UInt64
    let tick: Duration
    private let seen = Mutex(Seen())

    init(time: Duration, bytes: Int, tick: Duration = .milliseconds(250)) {
        self.time = time
        self.bytes = UInt64(bytes)
        self.tick = tick
    }

    /// The connection of `peer` waits to read: a request is awaited from now on, unless one
    /// already was. (One the sweep has not seen yet is watched from its first sweep.)
    func reading(_ peer: String) {
        update(peer) { connection, _ in if connection.since == nil { connection.since = .now } }
    }

    /// `peer`'s request went in: it is answered as long as it takes (a download streams as
    /// the client reads), and what the client sent after it (read or not: a request sent
    /// behind it may wait in the socket) counts towards the next.
    func answering(_ peer: String) {
        update(peer) { connection, fd in
            connection.since = nil
            connection.baseline = Self.read(fd) ?? connection.baseline
        }
    }

    private func update(_ peer: String, _ change: (inout Connection, Int32) -> Void) {
        seen.withLock { seen in
            guard let fd = seen.byPeer[peer], let entry = seen.descriptors[fd], var connection = entry.connection else { return }
            change(&connection, fd)
            seen.descriptors[fd] = (entry.inode, connection)
        }
    }

    /// The descriptor of `peer`'s connection: as last swept, or looked for now (a connection
    /// newer than the last sweep).
    func descriptor(of peer: String) -> Int32? {
        if let fd = seen.withLock({ $0.byPeer[peer] }), Self.peer(of: fd) == peer { return fd }
        return Self.descriptors().first { Self.peer(of: $0) == peer }
    }

    /// Until cancelled: every `tick`, shuts down the connections past their time or bytes.
    func run() async {
        while (try? await Task.sleep(for: tick)) != nil { sweep() }
    }

    /// The connections shut down. Every descriptor of this process is looked at: a connected
    /// socket is a client's, and one FlyingFox has not yet waited on is watched from the first
    /// sweep that sees it, by the bytes it has received since it was opened.
    @discardableResult
    func sweep(now: ContinuousClock.Instant = .now) -> [String] {
        let descriptors = Self.descriptors()
        return seen.withLock { seen in
            var cut: [String] = [], open: Set<Int32> = []
            for fd in descriptors {
                var status = stat()
                guard fstat(fd, &status) == 0 else { continue }
                open.insert(fd)
                var entry = seen.descriptors[fd].flatMap { $0.inode == status.st_ino ? $0 : nil }
                if entry == nil {
                    if let old = seen.descriptors[fd]?.connection { seen.byPeer[old.peer] = nil }
                    let peer = (status.st_mode & S_IFMT) == S_IFSOCK ? Self.peer(of: fd) : nil
                    entry = (status.st_ino, peer.map { Connection(peer: $0, since: now, baseline: 0) })
                    if let peer { seen.byPeer[peer] = fd }
                }
                seen.descriptors[fd] = entry
                guard let connection = entry?.connection, let received = Self.received(fd) else { continue }
                let late = connection.since.map { $0.duration(to: now) > time } ?? false
                let over = received > connection.baseline && received - connection.baseline > bytes
                guard late || over else { continue }
                Self.cutOff(fd)
                seen.descriptors[fd] = (status.st_ino, nil)
                seen.byPeer[connection.peer] = nil
                cut.append(connection.peer)
            }
            // Closed ones are forgotten.
            for fd in seen.descriptors.keys where !open.contains(fd) {
                if let peer = seen.descriptors[fd]?.connection?.peer { seen.byPeer[peer] = nil }
                seen.descriptors[fd] = nil
            }
            return cut
        }
    }

    /// Ends `fd`'s connection under FlyingFox's feet: shut down both ways, and what the client
    /// sent that waits in the socket thrown away, so FlyingFox's next read ends the connection.
    /// (Shut down alone, the socket still hands out what it holds: FlyingFox went on splitting
    /// an endless header's megabytes for seconds, at a third of a core.) Never closed here:
    /// the descriptor is FlyingFox's, and its number would go to the next connection.
    static func cutOff(_ fd: Int32) {
        shutdown(fd, Int32(SHUT_RDWR))
        withUnsafeTemporaryAllocation(byteCount: 64 << 10, alignment: 8) { scratch in
            while recv(fd, scratch.baseAddress, scratch.count, Int32(MSG_DONTWAIT)) > 0 {}
        }
    }

    /// This process's open descriptors.
    static func descriptors() -> [Int32] {
        guard let directory = opendir("/proc/self/fd") else { return [] }
        defer { closedir(directory) }
        let own = dirfd(directory)
        var found: [Int32] = []
        while let entry = readdir(directory) {
            // Names are digits (and "." and ".."): read without making a String.
            let fd = withUnsafeBytes(of: entry.pointee.d_name) { name -> Int32? in
                var value: Int32 = 0
                for byte in name {
                    if byte == 0 { break }
                    guard (48...57).contains(byte) else { return nil }
                    value = value &* 10 &+ Int32(byte - 48)
                }
                return name.first == 0 ? nil : value
            }
            if let fd, fd != own { found.append(fd) }
        }
        return found
    }

    /// The bytes `fd`'s connection has received, read or not: `tcpi_bytes_received` of Linux's
    /// `struct tcp_info` (linux/tcp.h), at byte 128. Glibc's own `tcp_info` stops before it;
    /// the kernel only ever appends to the struct, so the offset holds, and the length the
    /// kernel gives says whether it is there (Linux 4.1 on).
    static func received(_ fd: Int32) -> UInt64? {
        withUnsafeTemporaryAllocation(byteCount: 256, alignment: 8) { info in
            var length = socklen_t(info.count)
            guard getsockopt(fd, Int32(IPPROTO_TCP), TCP_INFO, info.baseAddress, &length) == 0, length >= 136 else { return nil }
            return info.load(fromByteOffset: 128, as: UInt64.self)
        }
    }

    /// The bytes FlyingFox has read of `fd`: those received, less those still in the socket.
    static func read(_ fd: Int32) -> UInt64? {
        var waiting: Int32 = 0
        guard let received = received(fd), ioctl(fd, UInt(FIONREAD), &waiting) == 0, waiting >= 0 else { return nil }
        return received - min(received, UInt64(waiting))
    }

    static func peer(of fd: Int32) -> String? {
        (try? Socket(file: Socket.FileDescriptor(rawValue: fd)).remotePeer()).flatMap(key)
    }

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
