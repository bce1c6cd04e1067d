import Foundation
import Imaging
import Testing

/// xterm draws nothing of a sixel picture wider or taller than its `maxGraphicSize` (1000 ×
/// 1000 by default; 800 × 800 here, so that only its answer to XTSMGRAPHICS, not the 1000
/// assumed without one, gets a picture drawn). In a window 1,200 pixels wide a landscape
/// page fitted to it is wider than that: it must still be drawn (scaled down to what xterm
/// draws), not left blank.
@Suite(.serialized) struct SixelLimitEndToEndTests {
    typealias Screens = PixelPicturesEndToEndTests
    typealias Reader = PixelPicturesReaderEndToEndTests
    typealias Lifecycle = PixelPicturesLifecycleEndToEndTests
    typealias Zoom = PixelPicturesZoomEndToEndTests

    /// xterm with sixel at 120 × 40 cells of DejaVu Sans Mono 16 (about 10 × 19 px each):
    /// about 1,200 × 760 pixels, drawing sixel of at most 800 × 800. The later `-fs` wins
    /// over the one in `xtermWithSixel`.
    static let wideXterm = Lifecycle.Terminal(name: "xterm-sixel-wide",
                                              command: Screens.xtermWithSixel + ["-xrm", "XTerm*maxGraphicSize: 800x800",
                                                                                 "-fs", "16", "-geometry", "120x40", "-e"],
                                              smaller: (560, 340))

    /// On the row crossing the most stripes: from the first run of three dark pixels to the
    /// last (0 if none; the window's one-pixel border is no run).
    static func stripesExtent(_ image: RGBAImage) -> Int {
        guard let bestRow = Zoom.stripiestRow(image) else { return 0 }
        func isDark(_ x: Int) -> Bool {
            let offset = (bestRow * image.width + x) * 4
            return (Int(image.pixels[offset]) + Int(image.pixels[offset + 1]) + Int(image.pixels[offset + 2])) / 3 < 64
        }
        let runs = (0..<(image.width - 2)).filter { x in isDark(x) && isDark(x + 1) && isDark(x + 2) }
        guard let first = runs.first, let last = runs.last else { return 0 }
        return last + 2 - first + 1
    }

    static func describe(_ image: RGBAImage?) -> String {
        guard let image else { return "no screenshot" }
        return "\(Reader.stripedRows(image)) striped rows, stripes across \(stripesExtent(image)) px"
    }

    @Test func inXtermWithSixelAPageWiderThanXtermDrawsIsDrawnScaledDownToIt() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sixel-limit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let comic = directory.appendingPathComponent("wide.cbz")
        // A one-page CBZ, 1800 × 900: 24-pixel black and white stripes.
        try Zoom.writeComic(page: Screens.stripes(width: 1800, height: 900, stripe: 24), to: comic, in: directory)
        let sandbox = try Lifecycle.library(with: comic)
        defer { try? FileManager.default.removeItem(at: sandbox.home) }
        let display = try VirtualDisplay()
        defer { display.close() }
        let done = directory.appendingPathComponent("status"), errors = directory.appendingPathComponent("errors")
        let terminal = Self.wideXterm
        let (pid, look) = try Lifecycle.run("""
        stty size > '\(directory.appendingPathComponent("size").path)'
        env \(sandbox.environment.map { "'\($0)'" }.joined(separator: " ")) '\(Tmux.binary.path)' read 'file://\(comic.path)' --images auto --theme light --colors truecolor --symbols half 2>'\(errors.path)'
        echo $? > '\(done.path)'
        """, in: terminal, display: display, directory: directory.appendingPathComponent("wide"))
        defer { display.stop(pid) }

        // Fitted to the window's width (about 1,200 px, less the reader's margins) the page is
        // wider than 800 px: drawn at most 800 px wide, and not much less.
        let (fitted, shown) = look { screen in
            Reader.stripedRows(screen) >= 250 && (700...800).contains(Self.stripesExtent(screen))
        }
        let size = (try? String(contentsOf: directory.appendingPathComponent("size"), encoding: .utf8)) ?? "?"
        let said = "the terminal said: \(display.output(of: pid))"
        #expect(shown, "\(terminal.name) (\(size.trimmingCharacters(in: .whitespacesAndNewlines))): \(Self.describe(fitted)); \(said)")

        try display.key("q")
        #expect(Tmux.poll(timeout: 90) { FileManager.default.fileExists(atPath: done.path) }, "\(terminal.name): the reader did not end")
        #expect((try? String(contentsOf: done, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        #expect(((try? String(contentsOf: errors, encoding: .utf8)) ?? "").isEmpty)
    }
}
