/// How a publication's issues are bound, which decides how its cover is dressed.
public enum BindingType: String, Sendable, CaseIterable {
    case magazine, newspaper
}

/// The edge of the cover where the issue is bound (or, for a newspaper, folded).
public enum BindingEdge: String, Sendable, CaseIterable {
    case left, right, bottom
}

/// Touches that make a cell picture look like a printed issue on a stand.
///
/// Every function keeps the picture's size: the adornments are drawn over the outermost
/// cells. Pictures drawn with `Symbols.half` are edited pixel by pixel (two per cell);
/// pass `symbols: .ascii` for pictures drawn with ASCII.
public enum CoverAdornments {
    static let staple: (UInt8, UInt8, UInt8) = (214, 216, 222)
    static let magazinePaper: (UInt8, UInt8, UInt8) = (238, 236, 228)
    static let newsprint: (UInt8, UInt8, UInt8) = (214, 209, 194)
    public static let sashRed: (UInt8, UInt8, UInt8) = (204, 20, 36)
    public static let sashText: (UInt8, UInt8, UInt8) = (255, 255, 255)

    /// A magazine gets staples across its binding edge and a stack of page edges on the
    /// opposite one; a newspaper gets a stacked-paper edge opposite its binding and shading
    /// where the paper folds over along the binding.
    public static func adorn(_ picture: CellPicture, type: BindingType, edge: BindingEdge, mode: ColorMode,
                             symbols: Symbols = .half) -> CellPicture {
        guard picture.columns >= 3, picture.rows >= 2 else { return picture }
        var canvas = PixelCanvas(picture, mode: mode, symbols: symbols)
        switch type {
        case .magazine:
            canvas.drawPageStack(opposite: edge, paper: magazinePaper)
            canvas.drawStaples(on: edge)
        case .newspaper:
            canvas.drawPageStack(opposite: edge, paper: newsprint)
            canvas.shadeFold(along: edge)
        }
        return canvas.picture
    }

    /// A red band across the upper-right corner with `NEW` on it (legible from 12 columns).
    /// `band` and `text` let a theme choose other colours (sRGB).
    public static func newSash(_ picture: CellPicture, mode: ColorMode, symbols: Symbols = .half,
                               band: (UInt8, UInt8, UInt8) = sashRed,
                               text: (UInt8, UInt8, UInt8) = sashText) -> CellPicture {
        guard picture.columns >= 4, picture.rows >= 2 else { return picture }
        var canvas = PixelCanvas(picture, mode: mode, symbols: symbols)
        let width = picture.columns
        let textRow = max(1, min(width / 12, picture.rows - 1))
        let thickness = max(6, width / 4)
        // In pixel units (half-cells, roughly square), s = distance from the corner along
        // the diagonal; the band is offset so its whole-cell part on `textRow` ends at the
        // right edge.
        let offset = 2 * textRow + 1
        for y in 0..<(picture.rows * 2) {
            for x in 0..<width {
                let s = width - x + y
                if s >= offset && s < offset + thickness { canvas.setPixel(x: x, y: y, to: band) }
            }
        }
        let fullCells = thickness - 1
        if fullCells >= 3 {
            let firstColumn = width - fullCells + (fullCells - 3) / 2
            for (index, letter) in "NEW".enumerated() {
                canvas.setText(letter, column: firstColumn + index, row: textRow, foreground: text, background: band)
            }
        }
        return canvas.picture
    }
}

/// Edits a cell picture as pixels: with half blocks each cell is an upper and a lower
/// pixel; with ASCII each cell is one pixel (its background), drawn with a glyph when
/// there is no colour.
struct PixelCanvas {
    private(set) var picture: CellPicture
    let mode: ColorMode
    let symbols: Symbols
    private var quantizer: ColorQuantizer

    init(_ picture: CellPicture, mode: ColorMode, symbols: Symbols) {
        self.picture = picture
        self.mode = mode
        self.symbols = mode == .none ? .ascii : symbols
        self.quantizer = ColorQuantizer(mode: mode)
    }

    var columns: Int { picture.columns }
    var rows: Int { picture.rows }

    private func isHalfBlock(_ cell: PictureCell) -> Bool {
        symbols == .half && (cell.glyph == PictureCell.upperHalf || cell.glyph == PictureCell.lowerHalf
            || cell.glyph == " " || cell.glyph == "█")
    }

    /// The upper and lower colours a half-block cell shows.
    private func pixels(of cell: PictureCell) -> (CellColor?, CellColor?) {
        switch cell.glyph {
        case PictureCell.upperHalf: return (cell.foreground, cell.background)
        case PictureCell.lowerHalf: return (cell.background, cell.foreground)
        case "█": return (cell.foreground, cell.foreground)
        default: return (cell.background, cell.background)
        }
    }

    mutating func color(_ rgb: (UInt8, UInt8, UInt8)) -> CellColor? {
        quantizer.color(r: rgb.0, g: rgb.1, b: rgb.2)
    }

    /// Paints pixel (x, y), y counting half cells from the top.
    mutating func setPixel(x: Int, y: Int, to rgb: (UInt8, UInt8, UInt8), asciiGlyph: Character = "/") {
        guard x >= 0, x < columns, y >= 0, y < rows * 2 else { return }
        let row = y / 2
        let cell = picture[x, row]
        if mode == .none {
            picture[x, row] = PictureCell(glyph: asciiGlyph)
        } else if isHalfBlock(cell) {
            var (upper, lower) = pixels(of: cell)
            if y % 2 == 0 { upper = color(rgb) } else { lower = color(rgb) }
            picture[x, row] = CoverRenderer.halfBlock(upper: upper, lower: lower)
        } else if y % 2 == 1 || symbols == .ascii {
            // One pixel per cell: the lower half decides (the cell's centre is there).
            picture[x, row] = PictureCell(glyph: " ", background: color(rgb))
        }
    }

