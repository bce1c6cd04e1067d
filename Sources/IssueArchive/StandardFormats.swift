import Foundation

/// EPUB 2 and 3 books: a zip with a container document or an EPUB mimetype.
struct EPUBFormat: IssueFormatReader {
    var format: IssueFormat { .epub }
    var packaging: IssuePackaging { .zip }

    /// Named `.epub`, or its first entry is the stored `mimetype` file an EPUB begins with
    /// (a zip local header is 30 bytes, the name, an extra field, then the data).
    func recognizes(_ download: DownloadedFile) -> Bool {
        guard download.isZip else { return false }
        if download.fileExtension == "epub" { return true }
        let head = download.head
        guard head.count >= 38, head[30..<38].elementsEqual("mimetype".utf8) else { return false }
        let extra = Int(head[28]) | Int(head[29]) << 8
        return head.dropFirst(38 + extra).starts(with: "application/epub+zip".utf8)
    }

    func recognizes(_ files: ContentTree) -> Bool { EPUBBook.isEPUB(files) }
    func open(_ files: ContentTree) throws -> IssueContent { try EPUBBook.open(files) }
    func identifiers(_ files: ContentTree) -> [BookIdentifier] { BookIdentifier.of(epub: files.root) }
}

/// Comic books (CBZ): page images, and at most a few notes beside them.
struct ComicBookFormat: IssueFormatReader {
    var format: IssueFormat { .cbz }
    var packaging: IssuePackaging { .zip }

    func recognizes(_ download: DownloadedFile) -> Bool { download.isZip && download.fileExtension == "cbz" }

    /// Page images and nothing to read but, at most, a few notes (`info.txt`, `.nfo`) that
    /// scanners put beside the pages.
    func recognizes(_ files: ContentTree) -> Bool {
        var images = 0, notes = 0
        for path in files.files {
            let type = MediaType.of(path)
            if type.hasPrefix("image/") { images += 1 }
            else if type == "text/plain" || path.lowercased().hasSuffix(".nfo") { notes += 1 }
            else if MediaType.isDocument(type) { return false }
        }
        return images > 0 && images > 2 * notes
    }

    func open(_ files: ContentTree) throws -> IssueContent { try ComicBook.open(files) }
}

/// A zip of articles (HTML, Markdown, text) with an optional manifest: the format of last
/// resort, which takes any folder and says what it lacks when it holds nothing to read.
struct PlainZipFormat: IssueFormatReader {
    var format: IssueFormat { .zip }
    var packaging: IssuePackaging { .zip }

    func recognizes(_ download: DownloadedFile) -> Bool { download.isZip }
    func recognizes(_ files: ContentTree) -> Bool { true }
    func open(_ files: ContentTree) throws -> IssueContent { try PlainIssue.open(files) }
}
