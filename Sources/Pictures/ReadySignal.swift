import Foundation

/// A painter's `onReady` that can be waited on: each call wakes one waiter, and a call that
/// comes before anybody waits is kept, so a wake-up between "still pending" and the wait is
/// never lost. For code (tests, benchmarks) that must block until a picture is ready rather
/// than ask again after a sleep.
public final class ReadySignal: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)

    public init() {}

    /// What to give a painter as its `onReady`.
    public var onReady: @Sendable () -> Void { { [semaphore] in semaphore.signal() } }

    /// `attempt`'s first non-nil answer, asked again each time the signal comes; nil when
    /// none came within `timeout` seconds.
    public func wait<T>(timeout: TimeInterval = 30, for attempt: () throws -> T?) rethrows -> T? {
        let deadline = DispatchTime.now() + timeout
        while true {
            if let value = try attempt() { return value }
            if semaphore.wait(timeout: deadline) == .timedOut { return try attempt() }
        }
    }
}
