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
        output.reserveCapacity(columns * rows * 24 + rows * 8)
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
                var changes: [UInt8] = []
                if needsForeground, cell.foreground != foreground {
                    appendSGR(cell.foreground, isBackground: false, to: &changes)
                    foreground = cell.foreground
                }
                if cell.background != background {
                    appendSGR(cell.background, isBackground: true, to: &changes)
                    background = cell.background
                }
                if !changes.isEmpty {
                    output.append(contentsOf: [0x1B, 0x5B])
                    output.append(contentsOf: changes.dropLast())  // the trailing ";"
                    output.append(0x6D)
                }
                output.append(contentsOf: String(cell.glyph).utf8)
            }
            if foreground != nil || background != nil {
                output.append(contentsOf: [0x1B, 0x5B, 0x30, 0x6D])
            }
            output.append(0x0A)
        }
        return String(decoding: output, as: UTF8.self)
    }

    private func appendSGR(_ color: CellColor?, isBackground: Bool, to output: inout [UInt8]) {
        func number(_ value: Int) {
            output.append(contentsOf: String(value).utf8)
            output.append(0x3B)
        }
        switch color {
        case nil:
            number(isBackground ? 49 : 39)
        case .indexed(let index) where index < 8:
            number((isBackground ? 40 : 30) + Int(index))
        case .indexed(let index) where index < 16:
            number((isBackground ? 100 : 90) + Int(index) - 8)
        case .indexed(let index):
            number(isBackground ? 48 : 38)
            number(5)
            number(Int(index))
        case .rgb(let r, let g, let b):
            number(isBackground ? 48 : 38)
            number(2)
            number(Int(r))
            number(Int(g))
            number(Int(b))
        }
    }
}
