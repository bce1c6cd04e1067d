import Testing
@testable import Imaging

@Suite struct CoverRendererTests {
    @Test func oneSourcePixelPerHalfCellKeepsColoursExactly() {
        let colours: [(UInt8, UInt8, UInt8)] = [(255, 0, 0), (0, 0, 255), (12, 200, 34), (250, 250, 250)]
        let image = Fixtures.bands(width: 2, colours)
        let picture = CoverRenderer.render(image, options: RenderOptions(columns: 2, rows: 2))
        #expect(picture.columns == 2 && picture.rows == 2)
        for column in 0..<2 {
            #expect(picture[column, 0] == PictureCell(glyph: "▀", foreground: .rgb(255, 0, 0), background: .rgb(0, 0, 255)))
            #expect(picture[column, 1] == PictureCell(glyph: "▀", foreground: .rgb(12, 200, 34), background: .rgb(250, 250, 250)))
        }
    }

    @Test func linearToEightBitSRGBAgreesWithTheTransferFunction() {
        // The binary search over rounding boundaries against pow, densely over 0...1 and
        // just either side of every boundary.
        func reference(_ value: Float) -> UInt8 {
            UInt8((ColorScience.linearToSRGB(Double(value)) * 255).rounded())
        }
        var values: [Float] = [-1, -0.0, 0, 1, 1.5, .infinity]
        values += (0...20_000).map { Float($0) / 20_000 }
        for level in 1..<256 {
            let boundary = Float(ColorScience.srgbToLinear((Double(level) - 0.5) / 255))
            values += [boundary.nextDown.nextDown, boundary.nextUp.nextUp]
        }
        for value in values {
            #expect(ColorScience.srgb8(fromLinear: value) == reference(value), "at \(value)")
        }
        #expect((0..<256).allSatisfy { ColorScience.srgb8(fromLinear: ColorScience.linearFromSRGB8[$0]) == UInt8($0) })
    }

    @Test func averagingHappensInLinearLight() {
        // Half black, half white: the average light is 0.5, which sRGB encodes as 188
        // (averaging the encoded values would give 128, visibly too dark).
        let picture = CoverRenderer.render(Fixtures.checkerboard(width: 8, height: 16),
                                           options: RenderOptions(columns: 1, rows: 1))
        #expect(picture.cells == [PictureCell(glyph: "▀", foreground: .rgb(188, 188, 188), background: .rgb(188, 188, 188))])
    }

    @Test func gradientGivesTheExpectedAreaAverages() {
        // 8 × 16 gradient onto 4 × 4 cells: each half cell covers 2 × 2 pixels.
        let image = Fixtures.gradient(width: 8, height: 16)
        let picture = CoverRenderer.render(image, options: RenderOptions(columns: 4, rows: 4))
        func expected(_ x: Int, _ y: Int) -> CellColor {
            func mean(_ values: [Int]) -> UInt8 {
                let light = values.map { Double(ColorScience.linearFromSRGB8[$0]) }.reduce(0, +) / Double(values.count)
                return UInt8((ColorScience.linearToSRGB(light) * 255).rounded())
            }
            let reds = [2 * x, 2 * x, 2 * x + 1, 2 * x + 1].map { $0 * 255 / 7 }
            let greens = [2 * y, 2 * y + 1, 2 * y, 2 * y + 1].map { $0 * 255 / 15 }
            return .rgb(mean(reds), mean(greens), 96)
        }
        for row in 0..<4 {
            for column in 0..<4 {
                #expect(picture[column, row].foreground == expected(column, 2 * row))
                #expect(picture[column, row].background == expected(column, 2 * row + 1))
            }
        }
        // Monotonic: red grows to the right, green downwards.
        if case .rgb(let left, _, _) = picture[0, 0].foreground!, case .rgb(let right, _, _) = picture[3, 0].foreground! {
            #expect(left < right)
        }
    }

    @Test func aspectRatioIsKeptAndLetterboxingIsOptional() {
        let cover = RGBAImage(width: 600, height: 900, filledWith: (10, 20, 30, 255))
        let fitted = CoverRenderer.render(cover, options: RenderOptions(columns: 30, rows: 22, letterbox: false))
        #expect(fitted.columns == 29 && fitted.rows == 22)
        let boxed = CoverRenderer.render(cover, options: RenderOptions(columns: 30, rows: 22))
        #expect(boxed.columns == 30 && boxed.rows == 22)
        #expect((0..<22).allSatisfy { boxed[29, $0] == .blank })
        #expect(boxed[0, 0].foreground == .rgb(10, 20, 30))
        // Taller cells (aspect 0.25) need fewer rows for the same picture.
        let narrowCells = CoverRenderer.frameSize(imageWidth: 600, imageHeight: 900,
                                                  options: RenderOptions(columns: 30, rows: 40, cellAspect: 0.25))
        #expect(narrowCells.columns == 30 && narrowCells.rows == 11)
    }

