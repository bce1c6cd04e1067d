import Foundation

/// The issue formats a process knows, asked in turn: formats registered later first, then
/// EPUB, comic book and, last, a plain zip of articles, which takes any folder.
public final class IssueFormats: @unchecked Sendable {
    /// The formats every install and every open uses unless a caller passes its own.
    public static let shared = IssueFormats()

    // `lock` guards `added`: a format may be registered while the agent installs.
    private let lock = NSLock()
    private var added: [any IssueFormatReader] = []
    private static let standard: [any IssueFormatReader] = [EPUBFormat(), ComicBookFormat(), PlainZipFormat()]

    /// The standard formats (EPUB, CBZ, plain zip) and nothing else.
    public init() {}

    /// Asks `reader` before every format known so far.
    public func register(_ reader: any IssueFormatReader) {
        lock.withLock { added.insert(reader, at: 0) }
    }

    /// Every format, in the order they are asked.
    public var readers: [any IssueFormatReader] { lock.withLock { added } + Self.standard }

    /// The format of a downloaded file, if one recognises it.
    public func reader(for download: DownloadedFile) -> (any IssueFormatReader)? {
        readers.first { $0.recognizes(download) }
    }

    /// The format of installed files: the plain zip format when no other recognises them.
    public func reader(for files: ContentTree) -> any IssueFormatReader {
        readers.first { $0.recognizes(files) } ?? PlainZipFormat()
    }

    /// The identifiers the issue installed in `directory` gives itself (by the format that
    /// recognises it); nil when there is no such directory.
    public func identifiers(directory: URL) -> [BookIdentifier]? {
        guard let files = try? ContentTree(root: directory.standardizedFileURL) else { return nil }
        return reader(for: files).identifiers(files)
    }

    /// Opens the issue installed in `directory` with the first format that recognises it.
    public func open(directory: URL) throws -> IssueContent {
        let files = try ContentTree(root: directory.standardizedFileURL)
        return try reader(for: files).open(files)
    }
}
