import Foundation
import Synchronization

/// Whether tmux shows the pane this process runs in: after `Ctrl-b c` or a switch to
/// another window, pictures kitty placed for the pane stay over the other window, and tmux
/// drops whatever a pane that is not shown passes through, so the pane cannot take them
/// away itself. Asked of tmux (`display -p`, spawned with arguments, no shell) every
/// `interval` on its own queue while `watch(true)`; the run loop takes each change with
/// `takeChange` and never waits for tmux. `writeToClients` hands bytes to the terminals
/// of the clients attached to the pane's session, past tmux.
public final class TmuxPaneWatch: Sendable {
    public let pane: String
    public let interval: Double
    private let queue = DispatchQueue(label: "newsstand.tmux-pane-watch")
    private struct State {
        var watching = false
        var polling = false
        var shown = true
        var change: Bool?
    }
    private let state = Mutex(State())

    /// Inside tmux (`TMUX` and `TMUX_PANE` set); nil elsewhere.
    public init?(environment: [String: String] = ProcessInfo.processInfo.environment, interval: Double = 0.5) {
        guard environment["TMUX"]?.isEmpty == false, let pane = environment["TMUX_PANE"], !pane.isEmpty else { return nil }
        self.pane = pane
        self.interval = interval
    }

    /// What tmux is asked: the pane's window current, clients on its session, the window
    /// zoomed, the pane the window's active one.
    public static let format = "#{window_active} #{session_attached} #{window_zoomed_flag} #{pane_active}"

    /// Whether the pane is shown, from `tmux display -p format`: its window is the session's
    /// current one, a client has the session, and no other pane of the window is zoomed
    /// over it. nil when the output is not that (tmux could not be asked).
    public static func isShown(displayOutput: String) -> Bool? {
        let numbers = displayOutput.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard numbers.count == 4 else { return nil }
        return numbers[0] == 1 && numbers[1] > 0 && (numbers[2] == 0 || numbers[3] == 1)
    }

    /// Starts or stops asking (the app watches while it has pictures on screen or hidden).
    public func watch(_ on: Bool) {
        let start = state.withLock { state -> Bool in
            state.watching = on
            guard on, !state.polling else { return false }
            state.polling = true
            return true
        }
        if start { queue.asyncAfter(deadline: .now() + interval) { self.poll() } }
    }

    /// The pane's new state when it changed since the last call, else nil.
    public func takeChange() -> Bool? {
        state.withLock { state in
            defer { state.change = nil }
            return state.change
        }
    }

    private func poll() {
        guard state.withLock({ $0.watching }) else {
            state.withLock { $0.polling = false }
            return
        }
        if let shown = Self.isShown(displayOutput: Self.tmux(["display", "-p", "-t", pane, Self.format])) {
            state.withLock { state in
                if state.shown != shown {
                    state.shown = shown
                    state.change = shown
                }
            }
        }
        queue.asyncAfter(deadline: .now() + interval) { self.poll() }
    }

    /// Writes `bytes` to the terminal of every client attached to the pane's session (their
    /// ttys, as `tmux list-clients` names them), on the watch's queue.
    public func writeToClients(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        let pane = pane
        queue.async {
            let ttys = Self.tmux(["list-clients", "-t", pane, "-F", "#{client_tty}"]).split(separator: "\n").map(String.init)
            for tty in ttys where tty.hasPrefix("/dev/") {
                let fd = open(tty, O_WRONLY | O_NOCTTY | O_NONBLOCK)
                guard fd >= 0 else { continue }
                _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                close(fd)
            }
        }
    }

    /// What `tmux ARGUMENTS` prints; "" when it cannot be run.
    private static func tmux(_ arguments: [String]) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["tmux"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return "" }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
