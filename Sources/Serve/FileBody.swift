import FlyingFox
import FlyingSocks
import Foundation
import Synchronization

/// A range of a file sent as the client takes it, holding one of the client's download slots
/// until its last bytes are sent or the connection is gone (the sequence is released with it).
///
/// With the client's socket known (`to`), the file goes to it by `sendfile(2)`, from the page
/// cache straight into the socket, and FlyingFox (which has written the headers whole before it
/// asks for the body) is given nothing to write; waits for the socket go through the server's
/// pool, so a client that stops reading is cut off like any other. Without it, the file is read
/// in chunks for FlyingFox to write: three copies of every byte instead of one (a 50 MB issue
/// went at 0.48–0.64× nginx's rate that way).
struct FileBody: AsyncBufferedSequence, Sendable {
    typealias Element = UInt8
    let handle: FileHandle
    let range: Range<Int>
    let slot: DownloadSlots.Slot?
    let to: (socket: Socket, pool: any AsyncSocketPool)?

    func makeAsyncIterator() -> Iterator { Iterator(body: self, offset: range.lowerBound) }

    struct Iterator: AsyncBufferedIteratorProtocol {
        let body: FileBody
        var offset: Int

        mutating func next() async throws -> UInt8? {
            try await nextBuffer(suggested: 1)?.first
        }

        mutating func nextBuffer(suggested count: Int) async throws -> Data? {
            guard offset < body.range.upperBound else {
                body.slot?.release()
                return nil
            }
            if let to = body.to {
                try await send(to: to.socket, waitingIn: to.pool)
                return Data()
            }
            let length = Swift.min(Swift.max(count, 1 << 20), body.range.upperBound - offset)
            try body.handle.seek(toOffset: UInt64(offset))
            guard let data = try body.handle.read(upToCount: length), !data.isEmpty else {
                body.slot?.release()
                throw SocketError.disconnected
            }
            offset += data.count
            if offset >= body.range.upperBound { body.slot?.release() }
            return data
        }

        /// The rest of the range into `socket`, waiting in `pool` whenever it is full.
        mutating func send(to socket: Socket, waitingIn pool: any AsyncSocketPool) async throws {
            while offset < body.range.upperBound {
                // The slot is given back with the last bytes, not after them: a client that
                // has its file may ask for the next before this task runs again.
                if body.range.upperBound - offset <= 64 << 10 { body.slot?.release() }
                // 2 MB a call, as nginx's sendfile_max_chunk: one call for the whole file came out
                // slower and steadier neither (0.75–1.27× nginx over 7 runs; 0.89–1.26× with this).
                var from = off_t(offset)
                let sent = sendfile(socket.file.rawValue, body.handle.fileDescriptor, &from, Swift.min(body.range.upperBound - offset, 2 << 20))
                if sent > 0 {
                    offset += sent
                } else if sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                    try await pool.suspendSocket(socket, untilReadyFor: .write)
                } else if sent < 0 && errno == EINTR {
                    continue
                } else {
                    // Gone, or the file is shorter than it was said to be.
                    body.slot?.release()
                    throw SocketError.disconnected
                }
            }
        }
    }
}

/// At most a few downloads at once per client address: a device (or a script) that opens
/// a hundred gets 429 for the rest instead of taking the server's files and memory.
final class DownloadSlots: Sendable {
    let perClient: Int
    private let taken = Mutex<[String: Int]>([:])

    init(perClient: Int) { self.perClient = perClient }

    /// A slot for `client`, or nil when it has all of its own already.
    func take(for client: String) -> Slot? {
        let granted = taken.withLock { counts -> Bool in
            guard counts[client, default: 0] < perClient else { return false }
            counts[client, default: 0] += 1
            return true
        }
        return granted ? Slot(client: client, slots: self) : nil
    }

    fileprivate func giveBack(_ client: String) {
        taken.withLock { counts in
            counts[client, default: 1] -= 1
            if counts[client] == 0 { counts[client] = nil }
        }
    }

    /// Given back once: when the file is sent, or when the last copy of the body goes away.
    final class Slot: Sendable {
        let client: String
        let slots: DownloadSlots
        private let held = Mutex(true)

        init(client: String, slots: DownloadSlots) {
            self.client = client
            self.slots = slots
        }

        func release() {
            if held.withLock({ let was = $0; $0 = false; return was }) { slots.giveBack(client) }
        }

        deinit { release() }
    }
}
