/// What a picture is drawn into.
public struct RenderOptions: Hashable, Sendable {
    /// The largest picture allowed, in character cells.
    public var columns: Int
    public var rows: Int
    public var colorMode: ColorMode
    public var symbols: Symbols
    /// Width ÷ height of one character cell (about 0.5 in most terminal fonts).
    public var cellAspect: Double
    /// true: the picture is exactly `columns` × `rows`, the cover centred on the terminal
    /// background; false: the picture is only as large as the cover needs.
    public var letterbox: Bool

    public init(columns: Int, rows: Int, colorMode: ColorMode = .truecolor, symbols: Symbols = .half,
                cellAspect: Double = 0.5, letterbox: Bool = true) {
        self.columns = columns
        self.rows = rows
        self.colorMode = colorMode
        self.symbols = symbols
        self.cellAspect = cellAspect
        self.letterbox = letterbox
    }

    /// The pixel size a cover is resampled to at most (two pixels per cell, one above the
    /// other); an image fills the part of it its shape allows (`frameSize`).
    public var pixelSize: (width: Int, height: Int) { (max(columns, 1), max(rows, 1) * 2) }

    /// `cellAspect` kept to sane values (0.5 when it is not a positive number).
    var usableCellAspect: Double {
        cellAspect.isFinite && cellAspect > 0 ? min(max(cellAspect, 0.05), 20) : 0.5
    }
}

/// Turns images into cell pictures: `▀` half blocks whose foreground is the upper pixel
/// and background the lower one, each pixel the exact linear-light average of the part
/// of the image it covers.
public enum CoverRenderer {
    /// Covers more extreme than 1:2 or 2:1 are letterboxed inside a frame of that shape,
    /// so that a banner or a strip still gets a usable amount of space.
    public static let aspectRange: ClosedRange<Double> = 0.5...2.0

    /// Cells the cover occupies within `options.columns` × `options.rows`.
    public static func frameSize(imageWidth: Int, imageHeight: Int,
                                 options: RenderOptions) -> (columns: Int, rows: Int) {
        let columns = max(options.columns, 1), rows = max(options.rows, 1)
        guard imageWidth > 0, imageHeight > 0 else { return (columns, rows) }
        let cellAspect = options.usableCellAspect
        let aspect = min(max(Double(imageWidth) / Double(imageHeight), aspectRange.lowerBound),
                         aspectRange.upperBound)
        if aspect * Double(rows) >= Double(columns) * cellAspect {
            let fitted = Int((Double(columns) * cellAspect / aspect).rounded())
            return (columns, min(max(fitted, 1), rows))
        }
        let fitted = Int((Double(rows) * aspect / cellAspect).rounded())
        return (min(max(fitted, 1), columns), rows)
    }

    public static func render(_ image: RGBAImage, options: RenderOptions) -> CellPicture {
        let frame = frameSize(imageWidth: image.width, imageHeight: image.height, options: options)
        let pixels = framePixels(image, frame: frame, cellAspect: options.usableCellAspect)
        var picture = cells(from: pixels, frame: frame, options: options)
        if options.letterbox && (frame.columns != options.columns || frame.rows != options.rows) {
            picture = centred(picture, columns: max(options.columns, 1), rows: max(options.rows, 1))
        }
        return picture
    }

