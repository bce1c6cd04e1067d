/// How a run of text is drawn. A theme maps these to colours and attributes.
public struct TextStyle: OptionSet, Hashable, Sendable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let bold = TextStyle(rawValue: 1 << 0)
    public static let italic = TextStyle(rawValue: 1 << 1)
    public static let underline = TextStyle(rawValue: 1 << 2)
    public static let code = TextStyle(rawValue: 1 << 3)
    public static let link = TextStyle(rawValue: 1 << 4)
    public static let heading = TextStyle(rawValue: 1 << 5)
    public static let quote = TextStyle(rawValue: 1 << 6)
    public static let strike = TextStyle(rawValue: 1 << 7)
    public static let dim = TextStyle(rawValue: 1 << 8)
    /// Markers drawn by the layout itself: list bullets and numbers, the quote bar, rules.
    public static let marker = TextStyle(rawValue: 1 << 9)
    /// Highlighted text (`<mark>`).
    public static let highlight = TextStyle(rawValue: 1 << 10)
    /// A caption under a figure or an image's alternative text.
    public static let caption = TextStyle(rawValue: 1 << 11)
}

/// A run of text with one style. `text` is always clean (see `Sanitizer`) and holds no
/// line breaks except `\n` for a hard break inside a paragraph before layout.
public struct StyledSpan: Hashable, Sendable {
    public var text: String
    public var style: TextStyle
    /// The link target (as written in the document) when the span is part of a link.
    public var link: String?

    public init(_ text: String, style: TextStyle = [], link: String? = nil) {
        self.text = text
        self.style = style
        self.link = link
    }

    public init(text: String, style: TextStyle = [], link: String? = nil) {
        self.init(text, style: style, link: link)
    }
}

/// The structure of a document, independent of any width.
public indirect enum Block: Hashable, Sendable {
    case heading(level: Int, [StyledSpan])
    case paragraph([StyledSpan])
    case quote([Block])
    case list(ordered: Bool, items: [[Block]])
    /// Preformatted text: lines separated by `\n`, never wrapped.
    case code(String)
    case rule
    /// `source` is the reference as written (relative to the document); `alt` may be empty.
    case image(source: String, alt: String)
    case figure(image: Block, caption: [StyledSpan])
    /// Rows of cells; a header row's spans are bold.
    case table([[[StyledSpan]]])
}

/// A document read from HTML, Markdown or plain text.
public struct TextDocument: Hashable, Sendable {
    public var title: String?
    public var blocks: [Block]
    /// Fragment identifiers (`id`, `<a name>`, Markdown heading slugs) → index in `blocks`
    /// of the top-level block holding them.
    public var anchors: [String: Int]

    public init(title: String? = nil, blocks: [Block] = [], anchors: [String: Int] = [:]) {
        self.title = title
        self.blocks = blocks
        self.anchors = anchors
    }
}

extension Block {
    /// The block's text without styles: spans joined, blocks separated by blank lines.
    public var plainText: String {
        switch self {
        case .heading(_, let spans), .paragraph(let spans):
            return spans.map(\.text).joined()
        case .quote(let blocks):
            return blocks.map(\.plainText).joined(separator: "\n\n")
        case .list(_, let items):
            return items.map { $0.map(\.plainText).joined(separator: "\n") }.joined(separator: "\n")
        case .code(let text):
            return text
        case .rule:
            return ""
        case .image(_, let alt):
            return alt
        case .figure(let image, let caption):
            let text = caption.map(\.text).joined()
            let alt = image.plainText
            return alt.isEmpty ? text : (text.isEmpty ? alt : alt + "\n" + text)
        case .table(let rows):
            return rows.map { $0.map { $0.map(\.text).joined() }.joined(separator: " | ") }
                .joined(separator: "\n")
        }
    }
}
