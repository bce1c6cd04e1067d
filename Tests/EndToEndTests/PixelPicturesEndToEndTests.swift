import Foundation
import Imaging
import Testing

/// `newsstand render` in real terminals under Xvfb, judged by screenshots: a picture of
/// 16-pixel black and white stripes, 80 of them, drawn at 40×20 cells shows its stripes
/// when a pixel protocol drew it (about 5 screen pixels each) and grey when half blocks did
/// (each cell covers two stripes).
@Suite(.serialized) struct PixelPicturesEndToEndTests {
    static let xterm = ["xterm", "-fa", "DejaVu Sans Mono", "-fs", "12"]
    static let xtermWithSixel = ["xterm", "-ti", "vt340", "-xrm", "XTerm*decTerminalID: vt340",
                                 "-xrm", "XTerm*numColorRegisters: 256", "-fa", "DejaVu Sans Mono", "-fs", "12"]
    /// `remember_window_size=no`: kitty otherwise opens at the size its last window had
    /// (kept in its cache), which a test that resizes the window would change for the next.
    static let kitty = ["kitty", "--config", "NONE", "-o", "font_size=12", "-o", "initial_window_width=1000",
                        "-o", "initial_window_height=640", "-o", "remember_window_size=no"]

    /// kitty running a private tmux server whose configuration is `settings`.
    static func tmuxInKitty(socket: String, settings: String, directory: URL) throws -> [String] {
        let configuration = directory.appendingPathComponent("\(socket).conf")
        try "set -g status off\n\(settings)\n".write(to: configuration, atomically: true, encoding: .utf8)
        return kitty + ["-e", "tmux", "-L", socket, "-f", configuration.path, "new-session"]
    }

    /// What one run left on screen.
    struct Shown {
        /// The most black↔white edges along one screen row.
        var edges: Int
        /// Pixels of the grey half blocks make of the stripes.
        var grey: Int
        var exitStatus: String
        var errors: String
    }

    @Test func picturesAreDrawnInPixelsWhereTheTerminalCanAndInHalfBlocksElsewhere() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pixels-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let stripes = directory.appendingPathComponent("STRIPES.png")
        try Data(ImageEncoder.png(Self.stripes(side: 1280, stripe: 16))).write(to: stripes)
        let display = try VirtualDisplay()
        defer { display.close() }

        func show(in terminal: [String], images: String, name: String, probe: String = Self.deviceAttributes) throws -> Shown {
            try Self.show(stripes, images: images, in: terminal, on: display, directory: directory.appendingPathComponent(name),
                          probe: probe)
        }
        let kittyForced = try show(in: Self.kitty, images: "kitty", name: "kitty")
        let kittyAuto = try show(in: Self.kitty, images: "auto", name: "kitty-auto")
        let sixelForced = try show(in: Self.xtermWithSixel, images: "sixel", name: "xterm-sixel")
        let sixelAuto = try show(in: Self.xtermWithSixel, images: "auto", name: "xterm-sixel-auto")
        let plainAuto = try show(in: Self.xterm, images: "auto", name: "xterm-auto")
        let socket = "newsstand-pixels-\(UUID().uuidString.prefix(8))"
        defer { for state in ["on", "off"] { _ = try? Tmux.runWithStatus(["tmux", "-L", socket + state, "kill-server"]) } }
        let tmuxOn = try show(in: Self.tmuxInKitty(socket: socket + "on", settings: "set -g allow-passthrough on", directory: directory),
                              images: "auto", name: "tmux-on", probe: Self.deviceAttributesThroughTmux)
        let tmuxOff = try show(in: Self.tmuxInKitty(socket: socket + "off", settings: "", directory: directory),
                               images: "auto", name: "tmux-off")
        for shown in [kittyForced, kittyAuto, sixelForced, sixelAuto, plainAuto, tmuxOn, tmuxOff] {
            #expect(shown.exitStatus == "0", "\(shown)")
            #expect(shown.errors.isEmpty || shown.errors.contains("set -g allow-passthrough on"), "\(shown)")
        }
        // Pixels: about 79 edges. A wrong protocol shows nothing (kitty 0.26 has no sixel,
        // xterm no kitty graphics), so stripes under auto mean it chose right.
        // Inside tmux with passthrough on, kitty's protocol wrapped in it.
        for shown in [kittyForced, kittyAuto, sixelForced, sixelAuto, tmuxOn] { #expect(shown.edges >= 60, "\(shown)") }
        #expect(tmuxOn.errors.isEmpty, "\(tmuxOn)")
        // A terminal without graphics, and tmux with passthrough off (said once, settings
        // untouched): half blocks, a grey square of 40×20 cells.
        for shown in [plainAuto, tmuxOff] {
            #expect(shown.edges < 10, "\(shown)")
            #expect(shown.grey > 50_000, "\(shown)")
        }
        #expect(tmuxOff.errors.split(separator: "\n").count == 1, "said once: \(tmuxOff)")
        #expect(try Tmux.run(["tmux", "-L", socket + "off", "show", "-gv", "allow-passthrough"]).hasPrefix("off"))
    }

    /// DA1 as `printf` writes it; and wrapped in tmux's passthrough, so the terminal around
    /// tmux answers it rather than tmux.
    static let deviceAttributes = "\\033[c"
    static let deviceAttributesThroughTmux = "\\033Ptmux;\\033\\033[c\\033\\\\"

