import Testing
@testable import Imaging

/// Half-blocks drawn from a JPEG must show, cell for cell, the exact linear-light average
/// of the full-size picture: a decoder that shrinks by DCT scaling has averaged in gamma
/// space first, which darkens busy detail (noise, 1-pixel stripes) by several ΔE00.
@Suite struct HalfBlockFidelityTests {
    /// 480×704 of 1-pixel saturated noise over 1-pixel stripes: each of the 30×44 pixels
    /// of a 30×22-cell frame covers exactly 16×16 source pixels, and a decoder scaling by
    /// up to 4/8 (8× the frame) would still fit the frame.
    static func busyPicture(width: Int = 480, height: Int = 704) -> RGBAImage {
        var state: UInt64 = 0x2400_3600
        func next() -> UInt8 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        var pixels = [UInt8]()
        pixels.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let noise = next()
                let stripe: UInt8 = (x + y / 64) % 2 == 0 ? 255 : 0
                pixels += [stripe, noise > 127 ? 255 : 0, noise, 255]
            }
        }
        return RGBAImage(width: width, height: height, pixels: pixels)
    }

    @Test func busyJPEGCellsAreTheExactLinearAverageOfTheFullPicture() throws {
        let bytes = try ImageEncoder.jpeg(Self.busyPicture(), quality: 95)
        let options = RenderOptions(columns: 30, rows: 22)
        let drawn = CoverRenderer.render(try ImageDecoder.decode(bytes, drawnWith: options), options: options)
        let full = try ImageDecoder.decode(bytes)
        #expect(full.width == 480 && full.height == 704)
        #expect(drawn.columns == 30 && drawn.rows == 22)
        // The reference, computed here: each half-cell averages its 16×16 source pixels in
        // linear light, then goes back to sRGB.
        func reference(column: Int, pixelRow: Int) -> [Double] {
            var sums = [0.0, 0.0, 0.0]
            for y in (pixelRow * 16)..<(pixelRow * 16 + 16) {
                for x in (column * 16)..<(column * 16 + 16) {
                    for channel in 0..<3 {
                        let byte = full.pixels[(y * full.width + x) * 4 + channel]
                        sums[channel] += ColorScience.srgbToLinear(Double(byte) / 255)
                    }
                }
            }
            return sums.map { ColorScience.linearToSRGB($0 / 256) * 255 }
        }
        var largest = 0.0
        for row in 0..<22 {
            for column in 0..<30 {
                let cell = drawn.cells[row * 30 + column]
                #expect(cell.glyph == PictureCell.upperHalf)
                for (color, pixelRow) in [(cell.foreground, row * 2), (cell.background, row * 2 + 1)] {
                    guard case .rgb(let r, let g, let b)? = color else {
                        Issue.record("cell \(column),\(row) has no truecolor colour")
                        continue
                    }
                    for (shown, wanted) in zip([r, g, b], reference(column: column, pixelRow: pixelRow)) {
                        largest = max(largest, abs(Double(shown) - wanted))
                    }
                }
            }
        }
        // Rounding to 8 bits is the only error left.
        #expect(largest <= 0.51, "a cell is \(largest) sRGB levels from the exact linear-light average")
    }
}
