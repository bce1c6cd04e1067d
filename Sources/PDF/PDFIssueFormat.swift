import Foundation
import IssueArchive

extension IssueFormat {
    public static let pdf = IssueFormat(rawValue: "pdf")
}

/// PDF issues: the downloaded file is the issue, placed as `issue.pdf`; its reading order
/// is its pages (`issue.pdf#page=N`, N from 1), its contents the PDF's outline, its cover
/// page 1 (the feed's cover, when it gives one, wins in the library). A zip of PDFs and
/// pictures (the Newsstand tutorial's multi-asset issue) is one issue too: every PDF's
/// pages and every picture, in natural name order. PDFs are read through the contained
/// worker, so a hostile file fails the open, not the process.
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

    /// A folder holding one or more PDFs, perhaps pictures, and nothing else to read.
    public func recognizes(_ files: ContentTree) -> Bool { !Self.assets(in: files).documents.isEmpty }

    public func open(_ files: ContentTree) throws -> IssueContent {
        let assets = Self.assets(in: files)
        guard let first = assets.documents.first else {
            throw ArchiveError(.wrongFormat, "'\(files.root.path)' holds no PDF")
        }
        var infos: [String: PDFInfo] = [:]
        for name in assets.documents { infos[name] = try info(of: name, in: files) }
        var readingOrder: [Resource] = []
        var contents: [TOCEntry] = []
        for name in assets.inOrder {
            guard let info = infos[name] else {
                readingOrder.append(Resource(path: name, mediaType: MediaType.of(name)))
                continue
            }
            readingOrder += (0..<info.pageCount).map { index in
                Resource(path: PagePath(file: name, index: index).description, mediaType: Self.mediaType,
                         label: info.pageLabels.flatMap { $0.indices.contains(index) ? ArchiveReport.clean($0[index]) : nil })
            }
            let outline = Self.contents(info.outline, file: name)
            // In an issue of several files, a PDF without an outline is still listed, by its name.
            contents += outline.isEmpty && assets.inOrder.count > 1
                ? [TOCEntry(title: (name as NSString).lastPathComponent, path: PagePath(file: name, index: 0).description)] : outline
        }
        // What a PDF says of itself is a stranger's text: it reaches `issues`, the shelf and
        // the reader's contents, so controls and bidi overrides go here, where it is read.
        let metadata = infos[first].map { info in
            IssueMetadata(title: info.title.map { ArchiveReport.clean($0) }, creators: info.author.map { [ArchiveReport.clean($0)] } ?? [],
                          date: info.creationDate.map { ISO8601DateFormatter().string(from: $0) })
        }
        return IssueContent(format: .pdf, metadata: metadata ?? IssueMetadata(), tableOfContents: contents,
                            readingOrder: readingOrder, coverImage: Self.cover(assets.pictures, readingOrder))
    }

    /// What the worker says of one PDF of the issue, which must have a page that can be read
    /// (pages it counts but cannot give are read as saying so: the rest is the issue).
    /// The first PDF's identifiers (an issue of several PDFs is one book); none from a
    /// document that cannot be opened (locked, broken): no server is asked about it.
    public func identifiers(_ files: ContentTree) -> [BookIdentifier] {
        guard let first = Self.assets(in: files).documents.first else { return [] }
        return (try? worker.identifiers(of: files.root.appendingPathComponent(first))) ?? []
    }

    private func info(of name: String, in files: ContentTree) throws -> PDFInfo {
        let info: PDFInfo
        let file = files.root.appendingPathComponent(name)
        do { info = try worker.info(of: file) } catch let error as PDFError {
            throw ArchiveError(error.kind == .needsPassword || error.kind == .wrongPassword ? .encrypted : .invalidContent,
                               error.description)
        }
        guard info.pageCount > 0 else { throw ArchiveError(.invalidContent, "\(PDFError.naming(file)) has no pages") }
        guard info.unreadablePages.count < info.pageCount else {
            throw ArchiveError(.invalidContent, "\(PDFError.naming(file)) has no page that can be read (its page tree is broken)")
        }
        return info
    }

    private static func contents(_ outline: [PDFOutlineItem], file: String) -> [TOCEntry] {
        outline.compactMap { item in
            let children = contents(item.children, file: file)
            guard let page = item.page ?? children.first.flatMap({ PagePath($0.path)?.index }) else { return nil }
            let title = ArchiveReport.clean(item.title)
            return TOCEntry(title: title.isEmpty ? "Page \(page + 1)" : title, path: PagePath(file: file, index: page).description,
                            children: children)
        }
    }

    /// The cover: a picture named `cover.…`, else what is read first (page 1 of a PDF, or a picture).
    private static func cover(_ pictures: [String], _ readingOrder: [Resource]) -> String? {
        pictures.first { ($0 as NSString).lastPathComponent.lowercased().hasPrefix("cover.") } ?? readingOrder.first?.path
    }

    /// The files an issue of this format reads: its PDFs, its pictures, and both in reading
    /// order (natural name order, the tree's).
    struct Assets {
        var documents: [String] = []
        var pictures: [String] = []
        var inOrder: [String] = []
    }

    /// The PDFs and pictures of a folder that holds nothing else to read (no articles, no
    /// EPUB package); none when it does. A folder with `issue.pdf` is that PDF alone: other
    /// files beside it were downloaded with it (a cover), not pages.
    static func assets(in files: ContentTree) -> Assets {
        if files.files.contains(fileName) { return Assets(documents: [fileName], inOrder: [fileName]) }
        var assets = Assets()
        for file in files.files {
            let type = MediaType.of(file)
            if type == mediaType {
                assets.documents.append(file)
            } else if Resource(path: file, mediaType: type).isPicture {
                assets.pictures.append(file)
            } else if MediaType.isDocument(type) && type != "text/plain" || ["opf", "ncx"].contains((file as NSString).pathExtension.lowercased()) {
                return Assets()
            } else {
                continue
            }
            assets.inOrder.append(file)
        }
        return assets.documents.isEmpty ? Assets() : assets
    }
}
