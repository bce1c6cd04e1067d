import Foundation
import Imaging
import Testing

/// A page in kitty's pixels inside tmux when tmux shows another window: `Ctrl-b c` opens a
/// new window over the reader's, and the page must leave with it (tmux drops a hidden
/// pane's passthrough); back in the reader's window, the page is drawn again.
@Suite(.serialized) struct PixelPicturesTmuxWindowEndToEndTests {
    typealias Life = PixelPicturesLifecycleEndToEndTests
    typealias Reader = PixelPicturesReaderEndToEndTests

    @Test func aPageLeavesWithItsTmuxWindowAndComesBackWithIt() throws {
        let socket = "newsstand-win-\(UUID().uuidString.prefix(8))"
        defer { _ = try? Tmux.runWithStatus(["tmux", "-L", socket, "kill-server"]) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pixels-tmuxwin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let comic = directory.appendingPathComponent("stripes.cbz")
        try Reader.writeComic(to: comic, in: directory)
        let sandbox = try Life.library(with: comic)
        defer { try? FileManager.default.removeItem(at: sandbox.home) }
        let display = try VirtualDisplay()
        defer { display.close() }
        let errors = directory.appendingPathComponent("errors")
        let terminal = try Life.tmuxInKitty(socket: socket, directory: directory)
        let (pid, look) = try Life.run("""
        env \(sandbox.environment.map { "'\($0)'" }.joined(separator: " ")) '\(Tmux.binary.path)' read 'file://\(comic.path)' --images auto --theme light --colors truecolor --symbols half 2>'\(errors.path)'
        """, in: terminal, display: display, directory: directory.appendingPathComponent(terminal.name))
        defer { display.stop(pid) }

        let (first, shown) = look { Life.stripedExtent($0).rows >= 200 }
        #expect(shown, "the stripes never showed: \(first.map(Reader.stripedRows) ?? -1) striped rows; the terminal said: \(display.output(of: pid))")
        let before = first.map { Life.stripedExtent($0) } ?? (rows: 0, bottom: -1)

        // Ctrl-b c: a new tmux window (a shell) in front of the reader's.
        try display.key("ctrl+b")
        try display.key("c")
        #expect(Tmux.poll(timeout: 90) { (try? Tmux.run(["tmux", "-L", socket, "list-windows"]))?.split(separator: "\n").count == 2 },
                "Ctrl-b c opened no window")
        let (other, cleared) = look { Reader.stripedRows($0) < 20 }
        #expect(cleared, "over the new window: \(other.map(Reader.stripedRows) ?? -1) striped rows")

        // Back to the reader's window: the page as it was.
        _ = try Tmux.run(["tmux", "-L", socket, "select-window", "-t", ":0"])
        let (back, again) = look { Life.stripedExtent($0) == before }
        #expect(again, "back in the reader's window: \(back.map { Life.stripedExtent($0) } ?? (rows: 0, bottom: -1)) (before: \(before))")
        #expect(((try? String(contentsOf: errors, encoding: .utf8)) ?? "").isEmpty)
    }
}
