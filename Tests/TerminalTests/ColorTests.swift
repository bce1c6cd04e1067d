import Testing
@testable import Terminal

@Suite struct ColorTests {
    @Test func paletteEntriesFollowXterm() {
        #expect(Palette.rgb(ofIndex: 16) == (0, 0, 0))
        #expect(Palette.rgb(ofIndex: 196) == (255, 0, 0))
        #expect(Palette.rgb(ofIndex: 67) == (95, 135, 175))
        #expect(Palette.rgb(ofIndex: 231) == (255, 255, 255))
        #expect(Palette.rgb(ofIndex: 232) == (8, 8, 8))
        #expect(Palette.rgb(ofIndex: 255) == (238, 238, 238))
    }

    @Test func everyExtendedPaletteColourIsItsOwnNearest() {
        for index in 16...255 {
            let c = Palette.rgb(ofIndex: UInt8(index))
            #expect(Palette.nearest256(r: c.r, g: c.g, b: c.b) == UInt8(index), "\(index)")
        }
    }

    @Test func nearest256OfSomeColours() {
        #expect(Palette.nearest256(r: 250, g: 5, b: 5) == 196)      // red → the cube's red
        #expect(Palette.nearest256(r: 0, g: 0, b: 0) == 16)         // black, not 0 (users retheme 0–15)
        #expect(Palette.nearest256(r: 128, g: 128, b: 128) == 244)  // a grey lands on the grey ramp
        #expect(Palette.nearest256(r: 100, g: 135, b: 170) == 67)
        #expect(Palette.nearest256(r: 0xd0, g: 0x1c, b: 0x1c) == 160) // classic's sash red
        // Near-greys go to the grey ramp rather than a tinted cube colour.
        let wall = Palette.nearest256(r: 0x2b, g: 0x24, b: 0x1f)
        #expect((232...255).contains(Int(wall)))
    }

    @Test func oklabDistanceBeatsRGBWhereTheyDisagree() {
        // A dark saturated blue: RGB distance prefers a grey, OKLab keeps it blue.
        let chosen = Palette.rgb(ofIndex: Palette.nearest256(r: 20, g: 20, b: 90))
        #expect(chosen.b > chosen.r + 40)
    }

    @Test func nearest16UsesOnlyTheBasicColours() {
        #expect(Palette.nearest16(r: 255, g: 0, b: 0) == 9)
        #expect(Palette.nearest16(r: 200, g: 0, b: 0) == 1)
        #expect(Palette.nearest16(r: 255, g: 0, b: 0, count: 8) == 1)
        #expect(Palette.nearest16(r: 250, g: 250, b: 250) == 15)
        #expect(Palette.nearest16(r: 250, g: 250, b: 250, count: 8) == 7)
    }

    @Test func mapperPerMode() {
        var direct = ColorMapper(colors: .direct)
        #expect(direct.index(for: .rgb(0x12, 0x34, 0x56)) == 0x123456)
        #expect(direct.index(for: .rgb(0, 0, 5)) == 0x010101)   // 0–7 would be palette entries
        #expect(direct.index(for: .indexed(3)) == 3)
        #expect(direct.index(for: .indexed(196)) == 0xff0000)
        #expect(direct.index(for: .default) == -1)

        var palette = ColorMapper(colors: .palette256)
        #expect(palette.index(for: .rgb(255, 0, 0)) == 196)
        #expect(palette.index(for: .indexed(7)) == 7)
        #expect(palette.index(for: .default) == -1)

        var basic = ColorMapper(colors: .palette16)
        #expect(basic.index(for: .rgb(255, 0, 0)) == 9)
        #expect(basic.index(for: .indexed(196)) == 9)
        #expect(basic.index(for: .indexed(4)) == 4)
        var eight = ColorMapper(colors: .palette16, basicColors: 8)
        #expect(eight.index(for: .indexed(9)) == 1)

        var mono = ColorMapper(colors: .monochrome)
        #expect(mono.index(for: .rgb(255, 0, 0)) == -1)
        #expect(mono.index(for: .indexed(4)) == -1)
    }

    @Test func thePoorerOfTwoDepths() {
        #expect(TerminalColors.direct.poorer(.palette256) == .palette256)
        #expect(TerminalColors.monochrome.poorer(.direct) == .monochrome)
    }
}

@Suite struct PaletteSearchTests {
    @Test func theFastSearchAgreesWithAFullScan() {
        var generator = SplitMix(seed: 7)
        for _ in 0..<3000 {
            let v = generator.next()
            let (r, g, b) = (UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v >> 16))
            #expect(Palette.nearest256(r: r, g: g, b: b) == Palette.nearest256ByFullScan(r: r, g: g, b: b), "\(r),\(g),\(b)")
        }
    }
}

/// A small deterministic generator, so a failure names a colour that fails again.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
