import Foundation
import Markup

/// Opens extracted issues (and archives, for `inspect`) as `IssueContent`.
public enum IssueReader {
    /// Reads an extracted issue with the first of the shared formats that recognises it:
    /// EPUB if it has a container or an EPUB mimetype, a comic if its content is page
    /// images, otherwise a plain zip issue (and registered formats before them).
    public static func open(directory: URL) throws -> IssueContent {
        try IssueFormats.shared.open(directory: directory)
    }

    /// Extracts `archive` into a new directory in `temporary` and opens it. The caller removes
    /// the directory; on failure nothing is left behind.
    public static func read(archive: URL, limits: ExtractionLimits = .standard,
                            in temporary: URL = FileManager.default.temporaryDirectory) throws -> (IssueContent, URL) {
        let root = try FileSystem.unusedPath(beside: temporary.appendingPathComponent("newsstand-inspect"), purpose: "issue")
        do {
            try SafeExtractor.extract(archive: archive, to: root, limits: limits)
            return (try open(directory: root), root)
        } catch {
            FileSystem.removeTree(root)
            throw error
        }
    }

    /// Where a link inside the book (relative to the content root, maybe with `#fragment`)
    /// points on disk. Never outside `root`, even through symbolic links.
    public static func resolve(_ path: String, in root: URL) throws -> URL {
        let plain = BookPath.withoutFragment(path)
        guard !plain.hasPrefix("/"), !plain.contains("\\"), let normalized = BookPath.normalize(plain.split(separator: "/").map(String.init)),
              !plain.split(separator: "/").contains("..") else {
            throw ArchiveError(.unsafePath, "link '\(ArchiveError.printable(path))' points outside the issue")
        }
        let root = root.standardizedFileURL.resolvingSymlinksInPath()
        let url = root.appendingPathComponent(normalized)
        let real = url.resolvingSymlinksInPath().path
        guard real == root.path || real.hasPrefix(root.path.hasSuffix("/") ? root.path : root.path + "/") else {
            throw ArchiveError(.unsafePath, "link '\(ArchiveError.printable(path))' points outside the issue")
        }
        return url
    }
}

extension IssueReader {
    /// A link as written inside a document of the book (`../images/p%201.png#x`, relative to
    /// `document`, itself relative to the root) → the file it names. External links (`https:`,
    /// `mailto:`) and links leaving the root are errors.
    public static func resolve(link href: String, from document: String, in root: URL) throws -> URL {
        guard let path = BookPath.resolve(href, from: document) else {
            throw ArchiveError(.unsafePath, "link '\(ArchiveError.printable(href))' does not point inside the issue")
        }
        return try resolve(path, in: root)
    }
}

extension IssueReader {
    /// An article's own title, for a table of contents that leaves the article out: its
    /// `<title>` or first `<h1>`, a Markdown heading, else its file name, on one line. Reads
    /// at most 16 KiB.
    public static func articleTitle(_ path: String, in root: URL) -> String {
        let head = (try? resolve(path, in: root)).flatMap { file -> Data? in
            guard let handle = try? FileHandle(forReadingFrom: file) else { return nil }
            defer { try? handle.close() }
            return try? handle.read(upToCount: 16 << 10)
        }
        let title = PlainIssue.documentTitle(BookPath.withoutFragment(path), head: head)
        return title.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}

/// XML goes through Markup only: no DTD is fetched and no entity beyond the predefined five
/// (and character references) is expanded.
enum XMLReading {
    static func root(of data: Data) -> Markup.XMLElement? {
        MarkupParser.parse(data).root
    }
}
