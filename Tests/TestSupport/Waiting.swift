import Foundation

// The one way tests wait for what another thread or process does without telling anybody
// (a server writing its log, an agent writing the library, a program drawing its screen):
// look again every `interval` until it is there, and no later; never a sleep before an
// assert. What does tell (a painter's `ReadySignal`) is waited on, not polled.

/// How often a wait looks again by default: cheap enough to ask 50 times a second, soon
/// enough that a test ends within a frame of what it waited for.
public let pollInterval: TimeInterval = 0.02

/// `attempt`'s first non-nil answer, asked every `interval` seconds; nil when it gave none
/// within `timeout` seconds (asked one last time at the deadline).
public func poll<T>(timeout: TimeInterval = 30, every interval: TimeInterval = pollInterval,
                    _ attempt: () throws -> T?) rethrows -> T? {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if let value = try attempt() { return value }
        Thread.sleep(forTimeInterval: interval)
    }
    return try attempt()
}

/// Whether `condition` holds within `timeout` seconds, looked at every `interval`.
@discardableResult
public func waitUntil(timeout: TimeInterval = 30, every interval: TimeInterval = pollInterval,
                      _ condition: () throws -> Bool) rethrows -> Bool {
    try poll(timeout: timeout, every: interval) { try condition() ? true : nil } ?? false
}

/// `current`'s value once it has stayed the same for `quiet` seconds, counted from `first`
/// (a value seen just before): for what says nowhere that it is done, such as a screen
/// still drawing. After `timeout` seconds, the last value seen.
public func settled<T: Equatable>(from first: T, quiet: TimeInterval, timeout: TimeInterval = 30,
                                  every interval: TimeInterval = pollInterval, _ current: () -> T) -> T {
    var last = first
    var since = Date()
    waitUntil(timeout: timeout, every: interval) {
        let now = current()
        if now != last { last = now; since = Date() }
        return Date().timeIntervalSince(since) >= quiet
    }
    return last
}
