import Foundation

/// Where a picture comes from: an image file, image bytes already in memory, or one page
/// of a document that a registered `DocumentRenderer` draws.
public enum ImageSource: Hashable, Sendable {
    case file(URL)
    case bytes(ImageBytes)
    case page(DocumentPage)

    /// Image bytes known by `identity` (a resource path inside an issue, a URL).
    public static func bytes(_ bytes: [UInt8], identity: String) -> ImageSource {
        .bytes(ImageBytes(bytes, identity: identity))
    }

    /// Page `index` (0 is the first) of the document at `document`; `region` cuts one part
    /// of it (a figure), else the whole page.
    public static func page(_ index: Int, of document: URL, kind: DocumentKind, region: PageRegion? = nil) -> ImageSource {
        .page(DocumentPage(document: document, kind: kind, index: index, region: region))
    }

    /// The file the picture is read from, if it is read from one.
    public var file: URL? {
        switch self {
        case .file(let url): return url
        case .bytes: return nil
        case .page(let page): return page.document
        }
    }
}

extension ImageSource: CustomStringConvertible {
    /// The source as a user would name it in an error message.
    public var description: String {
        switch self {
        case .file(let url): return url.path
        case .bytes(let image): return image.identity
        case .page(let page):
            return (page.region == nil ? "" : "a picture on ") + "page \(page.index + 1) of \(page.document.path)"
        }
    }
}

/// Image bytes with a name that stays the same for the same bytes: two values with one
/// identity are the same picture, so equality and hashing never read the bytes.
public struct ImageBytes: Hashable, Sendable {
    public let identity: String
    public let bytes: [UInt8]

    public init(_ bytes: [UInt8], identity: String) {
        self.bytes = bytes
        self.identity = identity
    }

    public static func == (lhs: ImageBytes, rhs: ImageBytes) -> Bool { lhs.identity == rhs.identity }
    public func hash(into hasher: inout Hasher) { hasher.combine(identity) }
}

/// What a document is ("pdf"): the key its `DocumentRenderer` is registered under.
public struct DocumentKind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let pdf = DocumentKind(rawValue: "pdf")
    public var description: String { rawValue }
}

/// One page of a document file, or a part of it.
public struct DocumentPage: Hashable, Sendable {
    public let document: URL
    public let kind: DocumentKind
    /// 0 is the first page.
    public let index: Int
    /// The part of the page drawn (a figure); nil for the whole page.
    public let region: PageRegion?

    public init(document: URL, kind: DocumentKind, index: Int, region: PageRegion? = nil) {
        self.document = document
        self.kind = kind
        self.index = index
        self.region = region
    }
}

/// A rectangle of a page as fractions of its width and height (0…1, the origin at its top
/// left), so the same part is meant whatever size the page is drawn at.
public struct PageRegion: Hashable, Sendable, Codable {
    public var x0: Double, y0: Double, x1: Double, y1: Double

    /// Nil unless the rectangle has an area inside the page (clamped to it).
    public init?(x0: Double, y0: Double, x1: Double, y1: Double) {
        let clamp = { (value: Double) in value.isFinite ? max(0, min(1, value)) : 0 }
        let (left, right) = (clamp(min(x0, x1)), clamp(max(x0, x1)))
        let (top, bottom) = (clamp(min(y0, y1)), clamp(max(y0, y1)))
        guard right > left, bottom > top else { return nil }
        (self.x0, self.y0, self.x1, self.y1) = (left, top, right, bottom)
    }

    public var width: Double { x1 - x0 }
    public var height: Double { y1 - y0 }
}
