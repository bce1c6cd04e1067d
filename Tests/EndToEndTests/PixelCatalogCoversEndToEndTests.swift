import Foundation
import Imaging
import Testing

/// A catalog book's cover in kitty under Xvfb, judged by screenshots: drawn in pixels as
/// the store's thumbnails are, where it was half blocks (issue #30, item 11).
@Suite(.serialized) struct PixelCatalogCoversEndToEndTests {
    typealias Lifecycle = PixelPicturesLifecycleEndToEndTests

    @Test func aCatalogBooksCoverIsDrawnInPixelsAndGoneAfterQuitting() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pixels-catalog-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // A catalog in files (OPDS 1.2, one book) whose cover is stripes about 5 screen
        // pixels wide in the details' 20 columns: in half blocks (a cell is 10 pixels, 48 of
        // the cover, two stripes) they are greys.
        let catalog = directory.appendingPathComponent("catalog")
        try Lifecycle.writeStripedCover(to: catalog.appendingPathComponent("cover.png"), stripe: 24)
        let feed = catalog.appendingPathComponent("opds.xml")
        try """
            <?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom">
            <id>urn:pixels:catalog</id><title>Striped Books</title><updated>2026-03-01T00:00:00Z</updated>
            <entry><title>The Striped Almanac</title><id>urn:pixels:almanac</id><author><name>Ada Quay</name></author>
            <updated>2026-02-01T00:00:00Z</updated>
            <link rel="http://opds-spec.org/image/thumbnail" href="cover.png" type="image/png"/>
            <link rel="http://opds-spec.org/acquisition" href="almanac.epub" type="application/epub+zip"/></entry></feed>
            """.write(to: feed, atomically: true, encoding: .utf8)
        let sandbox = Sandbox(["LANG=C.UTF-8", "LC_ALL=C.UTF-8", "NEWSSTAND_RESOURCES=/nonexistent", "NEWSSTAND_KEYRING=off"])
        defer { try? FileManager.default.removeItem(at: sandbox.home) }
        let added = try sandbox.run("catalog", "add", feed.path)
        try #require(added.status == 0, "\(added.output)")

        let display = try VirtualDisplay()
        defer { display.close() }
        let shelf = try Lifecycle.shelfInKitty(sandbox, display: display, directory: directory.appendingPathComponent("kitty-catalog"))
        defer { display.stop(shelf.pid) }
        try display.key("c")
        // The catalogs read (Enter on an empty list would ask for a URL): the kept one's name
        // chosen, on the selection's blue, left of where the shelf's first cover stands.
        let (list, listed) = shelf.look { screen in (20..<125).count { x in
            let pixel = (53 * screen.width + x) * 4
            return screen.pixels[pixel] < 60 && screen.pixels[pixel + 2] > 120 && screen.pixels[pixel + 2] > screen.pixels[pixel + 1] + 40
        } > 50 }
        try #require(listed && list != nil, "the catalogs did not show")
        try display.key("Return")
        shelf.expectStripes(are: true, "the book's cover in pixels")
        // Back to the list: the cover goes with its page.
        try display.key("q")
        shelf.expectStripes(are: false, "back on the list")
        try shelf.expectQuit(after: ["q", "q"])
    }
}

extension PixelPicturesLifecycleEndToEndTests {
    /// Vertical stripes, black first, 960×1280 pixels (a cover's shape), written as a PNG
    /// (its folder made).
    static func writeStripedCover(to file: URL, stripe: Int, width: Int = 960, height: Int = 1280) throws {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(ImageEncoder.png(Screens.stripes(width: width, height: height, stripe: stripe))).write(to: file)
    }

    /// `newsstand` of a sandbox in kitty (or `terminal`), pictures on, the light theme, once its shelf shows.
    struct ShelfInKitty {
        let display: VirtualDisplay
        let pid: pid_t
        let look: ((RGBAImage) -> Bool) -> (RGBAImage?, Bool)
        let done: URL, errors: URL

        /// Striped covers: rows crossing a dozen or more black↔white edges (at least 40 of
        /// them; fewer than 5 when there are none), looked for until they are as `are` says.
        func expectStripes(are shown: Bool, _ what: String) {
            func rows(_ screen: RGBAImage) -> Int { PixelPicturesLifecycleEndToEndTests.stripedExtent(screen, edges: 12).rows }
            let (screen, found) = look { shown ? rows($0) >= 40 : rows($0) < 5 }
            #expect(found, "\(what): \(screen.map(rows) ?? -1) striped rows; the terminal said: \(display.output(of: pid))")
        }

        /// `keys` end the program: it says 0, nothing on standard error, and leaves no stripes.
        func expectQuit(after keys: [String]) throws {
            for key in keys { try display.key(key) }
            #expect(Tmux.poll(timeout: 90) { FileManager.default.fileExists(atPath: done.path) }, "the shelf did not end")
            expectStripes(are: false, "after quitting")
            #expect((try? String(contentsOf: done, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
            #expect(((try? String(contentsOf: errors, encoding: .utf8)) ?? "").isEmpty)
        }
    }

    static func shelfInKitty(_ sandbox: Sandbox, display: VirtualDisplay, directory: URL,
                             in terminal: Terminal = kittyTerminal) throws -> ShelfInKitty {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let done = directory.appendingPathComponent("status"), errors = directory.appendingPathComponent("errors")
        let (pid, look) = try run("""
        env \(sandbox.environment.map { "'\($0)'" }.joined(separator: " ")) '\(Tmux.binary.path)' --images auto --theme light --colors truecolor --symbols half 2>'\(errors.path)'
        echo $? > '\(done.path)'
        """, in: terminal, display: display, directory: directory)
        // The title bar's light grey.
        _ = look { screen in (0..<screen.width).count { x in (0..<3).allSatisfy { screen.pixels[(10 * screen.width + x) * 4 + $0] > 200 } } > 500 }
        return ShelfInKitty(display: display, pid: pid, look: look, done: done, errors: errors)
    }
}
