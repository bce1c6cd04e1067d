import Foundation

/// A listener on 127.0.0.1 that accepts every connection and never answers; it counts the
/// connections, and the most held open at once (a client gives up by closing its end).
public final class SilentServer: Sendable {
    public let port: Int
    private let listener: Int32
    private let counts = Counts()

    public init() throws {
        (listener, port) = try loopbackSocket(listening: true)
        let (listener, counts) = (listener, counts)
        Thread.detachNewThread { Self.serve(listener, counts) }
    }

    public var connections: Int { counts.lock.withLock { counts.accepted } }
    public var most: Int { counts.lock.withLock { counts.peak } }

    // @unchecked: the numbers are read and written under `lock`.
    private final class Counts: @unchecked Sendable {
        let lock = NSLock()
        var accepted = 0
        var peak = 0
    }

    /// Accepts until the listener is closed, holding each connection open, unanswered.
    private static func serve(_ listener: Int32, _ counts: Counts) {
        var held: [Int32] = []
        defer { held.forEach { close($0) } }
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 { if errno == EINTR { continue } else { return } }
            // Those the client has closed no longer count as open.
            held = held.filter { fd in
                var sink = [UInt8](repeating: 0, count: 4096)
                while true {
                    let got = recv(fd, &sink, sink.count, Int32(MSG_DONTWAIT))   // requests are read and dropped
                    if got > 0 { continue }
                    if got == 0 { close(fd) }
                    return got != 0
                }
            }
            held.append(connection)
            counts.lock.withLock {
                counts.accepted += 1
                counts.peak = max(counts.peak, held.count)
            }
        }
    }

    /// Stops accepting and closes every connection held: their clients read an end of file.
    public func stop() { shutdown(listener, Int32(SHUT_RDWR)) }

    deinit {
        stop()
        close(listener)
    }
}

/// A port on 127.0.0.1 that nobody listens on: bound for a moment, then closed.
public func deadPort() throws -> Int {
    let (probe, port) = try loopbackSocket(listening: false)
    close(probe)
    return port
}

/// A TCP socket bound to a free port on 127.0.0.1, listening when asked, and its port.
public func loopbackSocket(listening: Bool) throws -> (fd: Int32, port: Int) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let ready = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
            bind(fd, address, length) == 0 && (!listening || listen(fd, 128) == 0) && getsockname(fd, address, &length) == 0
        }
    }
    guard ready else { close(fd); throw CocoaError(.fileWriteUnknown) }
    return (fd, Int(UInt16(bigEndian: address.sin_port)))
}
