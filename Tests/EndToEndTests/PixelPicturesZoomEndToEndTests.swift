import Foundation
import Imaging
import Testing

/// Zooming and panning a page in pixels, judged by screenshots in real terminals under
/// Xvfb: a page whose top half is black stripes and bottom half blue ones. Zoomed in, the
/// stripes on screen are twice as wide as fitted and the page's middle is in the window's;
/// panned to the bottom, not one black stripe is left; panned back to the top, not one blue pixel.
@Suite(.serialized) struct PixelPicturesZoomEndToEndTests {
    typealias Screens = PixelPicturesEndToEndTests
    typealias Reader = PixelPicturesReaderEndToEndTests
    typealias Lifecycle = PixelPicturesLifecycleEndToEndTests

    @Test func inKittyAZoomedPageShowsWiderStripesAndPanningShowsAnotherPartWithNothingLeftOver() throws {
        try zoomAndPan(in: Lifecycle.kittyTerminal)
    }

    @Test func inXtermWithSixelAZoomedPageShowsWiderStripesAndPanningShowsAnotherPartWithNothingLeftOver() throws {
        try zoomAndPan(in: Lifecycle.xtermSixel)
    }

    /// A one-page CBZ, 960×1280: 16-pixel stripes, black on the top half, blue on the bottom.
    static func writeComic(to comic: URL, in directory: URL) throws {
        var page = Screens.stripes(width: 960, height: 1280, stripe: 16)
        for offset in stride(from: page.pixels.count / 2, to: page.pixels.count, by: 4) where page.pixels[offset] == 0 {
            (page.pixels[offset], page.pixels[offset + 1], page.pixels[offset + 2]) = Reader.blue
        }
        try writeComic(page: page, to: comic, in: directory)
    }

    /// A one-page CBZ of `page`.
    static func writeComic(page: RGBAImage, to comic: URL, in directory: URL) throws {
        let pages = directory.appendingPathComponent("pages")
        try FileManager.default.createDirectory(at: pages, withIntermediateDirectories: true)
        try Data(ImageEncoder.png(page)).write(to: pages.appendingPathComponent("page01.png"))
        let (output, status) = try Tmux.runWithStatus(["sh", "-c", "cd '\(pages.path)' && python3 -c \"import zipfile,sys; "
            + "z=zipfile.ZipFile(sys.argv[1],'w'); z.write('page01.png'); z.close()\" '\(comic.path)'"])
        guard status == 0 else { throw TmuxError(message: "could not write the comic: \(output)") }
    }

    /// The screen row (every other one looked at) crossing the most stripes, when one
    /// crosses 10 or more.
    static func stripiestRow(_ image: RGBAImage) -> Int? {
        var bestRow = -1, best = 0
        for y in stride(from: 0, to: image.height, by: 2) {
            let edges = Reader.row(y: y, of: image).map(Screens.maximumEdges) ?? 0
            if edges > best { (best, bestRow) = (edges, y) }
        }
        return best >= 10 ? bestRow : nil
    }

    /// The median width of the black runs along the row crossing the most stripes (0 if none).
    static func stripeWidth(_ image: RGBAImage) -> Int {
        guard let bestRow = stripiestRow(image) else { return 0 }
        var runs: [Int] = [], run = 0
        for x in 0..<image.width {
            let offset = (bestRow * image.width + x) * 4
            let level = (Int(image.pixels[offset]) + Int(image.pixels[offset + 1]) + Int(image.pixels[offset + 2])) / 3
            if level < 64 { run += 1 } else if run > 0 { runs.append(run); run = 0 }
        }
        // Runs of 3 or more: the stripes (text and antialiasing make shorter ones).
        let stripes = runs.filter { $0 >= 3 }.sorted()
        return stripes.isEmpty ? 0 : stripes[stripes.count / 2]
    }

    /// Screen rows crossing 100 or more blue pixels: the blue half's rows.
    static func blueRows(_ image: RGBAImage) -> Int {
        (0..<image.height).count { y in (Reader.row(y: y, of: image).map(Reader.bluePixels) ?? 0) >= 100 }
    }

