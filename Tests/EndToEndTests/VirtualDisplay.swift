import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A private X server (`Xvfb` on a display it chose itself) and the programs started on it,
/// for tests that look at a real terminal's pixels. `close` (also run when it is freed)
/// stops every program, then the server.
final class VirtualDisplay {
    let number: Int
    private let server: pid_t
    private var programs: [pid_t] = []
    private var logs: [pid_t: URL] = [:]

    /// The programs the tests need, from Debian's xvfb, kitty, xterm and imagemagick.
    static let tools = ["Xvfb", "kitty", "xterm", "import", "xdotool"]

    init() throws {
        // Xvfb picks a free display and writes its number to fd 3 (`-displayfd`): suites
        // started side by side that chose a number themselves could both pick one, and the
        // loser's programs would then live on the winner's server and die with it.
        let numberFile = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-xvfb-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: numberFile) }
        server = try Self.spawn(["sh", "-c", "exec Xvfb -displayfd 3 -screen 0 1280x900x24 -nolisten tcp 3>'\(numberFile.path)'"],
                                environment: Self.environment())
        var chosen: Int?
        let started = Tmux.poll(timeout: 30) {
            guard let text = try? String(contentsOf: numberFile, encoding: .utf8), text.hasSuffix("\n"),
                  let value = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return false }
            chosen = value
            return FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(value)")
        }
        guard started, let chosen else {
            number = -1
            close()
            throw TmuxError(message: "Xvfb did not start within 30 s")
        }
        number = chosen
    }

    deinit { close() }

    /// This process's environment with `DISPLAY` set to this display, without tmux's
    /// variables (a test run inside tmux must not make the terminals think they are in it).
    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        Self.environment(extra.merging(["DISPLAY": ":\(number)"]) { first, _ in first })
    }

    private static func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["TMUX"] = nil
        environment["TMUX_PANE"] = nil
        return environment.merging(extra) { _, new in new }
    }

    /// Starts a program on this display; it is stopped by `stop` or `close`.
    @discardableResult
    func start(_ arguments: [String], environment extra: [String: String] = [:]) throws -> pid_t {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-xvfb-\(number)-\(UUID().uuidString).log")
        let pid = try Tmux.spawn(arguments, output: log.path, environment: environment(extra))
        programs.append(pid)
        logs[pid] = log
        return pid
    }

    /// What program `pid` wrote to its standard output and error (a terminal that showed
    /// nothing says why there), the last 2,000 characters.
    func output(of pid: pid_t) -> String {
        guard let log = logs[pid], let text = try? String(contentsOf: log, encoding: .utf8) else { return "" }
        return String(text.suffix(2000))
    }

    func stop(_ pid: pid_t) {
        Self.terminate(pid)
        programs.removeAll { $0 == pid }
    }

    /// The whole screen as a PNG file (ImageMagick's `import`).
    func screenshot(to file: URL) throws {
        let (output, status) = try Tmux.runWithStatus(["env", "DISPLAY=:\(number)", "import", "-window", "root", file.path])
        guard status == 0 else { throw TmuxError(message: "import failed: \(output)") }
    }

    /// Presses a key (xdotool's name: `space`, `q`, `ctrl+z`) in the window that has the focus
    /// (without a window manager, the one window).
    func key(_ name: String) throws {
        let (output, status) = try Tmux.runWithStatus(["env", "DISPLAY=:\(number)", "xdotool", "key", name])
        guard status == 0 else { throw TmuxError(message: "xdotool key \(name) failed: \(output)") }
    }

    /// Resizes the window of program `pid` (its top-level window, which names the pid) to
    /// `width` × `height` pixels, as a user dragging its corner would: the terminal in it
    /// gets SIGWINCH. (Not "the focused window": xterm takes no focus without a window manager.
    /// `--all`: the pid *and* a class, which the root window lacks; xdotool's default is either.)
    /// The pointer is put inside it: keys reach the window under the pointer when none has the focus.
    func resizeWindow(of pid: pid_t, width: Int, height: Int) throws {
        let (output, status) = try Tmux.runWithStatus(["env", "DISPLAY=:\(number)", "xdotool", "search", "--all", "--sync", "--pid",
                                                       "\(pid)", "--class", ".", "windowsize", "%1", "\(width)", "\(height)",
                                                       "mousemove", "--window", "%1", "5", "5"])
        guard status == 0 else { throw TmuxError(message: "xdotool windowsize failed: \(output)") }
    }

    func close() {
        programs.forEach(Self.terminate)
        programs = []
        logs.values.forEach { try? FileManager.default.removeItem(at: $0) }
        logs = [:]
        Self.terminate(server)
    }

    /// SIGTERM, then SIGKILL if it is still there after 2 s; always reaped.
    private static func terminate(_ pid: pid_t) {
        guard pid > 0, kill(pid, 0) == 0 else { return }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        if Tmux.poll(timeout: 2, { waitpid(pid, &status, WNOHANG) != 0 }) { return }
        kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
    }

    private static func spawn(_ arguments: [String], environment: [String: String]) throws -> pid_t {
        try Tmux.spawn(arguments, output: "/dev/null", environment: environment)
    }
}
