import Testing
@testable import Imaging

@Suite struct CoverAdornmentsTests {
    static let green = CellColor.rgb(20, 140, 60)

    static func plainCover(columns: Int, rows: Int) -> CellPicture {
        CellPicture(columns: columns, rows: rows,
                    filledWith: PictureCell(glyph: "▀", foreground: green, background: green))
    }

    @Test(arguments: [12, 16, 30])
    func newSashIsRedWithLegibleNEW(columns: Int) throws {
        let cover = Self.plainCover(columns: columns, rows: columns * 3 / 4)
        let sashed = CoverAdornments.newSash(cover, mode: .truecolor)
        #expect(sashed.columns == cover.columns && sashed.rows == cover.rows)
        let row = try #require(sashed.text.firstIndex { $0.contains("NEW") })
        #expect(row <= 2)
        let start = try #require(sashed.text[row].range(of: "NEW")).lowerBound.utf16Offset(in: sashed.text[row])
        #expect(start >= columns / 2)
        for column in start..<(start + 3) {
            #expect(sashed[column, row].foreground == .rgb(255, 255, 255))
            #expect(sashed[column, row].background == .rgb(204, 20, 36))
        }
        // The band runs diagonally: red right of the letters on the row above, the
        // far corner of the cover untouched.
        #expect(sashed[columns - 1, row + 1].foreground != Self.green || sashed[columns - 1, row + 1].background != Self.green
                || row + 1 >= sashed.rows)
        #expect(sashed[0, sashed.rows - 1] == cover[0, cover.rows - 1])
        #expect(sashed[columns - 1, 0].foreground == Self.green)
    }

    @Test func newSashIn256ColoursUsesPaletteColours() {
        let sashed = CoverAdornments.newSash(Self.plainCover(columns: 12, rows: 9), mode: .palette256)
        let letters = sashed.cells.filter { "NEW".contains($0.glyph) }
        #expect(letters.count == 3)
        #expect(letters.allSatisfy { $0.foreground == .indexed(231) && $0.background == .indexed(160) })
    }

    @Test func newSashTakesAThemesColours() {
        let sashed = CoverAdornments.newSash(Self.plainCover(columns: 12, rows: 9), mode: .truecolor,
                                             band: (0, 90, 200), text: (250, 250, 0))
        let letters = sashed.cells.filter { "NEW".contains($0.glyph) }
        #expect(letters.count == 3)
        #expect(letters.allSatisfy { $0.foreground == .rgb(250, 250, 0) && $0.background == .rgb(0, 90, 200) })
    }

    @Test func newSashWithoutColourIsStillLegible() {
        let cover = CellPicture(columns: 12, rows: 9, filledWith: PictureCell(glyph: ":"))
        let sashed = CoverAdornments.newSash(cover, mode: .none)
        #expect(sashed.text.contains { $0.contains("NEW") })
        #expect(sashed.text[0].contains("/"))
    }

    @Test func magazineGetsStaplesOnTheBindingAndPagesOpposite() {
        let cover = Self.plainCover(columns: 20, rows: 16)
        let adorned = CoverAdornments.adorn(cover, type: .magazine, edge: .left, mode: .truecolor)
        #expect(adorned.columns == 20 && adorned.rows == 16)
        let staple = CellColor.rgb(214, 216, 222)
        let stapleRows = (0..<16).filter { adorned[0, $0].foreground == staple || adorned[0, $0].background == staple }
        #expect(stapleRows.count == 2)
        #expect((0..<16).allSatisfy { adorned[19, $0].glyph == "▌" })
        #expect((1..<16).allSatisfy { adorned[19, $0].background != nil })
        #expect(adorned[10, 8] == cover[10, 8])

        let mirrored = CoverAdornments.adorn(cover, type: .magazine, edge: .right, mode: .truecolor)
        #expect((0..<16).allSatisfy { mirrored[0, $0].glyph == "▐" })
    }

    @Test func newspaperGetsAPaperEdgeAndAFoldShadedAlongTheBottom() {
        let cover = Self.plainCover(columns: 20, rows: 10)
        let adorned = CoverAdornments.adorn(cover, type: .newspaper, edge: .bottom, mode: .truecolor)
        // Paper on the top edge.
        #expect((0..<20).allSatisfy { adorned[$0, 0].foreground != Self.green })
        // Darker towards the fold.
        func green(_ color: CellColor?) -> Int { if case .rgb(_, let g, _)? = color { return Int(g) } else { return -1 } }
        let bottom = adorned[10, 9], above = adorned[10, 8]
        #expect(green(bottom.background) < green(bottom.foreground))
        #expect(green(bottom.foreground) < green(above.background))
        #expect(green(above.background) < 140)
        #expect(adorned[10, 4] == cover[10, 4])
    }

    @Test func tinyPicturesAreLeftAlone() {
        let tiny = Self.plainCover(columns: 2, rows: 1)
        #expect(CoverAdornments.adorn(tiny, type: .magazine, edge: .left, mode: .truecolor) == tiny)
        #expect(CoverAdornments.newSash(tiny, mode: .truecolor) == tiny)
    }
}
