import Foundation

/// Reads the words of one kind of paged document (PDF) as text to read: a page reflowed
/// into blocks (headings, paragraphs, figures), or every page's plain text for search.
public protocol DocumentTextReader: Sendable {
    /// Page `index` (0 is the first) of `document` reflowed for reading, in reading order;
    /// its figures are `.image` blocks whose source is a `PageFigure`'s. A page with no text
    /// layer gives a document with no blocks.
    func page(_ index: Int, of document: URL) throws -> TextDocument
    /// Every page's words as plain text, in page order, read in one go.
    func pageTexts(of document: URL) throws -> [String]
    /// Starts reading what `pageTexts` returns in the background, when that is slow.
    func readAhead(of document: URL)
    /// Page `index`'s characters with where each is drawn: to mark a search's matches over
    /// the page's picture. Nil when the reader cannot say where its characters are.
    func characters(ofPage index: Int, of document: URL) throws -> PageCharacters?
}

extension DocumentTextReader {
    public func readAhead(of document: URL) {}
    public func characters(ofPage index: Int, of document: URL) throws -> PageCharacters? { nil }
}

/// A rectangle on a page in fractions of it (0…1, the origin at its top left), whatever
/// size the page is drawn at.
public struct PageBox: Hashable, Sendable {
    public var x0: Double, y0: Double, x1: Double, y1: Double

    public init(x0: Double, y0: Double, x1: Double, y1: Double) {
        (self.x0, self.y0, self.x1, self.y1) = (x0, y0, x1, y1)
    }
}

/// A page's characters in the order its text gives them, each with its box on the page.
public struct PageCharacters: Equatable, Sendable {
    public var scalars: [Unicode.Scalar]
    /// One per scalar.
    public var boxes: [PageBox]

    public init(scalars: [Unicode.Scalar], boxes: [PageBox]) {
        self.scalars = scalars
        self.boxes = boxes
    }
}

/// The text readers a process has, by the file extension of the documents they read.
public final class DocumentTexts: @unchecked Sendable {
    /// The readers the reader and the commands use unless given their own.
    public static let shared = DocumentTexts()

    // `lock` guards `readers`: registration at start may meet reads from worker threads.
    private let lock = NSLock()
    private var readers: [String: any DocumentTextReader] = [:]

    public init() {}

    /// Makes `reader` read every document whose name ends in `.extension` (any case).
    public func register(_ reader: any DocumentTextReader, forExtension fileExtension: String) {
        lock.withLock { readers[fileExtension.lowercased()] = reader }
    }

    /// The reader for `document`'s kind, if one is registered.
    public func reader(for document: URL) -> (any DocumentTextReader)? {
        lock.withLock { readers[document.pathExtension.lowercased()] }
    }
}

/// A picture cut from a page of the document being read (a PDF's figure), as the source of
/// an `.image` block: `page-figure:PAGE:x0,y0,x1,y1`, the page counted from 0 and the
/// rectangle in fractions of the page (0…1, the origin at its top left).
public struct PageFigure: Hashable, Sendable {
    public static let scheme = "page-figure:"

    public var page: Int
    public var x0: Double, y0: Double, x1: Double, y1: Double

    public init(page: Int, x0: Double, y0: Double, x1: Double, y1: Double) {
        self.page = page
        (self.x0, self.y0, self.x1, self.y1) = (x0, y0, x1, y1)
    }

    /// The figure a block's source names, or nil when it names something else.
    public init?(source: String) {
        guard source.hasPrefix(Self.scheme) else { return nil }
        let parts = source.dropFirst(Self.scheme.count).split(separator: ":")
        guard parts.count == 2, let page = Int(parts[0]), page >= 0 else { return nil }
        let numbers = parts[1].split(separator: ",").compactMap { Double($0) }
        guard numbers.count == 4, numbers.allSatisfy(\.isFinite) else { return nil }
        self.init(page: page, x0: numbers[0], y0: numbers[1], x1: numbers[2], y1: numbers[3])
    }

    public var source: String {
        let rounded = [x0, y0, x1, y1].map { String(format: "%.4f", $0) }
        return Self.scheme + "\(page):" + rounded.joined(separator: ",")
    }
}
