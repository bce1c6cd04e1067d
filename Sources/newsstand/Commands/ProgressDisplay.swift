import Foundation
import NewsstandKit

/// `download --wait`'s progress: a redrawn bar on a terminal, plain lines otherwise.
final class ProgressDisplay {
    let interactive: Bool
    private var lastLine = ""
    private var lastPlain = Date.distantPast

    init(interactive: Bool) { self.interactive = interactive }

    func show(name: String, download: AssetDownload?) {
        let line = Self.line(name: name, download: download)
        if interactive {
            guard line != lastLine else { return }
            FileHandle.standardOutput.write(Data(("\r\u{1B}[K" + line).utf8))
        } else if Date().timeIntervalSince(lastPlain) >= 1 {
            print(line)
            lastPlain = Date()
        }
        lastLine = line
    }

    /// One line of progress: the bar or the state, sizes, speed and time left.
    static func line(name: String, download: AssetDownload?) -> String {
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
            let width = 24
            let filled = Int(fraction * Double(width))
            parts.append("[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]")
            parts.append(String(format: "%3d%%", Int(fraction * 100)))
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

    func finish(_ message: String?) {
        if interactive { FileHandle.standardOutput.write(Data("\r\u{1B}[K".utf8)) }
        if let message { print(message) }
    }
}
