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

    /// Page `index` (0 is the first) of the document at `document`.
    public static func page(_ index: Int, of document: URL, kind: DocumentKind) -> ImageSource {
        .page(DocumentPage(document: document, kind: kind, index: index))
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
        case .page(let page): return "page \(page.index + 1) of \(page.document.path)"
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

/// One page of a document file.
public struct DocumentPage: Hashable, Sendable {
    public let document: URL
    public let kind: DocumentKind
    /// 0 is the first page.
    public let index: Int

    public init(document: URL, kind: DocumentKind, index: Int) {
        self.document = document
        self.kind = kind
        self.index = index
    }
}