    @Test func nonsensicalCellAspectsFallBackInsteadOfTrapping() {
        let cover = RGBAImage(width: 60, height: 90, filledWith: (1, 2, 3, 255))
        for aspect in [Double.infinity, -1, 0, .nan, 1e-300, 1e300] {
            let picture = CoverRenderer.render(cover, options: RenderOptions(columns: 10, rows: 10, cellAspect: aspect))
            #expect(picture.columns == 10 && picture.rows == 10)
        }
    }

    @Test func extremeAspectsAreLetterboxedInsideA2To1Frame() {
        let banner = RGBAImage(width: 1000, height: 100, filledWith: (200, 0, 0, 255))
        let picture = CoverRenderer.render(banner, options: RenderOptions(columns: 20, rows: 20, letterbox: false))
        // A 2:1 frame of square half-cells: 20 columns by 10 pixels = 5 rows...
        #expect(picture.columns == 20 && picture.rows == 5)
        // ...with the 10:1 banner 2 pixels tall in the middle and bars above and below.
        #expect(picture[5, 0] == .blank && picture[5, 4] == .blank)
        #expect(picture[5, 2].foreground == .rgb(200, 0, 0))
    }

    @Test func transparentPixelsShowTheTerminalBackground() {
        var image = Fixtures.bands(width: 1, [(255, 255, 255), (0, 128, 0)])
        image.pixels[3] = 0  // the upper pixel is fully transparent
        let picture = CoverRenderer.render(image, options: RenderOptions(columns: 1, rows: 1))
        #expect(picture.cells == [PictureCell(glyph: "▄", foreground: .rgb(0, 128, 0), background: nil)])
    }

    @Test func palette256ChoosesAmongColours16To255ByPerceivedDifference() {
        #expect(Palette.nearest256(r: 255, g: 0, b: 0) == 196)
        #expect(Palette.nearest256(r: 0, g: 0, b: 0) == 16)
        #expect(Palette.nearest256(r: 255, g: 255, b: 255) == 231)
        #expect(Palette.nearest256(r: 128, g: 128, b: 128) == 244)
        #expect(Palette.nearest256(r: 95, g: 135, b: 175) == 67)
        var random = SplitMix64(state: 256)
        for _ in 0..<200 {
            let (r, g, b) = (UInt8.random(in: 0...255, using: &random), UInt8.random(in: 0...255, using: &random),
                             UInt8.random(in: 0...255, using: &random))
            let chosen = Int(Palette.nearest256(r: r, g: g, b: b))
            #expect(chosen >= 16)
            // No entry is perceptibly closer than the chosen one.
            let target = ColorScience.lab(r: r, g: g, b: b)
            let best = (16..<256).map { ColorScience.deltaE2000(target, Palette.xterm256Lab[$0]) }.min()!
            #expect(ColorScience.deltaE2000(target, Palette.xterm256Lab[chosen]) <= best + 0.25, "\(r),\(g),\(b)")
        }
    }

    @Test func colourModesProduceTheirKindOfColour() {
        let image = Fixtures.bands(width: 1, [(255, 0, 0), (0, 0, 0)])
        let in256 = CoverRenderer.render(image, options: RenderOptions(columns: 1, rows: 1, colorMode: .palette256))
        #expect(in256.cells == [PictureCell(glyph: "▀", foreground: .indexed(196), background: .indexed(16))])
        let in16 = CoverRenderer.render(image, options: RenderOptions(columns: 1, rows: 1, colorMode: .palette16))
        #expect(in16.cells == [PictureCell(glyph: "▀", foreground: .indexed(9), background: .indexed(0))])
    }

    /// The colours a 16-colour picture shows, one per half cell.
    static func systemIndices(_ picture: CellPicture) -> [UInt8] {
        picture.cells.flatMap { cell -> [UInt8] in
            let colours = cell.glyph == "▀" ? [cell.foreground, cell.background] : [cell.background, cell.background]
            return colours.compactMap { if case .indexed(let index)? = $0 { return index } else { return nil } }
        }
    }