    /// What a screenshot shows of the page: black-striped rows, blue pixels, stripe width.
    static func describe(_ image: RGBAImage?) -> String {
        guard let image else { return "no screenshot" }
        return "\(Reader.stripedRows(image)) striped rows, \(blueRows(image)) blue rows, \(Reader.bluePixels(image)) blue, "
            + "stripes \(stripeWidth(image)) px"
    }

    /// The page read in `terminal`: fitted, zoomed in twice (200 %), panned to the bottom and
    /// back to the top, then quit.
    func zoomAndPan(in terminal: Lifecycle.Terminal) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pixels-zoom-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let comic = directory.appendingPathComponent("halves.cbz")
        try Self.writeComic(to: comic, in: directory)
        let sandbox = try Lifecycle.library(with: comic)
        defer { try? FileManager.default.removeItem(at: sandbox.home) }
        let display = try VirtualDisplay()
        defer { display.close() }
        let done = directory.appendingPathComponent("status"), errors = directory.appendingPathComponent("errors")
        let (pid, look) = try Lifecycle.run("""
        env \(sandbox.environment.map { "'\($0)'" }.joined(separator: " ")) '\(Tmux.binary.path)' read 'file://\(comic.path)' --images auto --theme light --colors truecolor --symbols half 2>'\(errors.path)'
        echo $? > '\(done.path)'
        """, in: terminal, display: display, directory: directory.appendingPathComponent("zoom-" + terminal.name))
        defer { display.stop(pid) }

        // Fitted: both halves, the same on two screenshots in a row (a sixel is painted as read).
        var previous = ""
        let (fitted, shown) = look { screen in
            let now = Self.describe(screen)
            defer { previous = now }
            return Reader.stripedRows(screen) >= 150 && Reader.bluePixels(screen) > 20_000 && now == previous
        }
        let fitWidth = fitted.map(Self.stripeWidth) ?? 0
        #expect(shown && fitWidth >= 3, "\(terminal.name) fitted: \(Self.describe(fitted)); the terminal said: \(display.output(of: pid))")

        // 200 %, the middle of the page kept in the middle: stripes twice as wide, as many rows
        // of the black half as of the blue one (the keys come faster than the 150 % picture).
        for _ in 0..<2 { try display.key("plus") }
        let (zoomed, wider) = look { screen in
            let (black, blue) = (Reader.stripedRows(screen), Self.blueRows(screen))
            return Self.stripeWidth(screen) * 10 >= fitWidth * 17 && black >= 100 && blue >= 100
                && min(black, blue) * 10 >= (black + blue) * 4
        }
        #expect(wider, "\(terminal.name) at 200 %: \(Self.describe(zoomed)) (fitted: \(fitWidth) px)")

        // Panned down as far as it goes (a step is a quarter of the window, from the middle):
        // the blue half only, not one black stripe left.
        for _ in 0..<5 { try display.key("j") }
        let (bottom, panned) = look { screen in
            Reader.stripedRows(screen) < 20 && Reader.bluePixels(screen) > 100_000
        }
        #expect(panned, "\(terminal.name) panned down: \(Self.describe(bottom))")

        // And up to the top: black stripes only, as wide as zoomed, not one blue pixel left.
        for _ in 0..<6 { try display.key("k") }
        let (top, back) = look { screen in
            Reader.bluePixels(screen) == 0 && Reader.stripedRows(screen) >= 300 && Self.stripeWidth(screen) * 10 >= fitWidth * 17
        }
        #expect(back, "\(terminal.name) panned up: \(Self.describe(top)) (fitted: \(fitWidth) px)")

        try display.key("q")
        #expect(Tmux.poll(timeout: 90) { FileManager.default.fileExists(atPath: done.path) }, "\(terminal.name): the reader did not end")
        let (last, gone) = look { Reader.stripedRows($0) < 20 && Reader.bluePixels($0) == 0 }
        #expect(gone, "\(terminal.name) after quitting: \(Self.describe(last))")
        #expect((try? String(contentsOf: done, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        #expect(((try? String(contentsOf: errors, encoding: .utf8)) ?? "").isEmpty)
    }
}
