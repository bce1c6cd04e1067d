import Foundation
import Imaging
import Testing

/// The samples' shelf in xterm drawing sixel, covers in pixels: each cover whole. ncurses
/// erased the blank cells under a cover with the rest of their row (EL 1, CR EL) when a
/// tile beside it changed, and xterm takes sixel pixels from erased cells: Tidewater's
/// top row was the wall.
extension PixelPicturesLifecycleEndToEndTests {
    /// Tidewater's teal, the top band of its cover to the waves at its foot.
    static func isTeal(_ screen: RGBAImage, _ x: Int, _ y: Int) -> Bool {
        let at = (y * screen.width + x) * 4
        let r = Int(screen.pixels[at]), g = Int(screen.pixels[at + 1]), b = Int(screen.pixels[at + 2])
        return g > r + 40 && b > r + 40
    }

    /// Tidewater's cover, the first tile: the rows from its first teal one to the end of
    /// that run, and the first one's width (the picture's first row has no page edges; its
    /// second has, 5 px narrower).
    static func tidewaterCover(_ screen: RGBAImage) -> (height: Int, width: Int) {
        let columns = 0..<screen.width / 3
        func span(_ y: Int) -> Int {
            let teal = columns.filter { isTeal(screen, $0, y) }
            return teal.count > 20 ? teal.last! - teal.first! + 1 : 0
        }
        guard let top = (0..<screen.height).first(where: { span($0) > 0 }) else { return (0, 0) }
        var bottom = top
        while bottom < screen.height, span(bottom) > 0 { bottom += 1 }
        return (bottom - top, span(top))
    }

    /// Tidewater's cover is 2:3: its height on screen is 1.5 times its width, a row of 20 px
    /// cut off its top is not.
    @Test func aSixelCoverOnTheSamplesShelfIsWholeInXterm() throws {
        let sandbox = Sandbox(["LANG=C.UTF-8", "LC_ALL=C.UTF-8"])
        defer { try? FileManager.default.removeItem(at: sandbox.home) }
        try sandbox.subscribeSamples()
        let config = sandbox.home.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try "covers = \"pixels\"\n".write(to: config.appendingPathComponent("config.toml"), atomically: true, encoding: .utf8)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sixel-covers-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }

        let display = try VirtualDisplay()
        defer { display.close() }
        let shelf = try Self.shelfInKitty(sandbox, display: display, directory: directory, in: Self.xtermSixel)
        defer { display.stop(shelf.pid) }
        // Every cover of the first row drawn: no placeholder's grey, Rocket Badger's red
        // (the last drawn; a cover was cut in the frame that drew the next), then
        // Tidewater's measured.
        func settled(_ screen: RGBAImage) -> Bool {
            var placeholder = 0, red = 0
            for at in stride(from: 0, to: screen.pixels.count, by: 4) {
                let r = screen.pixels[at], g = screen.pixels[at + 1], b = screen.pixels[at + 2]
                if r == 78, g == 78, b == 78 { placeholder += 1 }
                if r > 180, g < 60, b < 60 { red += 1 }
            }
            return placeholder < 200 && red > 1000
        }
        #expect(shelf.look(settled).1, "the shelf's first row of covers was not drawn")
        func whole(_ screen: RGBAImage) -> Bool {
            let cover = Self.tidewaterCover(screen)
            return cover.width > 60 && abs(Double(cover.height) - 1.5 * Double(cover.width)) <= 4
        }
        let (screen, found) = shelf.look(whole)
        let cover = screen.map(Self.tidewaterCover) ?? (height: 0, width: 0)
        #expect(found, "Tidewater's cover is \(cover.width) × \(cover.height) px on screen, not 2:3")
        try shelf.expectQuit(after: ["q"])
    }
}