    /// Premultiplied linear RGBA for the frame's `columns` × 2·`rows` pixels, the image
    /// centred in it (transparent bars when its aspect is outside `aspectRange`).
    static func framePixels(_ image: RGBAImage, frame: (columns: Int, rows: Int), cellAspect: Double) -> [Float] {
        let width = frame.columns, height = frame.rows * 2
        guard image.width > 0, image.height > 0 else { return [Float](repeating: 0, count: width * height * 4) }
        let aspect = Double(image.width) / Double(image.height)
        var imageWidth = width, imageHeight = height
        // Within the aspect range the frame was sized for the image: fill it (rounding to
        // whole cells distorts by less than half a cell). Outside, letterbox.
        if !aspectRange.contains(aspect) {
            // Half a cell is cellAspect wide for each 0.5 of height.
            let pixelAspect = cellAspect * 2
            let frameAspect = Double(width) * pixelAspect / Double(height)
            if aspect > frameAspect {
                imageHeight = min(height, max(1, Int((Double(width) * pixelAspect / aspect).rounded())))
            } else {
                imageWidth = min(width, max(1, Int((Double(height) * aspect / pixelAspect).rounded())))
            }
        }
        let averaged = AreaResampler.average(image, width: imageWidth, height: imageHeight)
        if imageWidth == width && imageHeight == height { return averaged }
        var pixels = [Float](repeating: 0, count: width * height * 4)
        let left = (width - imageWidth) / 2, top = (height - imageHeight) / 2
        for y in 0..<imageHeight {
            let from = y * imageWidth * 4
            let to = ((top + y) * width + left) * 4
            pixels.replaceSubrange(to..<(to + imageWidth * 4), with: averaged[from..<(from + imageWidth * 4)])
        }
        return pixels
    }

    /// Coverage below which a pixel shows the terminal's background.
    static let opaqueThreshold: Float = 0.5

    static func cells(from pixels: [Float], frame: (columns: Int, rows: Int), options: RenderOptions) -> CellPicture {
        if options.colorMode == .palette16 { return ditheredCells(from: pixels, frame: frame, options: options) }
        var quantizer = ColorQuantizer(mode: options.colorMode)
        var cells = [PictureCell]()
        cells.reserveCapacity(frame.columns * frame.rows)
        let rowLength = frame.columns * 4
        for row in 0..<frame.rows {
            for column in 0..<frame.columns {
                let top = (row * 2) * rowLength + column * 4
                let bottom = top + rowLength
                let upper = LinearPixel(pixels, at: top), lower = LinearPixel(pixels, at: bottom)
                if options.colorMode == .none {
                    cells.append(PictureCell(glyph: Self.shade(upper, lower)))
                } else if options.symbols == .ascii {
                    let mean = LinearPixel(mixing: upper, lower)
                    cells.append(PictureCell(glyph: " ", background: quantizer.color(mean)))
                } else {
                    cells.append(halfBlock(upper: quantizer.color(upper), lower: quantizer.color(lower)))
                }
            }
        }
        return CellPicture(columns: frame.columns, rows: frame.rows, cells: cells)
    }

    /// 16 colours: the colours that will show (every half cell, or every cell's mean with
    /// ASCII symbols) are chosen together by error diffusion.
    static func ditheredCells(from pixels: [Float], frame: (columns: Int, rows: Int),
                              options: RenderOptions) -> CellPicture {
        let rowLength = frame.columns * 4
        var grid: [LinearPixel] = []
        let halves = options.symbols == .half
        grid.reserveCapacity(frame.columns * frame.rows * (halves ? 2 : 1))
        if halves {
            for offset in stride(from: 0, to: rowLength * frame.rows * 2, by: 4) { grid.append(LinearPixel(pixels, at: offset)) }
        } else {
            for row in 0..<frame.rows {
                for column in 0..<frame.columns {
                    let top = (row * 2) * rowLength + column * 4
                    grid.append(LinearPixel(mixing: LinearPixel(pixels, at: top), LinearPixel(pixels, at: top + rowLength)))
                }
            }
        }
        let indices = Dithering.systemIndices(grid, width: frame.columns, height: halves ? frame.rows * 2 : frame.rows)
        var cells = [PictureCell]()
        cells.reserveCapacity(frame.columns * frame.rows)
        for row in 0..<frame.rows {
            for column in 0..<frame.columns {
                if halves {
                    let upper = indices[(row * 2) * frame.columns + column].map(CellColor.indexed)
                    let lower = indices[(row * 2 + 1) * frame.columns + column].map(CellColor.indexed)
                    cells.append(halfBlock(upper: upper, lower: lower))
                } else {
                    cells.append(PictureCell(glyph: " ", background: indices[row * frame.columns + column].map(CellColor.indexed)))
                }
            }
        }
        return CellPicture(columns: frame.columns, rows: frame.rows, cells: cells)
    }

