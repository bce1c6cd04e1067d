import Foundation
import IssueArchive

extension IssueFormat {
    public static let pdf = IssueFormat(rawValue: "pdf")
}

/// PDF issues: the downloaded file is the issue, placed as `issue.pdf`; its reading order
/// is its pages (`issue.pdf#page=N`, N from 1), its contents the PDF's outline. The PDF is
/// read through the contained worker, so a hostile file fails the open, not the process.
public struct PDFIssueFormat: IssueFormatReader {
    public static let fileName = "issue.pdf"
    public static let mediaType = "application/pdf"

    let worker: PDFWorker

    public init(worker: PDFWorker) { self.worker = worker }

    public var format: IssueFormat { .pdf }
    public var packaging: IssuePackaging { .singleFile(name: Self.fileName) }

    /// A PDF header (readers accept it anywhere in the first KiB), or a `.pdf` name on a
    /// file that is not a zip.
    public func recognizes(_ download: DownloadedFile) -> Bool {
        if download.starts(with: "%PDF-") { return true }
        let marker = Array("%PDF-".utf8)
        let head = download.head.prefix(1024)
        let found = head.indices.contains { head[$0...].starts(with: marker) }
        return found || (download.fileExtension == "pdf" && !download.isZip)
    }

    /// A folder holding a PDF and nothing else to read.
    public func recognizes(_ files: ContentTree) -> Bool { Self.document(in: files) != nil }

    public func open(_ files: ContentTree) throws -> IssueContent {
        guard let name = Self.document(in: files) else {
            throw ArchiveError(.wrongFormat, "'\(files.root.path)' holds no PDF")
        }
        let info: PDFInfo
        do { info = try worker.info(of: files.root.appendingPathComponent(name)) } catch let error as PDFError {
            throw ArchiveError(error.kind == .needsPassword || error.kind == .wrongPassword ? .encrypted : .invalidContent,
                               error.description)
        }
        guard info.pageCount > 0 else { throw ArchiveError(.invalidContent, "\(name) has no pages") }
        return IssueContent(
            format: .pdf,
            metadata: IssueMetadata(title: info.title, creators: info.author.map { [$0] } ?? []),
            tableOfContents: Self.contents(info.outline, file: name),
            readingOrder: (0..<info.pageCount).map { Resource(path: Self.path(of: $0, in: name), mediaType: Self.mediaType) }
        )
    }

    /// The reading-order path of page `index` (0 is the first) of `file`.
    public static func path(of index: Int, in file: String) -> String { "\(file)#page=\(index + 1)" }

    /// The page (0 is the first) a reading-order path names, and the file it is in.
    public static func page(of path: String) -> (file: String, index: Int)? {
        guard let mark = path.range(of: "#page=", options: .backwards), let number = Int(path[mark.upperBound...]),
              number >= 1 else { return nil }
        return (String(path[..<mark.lowerBound]), number - 1)
    }

    private static func contents(_ outline: [PDFOutlineItem], file: String) -> [TOCEntry] {
        outline.compactMap { item in
            let children = contents(item.children, file: file)
            guard let page = item.page ?? children.first.flatMap({ self.page(of: $0.path)?.index }) else { return nil }
            return TOCEntry(title: item.title.isEmpty ? "Page \(page + 1)" : item.title, path: path(of: page, in: file),
                            children: children)
        }
    }

    /// The PDF a folder's issue is: its only PDF, when nothing else in it is to be read.
    private static func document(in files: ContentTree) -> String? {
        let pdfs = files.files.filter { $0.lowercased().hasSuffix(".pdf") }
        guard pdfs.count == 1 else { return pdfs.contains(fileName) ? fileName : nil }
        let readable = files.files.filter { ["xhtml", "html", "htm", "md", "opf"].contains(($0 as NSString).pathExtension.lowercased()) }
        return readable.isEmpty ? pdfs[0] : nil
    }
}
