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
public struct PDFCharacter: Equatable, Sendable, Codable {
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

    enum CodingKeys: String, CodingKey { case scalar, rect, fontSize, fontName }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard let scalar = Unicode.Scalar(try container.decode(UInt32.self, forKey: .scalar)) else {
            throw DecodingError.dataCorruptedError(forKey: .scalar, in: container, debugDescription: "not a Unicode scalar")
        }
        self.scalar = scalar
        rect = try container.decode(PDFRect.self, forKey: .rect)
        fontSize = try container.decode(Double.self, forKey: .fontSize)
        fontName = try container.decode(String.self, forKey: .fontName)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(scalar.value, forKey: .scalar)
        try container.encode(rect, forKey: .rect)
        try container.encode(fontSize, forKey: .fontSize)
        try container.encode(fontName, forKey: .fontName)
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
}
