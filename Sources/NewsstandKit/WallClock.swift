import Foundation

/// What time it is for the library: the system clock in use, a set time in tests, so a
/// test that needs "a day later" or "now" says so instead of waiting for it.
public struct WallClock: Sendable {
    public let now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date) { self.now = now }

    public static let system = WallClock { Date() }

    /// Always the same moment.
    public static func fixed(_ date: Date) -> WallClock { WallClock { date } }
}
