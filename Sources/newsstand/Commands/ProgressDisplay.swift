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
