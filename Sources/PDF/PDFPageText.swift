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

/// A page's text layer: its characters in the order the PDF gives them (poppler's reading
/// order, lines ended by "\n"), each with its rectangle and font size.
public struct PDFPageText: Equatable, Sendable, Codable {
    public var characters: [PDFCharacter]

    public init(characters: [PDFCharacter]) { self.characters = characters }

    /// The text as one string.
    public var string: String {
        var text = String.UnicodeScalarView()
        text.append(contentsOf: characters.map(\.scalar))
        return String(text)
    }

    /// Whether the page has no text layer (a scan, a page of pictures).
    public var isEmpty: Bool { characters.allSatisfy { $0.scalar.properties.isWhitespace } }

    // Crossing from the worker, a page is its text, its rectangles as one flat list and its
    // font runs: a tenth of the JSON of an object per character, and as much faster.
    private enum CodingKeys: String, CodingKey { case text, boxes, runs }

    private struct FontRun: Codable {
        var count: Int
        var size: Double
        var font: String
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let scalars = Array(try container.decode(String.self, forKey: .text).unicodeScalars)
        let boxes = try container.decode([Double].self, forKey: .boxes)
        let runs = try container.decode([FontRun].self, forKey: .runs)
        guard boxes.count == scalars.count * 4, runs.reduce(0, { $0 + max(0, $1.count) }) == scalars.count else {
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
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(string, forKey: .text)
        try container.encode(characters.flatMap { [$0.rect.x0, $0.rect.y0, $0.rect.x1, $0.rect.y1] }, forKey: .boxes)
        var runs: [FontRun] = []
        for character in characters {
            if let last = runs.last, last.size == character.fontSize, last.font == character.fontName {
                runs[runs.count - 1].count += 1
            } else {
                runs.append(FontRun(count: 1, size: character.fontSize, font: character.fontName))
            }
        }
        try container.encode(runs, forKey: .runs)
    }
}
