import Terminal

/// kitty's Unicode placeholders (kitty 0.28 and later): a picture sent as usual is given a
/// virtual placement (`U=1`), and shown wherever the text holds placeholder cells naming it:
/// U+10EEEE with a diacritic for its row and one for its column, coloured with the id (its
/// lowest three bytes as a 24-bit foreground; the highest as a third diacritic). Being
/// text, the cells scroll and clip with the text, tmux's panes and scrollback included.
public enum KittyPlaceholders {
    /// How placeholder cells carry their picture's id in their foreground colour: as a
    /// 24-bit colour (the id's lowest three bytes), or, where ncurses draws in 256 colours,
    /// as a palette index (the id's lowest byte, its middle bytes 0). The highest byte is a
    /// diacritic either way.
    public enum IDColours: Sendable, Equatable {
        case direct, palette256

        /// How ids can be coloured when the screen is drawn in `colors`; nil when they
        /// cannot (16 colours or none: the id would be lost).
        public init?(drawing colors: TerminalColors) {
            switch colors {
            case .direct: self = .direct
            case .palette256: self = .palette256
            case .palette16, .monochrome: return nil
            }
        }
    }

    /// `kitty_placeholders` in config.toml: `auto` (when detection finds kitty 0.28 or
    /// later), `on` (a terminal that has them but does not say so: another kitty-protocol
    /// terminal, a kitty behind ssh's XTVERSION), `off`.
    public enum Choice: String, Sendable, CaseIterable {
        case auto, on, off
    }

    /// How the shelf's pictures name their ids when drawn as placeholder cells; nil when
    /// they are placed at the cursor instead: the protocol is not kitty, the choice or the
    /// detection says no, or ncurses draws in too few colours to carry an id.
    public static func idColours(graphics: GraphicsProtocol, choice: Choice, detected: Bool,
                                 drawing colors: TerminalColors) -> IDColours? {
        guard graphics == .kitty else { return nil }
        switch choice {
        case .off: return nil
        case .auto where !detected: return nil
        case .auto, .on: return IDColours(drawing: colors)
        }
    }

    /// The id picture `number` (a painter's number, from 1) is sent under. Far from 1, where
    /// other programs in the window start, and from `PixelPlacer.firstID` (0x4E53_0001 up,
    /// pictures placed at the cursor): 0x5053_0000 + number in 24-bit colour; in 256
    /// colours the index runs 16…255 (0–15 follow the user's theme: SGR 30–37 may not read
    /// as an index) and the highest byte counts up from 0x50, never 0.
    public static func id(picture number: Int, colours: IDColours) -> UInt32 {
        let k = max(0, number - 1)
        switch colours {
        case .direct:
            return 0x5053_0000 &+ UInt32(truncatingIfNeeded: (k % 0xAC_FFFF) + 1)
        case .palette256:
            let high = 1 + (0x4F + k / 240) % 255
            return UInt32(high) << 24 | UInt32(16 + k % 240)
        }
    }

    /// The foreground colour that names `id` in its cells.
    public static func foreground(id: UInt32, colours: IDColours) -> Color {
        switch colours {
        case .direct:
            let (red, green, blue) = colour(id: id)
            return .rgb(red, green, blue)
        case .palette256:
            return .indexed(UInt8(truncatingIfNeeded: id))
        }
    }

    /// The placeholder character.
    public static let placeholder: Unicode.Scalar = "\u{10EEEE}"

