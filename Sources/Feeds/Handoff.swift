import Foundation

/// Batches passed from one thread to another, at most `capacity` waiting: the producer
/// blocks when the consumer falls behind, so a long feed is never held twice in memory.
/// The producer ends with `close()`; a consumer that stops early calls `cancel()`, after
/// which `put` drops its batch and returns at once. Unchecked: every field is read and
/// written under `condition`.
public final class Handoff<Element>: @unchecked Sendable {
    private let capacity: Int
    private let condition = NSCondition()
    private var batches: [[Element]] = []
    private var closed = false
    private var cancelled = false

    public init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Hands a batch over, waiting while `capacity` batches are waiting already.
    public func put(_ batch: [Element]) {
        condition.withLock {
            while batches.count >= capacity, !cancelled { condition.wait() }
            guard !cancelled else { return }
            batches.append(batch)
            condition.broadcast()
        }
    }

    /// No more batches will come.
    public func close() {
        condition.withLock {
            closed = true
            condition.broadcast()
        }
    }

    /// The next batch, in order; nil once the producer has closed and every batch was taken.
    public func next() -> [Element]? {
        condition.withLock {
            while batches.isEmpty, !closed, !cancelled { condition.wait() }
            guard !batches.isEmpty else { return nil }
            condition.broadcast()
            return batches.removeFirst()
        }
    }

    /// Stops taking batches: waiting ones are dropped and the producer no longer waits.
    public func cancel() {
        condition.withLock {
            cancelled = true
            batches = []
            condition.broadcast()
        }
    }
}