    @Test func sixteenColoursDitherAColourThatIsNotInThePalette() {
        // sRGB 160 grey lies between xterm's grey 8 (0x7F) and white-ish 7 (0xE5).
        let image = RGBAImage(width: 40, height: 40, filledWith: (160, 160, 160, 255))
        let options = RenderOptions(columns: 20, rows: 10, colorMode: .palette16, letterbox: false)
        let indices = Self.systemIndices(CoverRenderer.render(image, options: options))
        #expect(indices.count == 400)
        #expect(Set(indices).count >= 2)
        #expect(indices.allSatisfy { (0..<16).contains($0) })
        // The mixture keeps the area's light (diffusion passes on most of each error).
        let light = indices.map { Dithering.systemLinear[Int($0)].x }.reduce(0, +) / Float(indices.count)
        let wanted = ColorScience.linearFromSRGB8[160]
        #expect(abs(light - wanted) < 0.06, "mean light \(light), wanted \(wanted)")
        // Without diffusion every pixel would be the one nearest colour.
        let flat = Dithering.systemIndices(Array(repeating: LinearPixel(red: wanted, green: wanted, blue: wanted, alpha: 1), count: 400),
                                           width: 20, height: 20, strength: 0)
        #expect(Set(flat).count == 1)
    }

    @Test func sixteenColoursKeepPaletteColoursAndTransparencyClean() {
        let red = RGBAImage(width: 20, height: 20, filledWith: (0xCD, 0, 0, 255))
        let options = RenderOptions(columns: 10, rows: 5, colorMode: .palette16, letterbox: false)
        #expect(Self.systemIndices(CoverRenderer.render(red, options: options)).allSatisfy { $0 == 1 })
        let clear = RGBAImage(width: 20, height: 20, filledWith: (200, 100, 0, 0))
        #expect(CoverRenderer.render(clear, options: options).cells.allSatisfy { $0 == .blank })
    }

    @Test func noColourShadesWithALuminanceRamp() {
        let image = Fixtures.bands(width: 3, [(255, 255, 255), (255, 255, 255), (128, 128, 128), (128, 128, 128),
                                              (0, 0, 0), (0, 0, 0)])
        let picture = CoverRenderer.render(image, options: RenderOptions(columns: 3, rows: 3, colorMode: .none))
        #expect(picture.text == ["@@@", "+++", "   "])
        #expect(picture.cells.allSatisfy { $0.foreground == nil && $0.background == nil })
    }

    @Test func asciiSymbolsUseTheCellsBackground() {
        let image = Fixtures.bands(width: 1, [(255, 255, 255), (0, 0, 0)])
        let picture = CoverRenderer.render(image, options: RenderOptions(columns: 1, rows: 1, symbols: .ascii))
        #expect(picture.cells == [PictureCell(glyph: " ", background: .rgb(188, 188, 188))])
    }

    @Test func ansiWritesOneSequencePerColourChangeAndResetsEachLine() {
        var picture = CellPicture(columns: 3, rows: 2)
        let red = CellColor.rgb(255, 0, 0), blue = CellColor.indexed(21)
        picture[0, 0] = PictureCell(glyph: "▀", foreground: red, background: blue)
        picture[1, 0] = PictureCell(glyph: "▀", foreground: red, background: blue)
        picture[2, 0] = PictureCell(glyph: "▀", foreground: blue, background: blue)
        picture[1, 1] = PictureCell(glyph: "▀", foreground: .indexed(3), background: .indexed(12))
        let expected = "\u{1B}[38;2;255;0;0;48;5;21m▀▀ \u{1B}[0m\n"
            + " \u{1B}[33;104m▀\u{1B}[49m \u{1B}[0m\n"
        #expect(picture.ansi() == expected)
    }
}

@Suite struct ColorScienceTests {
    /// Pairs and differences from Sharma, Wu & Dalal's CIEDE2000 test data.
    @Test(arguments: [
        ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
        ((50.0, 3.1571, -77.2803), (50.0, 0.0, -82.7485), 2.8615),
        ((50.0, -1.3802, -84.2814), (50.0, 0.0, -82.7485), 1.0000),
        ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
        ((50.0, 2.5, 0.0), (50.0, 3.2592, 0.3350), 1.0000),
        ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
        ((22.7233, 20.0904, -46.6940), (23.0331, 14.9730, -42.5619), 2.0373),
        ((2.0776, 0.0795, -1.1350), (0.9033, -0.0636, -0.5514), 0.9082),
    ] as [((Double, Double, Double), (Double, Double, Double), Double)])
    func deltaE2000MatchesPublishedValues(first: (Double, Double, Double), second: (Double, Double, Double),
                                          expected: Double) {
        let a = ColorScience.Lab(l: first.0, a: first.1, b: first.2)
        let b = ColorScience.Lab(l: second.0, a: second.1, b: second.2)
        #expect(abs(ColorScience.deltaE2000(a, b) - expected) < 0.0001)
        #expect(abs(ColorScience.deltaE2000(b, a) - expected) < 0.0001)
    }
}
