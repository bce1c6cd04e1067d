import Foundation
import Imaging
import Terminal

/// What a cover wears over its picture on the shelf and in the store: its binding's
/// adornments and the NEW sash. In pixels they are drawn into the picture before it is
/// encoded, so the sash and its word stay on the cover whatever protocol shows it (a
/// picture in pixels hides the cells under it: text drawn there would not be seen), in
/// the places and colours `CoverAdornments` gives them in half blocks, only sharper.
public struct CoverDress: Hashable, Sendable {
    public var binding: BindingType?
    public var edge: BindingEdge
    public var sash: Bool
    /// Regions of the picture marked as a highlighter marks paper (a search's matches and
    /// the reader's highlights on a page), in the order drawn: into the pixels, where cells
    /// coloured over them would not be seen.
    public var marks: [PageMarkPaint]

    public init(binding: BindingType? = nil, edge: BindingEdge = .left, sash: Bool = false, marks: [PageMarkPaint] = []) {
        self.binding = binding
        self.edge = edge
        self.sash = sash
        self.marks = marks
    }

    /// Nothing over the picture.
    public static let plain = CoverDress()

    /// `image`, a cover fitted into cells of `cell` pixels, dressed. The geometry is the
    /// half-block one (`CoverAdornments`) measured in half cells ("dots"), so a cover looks
    /// the same in both, at the resolution of its pixels.
    public func dressed(_ image: RGBAImage, cell: PixelSize) -> RGBAImage {
        let columns = (image.width + cell.width - 1) / max(1, cell.width)
        let rows = (image.height + cell.height - 1) / max(1, cell.height)
        var dots = DotImage(image: image, cell: cell)
        if let binding, columns >= 3, rows >= 2 {
            switch binding {
            case .magazine:
                dots.pageStack(opposite: edge, paper: Self.magazinePaper, columns: columns, rows: rows)
                dots.staples(on: edge, columns: columns, rows: rows)
            case .newspaper:
                dots.pageStack(opposite: edge, paper: Self.newsprint, columns: columns, rows: rows)
                dots.fold(along: edge)
            }
        }
        if sash, columns >= 4, rows >= 2 { dots.sash(columns: columns, rows: rows) }
        for mark in marks {
            if mark.underline { dots.underline(mark.region, with: mark.rgb) } else { dots.highlight(mark.region, with: mark.rgb) }
        }
        return dots.image
    }

    static let magazinePaper: (UInt8, UInt8, UInt8) = (238, 236, 228)
    static let newsprint: (UInt8, UInt8, UInt8) = (214, 209, 194)
    static let staple: (UInt8, UInt8, UInt8) = (214, 216, 222)
    /// The marks' colour: the reader's match colour (`Theme.readerMatch`'s background).
    public static let marker: (UInt8, UInt8, UInt8) = (0xff, 0xe0, 0x40)
    /// The current match's colour, in pixels and half blocks: orange, apart from the yellow
    /// of the others and still light enough for black letters under it.
    public static let currentMarker: (UInt8, UInt8, UInt8) = (0xff, 0x8c, 0x28)
}

/// A region of a page marked in a colour: seen through it as through a highlighter's ink,
/// or, `underline`, a line of it under the region (for highlights meant for terminals of
/// few colours).
public struct PageMarkPaint: Hashable, Sendable {
    public var region: PageRegion
    public var red: UInt8, green: UInt8, blue: UInt8
    public var underline: Bool

    public init(region: PageRegion, rgb: (UInt8, UInt8, UInt8), underline: Bool = false) {
        self.region = region
        (red, green, blue) = rgb
        self.underline = underline
    }

    public var rgb: (UInt8, UInt8, UInt8) { (red, green, blue) }
}

/// An image edited in the units of half-block adornments: a dot is a cell's width by half
/// its height.
private struct DotImage {
    var image: RGBAImage
    let cell: PixelSize
    var dotWidth: Int { max(1, cell.width) }
    var dotHeight: Int { max(1, cell.height / 2) }

    init(image: RGBAImage, cell: PixelSize) {
        self.image = image
        self.cell = cell
    }

    mutating func fill(x: Int, y: Int, width: Int, height: Int, with rgb: (UInt8, UInt8, UInt8)) {
        for row in max(0, y)..<max(max(0, y), min(image.height, y + height)) {
            for column in max(0, x)..<max(max(0, x), min(image.width, x + width)) {
                let at = (row * image.width + column) * 4
                image.pixels[at] = rgb.0; image.pixels[at + 1] = rgb.1; image.pixels[at + 2] = rgb.2; image.pixels[at + 3] = 255
            }
        }
    }

    /// Multiplies `region` (fractions of the image, widened to whole pixels) by `rgb`: white
    /// takes the colour, dark ink stays dark.
    mutating func highlight(_ region: PageRegion, with rgb: (UInt8, UInt8, UInt8)) {
        let (width, height) = (Double(image.width), Double(image.height))
        let left = Int((region.x0 * width).rounded(.down)), right = Int((region.x1 * width).rounded(.up))
        let top = Int((region.y0 * height).rounded(.down)), bottom = Int((region.y1 * height).rounded(.up))
        let tint = [rgb.0, rgb.1, rgb.2]
        for row in max(0, top)..<max(max(0, top), min(image.height, bottom)) {
            for column in max(0, left)..<max(max(0, left), min(image.width, right)) {
                let at = (row * image.width + column) * 4
                for channel in 0..<3 { image.pixels[at + channel] = UInt8(Int(image.pixels[at + channel]) * Int(tint[channel]) / 255) }
            }
        }
    }