    mutating func setText(_ glyph: Character, column: Int, row: Int,
                          foreground: (UInt8, UInt8, UInt8), background: (UInt8, UInt8, UInt8)) {
        guard column >= 0, column < columns, row >= 0, row < rows else { return }
        picture[column, row] = PictureCell(glyph: glyph, foreground: color(foreground), background: color(background))
    }

    /// Darkens pixel (x, y) to `factor` of its light (linear).
    mutating func darken(x: Int, y: Int, factor: Double) {
        guard mode != .none, x >= 0, x < columns, y >= 0, y < rows * 2 else { return }
        let row = y / 2
        let cell = picture[x, row]
        guard isHalfBlock(cell) || symbols == .ascii else { return }
        let (upper, lower) = symbols == .ascii ? (cell.background, cell.background) : pixels(of: cell)
        guard let current = (y % 2 == 0 || symbols == .ascii) ? upper : lower else { return }
        let (r, g, b) = rgb(of: current)
        func scaled(_ value: UInt8) -> UInt8 {
            ColorScience.srgb8(fromLinear: ColorScience.linearFromSRGB8[Int(value)] * Float(factor))
        }
        if symbols == .ascii {
            if y % 2 == 1 { picture[x, row] = PictureCell(glyph: cell.glyph, foreground: cell.foreground,
                                                          background: color((scaled(r), scaled(g), scaled(b)))) }
        } else {
            setPixel(x: x, y: y, to: (scaled(r), scaled(g), scaled(b)))
        }
    }

    private func rgb(of color: CellColor) -> (UInt8, UInt8, UInt8) {
        switch color {
        case .rgb(let r, let g, let b): return (r, g, b)
        case .indexed(let index): return Palette.xterm256[Int(index)]
        }
    }

    /// Staples across the spine, at a quarter and three quarters of its length: two
    /// pixels of metal with a pixel of shadow beside them.
    mutating func drawStaples(on edge: BindingEdge) {
        if edge == .bottom {
            let y = rows * 2 - 1
            for x in staplePositions(length: columns) {
                setPixel(x: x, y: y, to: CoverAdornments.staple, asciiGlyph: "|")
                setPixel(x: x, y: y - 1, to: CoverAdornments.staple, asciiGlyph: "|")
                darken(x: x + 1, y: y, factor: 0.45)
                darken(x: x + 1, y: y - 1, factor: 0.45)
            }
            return
        }
        let (spine, inner) = edge == .left ? (0, 1) : (columns - 1, columns - 2)
        for y in staplePositions(length: rows * 2) {
            setPixel(x: spine, y: y, to: CoverAdornments.staple, asciiGlyph: "=")
            setPixel(x: inner, y: y, to: CoverAdornments.staple, asciiGlyph: "=")
            darken(x: spine, y: y + 1, factor: 0.45)
            darken(x: inner, y: y + 1, factor: 0.45)
        }
    }

    private func staplePositions(length: Int) -> [Int] {
        length < 8 ? [length / 2 - 1] : [length / 4 - 1, (3 * length) / 4 - 1]
    }

    /// The edges of the pages under the cover, showing past the edge opposite the binding.
    mutating func drawPageStack(opposite edge: BindingEdge, paper: (UInt8, UInt8, UInt8)) {
        let shade = (UInt8(Double(paper.0) * 0.8), UInt8(Double(paper.1) * 0.8), UInt8(Double(paper.2) * 0.8))
        switch edge {
        case .left, .right:
            let column = edge == .left ? columns - 1 : 0
            for row in 0..<rows {
                let cell = picture[column, row]
                if mode == .none {
                    picture[column, row] = PictureCell(glyph: edge == .left ? "]" : "[")
                    continue
                }
                let (upper, lower) = isHalfBlock(cell) ? pixels(of: cell) : (cell.background, cell.background)
                let cover = upper ?? lower
                // The stack stands a little lower than the cover, in the cover's shadow at the bottom.
                let page = row == 0 ? nil : color(row == rows - 1 ? shade : paper)
                // Half the cell keeps the cover; the other half shows the paper behind it.
                let glyph: Character = symbols == .ascii ? (edge == .left ? "|" : "|")
                    : (edge == .left ? "▌" : "▐")
                picture[column, row] = PictureCell(glyph: glyph, foreground: cover, background: page)
            }
        case .bottom:
            // Bound at the bottom: the stack shows along the top edge.
            for x in 0..<columns {
                if mode == .none {
                    picture[x, 0] = PictureCell(glyph: "_")
                    continue
                }
                setPixel(x: x, y: 0, to: x == 0 ? shade : paper, asciiGlyph: "_")
            }
        }
    }

    /// The paper curving over along the binding: darker towards the edge.
    mutating func shadeFold(along edge: BindingEdge) {
        let factors = [0.55, 0.72, 0.86]
        for (distance, factor) in factors.enumerated() {
            switch edge {
            case .bottom:
                for x in 0..<columns { darken(x: x, y: rows * 2 - 1 - distance, factor: factor) }
            case .left, .right:
                let x = edge == .left ? distance : columns - 1 - distance
                for y in 0..<(rows * 2) { darken(x: x, y: y, factor: factor) }
            }
        }
    }
}
