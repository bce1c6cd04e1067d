import Foundation
import Testing
@testable import Imaging

/// An edition's generated cover: a PNG with the masthead, the date line, the lead picture
/// and the headline where a reader expects them.
@Suite struct EditionCoverPainterTests {
    static func inked(_ image: RGBAImage, rows: Range<Int>) -> Int {
        var count = 0
        for y in rows {
            for x in 0..<image.width {
                let at = (y * image.width + x) * 4
                if image.pixels[at] < 60, image.pixels[at + 1] < 60, image.pixels[at + 2] < 60 { count += 1 }
            }
        }
        return count
    }

    @Test func theCoverIsAPNGWithMastheadPictureAndHeadline() throws {
        let picture = try ImageEncoder.png(RGBAImage(width: 40, height: 30, filledWith: (200, 30, 30, 255)))
        let png = try EditionCoverPainter.png(masthead: "The Daily Lamp", dateLine: "Tuesday 24 November 2026",
                                              headline: "Harbour reopens after the storm", leadPicture: Data(picture))
        let cover = try ImageDecoder.decode(Data(png))
        #expect(cover.width == EditionCoverPainter.width && cover.height == EditionCoverPainter.height)
        // Ink in the masthead's band, the red picture in the middle, ink below it.
        #expect(Self.inked(cover, rows: 30..<110) > 2000)
        let middle = ((cover.height / 2) * cover.width + cover.width / 2) * 4
        #expect(Array(cover.pixels[middle..<middle + 3]) == [200, 30, 30])
        #expect(Self.inked(cover, rows: 570..<760) > 500)
    }

    @Test func withoutAPictureTheHeadlineFollowsTheMastheadOnPaper() throws {
        let cover = EditionCoverPainter.draw(masthead: "Notes", dateLine: "week of 23 November 2026", headline: "Kelp", leadPicture: nil)
        let middle = ((cover.height / 2) * cover.width + cover.width / 2) * 4
        #expect(Array(cover.pixels[middle..<middle + 3]) == [246, 242, 232])
        #expect(Self.inked(cover, rows: 200..<260) > 100)
    }

    @Test func accentedAndUnknownCharactersStillDraw() {
        #expect(BitmapFont.rows("é") == BitmapFont.rows("E"))
        #expect(BitmapFont.rows("a") == BitmapFont.rows("A"))
        #expect(BitmapFont.rows("中") == BitmapFont.unknown)
        #expect(EditionCoverPainter.wrap("AAAA BBBB CCCC", scale: 1, width: 6 * 9 - 1) == ["AAAA BBBB", "CCCC"])
    }
}
