import Foundation

/// The cover of an edition built from a feed's articles, drawn rather than fetched: the
/// publication's title as a masthead between two rules, the date and edition, the lead
/// picture when there is one, and the lead headline, on newsprint. A PNG, so the shelf's
/// covers, adornments and NEW sash treat it like any other.
public enum EditionCoverPainter {
    public static let width = 600
    public static let height = 900

    static let paper: (UInt8, UInt8, UInt8, UInt8) = (246, 242, 232, 255)
    static let ink: (UInt8, UInt8, UInt8) = (24, 24, 28)

    public static func png(masthead: String, dateLine: String, headline: String, leadPicture: Data?) throws -> [UInt8] {
        try ImageEncoder.png(draw(masthead: masthead, dateLine: dateLine, headline: headline, leadPicture: leadPicture))
    }

    static func draw(masthead: String, dateLine: String, headline: String, leadPicture: Data?) -> RGBAImage {
        var image = RGBAImage(width: width, height: height, filledWith: paper)
        let margin = 30
        let column = width - 2 * margin
        var y = margin
        // The masthead as large as fits on one or two lines.
        let title = masthead.uppercased()
        let titleScale = max(2, min(12, column / max(1, BitmapFont.width(of: title, scale: 1))))
        for line in wrap(title, scale: titleScale, width: column).prefix(2) {
            text(line, x: margin + (column - BitmapFont.width(of: line, scale: titleScale)) / 2, y: y, scale: titleScale, into: &image)
            y += (BitmapFont.height + 3) * titleScale
        }
        rule(y: y, thickness: 4, margin: margin, into: &image)
        y += 14
        let dateScale = 3
        for line in wrap(dateLine.uppercased(), scale: dateScale, width: column).prefix(2) {
            text(line, x: margin + (column - BitmapFont.width(of: line, scale: dateScale)) / 2, y: y, scale: dateScale, into: &image)
            y += (BitmapFont.height + 3) * dateScale
        }
        rule(y: y, thickness: 2, margin: margin, into: &image)
        y += 24
        let headlineScale = 4
        let lines = Array(wrap(headline.uppercased(), scale: headlineScale, width: column).prefix(5))
        let headlineHeight = lines.count * (BitmapFont.height + 4) * headlineScale
        if let leadPicture, let picture = try? ImageDecoder.decode(leadPicture, minimumSize: (column, height / 2)) {
            let box = (x: margin, y: y, width: column, height: height - margin - headlineHeight - 20 - y)
            if box.height > 60 { y += place(picture, in: box, into: &image) + 20 }
        }
        for line in lines {
            text(line, x: margin, y: y, scale: headlineScale, into: &image)
            y += (BitmapFont.height + 4) * headlineScale
        }
        return image
    }

    /// Words to lines no wider than `width` at `scale`; a word too long on its own is cut.
    static func wrap(_ text: String, scale: Int, width: Int) -> [String] {
        let fits = max(1, (width / scale + BitmapFont.spacing) / (BitmapFont.width + BitmapFont.spacing))
        var lines: [String] = []
        var line = ""
        for word in text.split(whereSeparator: { $0.isWhitespace }).map(String.init) {
            let candidate = line.isEmpty ? word : line + " " + word
            if candidate.count <= fits { line = candidate; continue }
            if !line.isEmpty { lines.append(line) }
            line = String(word.prefix(fits))
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    static func text(_ text: String, x: Int, y: Int, scale: Int, into image: inout RGBAImage) {
        BitmapFont.draw(text, x: x, y: y, scale: scale, color: ink, into: &image)
    }

    static func rule(y: Int, thickness: Int, margin: Int, into image: inout RGBAImage) {
        fill(x: margin, y: y, width: image.width - 2 * margin, height: thickness, into: &image)
    }

    static func fill(x: Int, y: Int, width: Int, height: Int, into image: inout RGBAImage) {
        for row in max(0, y)..<min(image.height, y + height) {
            for column in max(0, x)..<min(image.width, x + width) {
                let at = (row * image.width + column) * 4
                image.pixels[at] = ink.0; image.pixels[at + 1] = ink.1; image.pixels[at + 2] = ink.2; image.pixels[at + 3] = 255
            }
        }
    }

    /// Draws `picture` fitted into `box` (centred, each output pixel the average of the
    /// source pixels it covers, over paper where transparent); returns the height used.
    static func place(_ picture: RGBAImage, in box: (x: Int, y: Int, width: Int, height: Int), into image: inout RGBAImage) -> Int {
        guard picture.width > 0, picture.height > 0 else { return 0 }
        let scale = min(Double(box.width) / Double(picture.width), Double(box.height) / Double(picture.height))
        let w = max(1, Int(Double(picture.width) * scale)), h = max(1, Int(Double(picture.height) * scale))
        let left = box.x + (box.width - w) / 2
        for row in 0..<h {
            let y0 = row * picture.height / h, y1 = max(y0 + 1, (row + 1) * picture.height / h)
            for column in 0..<w {
                let x0 = column * picture.width / w, x1 = max(x0 + 1, (column + 1) * picture.width / w)
                var sum = (0, 0, 0, 0)
                for sy in y0..<y1 {
                    for sx in x0..<x1 {
                        let at = (sy * picture.width + sx) * 4
                        let alpha = Int(picture.pixels[at + 3])
                        sum.0 += Int(picture.pixels[at]) * alpha + Int(paper.0) * (255 - alpha)
                        sum.1 += Int(picture.pixels[at + 1]) * alpha + Int(paper.1) * (255 - alpha)
                        sum.2 += Int(picture.pixels[at + 2]) * alpha + Int(paper.2) * (255 - alpha)
                        sum.3 += 1
                    }
                }
                let at = ((box.y + row) * image.width + left + column) * 4
                image.pixels[at] = UInt8(sum.0 / (sum.3 * 255))
                image.pixels[at + 1] = UInt8(sum.1 / (sum.3 * 255))
                image.pixels[at + 2] = UInt8(sum.2 / (sum.3 * 255))
                image.pixels[at + 3] = 255
            }
        }
        return h
    }
}