    static func halfBlock(upper: CellColor?, lower: CellColor?) -> PictureCell {
        switch (upper, lower) {
        case (nil, nil): return .blank
        case (nil, let lower?): return PictureCell(glyph: PictureCell.lowerHalf, foreground: lower)
        default: return PictureCell(glyph: PictureCell.upperHalf, foreground: upper, background: lower)
        }
    }

    /// ASCII glyphs from empty to dense: light pixels get dense glyphs, as on the dark
    /// background most terminals have.
    static let shadeRamp: [Character] = Array(" .:-=+*#%@")

    static func shade(_ upper: LinearPixel, _ lower: LinearPixel) -> Character {
        let mean = LinearPixel(mixing: upper, lower)
        guard mean.alpha >= opaqueThreshold else { return " " }
        let luminance = Double(0.2126 * mean.red + 0.7152 * mean.green + 0.0722 * mean.blue) / Double(mean.alpha)
        let lightness = ColorScience.lightness(luminance: min(max(luminance, 0), 1))
        let index = Int((lightness / 100 * Double(shadeRamp.count - 1)).rounded())
        return shadeRamp[min(max(index, 0), shadeRamp.count - 1)]
    }

    static func centred(_ picture: CellPicture, columns: Int, rows: Int) -> CellPicture {
        var result = CellPicture(columns: columns, rows: rows)
        let left = (columns - picture.columns) / 2, top = (rows - picture.rows) / 2
        for row in 0..<picture.rows {
            for column in 0..<picture.columns {
                result[left + column, top + row] = picture[column, row]
            }
        }
        return result
    }
}

/// One premultiplied linear-light pixel.
struct LinearPixel {
    var red: Float, green: Float, blue: Float, alpha: Float

    init(_ pixels: [Float], at offset: Int) {
        red = pixels[offset]
        green = pixels[offset + 1]
        blue = pixels[offset + 2]
        alpha = pixels[offset + 3]
    }

    init(red: Float, green: Float, blue: Float, alpha: Float) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    init(mixing first: LinearPixel, _ second: LinearPixel) {
        self.init(red: (first.red + second.red) / 2, green: (first.green + second.green) / 2,
                  blue: (first.blue + second.blue) / 2, alpha: (first.alpha + second.alpha) / 2)
    }

    /// The 8-bit sRGB colour, or nil when mostly transparent.
    var srgb8: (UInt8, UInt8, UInt8)? {
        guard alpha >= CoverRenderer.opaqueThreshold else { return nil }
        let scale = alpha >= 0.999 ? 1 : 1 / alpha
        return (ColorScience.srgb8(fromLinear: red * scale), ColorScience.srgb8(fromLinear: green * scale),
                ColorScience.srgb8(fromLinear: blue * scale))
    }
}

/// Chooses terminal colours for pixels in one colour mode, remembering earlier choices
/// (covers repeat colours a lot, and a palette search costs microseconds).
struct ColorQuantizer {
    let mode: ColorMode
    private var chosen: [UInt32: UInt8] = [:]

    init(mode: ColorMode) { self.mode = mode }

    mutating func color(_ pixel: LinearPixel) -> CellColor? {
        guard let (r, g, b) = pixel.srgb8 else { return nil }
        return color(r: r, g: g, b: b)
    }

    mutating func color(r: UInt8, g: UInt8, b: UInt8) -> CellColor? {
        switch mode {
        case .truecolor: return .rgb(r, g, b)
        case .none: return nil
        case .palette256, .palette16:
            let key = UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
            if let index = chosen[key] { return .indexed(index) }
            let index = mode == .palette256 ? Palette.nearest256(r: r, g: g, b: b) : Palette.nearest16(r: r, g: g, b: b)
            chosen[key] = index
            return .indexed(index)
        }
    }
}
