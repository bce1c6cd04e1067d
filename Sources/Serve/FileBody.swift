import FlyingFox
import FlyingSocks
import Foundation
import Synchronization

/// A range of a file sent in chunks as the client takes them, holding one of the client's
/// download slots until the last byte is read or the connection is gone (the sequence is
/// released with it).
struct FileBody: AsyncBufferedSequence, Sendable {
    typealias Element = UInt8
    let handle: FileHandle
    let range: Range<Int>
    let slot: DownloadSlots.Slot?

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
            let length = Swift.min(Swift.max(count, 64 << 10), body.range.upperBound - offset)
            try body.handle.seek(toOffset: UInt64(offset))
            guard let data = try body.handle.read(upToCount: length), !data.isEmpty else {
                body.slot?.release()
                throw SocketError.disconnected
            }
            offset += data.count
            return data
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