    /// The diacritics that number rows and columns, 0 first: the combining marks of class
    /// 230 in Unicode 6.0 without decompositions, less those normalisation fuses with
    /// letters (the protocol's table: 297 of them).
    public static let diacritics: [Unicode.Scalar] = [
        0x0305...0x0305, 0x030D...0x030E, 0x0310...0x0310, 0x0312...0x0312, 0x033D...0x033F, 0x0346...0x0346,
        0x034A...0x034C, 0x0350...0x0352, 0x0357...0x0357, 0x035B...0x035B, 0x0363...0x036F, 0x0483...0x0487,
        0x0592...0x0595, 0x0597...0x0599, 0x059C...0x05A1, 0x05A8...0x05A9, 0x05AB...0x05AC, 0x05AF...0x05AF,
        0x05C4...0x05C4, 0x0610...0x0617, 0x0657...0x065B, 0x065D...0x065E, 0x06D6...0x06DC, 0x06DF...0x06E2,
        0x06E4...0x06E4, 0x06E7...0x06E8, 0x06EB...0x06EC, 0x0730...0x0730, 0x0732...0x0733, 0x0735...0x0736,
        0x073A...0x073A, 0x073D...0x073D, 0x073F...0x0741, 0x0743...0x0743, 0x0745...0x0745, 0x0747...0x0747,
        0x0749...0x074A, 0x07EB...0x07F1, 0x07F3...0x07F3, 0x0816...0x0819, 0x081B...0x0823, 0x0825...0x0827,
        0x0829...0x082D, 0x0951...0x0951, 0x0953...0x0954, 0x0F82...0x0F83, 0x0F86...0x0F87, 0x135D...0x135F,
        0x17DD...0x17DD, 0x193A...0x193A, 0x1A17...0x1A17, 0x1A75...0x1A7C, 0x1B6B...0x1B6B, 0x1B6D...0x1B73,
        0x1CD0...0x1CD2, 0x1CDA...0x1CDB, 0x1CE0...0x1CE0, 0x1DC0...0x1DC1, 0x1DC3...0x1DC9, 0x1DCB...0x1DCC,
        0x1DD1...0x1DE6, 0x1DFE...0x1DFE, 0x20D0...0x20D1, 0x20D4...0x20D7, 0x20DB...0x20DC, 0x20E1...0x20E1,
        0x20E7...0x20E7, 0x20E9...0x20E9, 0x20F0...0x20F0, 0x2CEF...0x2CF1, 0x2DE0...0x2DFF, 0xA66F...0xA66F,
        0xA67C...0xA67D, 0xA6F0...0xA6F1, 0xA8E0...0xA8F1, 0xAAB0...0xAAB0, 0xAAB2...0xAAB3, 0xAAB7...0xAAB8,
        0xAABE...0xAABF, 0xAAC1...0xAAC1, 0xFE20...0xFE26, 0x10A0F...0x10A0F, 0x10A38...0x10A38,
        0x1D185...0x1D189, 0x1D1AA...0x1D1AD, 0x1D242...0x1D244,
    ].flatMap { (range: ClosedRange<UInt32>) in range.compactMap(Unicode.Scalar.init) }

    /// The most rows or columns one placement can number.
    public static var largest: Int { diacritics.count }

    /// The escape that makes a virtual placement of the picture sent as `id`, `columns` ×
    /// `rows` cells: nothing is drawn until placeholder cells name it.
    public static func place(id: UInt32, columns: Int, rows: Int) -> [UInt8] {
        Array("\u{1B}_Ga=p,U=1,i=\(id),c=\(columns),r=\(rows),q=2\u{1B}\\".utf8)
    }

    /// The foreground colour placeholder cells of `id` carry: its lowest three bytes.
    public static func colour(id: UInt32) -> (red: UInt8, green: UInt8, blue: UInt8) {
        (UInt8(truncatingIfNeeded: id >> 16), UInt8(truncatingIfNeeded: id >> 8), UInt8(truncatingIfNeeded: id))
    }

    /// The text of the placeholder cell at `row` and `column` of picture `id` (nil past
    /// `largest`): the character, the row's and the column's diacritics, and the id's highest
    /// byte's when it is not 0.
    public static func cell(id: UInt32, row: Int, column: Int) -> String? {
        guard diacritics.indices.contains(row), diacritics.indices.contains(column) else { return nil }
        var scalars = String.UnicodeScalarView([placeholder, diacritics[row], diacritics[column]])
        let high = Int(id >> 24)
        if high != 0 { scalars.append(diacritics[high]) }
        return String(scalars)
    }

    /// The placeholder cells of the part of picture `id` that starts at its cell (`column`,
    /// `row`) and is `columns` × `rows` cells, row by row.
    public static func cells(id: UInt32, column: Int = 0, row: Int = 0, columns: Int, rows: Int) -> [[String]] {
        (row..<row + rows).map { y in (column..<column + columns).map { x in cell(id: id, row: y, column: x) ?? " " } }
    }

    /// The bytes a terminal is sent for one row of placeholder cells: the id's colour as a
    /// 24-bit foreground, the cells, the colour reset.
    public static func line(_ cells: [String], id: UInt32) -> [UInt8] {
        let (red, green, blue) = colour(id: id)
        return Array("\u{1B}[38;2;\(red);\(green);\(blue)m\(cells.joined())\u{1B}[39m".utf8)
    }
}
