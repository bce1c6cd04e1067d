import Foundation
import Feeds

/// A feed parsed on a thread of its own, its entries handed over in batches while the rest
/// is still being read: the library stores one batch while the next is parsed.
// @unchecked: `outcome` is written by the parser thread and read by the caller only under `condition`; batches pass through `Handoff`.
final class StreamedParse: @unchecked Sendable {
    static let batchSize = 256
    /// Batches parsed ahead of the reader at most; the parser waits beyond that.
    static let batchesAhead = 8

    private let batches = Handoff<FeedEntry>(capacity: StreamedParse.batchesAhead)
    private let condition = NSCondition()
    private var outcome: Result<(document: FeedDocument, streamedEntriesAreFinal: Bool), Error>?

    init(_ data: Data, url: URL) {
        let thread = Thread { [self] in
            let outcome = Result {
                try FeedParser.parse(data, url: url, batchSize: Self.batchSize) { batch in self.batches.put(batch) }
            }
            condition.withLock {
                self.outcome = outcome
                condition.broadcast()
            }
            batches.close()
        }
        thread.name = "newsstand feed parser"
        thread.start()
    }

    /// The next batch of entries, in feed order; nil once the parser has ended.
    func next() -> [FeedEntry]? { batches.next() }

    /// The parsed document (waiting for the parser to end), or why the feed is unreadable.
    func result() throws -> (document: FeedDocument, streamedEntriesAreFinal: Bool) {
        try condition.withLock {
            while outcome == nil { condition.wait() }
            return outcome!
        }.get()
    }

    /// Stops handing over batches: the parser runs to its end without waiting for a reader.
    func cancel() { batches.cancel() }
}
