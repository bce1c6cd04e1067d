import Foundation
import NewsstandKit

/// `download --wait`'s progress: a redrawn bar on a terminal, plain lines otherwise.
final class ProgressDisplay {
    let interactive: Bool
    private var lastLine = ""
    private var lastPlain = Date.distantPast

    /// How long `download --wait` waits for a running download's server to send anything.
    static let patience: TimeInterval = 20
    /// Since when the running download has had no answer (no byte, no length).
    private var silentSince: Date?

    init(interactive: Bool) { self.interactive = interactive }

    func show(name: String, download: AssetDownload?) {
        var line = Self.line(name: name, download: download)
        if let silentSince, download?.retry == nil, let server = download.flatMap({ URL(string: $0.url) }).map(NetworkWaits.server) {
            line = "\(name) waiting for \(server)…"
            // Counted in place on a terminal; said once, at once, otherwise.
            if !interactive {
                if line != lastLine { print(line) }
                lastLine = line
                return
            }
            line += " \(Int(Date().timeIntervalSince(silentSince))) s"
        }
        if interactive {
            guard line != lastLine else { return }
            FileHandle.standardOutput.write(Data(("\r\u{1B}[K" + line).utf8))
        } else if Date().timeIntervalSince(lastPlain) >= 1 {
            print(line)
            lastPlain = Date()
        }
        lastLine = line
    }

    /// Gives up (throws the one line that says so) once the agent's running download has had
    /// no answer for `patience` seconds: no byte, no length, retries included. The agent goes
    /// on trying in the background, with its own longer timeouts.
    func giveUpWhenSilent(name: String, download: AssetDownload?) throws {
        guard let download, download.state == .active, download.bytesWritten == 0, download.bytesExpected == nil,
              !download.buildsEdition, download.waitingForSpace == nil else {
            silentSince = nil
            return
        }
        let since = silentSince ?? Date()
        silentSince = since
        guard Date().timeIntervalSince(since) >= Self.patience else { return }
        finish(nil)
        let server = URL(string: download.url).map(NetworkWaits.server) ?? download.url
        throw CommandFailure("\(name): no answer from \(server) in \(Int(Self.patience)) s; the agent goes on trying in the background (`newsstand cancel \(name)` stops it)")
    }

    /// One line of progress: the bar or the state, sizes, speed and time left; for an
    /// edition's build, articles and pictures done of all.
    static func line(name: String, download: AssetDownload?) -> String {
        if let download, download.buildsEdition { return buildLine(name: name, download: download) }
        let written = download?.bytesWritten ?? 0
        let expected = download?.bytesExpected
        let fraction = download?.fraction
        let speed = download?.bytesPerSecond ?? 0
        var parts: [String] = []
        if download?.waitingForSpace != nil, let reason = download?.lastError {
            parts.append(reason)                  // a full disk: the download waits for room
        } else if let retry = download?.retry {
            parts.append(retry.description)       // "retrying (2 of 6) — cannot resolve host"
        } else if let fraction {
            parts.append(bar(fraction))
        } else {
            parts.append(download?.state == .queued ? "waiting" : "starting")
        }
        parts.append(ByteSize.format(written) + (expected.map { " / " + ByteSize.format($0) } ?? ""))
        if speed > 0 {
            parts.append(ByteSize.format(Int64(speed)) + "/s")
            if let expected, expected > written {
                let seconds = Int(Double(expected - written) / speed)
                parts.append(String(format: "%d:%02d left", seconds / 60, seconds % 60))
            }
        }
        return "\(name) " + parts.joined(separator: "  ")
    }

    private static func buildLine(name: String, download: AssetDownload) -> String {
        var parts: [String] = []
        if download.waitingForSpace != nil, let reason = download.lastError {
            parts.append(reason)
        } else if let fraction = download.fraction {
            parts.append(bar(fraction))
        } else {
            parts.append(download.state == .queued && download.build == nil ? "waiting to be built" : "building")
        }
        if let build = download.build { parts.append(build.description) }
        return "\(name) " + parts.joined(separator: "  ")
    }

    /// `[#########---------------]  40%`
    static func bar(_ fraction: Double) -> String {
        let width = 24
        let filled = Int(fraction * Double(width))
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]"
            + String(format: "  %3d%%", Int(fraction * 100))
    }

    func finish(_ message: String?) {
        if interactive { FileHandle.standardOutput.write(Data("\r\u{1B}[K".utf8)) }
        if let message { print(message) }
    }
}

/// The line on standard error that says what a command is doing while it waits: its own
/// words (`text`: "refreshing 12/28…") and the request waiting longest for its server
/// ("waiting for 127.0.0.1:8799… 3 s", from half a second on), redrawn in place on a
/// terminal and cleared when there is nothing to say. Not on a terminal: one plain line
/// for each server waited on, and nothing else.
// @unchecked: every field is read and written under `lock`.
final class StatusLine: @unchecked Sendable {
    /// The line of the command running now, if it waits on the network.
    nonisolated(unsafe) static var current: StatusLine?   // set once, on the main thread, before `run`

    static let waitShownAfter: TimeInterval = 0.5

    let interactive: Bool
    private let lock = NSCondition()
    private var words = ""
    private var drawn = ""
    private var announced: Set<String> = []
    private var stopped = false

    init(interactive: Bool = isatty(STDERR_FILENO) == 1) {
        self.interactive = interactive
        NetworkWaits.shared.onChange = { [weak self] in self?.redraw() }
        Thread.detachNewThread { [self] in tick() }
    }

    /// The command's own words, before the wait.
    var text: String {
        get { lock.withLock { words } }
        set { lock.withLock { words = newValue; draw() } }
    }

    /// Prints `line` on standard output, clearing the current status line first.
    static func print(_ line: String) {
        guard let current else { return Swift.print(line) }
        current.printing { Swift.print(line) }
    }

    /// Clears the line for `body` (which prints), then draws it again.
    func printing(_ body: () -> Void) {
        lock.withLock {
            erase()
            body()
            draw()
        }
    }

    /// Clears the line for good.
    func stop() {
        lock.withLock {
            erase()
            stopped = true
            lock.broadcast()
        }
    }

    func redraw() { lock.withLock { draw() } }

    private func tick() {
        lock.withLock {
            while !stopped {
                draw()
                _ = lock.wait(until: Date().addingTimeInterval(0.25))
            }
        }
    }

    /// What the line says now (under `lock`).
    private func compose(now: Date) -> (line: String, server: String?) {
        var parts = words.isEmpty ? [] : [words]
        var server: String?
        if let wait = NetworkWaits.shared.longest, now.timeIntervalSince(wait.since) >= Self.waitShownAfter {
            parts.append("waiting for \(wait.server)… \(Int(now.timeIntervalSince(wait.since))) s")
            server = wait.server
        }
        return (parts.joined(separator: "  "), server)
    }

    private func draw() {
        guard !stopped else { return }
        let (line, server) = compose(now: Date())
        if interactive {
            guard line != drawn else { return }
            FileHandle.standardError.write(Data(("\r\u{1B}[K" + line).utf8))
            drawn = line
        } else if let server, announced.insert(server).inserted {
            FileHandle.standardError.write(Data("newsstand: waiting for \(server)…\n".utf8))
        }
    }

    private func erase() {
        guard interactive, !drawn.isEmpty else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        drawn = ""
    }
}
