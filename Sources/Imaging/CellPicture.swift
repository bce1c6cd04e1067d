/// How many colours the terminal shows.
public enum ColorMode: String, Sendable, CaseIterable {
    case truecolor
    case palette256 = "256"
    case palette16 = "16"
    case none
}

/// Which characters a picture is drawn with: `▀` half blocks, or plain ASCII when the
/// terminal's locale cannot show them.
public enum Symbols: String, Sendable, CaseIterable {
    case half
    case ascii
}

/// A terminal colour: 24-bit, or an index into the terminal's palette (0–255).
public enum CellColor: Hashable, Sendable {
    case rgb(UInt8, UInt8, UInt8)
    case indexed(UInt8)
}

/// One character cell of a picture. A nil colour is the terminal's default.
public struct PictureCell: Hashable, Sendable {
    public var glyph: Character
    public var foreground: CellColor?
    public var background: CellColor?

    public init(glyph: Character, foreground: CellColor? = nil, background: CellColor? = nil) {
        self.glyph = glyph
        self.foreground = foreground
        self.background = background
    }

    /// A cell that shows only the terminal's background.
    public static let blank = PictureCell(glyph: " ")

    static let upperHalf: Character = "▀"
    static let lowerHalf: Character = "▄"
}

/// A picture made of character cells, row-major.
public struct CellPicture: Hashable, Sendable {
    public let columns: Int
    public let rows: Int
    public var cells: [PictureCell]

    public init(columns: Int, rows: Int, cells: [PictureCell]) {
        precondition(columns >= 0 && rows >= 0 && cells.count == columns * rows, "cells must be columns × rows")
        self.columns = columns
        self.rows = rows
        self.cells = cells
    }

    public init(columns: Int, rows: Int, filledWith cell: PictureCell = .blank) {
        self.init(columns: columns, rows: rows, cells: Array(repeating: cell, count: max(0, columns * rows)))
    }

    public subscript(column: Int, row: Int) -> PictureCell {
        get { cells[row * columns + column] }
        set { cells[row * columns + column] = newValue }
    }

    /// The picture's rows as plain text, without colours (for tests and `--colors none`).
    public var text: [String] {
        (0..<rows).map { row in String(cells[(row * columns)..<((row + 1) * columns)].map(\.glyph)) }
    }
}

extension CellPicture {
    /// The picture as text with SGR escape sequences: one sequence wherever the colours
    /// change, and a reset at the end of every line that left colours set.
    public func ansi() -> String {
        var output: [UInt8] = []
        appendANSI(to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// `ansi()` as UTF-8 bytes, appended to `output` (no String is built on the way).
    public func appendANSI(to output: inout [UInt8]) {
        output.reserveCapacity(output.count + columns * rows * 40 + rows * 8)
        for row in 0..<rows {
            var foreground: CellColor?
            var background: CellColor?
            for column in 0..<columns {
                var cell = cells[row * columns + column]
                // A half block of one colour is a space: fewer bytes, fewer colour changes.
                if cell.glyph == PictureCell.upperHalf, cell.foreground == cell.background {
                    cell.glyph = " "
                }
                let needsForeground = cell.glyph != " "
                let changesForeground = needsForeground && cell.foreground != foreground
                let changesBackground = cell.background != background
                if changesForeground || changesBackground {
                    output.append(0x1B)
                    output.append(0x5B)
                    if changesForeground {
                        Self.appendSGR(cell.foreground, isBackground: false, to: &output)
                        foreground = cell.foreground
                    }
                    if changesBackground {
                        if changesForeground { output.append(0x3B) }
                        Self.appendSGR(cell.background, isBackground: true, to: &output)
                        background = cell.background
                    }
                    output.append(0x6D)
                }
                Self.appendGlyph(cell.glyph, to: &output)
            }
            if foreground != nil || background != nil {
                output.append(contentsOf: [0x1B, 0x5B, 0x30, 0x6D])
            }
            output.append(0x0A)
        }
    }

    @inline(__always)
    private static func appendGlyph(_ glyph: Character, to output: inout [UInt8]) {
        switch glyph {
        case PictureCell.upperHalf:
            output.append(0xE2)
            output.append(0x96)
            output.append(0x80)
        case PictureCell.lowerHalf:
            output.append(0xE2)
            output.append(0x96)
            output.append(0x84)
        default:
            if let ascii = glyph.asciiValue { output.append(ascii) } else { output.append(contentsOf: glyph.utf8) }
        }
    }

    /// A decimal number of 0...999 without building a String.
    @inline(__always)
    private static func appendNumber(_ value: Int, to output: inout [UInt8]) {
        if value >= 100 { output.append(UInt8(48 + value / 100)) }
        if value >= 10 { output.append(UInt8(48 + value / 10 % 10)) }
        output.append(UInt8(48 + value % 10))
    }

    /// "38;5;" / "48;5;" (kind "5") or "38;2;" / "48;2;" (kind "2").
    @inline(__always)
    private static func appendExtendedPrefix(isBackground: Bool, kind: UInt8, to output: inout [UInt8]) {
        output.append(isBackground ? 0x34 : 0x33)
        output.append(0x38)
        output.append(0x3B)
        output.append(kind)
        output.append(0x3B)
    }

    /// The SGR parameters of one colour, without the trailing ";".
    private static func appendSGR(_ color: CellColor?, isBackground: Bool, to output: inout [UInt8]) {
        switch color {
        case nil:
            appendNumber(isBackground ? 49 : 39, to: &output)
        case .indexed(let index) where index < 8:
            appendNumber((isBackground ? 40 : 30) + Int(index), to: &output)
        case .indexed(let index) where index < 16:
            appendNumber((isBackground ? 100 : 90) + Int(index) - 8, to: &output)
        case .indexed(let index):
            appendExtendedPrefix(isBackground: isBackground, kind: 0x35, to: &output)
            appendNumber(Int(index), to: &output)
        case .rgb(let r, let g, let b):
            appendExtendedPrefix(isBackground: isBackground, kind: 0x32, to: &output)
            appendNumber(Int(r), to: &output)
            output.append(0x3B)
            appendNumber(Int(g), to: &output)
            output.append(0x3B)
            appendNumber(Int(b), to: &output)
        }
    }
}
