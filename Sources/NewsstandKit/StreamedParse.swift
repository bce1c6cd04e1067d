import Foundation
import Feeds

/// A feed parsed on a thread of its own, its entries handed over in batches while the rest
/// is still being read: the library stores one batch while the next is parsed.
final class StreamedParse: @unchecked Sendable {
    static let batchSize = 256
    /// Batches parsed ahead of the reader at most; the parser waits beyond that.
    static let batchesAhead = 8

    private let condition = NSCondition()
    private var batches: [[FeedEntry]] = []
    private var outcome: Result<(document: FeedDocument, streamedEntriesAreFinal: Bool), Error>?
    private var cancelled = false

    init(_ data: Data, url: URL) {
        let thread = Thread { [self] in
            let outcome = Result {
                try FeedParser.parse(data, url: url, batchSize: Self.batchSize) { batch in self.put(batch) }
            }
            condition.withLock {
                self.outcome = outcome
                condition.broadcast()
            }
        }
        thread.name = "newsstand feed parser"
        thread.start()
    }

    private func put(_ batch: [FeedEntry]) {
        condition.withLock {
            while batches.count >= Self.batchesAhead, !cancelled { condition.wait() }
            guard !cancelled else { return }
            batches.append(batch)
            condition.broadcast()
        }
    }

    /// The next batch of entries, in feed order; nil once the parser has ended.
    func next() -> [FeedEntry]? {
        condition.withLock {
            while batches.isEmpty, outcome == nil { condition.wait() }
            guard !batches.isEmpty else { return nil }
            condition.broadcast()
            return batches.removeFirst()
        }
    }

    /// The parsed document (waiting for the parser to end), or why the feed is unreadable.
    func result() throws -> (document: FeedDocument, streamedEntriesAreFinal: Bool) {
        try condition.withLock {
            while outcome == nil { condition.wait() }
            return outcome!
        }.get()
    }

    /// Stops handing over batches: the parser runs to its end without waiting for a reader.
    func cancel() {
        condition.withLock {
            cancelled = true
            batches = []
            condition.broadcast()
        }
    }
}
