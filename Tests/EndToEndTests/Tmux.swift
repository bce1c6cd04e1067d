import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

struct TmuxError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// Drives the real `newsstand` binary in a private tmux server, as a person would:
/// keys in with `send-keys`, the screen out with `capture-pane`.
final class Tmux {
    let socket = "newsstand-e2e-\(UUID().uuidString.prefix(8))"
    let session = "e2e"
    private(set) var started = false

    /// The built `newsstand` executable, beside the test bundle.
    static var binary: URL {
        let me = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
        return me.deletingLastPathComponent().appendingPathComponent("newsstand")
    }

    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        try Tmux.run(["tmux", "-L", socket] + arguments)
    }

    /// Runs a program to completion and returns what it printed. posix_spawn + waitpid:
    /// the tmux client forks a server that keeps running, so nothing may wait on a pipe,
    /// and the child is reaped here, not by a run-loop monitor.
    static func run(_ arguments: [String]) throws -> String { try runWithStatus(arguments).output }

    static func runWithStatus(_ arguments: [String]) throws -> (output: String, status: Int32) {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-out-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        let pid = try spawn(arguments, output: output.path)
        var exitStatus: Int32 = 0
        while waitpid(pid, &exitStatus, 0) < 0 && errno == EINTR {}
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        // WIFEXITED / WEXITSTATUS, which do not import into Swift.
        let exited = exitStatus & 0x7f == 0
        return (text, exited ? (exitStatus >> 8) & 0xff : 128 + (exitStatus & 0x7f))
    }

    /// Starts a program with standard output and error to `output` (created) and nothing
    /// on standard input, in `environment` (nil: this process's); the caller reaps it.
    static func spawn(_ arguments: [String], output: String, environment: [String: String]? = nil) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // Test threads block signals; a child must start with none blocked and default
        // handlers, or a shell's `wait` never hears SIGCHLD.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGCHLD, SIGPIPE, SIGINT, SIGTERM, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var envp: [UnsafeMutablePointer<CChar>?]? = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { envp?.forEach { free($0) } }
        var pid: pid_t = 0
        let status = envp == nil ? posix_spawnp(&pid, arguments[0], &actions, &attributes, &argv, environ)
            : posix_spawnp(&pid, arguments[0], &actions, &attributes, &argv, &envp!)
        guard status == 0 else { throw TmuxError(message: "cannot start \(arguments[0]): error \(status)") }
        return pid
    }

    /// Starts `command` in a window of `width`×`height`; the pane stays after it exits.
    func start(_ command: String, width: Int = 120, height: Int = 40) throws {
        if started {
            try tmux(["respawn-pane", "-k", "-t", session, command])
        } else {
            // remain-on-exit from the server's own configuration: a command that ends at
            // once must still leave its screen to read.
            let configuration = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket).conf")
            try "set-option -wg remain-on-exit on\n".write(to: configuration, atomically: true, encoding: .utf8)
            try tmux(["-f", configuration.path, "new-session", "-d", "-s", session, "-x", "\(width)", "-y", "\(height)", command])
            started = true
        }
    }

    func send(_ keys: String...) throws { try tmux(["send-keys", "-t", session] + keys) }

    /// The visible screen as text (or with escape sequences, `colors: true`).
    func screen(colors: Bool = false) throws -> String {
        try tmux(["capture-pane", "-p", "-t", session] + (colors ? ["-e"] : []))
    }

    var paneIsDead: Bool { ((try? tmux(["display-message", "-p", "-t", session, "#{pane_dead}"])) ?? "").hasPrefix("1") }

    /// The screen once it has stayed the same for `quiet` seconds, counted from `screen`
    /// (given up after 30 s: the last one seen). One `capture-pane` costs a few milliseconds,
    /// so the screen is looked at every `pollInterval` as any wait does.
    func settled(from screen: String, quiet: TimeInterval) -> String {
        TestSupport.settled(from: screen, quiet: quiet) { (try? self.screen()) ?? "" }
    }

    /// Whether `condition` holds within `timeout` seconds (`waitUntil`).
    static func poll(timeout: TimeInterval, _ condition: () -> Bool) -> Bool {
        TestSupport.waitUntil(timeout: timeout, condition)
    }

    /// Waits until the screen satisfies `condition`; returns the screen, or nil on timeout.
    func waitFor(timeout: TimeInterval = 30, _ condition: (String) -> Bool) -> String? {
        var last = ""
        if let shown = TestSupport.poll(timeout: timeout, { () -> String? in
            last = (try? screen()) ?? ""
            return condition(last) ? last : nil
        }) { return shown }
        lastScreen = last
        return nil
    }

    func waitFor(_ text: String, timeout: TimeInterval = 30) -> String? {
        waitFor(timeout: timeout) { $0.contains(text) }
    }

    /// Waits until the screen shows `text` and returns it; throws, with the last screen, when
    /// it never does: the state to wait for before reading the screen or sending a key.
    @discardableResult
    func waitFor(text: String, timeout: TimeInterval = 30) throws -> String {
        try waitFor(showing: "'\(text)'", timeout: timeout) { $0.contains(text) }
    }

    /// As `waitFor(text:timeout:)` for any `condition`; `what` names it in the failure.
    @discardableResult
    func waitFor(showing what: String, timeout: TimeInterval = 30, _ condition: (String) -> Bool) throws -> String {
        guard let screen = waitFor(timeout: timeout, condition) else {
            throw TmuxError(message: "the screen did not show \(what) within \(Int(timeout)) s; it showed:\n\(lastScreen)")
        }
        return screen
    }

    func waitUntilExited(timeout: TimeInterval = 30) -> Bool {
        Self.poll(timeout: timeout) { paneIsDead }
    }

    /// Waits until process `pid` has ended (gone, or a zombie no one reaped: its files and
    /// locks are closed either way); false on timeout.
    static func waitUntilEnded(pid: pid_t, timeout: TimeInterval = 30) -> Bool {
        poll(timeout: timeout) {
            // /proc/PID/stat: "pid (name) S ...", the state after the last parenthesis.
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return true }
            return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
        }
    }

    /// Waits until the file at `url` holds `bytes`, for a file a pipe may still be filling;
    /// false on timeout.
    static func waitUntil(_ url: URL, contains bytes: [UInt8], timeout: TimeInterval = 30) -> Bool {
        poll(timeout: timeout) { (try? Data(contentsOf: url))?.firstRange(of: bytes) != nil }
    }

    /// Whether a process holds the `flock` on `url`, as an agent holds its lock file while
    /// it runs (the file itself stays when it ends).
    static func isLocked(_ url: URL) -> Bool {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else { return true }
        flock(fd, LOCK_UN)
        return false
    }

    /// What a curses program writes as it ends, leaving the alternate screen (rmcup).
    static let leftAlternateScreen = Array("\u{1B}[?1049l".utf8)

    /// What the screen showed when the last wait gave up (for failure messages).
    var lastScreen = ""

    func stop() {
        _ = try? tmux(["kill-server"])
        try? FileManager.default.removeItem(at: FileManager.default.temporaryDirectory.appendingPathComponent("\(socket).conf"))
    }

    deinit { stop() }
}
