import Foundation

/// A rectangle on a page in PDF points, the origin at the page's top left.
public struct PDFRect: Equatable, Sendable, Codable {
    public var x0: Double, y0: Double, x1: Double, y1: Double

    public init(x0: Double, y0: Double, x1: Double, y1: Double) {
        self.x0 = x0
        self.y0 = y0
        self.x1 = x1
        self.y1 = y1
    }
}

/// One character of a page's text layer, where it is drawn and at what size.
public struct PDFCharacter: Equatable, Sendable {
    public var scalar: Unicode.Scalar
    public var rect: PDFRect
    /// The font size in points (0 when the PDF gives none).
    public var fontSize: Double
    public var fontName: String

    public init(scalar: Unicode.Scalar, rect: PDFRect, fontSize: Double, fontName: String) {
        self.scalar = scalar
        self.rect = rect
        self.fontSize = fontSize
        self.fontName = fontName
    }
}

extension PDFCharacter {
    /// The bidirectional embedding and override marks (U+202A–U+202E) poppler wraps
    /// right-to-left words in: they have no glyph and no rectangle.
    public static func isEmbeddingMark(_ scalar: Unicode.Scalar) -> Bool { (0x202A...0x202E).contains(scalar.value) }
}

/// A page's text layer: its characters in the order the PDF gives them (poppler's reading
/// order, lines ended by "\n"), each with its rectangle and font size; the page's size and
/// where its pictures are, so text can be told from figures and margins.
public struct PDFPageText: Equatable, Sendable, Codable {
    public var characters: [PDFCharacter]
    /// The page's size in points as shown (the rectangles' frame).
    public var size: PDFSize
    /// Where the page draws pictures, in points from its top left.
    public var figures: [PDFRect]
    /// How far the page is turned clockwise when shown (its /Rotate: 0, 90, 180 or 270): the
    /// rectangles are on the page as shown, so its text may run down, up or upside down.
    public var rotation: Int

    public init(characters: [PDFCharacter], size: PDFSize = PDFSize(width: 0, height: 0), figures: [PDFRect] = [], rotation: Int = 0) {
        self.characters = characters
        self.size = size
        self.figures = figures
        self.rotation = rotation
    }

    /// The text as one string.
    public var string: String {
        var text = String.UnicodeScalarView()
        text.append(contentsOf: characters.map(\.scalar))
        return String(text)
    }

    /// Whether the page has no text layer (a scan, a page of pictures).
    public var isEmpty: Bool { characters.allSatisfy { $0.scalar.properties.isWhitespace } }

    // Crossing from the worker, a page is its text, its rectangles as one flat list and its
    // font runs: a tenth of the JSON of an object per character, and as much faster. The
    // rectangles' numbers go as base64 of their bits: exact, and writing and reading 9,000
    // numbers as JSON text took 9 of the 11 ms a dense page's text cost (release build).
    private enum CodingKeys: String, CodingKey { case text, boxes, runs, size, figures, rotation }

    private struct FontRun: Codable {
        var count: Int
        var size: Double
        var font: String
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let scalars = Array(try container.decode(String.self, forKey: .text).unicodeScalars)
        guard let boxes = Self.numbers(fromBase64: try container.decode(String.self, forKey: .boxes)) else {
            throw DecodingError.dataCorruptedError(forKey: .boxes, in: container, debugDescription: "boxes are not base64 numbers")
        }
        let runs = try container.decode([FontRun].self, forKey: .runs)
        // A worker's answer is not trusted: a negative or huge run must not trap here.
        guard boxes.count == scalars.count * 4, runs.allSatisfy({ (0...scalars.count).contains($0.count) }),
              runs.reduce(0, { $0 + $1.count }) == scalars.count else {
            throw DecodingError.dataCorruptedError(forKey: .boxes, in: container, debugDescription: "text, boxes and runs disagree")
        }
        var characters: [PDFCharacter] = []
        characters.reserveCapacity(scalars.count)
        for run in runs {
            for _ in 0..<run.count {
                let index = characters.count, box = index * 4
                characters.append(PDFCharacter(scalar: scalars[index],
                                               rect: PDFRect(x0: boxes[box], y0: boxes[box + 1], x1: boxes[box + 2], y1: boxes[box + 3]),
                                               fontSize: run.size, fontName: run.font))
            }
        }
        self.characters = characters
        size = try container.decode(PDFSize.self, forKey: .size)
        figures = try container.decode([PDFRect].self, forKey: .figures)
        rotation = try container.decodeIfPresent(Int.self, forKey: .rotation) ?? 0
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(string, forKey: .text)
        try container.encode(Self.base64(characters.flatMap { [$0.rect.x0, $0.rect.y0, $0.rect.x1, $0.rect.y1] }), forKey: .boxes)
        var runs: [FontRun] = []
        for character in characters {
            if let last = runs.last, last.size == character.fontSize, last.font == character.fontName {
                runs[runs.count - 1].count += 1
            } else {
                runs.append(FontRun(count: 1, size: character.fontSize, font: character.fontName))
            }
        }
        try container.encode(runs, forKey: .runs)
        try container.encode(size, forKey: .size)
        try container.encode(figures, forKey: .figures)
        try container.encode(rotation, forKey: .rotation)
    }

    /// The page turned back upright, as it was made: its rectangles, pictures and size where
    /// they would be with no rotation, so a turned page reads as an upright one does.
    public var upright: PDFPageText {
        let quarter = ((rotation % 360) + 360) % 360 / 90
        guard quarter != 0 else { return self }
        let (width, height) = (size.width, size.height)
        func turned(_ box: PDFRect) -> PDFRect {
            switch quarter {
            case 1: return PDFRect(x0: box.y0, y0: width - box.x1, x1: box.y1, y1: width - box.x0)
            case 2: return PDFRect(x0: width - box.x1, y0: height - box.y1, x1: width - box.x0, y1: height - box.y0)
            default: return PDFRect(x0: height - box.y1, y0: box.x0, x1: height - box.y0, y1: box.x1)
            }
        }
        var characters = self.characters
        for index in characters.indices { characters[index].rect = turned(characters[index].rect) }
        return PDFPageText(characters: characters, size: quarter == 2 ? size : PDFSize(width: height, height: width),
                           figures: figures.map(turned), rotation: 0)
    }

    /// Numbers as base64 of their little-endian IEEE 754 bits.
    static func base64(_ numbers: [Double]) -> String {
        var bytes = [UInt8]()
        bytes.reserveCapacity(numbers.count * 8)
        for number in numbers {
            let bits = number.bitPattern
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        }
        return Data(bytes).base64EncodedString()
    }

    static func numbers(fromBase64 text: String) -> [Double]? {
        guard let data = Data(base64Encoded: text), data.count % 8 == 0 else { return nil }
        let bytes = [UInt8](data)
        return stride(from: 0, to: bytes.count, by: 8).map { start in
            Double(bitPattern: (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[start + $1]) << UInt64($1 * 8) })
        }
    }
}
