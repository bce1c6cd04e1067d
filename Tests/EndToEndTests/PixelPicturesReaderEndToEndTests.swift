import Foundation
import Imaging
import Testing

/// The reader under ncurses in real terminals under Xvfb, judged by screenshots: a comic
/// whose first page is fine black and white stripes and whose second is a wide blue band.
/// Where pixels are drawn the stripes show, centred on the page; after the page turns not
/// one stripe is left; after quitting, nothing of either page. Keys are typed with xdotool.
@Suite(.serialized) struct PixelPicturesReaderEndToEndTests {
    typealias Screens = PixelPicturesEndToEndTests

    /// The second page's colour, far from the reader's paper, bars and the stripes' grey.
    static let blue: (UInt8, UInt8, UInt8) = (40, 90, 200)

    /// What one run of the reader showed.
    struct Seen: CustomStringConvertible {
        var terminal: String
        /// The stripes page: screen rows crossing the stripes (text crosses at most a few), and
        /// how far the stripes' middle is from the middle of the page's paper (pixels).
        var stripeRows = 0
        var offCentre = Int.max
        /// Pixels of half blocks' grey on the stripes page.
        var grey = 0
        /// After the page turned: striped rows left, blue pixels.
        var stripeRowsAfterTurn = Int.max
        var blueAfterTurn = 0
        /// After quitting: striped rows and blue pixels left.
        var stripeRowsAfterQuit = Int.max
        var blueAfterQuit = Int.max
        var exitStatus = ""
        var errors = ""
        var description: String {
            "\(terminal): \(stripeRows) striped rows \(offCentre) px off centre, grey \(grey); after turn \(stripeRowsAfterTurn) rows "
                + "\(blueAfterTurn) blue; after quit \(stripeRowsAfterQuit) rows \(blueAfterQuit) blue; status \(exitStatus) errors \(errors)"
        }
    }

    @Test func comicPagesAreDrawnInPixelsReplacedWhenThePageTurnsAndGoneAfterQuitting() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pixels-reader-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let comic = directory.appendingPathComponent("stripes.cbz")
        try Self.writeComic(to: comic, in: directory)
        let display = try VirtualDisplay()
        defer { display.close() }