    /// Runs `newsstand render` in `terminal` on `display` until it is done and the screen
    /// has stopped changing, then looks.
    static func show(_ picture: URL, images: String, in terminal: [String], on display: VirtualDisplay,
                     directory: URL, probe: String) throws -> Shown {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let done = directory.appendingPathComponent("status"), errors = directory.appendingPathComponent("errors")
        let script = directory.appendingPathComponent("run.sh")
        // A terminal just started answers its first queries late (kitty under llvmpipe took
        // over 150 ms): the picture is drawn once the terminal answers `probe` within a tenth
        // of a second, as a settled one does (a user's is); late answers are read here.
        try """
        #!/bin/sh
        \(settle(probe: probe))
        '\(Tmux.binary.path)' render '\(picture.path)' --images \(images) --size 40x20 --colors truecolor 2>'\(errors.path)'
        echo $? > '\(done.path)'
        exec sleep 60
        """.write(to: script, atomically: true, encoding: .utf8)
        // `-e` once: tmux in kitty already has it (tmux's own `-e` means something else). The
        // script is read by sh, not executed: a file just written can still be open in another
        // test's child between its fork and exec, and executing it then fails (ETXTBSY).
        let pid = try display.start(terminal + (terminal.contains("-e") ? [] : ["-e"]) + ["/bin/sh", script.path],
                                    environment: ["LIBGL_ALWAYS_SOFTWARE": "1", "NEWSSTAND_HOME": directory.path, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"])
        defer { display.stop(pid) }
        guard Tmux.poll(timeout: 90, { FileManager.default.fileExists(atPath: done.path) }) else {
            throw TmuxError(message: "newsstand render did not finish in \(terminal[0]) within 90 s")
        }
        // The terminal paints what it was sent: looked at once two screenshots agree.
        let shot = directory.appendingPathComponent("screen.png")
        var previous: [UInt8] = []
        guard Tmux.poll(timeout: 90, {
            guard (try? display.screenshot(to: shot)) != nil, let now = try? ImageDecoder.decode(contentsOf: shot).pixels else { return false }
            defer { previous = now }
            return now == previous
        }) else {
            throw TmuxError(message: "the screen in \(terminal[0]) did not stop changing within 90 s")
        }
        if let keep = ProcessInfo.processInfo.environment["NEWSSTAND_KEEP_SCREENSHOTS"] {
            try? FileManager.default.copyItem(at: shot, to: URL(fileURLWithPath: keep).appendingPathComponent(directory.lastPathComponent + ".png"))
        }
        let screen = try ImageDecoder.decode(contentsOf: shot)
        return Shown(edges: maximumEdges(screen), grey: greyPixels(screen),
                     exitStatus: (try? String(contentsOf: done, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "",
                     errors: (try? String(contentsOf: errors, encoding: .utf8)) ?? "")
    }

    /// Shell lines that wait until the terminal answers `probe` within a tenth of a second,
    /// as a settled terminal does, and read what it answered late.
    static func settle(probe: String) -> String {
        """
        stty -echo -icanon min 0 time 1
        n=0
        while [ $n -lt 100 ]; do
            printf '\(probe)'
            case "$(dd bs=256 count=1 2>/dev/null)" in *c*) break ;; esac
            n=$((n + 1))
        done
        while [ -n "$(dd bs=256 count=1 2>/dev/null)" ]; do :; done
        stty sane
        """
    }

    /// Vertical stripes `stripe` pixels wide, black first.
    static func stripes(side: Int, stripe: Int) -> RGBAImage {
        stripes(width: side, height: side, stripe: stripe)
    }

    static func stripes(width: Int, height: Int, stripe: Int) -> RGBAImage {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width where (x / stripe) % 2 == 0 {
                let offset = (y * width + x) * 4
                pixels[offset] = 0; pixels[offset + 1] = 0; pixels[offset + 2] = 0
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    /// Along each row, runs of at least 3 dark (< 64) or light (> 192) pixels; an edge is a
    /// dark run next to a light one (other pixels between them allowed). The most on any row.
    static func maximumEdges(_ image: RGBAImage) -> Int {
        var best = 0
        for y in 0..<image.height {
            var edges = 0, previous: Bool? = nil, runDark: Bool? = nil, run = 0
            for x in 0..<image.width {
                let offset = (y * image.width + x) * 4
                let level = (Int(image.pixels[offset]) + Int(image.pixels[offset + 1]) + Int(image.pixels[offset + 2])) / 3
                let dark: Bool? = level < 64 ? true : level > 192 ? false : nil
                if dark == runDark { run += 1 } else { runDark = dark; run = 1 }
                if run == 3, let dark {
                    if let previous, previous != dark { edges += 1 }
                    previous = dark
                }
            }
            best = max(best, edges)
        }
        return best
    }

    /// Pixels whose grey is half-way (what half blocks make of two stripes).
    static func greyPixels(_ image: RGBAImage) -> Int {
        var count = 0
        for offset in stride(from: 0, to: image.pixels.count, by: 4) {
            let r = Int(image.pixels[offset]), g = Int(image.pixels[offset + 1]), b = Int(image.pixels[offset + 2])
            if (100...220).contains(r) && abs(r - g) < 8 && abs(g - b) < 8 { count += 1 }
        }
        return count
    }
}
