import Foundation

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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["tmux", "-L", socket] + arguments
        // A file, not a pipe: the tmux server started by new-session inherits the
        // descriptor and would keep a pipe open forever.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-out-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: file.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: file) }
        let handle = try FileHandle(forWritingTo: file)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try handle.close()
        return (try? String(contentsOf: file, encoding: .utf8)) ?? ""
    }

    /// Starts `command` in a window of `width`×`height`; the pane stays after it exits.
    func start(_ command: String, width: Int = 120, height: Int = 40) throws {
        if started {
            try tmux(["respawn-pane", "-k", "-t", session, command])
        } else {
            try tmux(["-f", "/dev/null", "new-session", "-d", "-s", session, "-x", "\(width)", "-y", "\(height)", command])
            try tmux(["set-option", "-t", session, "remain-on-exit", "on"])
            started = true
        }
    }

    func send(_ keys: String...) throws { try tmux(["send-keys", "-t", session] + keys) }

    /// The visible screen as text (or with escape sequences, `colors: true`).
    func screen(colors: Bool = false) throws -> String {
        try tmux(["capture-pane", "-p", "-t", session] + (colors ? ["-e"] : []))
    }

    var paneIsDead: Bool { ((try? tmux(["display-message", "-p", "-t", session, "#{pane_dead}"])) ?? "").hasPrefix("1") }

    /// Waits until the screen satisfies `condition`; returns the screen, or nil on timeout.
    func waitFor(timeout: TimeInterval = 20, _ condition: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        while Date() < deadline {
            last = (try? screen()) ?? ""
            if condition(last) { return last }
            Thread.sleep(forTimeInterval: 0.1)
        }
        lastScreen = last
        return nil
    }

    func waitFor(_ text: String, timeout: TimeInterval = 20) -> String? {
        waitFor(timeout: timeout) { $0.contains(text) }
    }

    func waitUntilExited(timeout: TimeInterval = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if paneIsDead { return true }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return false
    }

    /// What the screen showed when the last wait gave up (for failure messages).
    var lastScreen = ""

    func stop() { _ = try? tmux(["kill-server"]) }

    deinit { stop() }
}
