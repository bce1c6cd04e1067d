import Foundation
import Imaging
import Testing

/// Pictures in pixels through what happens to a terminal, in kitty under Xvfb, judged by
/// screenshots: Ctrl-Z takes the page away and the shell has the screen, `fg` brings it
/// back, a smaller window gets the page again at its new size with nothing left of the
/// old one; and the shelf with `covers = "pixels"` shows a cover in pixels, gone after quit.
@Suite(.serialized) struct PixelPicturesLifecycleEndToEndTests {
    typealias Screens = PixelPicturesEndToEndTests
    typealias Reader = PixelPicturesReaderEndToEndTests

    /// The green the shell paints while the reader is stopped.
    static func greenPixels(_ image: RGBAImage) -> Int {
        var count = 0
        for offset in stride(from: 0, to: image.pixels.count, by: 4) where image.pixels[offset + 1] > 150
            && image.pixels[offset] < 80 && image.pixels[offset + 2] < 80 { count += 1 }
        return count
    }

    /// The lowest and rightmost screen pixel of rows crossing at least `edges` stripes.
    static func stripedExtent(_ image: RGBAImage, edges: Int = 30) -> (rows: Int, bottom: Int) {
        var rows = 0, bottom = -1
        for y in 0..<image.height where (Reader.row(y: y, of: image).map(Screens.maximumEdges) ?? 0) >= edges {
            rows += 1
            bottom = y
        }
        return (rows, bottom)
    }

    /// A terminal to run the reader in: its command (the script's path is added), the probe
    /// it settles with, and a smaller window size to resize it to.
    struct Terminal {
        var name: String
        var command: [String]
        var probe = Screens.deviceAttributes
        var smaller: (width: Int, height: Int)
    }

    static let kittyTerminal = Terminal(name: "kitty", command: Screens.kitty + ["-e"], smaller: (760, 480))
    /// xterm opens at 80×24 cells (about 560×340 pixels here): given a larger window first.
    static let xtermSixel = Terminal(name: "xterm-sixel", command: Screens.xtermWithSixel + ["-geometry", "100x30", "-e"],
                                     smaller: (560, 340))

    /// tmux inside kitty with passthrough on; its server is `socket` (kill it after).
    static func tmuxInKitty(socket: String, directory: URL) throws -> Terminal {
        Terminal(name: "tmux-in-kitty", command: try Screens.tmuxInKitty(socket: socket, settings: "set -g allow-passthrough on", directory: directory),
                 probe: Screens.deviceAttributesThroughTmux, smaller: (760, 480))
    }

