import Foundation
import Feeds
#if canImport(Glibc)
import Glibc
#endif

/// Shows an alert on the desktop with `notify-send` when it is installed: run directly
/// with its arguments (never through a shell), the text cleaned of control characters,
/// given at most a few seconds (without a notification daemon it may hang).
public struct DesktopNotifier: Sendable {
    public var environment: [String: String]
    public var timeout: TimeInterval

    public init(environment: [String: String] = ProcessInfo.processInfo.environment, timeout: TimeInterval = 5) {
        self.environment = environment
        self.timeout = timeout
    }

    /// `notify-send` from PATH, when there is one.
    public var executable: URL? {
        for directory in (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") where directory.hasPrefix("/") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent("notify-send")
            if access(candidate.path, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// The arguments for one notification ("--" first, so a text starting with "-" is
    /// never taken for an option).
    public static func arguments(title: String, body: String) -> [String] {
        ["--app-name=Newsstand", "--", FeedText.line(title) ?? "Newsstand", FeedText.line(body) ?? ""]
    }

    /// True when `notify-send` ran and succeeded.
    @discardableResult
    public func notify(title: String, body: String) -> Bool {
        guard let executable else { return false }
        let process = Process()
        process.executableURL = executable
        process.arguments = Self.arguments(title: title, body: body)
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let done = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in done.signal() }
        do { try process.run() } catch { return false }
        if done.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            return false
        }
        return process.terminationStatus == 0
    }
}

/// Whether a shelf is open on this library: each shelf holds a shared `flock` on
/// `state/shelf.lock` while it runs (the kernel drops it however the process ends).
public final class ShelfPresence {
    private let fd: Int32

    /// Held until released; nil when the lock file cannot be opened.
    public init?(paths: Paths) {
        let fd = open(paths.state.appendingPathComponent("shelf.lock").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        guard flock(fd, LOCK_SH | LOCK_NB) == 0 else {
            close(fd)
            return nil
        }
        self.fd = fd
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }

    public static func isShelfOpen(paths: Paths) -> Bool {
        AgentLock.isHeld(path: paths.state.appendingPathComponent("shelf.lock"))
    }
}