    /// A line of `rgb` under `region` (fractions of the image), a quarter of a dot thick.
    mutating func underline(_ region: PageRegion, with rgb: (UInt8, UInt8, UInt8)) {
        let (width, height) = (Double(image.width), Double(image.height))
        let left = Int((region.x0 * width).rounded(.down)), right = Int((region.x1 * width).rounded(.up))
        let thickness = max(1, dotHeight / 4)
        let bottom = Int((region.y1 * height).rounded(.up))
        fill(x: left, y: bottom - thickness, width: right - left, height: thickness, with: rgb)
    }

    /// Darkens a rectangle to `factor` of its light (roughly linear: sRGB is about a 2.2 power).
    mutating func darken(x: Int, y: Int, width: Int, height: Int, factor: Double) {
        let scale = pow(factor, 1 / 2.2)
        for row in max(0, y)..<max(max(0, y), min(image.height, y + height)) {
            for column in max(0, x)..<max(max(0, x), min(image.width, x + width)) {
                let at = (row * image.width + column) * 4
                for channel in 0..<3 { image.pixels[at + channel] = UInt8(Double(image.pixels[at + channel]) * scale) }
            }
        }
    }

    /// The edges of the pages under the cover, past the edge opposite the binding: half a
    /// cell of paper, from the second row down, shaded in the last.
    mutating func pageStack(opposite edge: BindingEdge, paper: (UInt8, UInt8, UInt8), columns: Int, rows: Int) {
        let shade = (UInt8(Double(paper.0) * 0.8), UInt8(Double(paper.1) * 0.8), UInt8(Double(paper.2) * 0.8))
        switch edge {
        case .left, .right:
            let half = max(1, dotWidth / 2)
            let x = edge == .left ? image.width - half : 0
            let bottom = (rows - 1) * cell.height
            fill(x: x, y: cell.height, width: half, height: bottom - cell.height, with: paper)
            fill(x: x, y: bottom, width: half, height: image.height - bottom, with: shade)
            // A page edge every other pixel.
            for line in stride(from: cell.height + 1, to: bottom, by: 3) { fill(x: x, y: line, width: half, height: 1, with: shade) }
        case .bottom:
            fill(x: 0, y: 0, width: image.width, height: dotHeight, with: paper)
            fill(x: 0, y: 0, width: dotWidth, height: dotHeight, with: shade)
        }
    }

    /// Two staples across the spine at a quarter and three quarters of its length, each
    /// with its shadow.
    mutating func staples(on edge: BindingEdge, columns: Int, rows: Int) {
        func positions(_ length: Int) -> [Int] { length < 8 ? [length / 2 - 1] : [length / 4 - 1, (3 * length) / 4 - 1] }
        if edge == .bottom {
            let thickness = max(2, dotWidth / 3)
            for dot in positions(columns) {
                let x = dot * dotWidth + (dotWidth - thickness) / 2
                fill(x: x, y: image.height - 2 * dotHeight, width: thickness, height: 2 * dotHeight, with: CoverDress.staple)
                darken(x: x + thickness, y: image.height - 2 * dotHeight, width: thickness, height: 2 * dotHeight, factor: 0.45)
            }
            return
        }
        let thickness = max(2, dotHeight / 3)
        let length = max(2, dotWidth * 3 / 2)
        let x = edge == .left ? dotWidth / 4 : image.width - dotWidth / 4 - length
        for dot in positions(rows * 2) {
            let y = dot * dotHeight + (dotHeight - thickness) / 2
            fill(x: x, y: y, width: length, height: thickness, with: CoverDress.staple)
            darken(x: x, y: y + thickness, width: length, height: thickness, factor: 0.45)
        }
    }

    /// The paper curving over along the binding: darker towards the edge, a dot at a time.
    mutating func fold(along edge: BindingEdge) {
        for (distance, factor) in [0.55, 0.72, 0.86].enumerated() {
            switch edge {
            case .bottom: darken(x: 0, y: image.height - (distance + 1) * dotHeight, width: image.width, height: dotHeight, factor: factor)
            case .left: darken(x: distance * dotWidth, y: 0, width: dotWidth, height: image.height, factor: factor)
            case .right: darken(x: image.width - (distance + 1) * dotWidth, y: 0, width: dotWidth, height: image.height, factor: factor)
            }
        }
    }

    /// The red band across the upper-right corner, `NEW` on it in white on the cells
    /// where the half-block sash writes it.
    mutating func sash(columns: Int, rows: Int) {
        let band = CoverAdornments.sashRed, text = CoverAdornments.sashText
        let textRow = max(1, min(columns / 12, rows - 1))
        let thickness = Double(max(6, columns / 4))
        let offset = Double(2 * textRow + 1)
        for y in 0..<image.height {
            for x in 0..<image.width {
                // Dots from the right edge plus dots from the top, as in half blocks.
                let s = Double(image.width - x) / Double(dotWidth) + Double(y) / Double(dotHeight)
                if s >= offset && s < offset + thickness { fill(x: x, y: y, width: 1, height: 1, with: band) }
            }
        }
        let fullCells = Int(thickness) - 1
        guard fullCells >= 3 else { return }
        let firstColumn = columns - fullCells + (fullCells - 3) / 2
        let left = image.width - (columns - firstColumn) * cell.width, top = textRow * cell.height
        fill(x: left, y: top, width: 3 * cell.width, height: cell.height, with: band)
        let scale = max(1, min((cell.height - 2) / BitmapFont.height, (3 * cell.width - 2) / BitmapFont.width(of: "NEW", scale: 1)))
        let width = BitmapFont.width(of: "NEW", scale: scale), height = BitmapFont.height * scale
        BitmapFont.draw("NEW", x: left + (3 * cell.width - width) / 2, y: top + (cell.height - height) / 2, scale: scale,
                        color: text, into: &image)
    }
}
