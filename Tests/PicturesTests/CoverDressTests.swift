import Imaging
import Pictures
import Terminal
import Testing

/// A cover's adornments drawn into its pixels: the sash across the upper-right corner
/// with NEW on it, the binding's page edges and staples, the picture untouched elsewhere.
struct CoverDressTests {
    static let cell = PixelSize(width: 10, height: 20)
    static let grey: (UInt8, UInt8, UInt8, UInt8) = (60, 60, 60, 255)

    static func pixel(_ image: RGBAImage, _ x: Int, _ y: Int) -> [UInt8] {
        Array(image.pixels[(y * image.width + x) * 4..<(y * image.width + x) * 4 + 3])
    }

    @Test func theSashCrossesTheUpperRightCornerWithNewOnItAndLeavesTheRestAlone() {
        // 12 × 8 cells.
        let cover = RGBAImage(width: 120, height: 160, filledWith: Self.grey)
        let dressed = CoverDress(sash: true).dressed(cover, cell: Self.cell)
        let red: [UInt8] = [204, 20, 36], white: [UInt8] = [255, 255, 255]
        // The band's middle, near the corner (about four dots from it along the diagonal).
        #expect(Self.pixel(dressed, 119 - 35, 5) == red || Self.pixel(dressed, 119 - 35, 5) == white)
        // NEW in white, on the text row (row 1): some white pixels there, none elsewhere.
        var whiteRows = Set<Int>()
        for y in 0..<160 { for x in 0..<120 where Self.pixel(dressed, x, y) == white { whiteRows.insert(y / 20) } }
        #expect(whiteRows == [1])
        // The lower left is the picture's own.
        #expect(Self.pixel(dressed, 5, 150) == [60, 60, 60])
        #expect(Self.pixel(dressed, 0, 0) == [60, 60, 60])
        #expect(CoverDress.plain.dressed(cover, cell: Self.cell) == cover)
    }

    @Test func aMagazineShowsItsPagesOppositeTheSpineAndStaplesOnIt() {
        let cover = RGBAImage(width: 120, height: 160, filledWith: Self.grey)
        let dressed = CoverDress(binding: .magazine, edge: .left).dressed(cover, cell: Self.cell)
        // Paper along the right edge from the second row, the first row left as it was.
        #expect(Self.pixel(dressed, 119, 40) != [60, 60, 60])
        #expect(Self.pixel(dressed, 119, 5) == [60, 60, 60])
        // A staple across the spine a quarter of the way down (dot 3 of 16: y 30–39).
        #expect((30..<40).contains { Self.pixel(dressed, 5, $0) == [214, 216, 222] })
        #expect(Self.pixel(dressed, 60, 80) == [60, 60, 60])
    }

    /// A page's marks: a highlight multiplies its region by its ink (white paper takes the
    /// colour); an underline is a line of its ink along the region's bottom, the rest untouched.
    @Test func aPagesMarksTintTheirRegionOrUnderlineIt() throws {
        let page = RGBAImage(width: 100, height: 100, filledWith: (255, 255, 255, 255))
        let tinted = try #require(PageRegion(x0: 0.1, y0: 0.1, x1: 0.3, y1: 0.2))
        let lined = try #require(PageRegion(x0: 0.5, y0: 0.5, x1: 0.7, y1: 0.6))
        let dressed = CoverDress(marks: [PageMarkPaint(region: tinted, rgb: (0xbc, 0xe6, 0xa8)),
                                         PageMarkPaint(region: lined, rgb: (0x20, 0x20, 0x20), underline: true)])
            .dressed(page, cell: Self.cell)
        #expect(Self.pixel(dressed, 20, 15) == [0xbc, 0xe6, 0xa8], "white seen through green")
        #expect(Self.pixel(dressed, 35, 15) == [255, 255, 255] && Self.pixel(dressed, 20, 25) == [255, 255, 255])
        // Cells 20 pixels tall: a dot 10, the line 2 thick, on rows 58 and 59.
        #expect(Self.pixel(dressed, 60, 59) == [0x20, 0x20, 0x20] && Self.pixel(dressed, 60, 58) == [0x20, 0x20, 0x20])
        #expect(Self.pixel(dressed, 60, 57) == [255, 255, 255], "above the line, the words as they are")
        #expect(Self.pixel(dressed, 75, 59) == [255, 255, 255], "the line as long as the region")
    }
}
