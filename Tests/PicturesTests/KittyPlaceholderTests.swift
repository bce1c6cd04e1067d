import Pictures
import Testing

/// kitty's Unicode placeholders, byte for byte.
struct KittyPlaceholderTests {
    static func scalars(_ text: String) -> [UInt32] { text.unicodeScalars.map(\.value) }

    @Test func theDiacriticTableIsTheProtocols() {
        let table = KittyPlaceholders.diacritics.map(\.value)
        #expect(table.count == 297)
        #expect(Array(table.prefix(5)) == [0x0305, 0x030D, 0x030E, 0x0310, 0x0312])
        #expect(table[29] == 0x036F && table[30] == 0x0483)
        #expect(table[78] == 0x06E1 && table[255] == 0xA8E5)
        #expect(Array(table.suffix(3)) == [0x1D242, 0x1D243, 0x1D244])
        #expect(table == table.sorted() && Set(table).count == 297)
    }

    @Test func aCellIsThePlaceholderItsRowAndColumnAndTheIdsHighByte() {
        #expect(Self.scalars(KittyPlaceholders.cell(id: 0x12_3456, row: 0, column: 0)!) == [0x10EEEE, 0x0305, 0x0305])
        #expect(Self.scalars(KittyPlaceholders.cell(id: 0x12_3456, row: 2, column: 5)!) == [0x10EEEE, 0x030E, 0x033D])
        // An id past 24 bits: its highest byte (0x4E) numbered by a third diacritic.
        let high = KittyPlaceholders.cell(id: 0x4E53_0001, row: 1, column: 0)!
        #expect(Self.scalars(high) == [0x10EEEE, 0x030D, 0x0305, 0x06E1])
        #expect(KittyPlaceholders.cell(id: 1, row: 297, column: 0) == nil)
    }

    @Test func theIdIsTheForegroundColourAndThePlacementIsVirtual() {
        #expect(KittyPlaceholders.colour(id: 0x4E53_0001) == (0x53, 0x00, 0x01))
        #expect(String(decoding: KittyPlaceholders.place(id: 0x4E53_0001, columns: 12, rows: 4), as: UTF8.self)
                == "\u{1B}_Ga=p,U=1,i=1314062337,c=12,r=4,q=2\u{1B}\\")
        let cells = KittyPlaceholders.cells(id: 7, column: 1, row: 3, columns: 2, rows: 1)
        #expect(cells.count == 1 && cells[0].count == 2)
        let line = String(decoding: KittyPlaceholders.line(cells[0], id: 7), as: UTF8.self)
        #expect(line == "\u{1B}[38;2;0;0;7m\u{10EEEE}\u{0310}\u{030D}\u{10EEEE}\u{0310}\u{030E}\u{1B}[39m")
    }
}
