import Foundation

/// One kind of issue (EPUB, a comic book, a zip of articles; PDF later): how a downloaded
/// file of that kind is recognised and installed, and how installed files are opened.
public protocol IssueFormatReader: Sendable {
    /// The name `IssueContent.format` carries for issues this reader opens.
    var format: IssueFormat { get }
    /// How a downloaded file of this format becomes the files of an issue.
    var packaging: IssuePackaging { get }
    /// Whether a downloaded file, before it is installed, is of this format (from its name
    /// and first bytes).
    func recognizes(_ download: DownloadedFile) -> Bool
    /// Whether the files of an installed issue are of this format.
    func recognizes(_ files: ContentTree) -> Bool
    /// The issue the files hold; an `ArchiveError` when they are not a readable issue.
    func open(_ files: ContentTree) throws -> IssueContent
    /// The identifiers the book gives itself (an ISBN, a DOI, a uuid), by which a server that
    /// keeps the same book knows it (calibre's); empty where the format keeps none.
    func identifiers(_ files: ContentTree) -> [BookIdentifier]
}

extension IssueFormatReader {
    public func identifiers(_ files: ContentTree) -> [BookIdentifier] { [] }
}

/// How a downloaded file becomes the files of an issue.
public enum IssuePackaging: Hashable, Sendable {
    /// A zip archive, extracted by `SafeExtractor` (every entry checked before a byte is written).
    case zip
    /// The file itself is the issue: it is placed in the content directory under `name`.
    case singleFile(name: String)
}

/// A downloaded file as format readers see it: its name and its first bytes.
public struct DownloadedFile: Sendable {
    /// Enough for any format's signature (a zip's first entry name, a PDF header).
    public static let headLength = 4096

    public let url: URL
    public let head: [UInt8]

    /// Reads the first bytes of the file at `url`.
    public init(url: URL) throws {
        guard let handle = try? FileHandle(forReadingFrom: url) else {
            throw ArchiveError(.io, "cannot read the downloaded file '\(url.path)'")
        }
        defer { try? handle.close() }
        self.init(url: url, head: [UInt8]((try? handle.read(upToCount: Self.headLength)) ?? Data()))
    }

    public init(url: URL, head: [UInt8]) {
        self.url = url
        self.head = head
    }

    /// The file name's extension, lower case ("epub"; "" when it has none).
    public var fileExtension: String { url.pathExtension.lowercased() }

    /// Whether the file begins with `signature`.
    public func starts(with signature: String) -> Bool { head.starts(with: Array(signature.utf8)) }

    /// A zip archive's local header (or an empty zip's end record).
    public var isZip: Bool { starts(with: "PK\u{03}\u{04}") || starts(with: "PK\u{05}\u{06}") }
}