        func read(_ name: String, in terminal: [String], images: String, pixels: Bool,
                  probe: String = Screens.deviceAttributes) throws -> Seen {
            // A library of its own: each run opens the comic at its first page.
            let sandbox = Sandbox(["LANG=C.UTF-8", "LC_ALL=C.UTF-8"])
            defer { try? FileManager.default.removeItem(at: sandbox.home) }
            #expect(try sandbox.run("subscribe", comic.path).status == 0)
            let downloaded = try sandbox.run("download", "file://" + comic.path, "--wait")
            try #require(downloaded.status == 0, "\(downloaded.output)")
            return try Self.read("file://" + comic.path, sandbox: sandbox, in: terminal, named: name, images: images, pixels: pixels, probe: probe,
                          display: display, directory: directory.appendingPathComponent(name))
        }
        let socket = "newsstand-reader-\(UUID().uuidString.prefix(8))"
        defer { _ = try? Tmux.runWithStatus(["tmux", "-L", socket, "kill-server"]) }
        let pixelRuns = [
            try read("kitty", in: Screens.kitty, images: "auto", pixels: true),
            try read("xterm-sixel", in: Screens.xtermWithSixel, images: "auto", pixels: true),
            try read("tmux-in-kitty", in: Screens.tmuxInKitty(socket: socket, settings: "set -g allow-passthrough on", directory: directory),
                     images: "auto", pixels: true, probe: Screens.deviceAttributesThroughTmux),
        ]
        let halfBlocks = try read("xterm", in: Screens.xterm, images: "auto", pixels: false)
        for seen in pixelRuns + [halfBlocks] {
            #expect(seen.exitStatus == "0", "\(seen)")
            #expect(seen.errors.isEmpty, "\(seen)")
            // The page turned: the blue page is shown and not one stripe is left over it.
            #expect(seen.stripeRowsAfterTurn < 20, "\(seen)")
            #expect(seen.blueAfterTurn > 20_000, "\(seen)")
            // Quit: nothing of either page on screen.
            #expect(seen.stripeRowsAfterQuit < 20, "\(seen)")
            #expect(seen.blueAfterQuit == 0, "\(seen)")
        }
        for seen in pixelRuns {
            // The stripes (16 pixels are 5 to 7 on screen) down the page, in its middle.
            #expect(seen.stripeRows >= 200, "\(seen)")
            #expect(seen.offCentre <= 12, "\(seen)")
        }
        // No graphics: half blocks, which make the stripes grey.
        #expect(halfBlocks.stripeRows < 20, "\(halfBlocks)")
        #expect(halfBlocks.grey > 20_000, "\(halfBlocks)")
    }

    /// A CBZ: page 1 stripes 16 pixels wide (portrait), page 2 a wide blue band.
    static func writeComic(to comic: URL, in directory: URL) throws {
        let pages = directory.appendingPathComponent("pages")
        try FileManager.default.createDirectory(at: pages, withIntermediateDirectories: true)
        try Data(ImageEncoder.png(Screens.stripes(width: 960, height: 1280, stripe: 16)))
            .write(to: pages.appendingPathComponent("page01.png"))
        let (width, height) = (1280, 400)
        var band = [UInt8](repeating: 255, count: width * height * 4)
        for offset in stride(from: 0, to: band.count, by: 4) { (band[offset], band[offset + 1], band[offset + 2]) = blue }
        try Data(ImageEncoder.png(RGBAImage(width: width, height: height, pixels: band))).write(to: pages.appendingPathComponent("page02.png"))
        let (output, status) = try Tmux.runWithStatus(["sh", "-c", "cd '\(pages.path)' && python3 -c \"import zipfile,sys; "
            + "z=zipfile.ZipFile(sys.argv[1],'w'); [z.write(n) for n in ('page01.png','page02.png')]; z.close()\" '\(comic.path)'"])
        guard status == 0 else { throw TmuxError(message: "could not write the comic: \(output)") }
    }

    /// Opens the comic with `newsstand read` in `terminal`, waits for the stripes, turns the
    /// page, waits for the blue page, quits, waits for the program's end: each state looked
    /// for in screenshots until it shows (or 30 s pass).
    static func read(_ issue: String, sandbox: Sandbox, in terminal: [String], named name: String, images: String, pixels: Bool,
                     probe: String, display: VirtualDisplay, directory: URL) throws -> Seen {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let done = directory.appendingPathComponent("status"), errors = directory.appendingPathComponent("errors")
        let script = directory.appendingPathComponent("run.sh")
        try """
        #!/bin/sh
        \(Screens.settle(probe: probe))
        # xterm names itself plain `xterm` (8 colours); distributions set this. The test
        # runner's NO_COLOR would make every screen monochrome.
        [ "$TERM" = xterm ] && TERM=xterm-256color && export TERM
        unset NO_COLOR
        env \(sandbox.environment.map { "'\($0)'" }.joined(separator: " ")) '\(Tmux.binary.path)' read '\(issue)' --images \(images) --theme light --colors truecolor --symbols half 2>'\(errors.path)'
        echo $? > '\(done.path)'
        exec sleep 60
        """.write(to: script, atomically: true, encoding: .utf8)
        // Read by sh, not executed: a file just written can still be open in another test's
        // child between its fork and exec, and executing it then fails (ETXTBSY).
        let pid = try display.start(terminal + (terminal.contains("-e") ? [] : ["-e"]) + ["/bin/sh", script.path],
                                    environment: ["LIBGL_ALWAYS_SOFTWARE": "1", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"])
        defer { display.stop(pid) }
        var seen = Seen(terminal: name)
        let shot = directory.appendingPathComponent("screen.png")
        func look(until condition: (RGBAImage) -> Bool) -> RGBAImage? {
            var last: RGBAImage?
            let found = Tmux.poll(timeout: 90) {
                guard (try? display.screenshot(to: shot)) != nil, let screen = try? ImageDecoder.decode(contentsOf: shot) else { return false }
                last = screen
                return condition(screen)
            }
            if let keep = ProcessInfo.processInfo.environment["NEWSSTAND_KEEP_SCREENSHOTS"] {
                try? FileManager.default.copyItem(at: shot, to: URL(fileURLWithPath: keep).appendingPathComponent("\(name)-\(UUID().uuidString.prefix(4)).png"))
            }
            return found ? last : nil
        }
        // The stripes page: in pixels its stripes, in half blocks their grey.
        let first = look { pixels ? stripedRows($0) >= 200 : Screens.greyPixels($0) > 20_000 }
        if let first {
            seen.stripeRows = stripedRows(first)
            seen.grey = Screens.greyPixels(first)
            seen.offCentre = offCentre(first)
        }
        try display.key("space")
        if let turned = look(until: { stripedRows($0) < 20 && bluePixels($0) > 20_000 }) ?? lastScreen(shot) {
            seen.stripeRowsAfterTurn = stripedRows(turned)
            seen.blueAfterTurn = bluePixels(turned)
        }
        try display.key("q")
        _ = Tmux.poll(timeout: 90) { FileManager.default.fileExists(atPath: done.path) }
        if let after = look(until: { stripedRows($0) < 20 && bluePixels($0) == 0 }) ?? lastScreen(shot) {
            seen.stripeRowsAfterQuit = stripedRows(after)
            seen.blueAfterQuit = bluePixels(after)
        }
        seen.exitStatus = ((try? String(contentsOf: done, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        seen.errors = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        return seen
    }

    static func lastScreen(_ shot: URL) -> RGBAImage? { try? ImageDecoder.decode(contentsOf: shot) }

    /// Screen rows along which 30 or more black↔white edges lie (`maximumEdges`): the stripes
    /// cross hundreds, a line of text a few.
    static func stripedRows(_ image: RGBAImage) -> Int {
        (0..<image.height).count { row(y: $0, of: image).map(Screens.maximumEdges) ?? 0 >= 30 }
    }

    static func row(y: Int, of image: RGBAImage) -> RGBAImage? {
        guard y >= 0, y < image.height else { return nil }
        return RGBAImage(width: image.width, height: 1, pixels: Array(image.pixels[(y * image.width * 4)..<((y + 1) * image.width * 4)]))
    }

    /// Pixels of the blue page (sixel's palette dithers it: bluish, not exact).
    static func bluePixels(_ image: RGBAImage) -> Int {
        var count = 0
        for offset in stride(from: 0, to: image.pixels.count, by: 4) {
            let r = Int(image.pixels[offset]), g = Int(image.pixels[offset + 1]), b = Int(image.pixels[offset + 2])
            if b >= 150 && b - r >= 80 && b - g >= 50 { count += 1 }
        }
        return count
    }

    /// On the row with the most stripes: how far the middle of the stripes is from the
    /// middle of the reader's light paper around them.
    static func offCentre(_ image: RGBAImage) -> Int {
        var bestRow = 0, best = -1
        for y in stride(from: 0, to: image.height, by: 4) {
            let edges = row(y: y, of: image).map(Screens.maximumEdges) ?? 0
            if edges > best { (best, bestRow) = (edges, y) }
        }
        func pixel(_ x: Int) -> (Int, Int, Int) {
            let offset = (bestRow * image.width + x) * 4
            return (Int(image.pixels[offset]), Int(image.pixels[offset + 1]), Int(image.pixels[offset + 2]))
        }
        // The page's paper and the stripes' white, whatever the theme's light is.
        let paper = (0..<image.width).filter { let (r, g, b) = pixel($0); return r > 192 && g > 192 && b > 192 }
        guard let paperLeft = paper.first, let paperRight = paper.last, paperLeft < paperRight else { return Int.max }
        let black = (paperLeft...paperRight).filter { let (r, g, b) = pixel($0); return r < 40 && g < 40 && b < 40 }
        guard let left = black.first, let right = black.last else { return Int.max }
        return abs((left + right) / 2 - (paperLeft + paperRight) / 2)
    }
}