    /// Runs `script`'s lines in `terminal` after it settled; returns a function that looks
    /// at screenshots until a condition holds (90 s), giving the last one either way.
    static func run(_ lines: String, in terminal: Terminal, display: VirtualDisplay, directory: URL) throws
        -> (pid: pid_t, look: ((RGBAImage) -> Bool) -> (RGBAImage?, Bool)) {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let script = directory.appendingPathComponent("run.sh")
        // xterm names itself plain `xterm` (8 colours); distributions set this.
        try """
        #!/bin/bash
        \(Screens.settle(probe: terminal.probe))
        [ "$TERM" = xterm ] && TERM=xterm-256color && export TERM
        unset NO_COLOR
        \(lines)
        exec sleep 60
        """.write(to: script, atomically: true, encoding: .utf8)
        // Read by bash, not executed: a file just written can still be open in another test's
        // child between its fork and exec, and executing it then fails (ETXTBSY).
        let pid = try display.start(terminal.command + ["/bin/bash", script.path],
                                    environment: ["LIBGL_ALWAYS_SOFTWARE": "1", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"])
        let shot = directory.appendingPathComponent("screen.png")
        var count = 0
        let look = { (condition: (RGBAImage) -> Bool) -> (RGBAImage?, Bool) in
            var last: RGBAImage?
            let found = Tmux.poll(timeout: 90) {
                guard (try? display.screenshot(to: shot)) != nil, let screen = try? ImageDecoder.decode(contentsOf: shot) else { return false }
                last = screen
                return condition(screen)
            }
            count += 1
            if let keep = ProcessInfo.processInfo.environment["NEWSSTAND_KEEP_SCREENSHOTS"] {
                try? FileManager.default.copyItem(at: shot, to: URL(fileURLWithPath: keep)
                    .appendingPathComponent("\(directory.lastPathComponent)-\(count).png"))
            }
            return (last, found)
        }
        return (pid, look)
    }

    /// A library in a sandbox with `comic` downloaded into it (remove `home` after).
    static func library(with comic: URL) throws -> Sandbox {
        let sandbox = Sandbox(["LANG=C.UTF-8", "LC_ALL=C.UTF-8"])
        #expect(try sandbox.run("subscribe", comic.path).status == 0)
        let downloaded = try sandbox.run("download", "file://" + comic.path, "--wait")
        try #require(downloaded.status == 0, "\(downloaded.output)")
        return sandbox
    }

    @Test func ctrlZTakesThePageAwayFgBringsItBackAndAResizeDrawsItAgainAtTheNewSize() throws {
        try suspendResumeAndResize(in: Self.kittyTerminal)
    }

    @Test func inXtermWithSixelCtrlZFgAndAResizeLeaveOnlyThePageWhereItBelongs() throws {
        try suspendResumeAndResize(in: Self.xtermSixel)
    }

    @Test func inTmuxInsideKittyCtrlZFgAndAResizeLeaveOnlyThePageWhereItBelongs() throws {
        let socket = "newsstand-life-\(UUID().uuidString.prefix(8))"
        defer { _ = try? Tmux.runWithStatus(["tmux", "-L", socket, "kill-server"]) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pixels-life-tmux-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try suspendResumeAndResize(in: Self.tmuxInKitty(socket: socket, directory: directory))
    }

    /// The stripes page read in `terminal`: Ctrl-Z leaves not one stripe while the shell has
    /// the screen, `fg` brings the page back over the shell's green, a smaller window gets it
    /// fitted again, wholly inside, centred, nothing left below; quitting leaves nothing.
    func suspendResumeAndResize(in terminal: Terminal) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pixels-life-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let comic = directory.appendingPathComponent("stripes.cbz")
        try Reader.writeComic(to: comic, in: directory)
        let sandbox = try Self.library(with: comic)
        defer { try? FileManager.default.removeItem(at: sandbox.home) }
        let display = try VirtualDisplay()
        defer { display.close() }
        let stopped = directory.appendingPathComponent("stopped"), resume = directory.appendingPathComponent("resume")
        let done = directory.appendingPathComponent("status"), errors = directory.appendingPathComponent("errors")
        // Job control, as in an interactive shell: Ctrl-Z stops the reader and the script goes
        // on; it paints the screen green (the shell has it), then reads `resume`, a FIFO, which
        // holds it until the test opens the other end, and says `fg`.
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        guard mkfifo(resume.path, 0o600) == 0 else { throw TmuxError(message: "mkfifo \(resume.path): \(errno)") }
        let (pid, look) = try Self.run("""
        set -m
        env \(sandbox.environment.map { "'\($0)'" }.joined(separator: " ")) '\(Tmux.binary.path)' read 'file://\(comic.path)' --images auto --theme light --colors truecolor --symbols half 2>'\(errors.path)'
        echo $? > '\(stopped.path)'
        printf '\\033[2J\\033[H\\033[42m'
        for i in $(seq 1 12); do printf '%80s\\n' ''; done
        printf '\\033[0m'
        read go < '\(resume.path)'
        fg
        echo $? > '\(done.path)'
        """, in: terminal, display: display, directory: directory.appendingPathComponent(terminal.name))
        defer { display.stop(pid) }

        // The page whole: the same stripes on two screenshots in a row (xterm paints a sixel
        // as it reads it).
        var previous = (rows: 0, bottom: -1)
        let (first, shown) = look { screen in
            let extent = Self.stripedExtent(screen)
            defer { previous = extent }
            return extent.rows >= 200 && extent == previous
        }
        #expect(shown, "\(terminal.name): the stripes never showed: \(first.map(Reader.stripedRows) ?? -1) striped rows; the terminal said: \(display.output(of: pid))")
        let before = first.map { Self.stripedExtent($0) } ?? (rows: 0, bottom: -1)

        try display.key("ctrl+z")
        #expect(Tmux.poll(timeout: 90) { FileManager.default.fileExists(atPath: stopped.path) }, "\(terminal.name): Ctrl-Z did not stop the reader")
        let (shell, cleared) = look { Self.greenPixels($0) > 50_000 && Reader.stripedRows($0) < 20 }
        #expect(cleared, "\(terminal.name) while stopped: \(shell.map(Reader.stripedRows) ?? -1) striped rows, \(shell.map(Self.greenPixels) ?? -1) green")
        // Stopped (128 + SIGSTOP, as the shell sees it), not ended.
        #expect((try? String(contentsOf: stopped, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) == "147")

        // The script's end of the FIFO is open once it waits in `read` (it opens no reader before).
        var writer: Int32 = -1
        #expect(Tmux.poll(timeout: 90) { writer = open(resume.path, O_WRONLY | O_NONBLOCK); return writer >= 0 }, "the script waits to resume")
        if writer >= 0 { close(writer) }
        // The page where it was before Ctrl-Z, to the row, and nothing of the shell's screen.
        let (back, resumed) = look { Self.stripedExtent($0) == before && Self.greenPixels($0) == 0 }
        let backExtent = back.map { Self.stripedExtent($0) } ?? (rows: 0, bottom: -1)
        #expect(resumed, "\(terminal.name) after fg: \(backExtent) striped rows and bottom (before: \(before)), \(back.map(Self.greenPixels) ?? -1) green")

        // A smaller window: the page fitted again, wholly inside it, nothing below it left.
        try display.resizeWindow(of: pid, width: terminal.smaller.width, height: terminal.smaller.height)
        let (resized, redrawn) = look { screen in
            let extent = Self.stripedExtent(screen)
            return extent.rows >= 150 && extent.bottom < terminal.smaller.height && Reader.offCentre(screen) <= 12
        }
        let after = resized.map { Self.stripedExtent($0) } ?? (rows: 0, bottom: -1)
        let offCentre = resized.map(Reader.offCentre) ?? -1
        #expect(redrawn, "\(terminal.name) after the resize: \(after.rows) striped rows down to y \(after.bottom) (before: \(before.rows) to \(before.bottom)), \(offCentre) px off centre")
        #expect(after.rows < before.rows, "\(terminal.name): the page was not fitted to the smaller window")

        try display.key("q")
        #expect(Tmux.poll(timeout: 90) { FileManager.default.fileExists(atPath: done.path) }, "\(terminal.name): the reader did not end")
        let (last, gone) = look { Reader.stripedRows($0) < 20 }
        #expect(gone, "\(terminal.name) after quitting: \(last.map(Reader.stripedRows) ?? -1) striped rows")
        #expect((try? String(contentsOf: done, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        #expect(((try? String(contentsOf: errors, encoding: .utf8)) ?? "").isEmpty)
    }

    @Test func theShelfWithCoversInPixelsShowsACoverInPixelsAndNothingAfterQuitting() throws {
        try shelfWithStripedComic { shelf in shelf.expectStripes(are: true, "the comic's cover in pixels") }
    }

    /// A landscape cover (2:1, 200 × 100 px in its tile: 5.26 rows of 19 px) stands on the
    /// plank: the row under its last striped row is the plank's, not the wall's (#30 item 10;
    /// it floated 14 px above it, placed from the top of its first cell).
    @Test func aLandscapeCoverInPixelsStandsOnThePlank() throws {
        try shelfWithStripedComic(width: 1920, height: 960) { shelf in
            let (screen, found) = shelf.look(Self.standsOnThePlank)
            #expect(found, "the cover's last striped row is at \(screen.map(Self.coverBottom) ?? -1)")
        }
    }

    /// The same in xterm drawing sixel, which has no see-through pixels: the rows above the
    /// cover are sent in the wall's colour (it floated 7 px above the plank, the wall
    /// between). 1000 × 617: in a tile of any whole number of 10 px columns its height is no
    /// whole number of 20 px rows.
    @Test func aLandscapeCoverInSixelStandsOnThePlank() throws {
        try shelfWithStripedComic(width: 1000, height: 617, stripe: 25, in: Self.xtermSixel) { shelf in
            let (screen, found) = shelf.look(Self.standsOnThePlank)
            #expect(found, "the cover's last striped row is at \(screen.map(Self.coverBottom) ?? -1)")
        }
    }

    /// The cover's last row: the end of the longest run of striped rows (text rows below,
    /// the hints', may have as many edges).
    static func coverBottom(_ screen: RGBAImage) -> Int {
        var longest = (length: 0, bottom: -1), run = 0
        for y in 0..<screen.height {
            run = (Reader.row(y: y, of: screen).map(Screens.maximumEdges) ?? 0) >= 12 ? run + 1 : 0
            if run > longest.length { longest = (run, y) }
        }
        return longest.bottom
    }

    /// Whether the row under the cover's last one is the plank, across the window, not the wall.
    static func standsOnThePlank(_ screen: RGBAImage) -> Bool {
        let bottom = coverBottom(screen)
        guard bottom > 10, bottom + 1 < screen.height else { return false }
        func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(screen.pixels[(y * screen.width + x) * 4..<(y * screen.width + x) * 4 + 3]) }
        let wall = pixel(5, bottom - 5), under = (0..<screen.width).filter { x in pixel(x, bottom + 1) != wall }
        return under.count > screen.width / 2 && pixel(5, bottom + 1) != wall
    }

    /// `newsstand` in `terminal` (kitty) with covers in pixels, its shelf filtered to a comic
    /// whose first page, its cover, is stripes (`width` × `height`), looked at by `check`;
    /// then it quits.
    private func shelfWithStripedComic(width: Int = 960, height: Int = 1280, stripe: Int = 48, in terminal: Terminal = kittyTerminal,
                                       _ check: (ShelfInKitty) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pixels-shelf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Stripes about 8 screen pixels wide on the shelf: in half blocks (a cell is 10
        // pixels, 60 of the page) they are greys.
        let pages = directory.appendingPathComponent("pages")
        try Self.writeStripedCover(to: pages.appendingPathComponent("page01.png"), stripe: stripe, width: width, height: height)
        let comic = directory.appendingPathComponent("cover.cbz")
        let (output, status) = try Tmux.runWithStatus(["sh", "-c", "cd '\(pages.path)' && python3 -c \"import zipfile,sys; "
            + "z=zipfile.ZipFile(sys.argv[1],'w'); z.write('page01.png'); z.close()\" '\(comic.path)'"])
        try #require(status == 0, "\(output)")
        let sandbox = try Self.library(with: comic)
        defer { try? FileManager.default.removeItem(at: sandbox.home) }
        let config = sandbox.home.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        // No samples beside the comic: keys typed to filter them out could arrive while the
        // terminal's replies are still read, and a lost Return left the filter open (a
        // FLAKY run in CI under load: the wrong cover looked at, then `q` typed into it).
        try "covers = \"pixels\"\nsamples = false\n".write(to: config.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)

        let display = try VirtualDisplay()
        defer { display.close() }
        let shelf = try Self.shelfInKitty(sandbox, display: display, directory: directory.appendingPathComponent("\(terminal.name)-shelf"),
                                          in: terminal)
        defer { display.stop(shelf.pid) }
        try check(shelf)
        try shelf.expectQuit(after: ["q"])
    }
}
