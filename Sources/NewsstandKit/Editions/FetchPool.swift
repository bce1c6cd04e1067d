import Foundation

/// Runs blocking fetches `width` at a time, each on a thread of its own. They wait on the
/// network, not the processor: `DispatchQueue.concurrentPerform` runs as many at once as
/// there are cores (two here), which held an edition's 50 pictures to two transfers at a time.
enum FetchPool {
    /// Calls `body` with each index of `0..<count`, in order of start, at most `width` at
    /// once, and returns when every call has returned. `body` is not `@Sendable` yet runs on
    /// several threads at once: what it changes must be under its own lock (both callers'
    /// counts and results are).
    static func run(_ count: Int, width: Int, _ body: (Int) -> Void) {
        guard count > 0 else { return }
        withoutActuallyEscaping(body) { body in
            // Unchecked: `body` is only called before `run` returns (the group waits for every
            // thread), and let go of before it does, while the threads may still be ending.
            let shared = Shared(body)
            let done = DispatchGroup()
            for _ in 0..<min(max(1, width), count) {
                done.enter()
                let thread = Thread {
                    while let index = shared.take(below: count) { shared.body?(index) }
                    done.leave()
                }
                thread.stackSize = 1 << 20
                thread.start()
            }
            done.wait()
            shared.body = nil
        }
    }

    // Unchecked: `next` is read and written only under `lock`; `body` as said in `run`.
    private final class Shared: @unchecked Sendable {
        var body: ((Int) -> Void)?
        private let lock = NSLock()
        private var next = 0
        init(_ body: @escaping (Int) -> Void) { self.body = body }

        func take(below count: Int) -> Int? {
            lock.withLock {
                guard next < count else { return nil }
                defer { next += 1 }
                return next
            }
        }
    }
}
