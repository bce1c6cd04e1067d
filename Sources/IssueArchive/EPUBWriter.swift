import FileWrites
import Foundation

/// Writes an EPUB 3 book: the `mimetype` first and stored (readers find the type at a
/// fixed offset), `META-INF/container.xml`, a package document with its manifest and
/// spine, a navigation document (also the contents page, in the spine), the documents and
/// pictures given, and a cover image. Paths are relative to the package's folder
/// (`OEBPS/`). The file appears whole or not at all: it is written beside its place and
/// renamed into it.
public struct EPUBWriter {
    /// An XHTML document of the spine, in reading order.
    public struct Document {
        public var path: String
        /// The whole document (`EPUBWriter.xhtml(title:language:body:)` makes one).
        public var xhtml: String
        public init(path: String, xhtml: String) {
            self.path = path
            self.xhtml = xhtml
        }
    }

    /// A file the documents refer to: a picture, a style sheet.
    public struct Resource {
        public var path: String
        public var mediaType: String
        public var data: Data
        public init(path: String, mediaType: String, data: Data) {
            self.path = path
            self.mediaType = mediaType
            self.data = data
        }
    }

    /// A line of the contents: a title, the document (maybe with a `#fragment`) it opens, and lines under it.
    public struct ContentsEntry {
        public var title: String
        public var path: String
        public var children: [ContentsEntry]
        public init(title: String, path: String, children: [ContentsEntry] = []) {
            self.title = title
            self.path = path
            self.children = children
        }
    }

    public var identifier: String
    public var title: String
    public var language: String
    public var creator: String?
    public var date: Date
    public var modified: Date
    /// Documents before the contents page (a cover page).
    public var front: [Document] = []
    /// Documents after the contents page.
    public var documents: [Document] = []
    public var resources: [Resource] = []
    public var coverImage: Resource?
    public var contentsTitle = "Contents"
    public var contents: [ContentsEntry] = []
    public var styleSheet: String?

    public static let navigationPath = "nav.xhtml"
    public static let styleSheetPath = "style.css"

    public init(identifier: String, title: String, language: String, creator: String? = nil, date: Date, modified: Date) {
        self.identifier = identifier
        self.title = title
        self.language = language
        self.creator = creator
        self.date = date
        self.modified = modified
    }

    /// Writes the book at `url`, replacing what is there in one rename.
    public func write(to url: URL) throws {
        do { try AtomicFile.write(to: url, purpose: "writing", writeArchive(at:)) } catch let error as FileWriteError {
            throw ArchiveError.io(error.operation, error.path, errno: error.errno)
        }
    }

    private func writeArchive(at url: URL) throws {
        let archive = try ZipWriter(url: url)
        try add("mimetype", Data("application/epub+zip".utf8), to: archive, compressed: false)
        try add("META-INF/container.xml", Data(Self.container.utf8), to: archive)
        try add("OEBPS/package.opf", Data(packageDocument().utf8), to: archive)
        try add("OEBPS/" + Self.navigationPath, Data(navigationDocument().utf8), to: archive)
        if let styleSheet { try add("OEBPS/" + Self.styleSheetPath, Data(styleSheet.utf8), to: archive) }
        for document in front + documents { try add("OEBPS/" + document.path, Data(document.xhtml.utf8), to: archive) }
        for resource in resources + [coverImage].compactMap({ $0 }) {
            // Pictures are compressed already.
            try add("OEBPS/" + resource.path, resource.data, to: archive, compressed: !resource.mediaType.hasPrefix("image/"))
        }
        try archive.finish()
    }

    private func add(_ path: String, _ data: Data, to archive: ZipWriter, compressed: Bool = true) throws {
        try archive.add(path, data, compressed: compressed)
    }

    static let container = """
        <?xml version="1.0" encoding="UTF-8"?>
        <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
          <rootfiles>
            <rootfile full-path="OEBPS/package.opf" media-type="application/oebps-package+xml"/>
          </rootfiles>
        </container>

        """

    private static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }

    func packageDocument() -> String {
        let e = ArticleHTML.escape
        var manifest = ["<item id=\"nav\" href=\"\(Self.navigationPath)\" media-type=\"application/xhtml+xml\" properties=\"nav\"/>"]
        if styleSheet != nil { manifest.append("<item id=\"css\" href=\"\(Self.styleSheetPath)\" media-type=\"text/css\"/>") }
        var spine: [String] = []
        for (index, document) in front.enumerated() {
            manifest.append("<item id=\"front\(index)\" href=\"\(e(document.path))\" media-type=\"application/xhtml+xml\"/>")
            spine.append("<itemref idref=\"front\(index)\"/>")
        }
        spine.append("<itemref idref=\"nav\"/>")
        for (index, document) in documents.enumerated() {
            manifest.append("<item id=\"doc\(index)\" href=\"\(e(document.path))\" media-type=\"application/xhtml+xml\"/>")
            spine.append("<itemref idref=\"doc\(index)\"/>")
        }
        for (index, resource) in resources.enumerated() {
            manifest.append("<item id=\"res\(index)\" href=\"\(e(resource.path))\" media-type=\"\(e(resource.mediaType))\"/>")
        }
        var coverMeta = ""
        if let coverImage {
            manifest.append("<item id=\"cover-image\" href=\"\(e(coverImage.path))\" media-type=\"\(e(coverImage.mediaType))\" properties=\"cover-image\"/>")
            coverMeta = "\n    <meta name=\"cover\" content=\"cover-image\"/>"
        }
        let creator = creator.map { "\n    <dc:creator>\(e($0))</dc:creator>" } ?? ""
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="uid" xml:lang="\(e(language))">
              <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
                <dc:identifier id="uid">\(e(identifier))</dc:identifier>
                <dc:title>\(e(title))</dc:title>
                <dc:language>\(e(language))</dc:language>\(creator)
                <dc:date>\(Self.timestamp(date))</dc:date>
                <meta property="dcterms:modified">\(Self.timestamp(modified))</meta>\(coverMeta)
              </metadata>
              <manifest>
                \(manifest.joined(separator: "\n    "))
              </manifest>
              <spine>
                \(spine.joined(separator: "\n    "))
              </spine>
            </package>

            """
    }

    func navigationDocument() -> String {
        func list(_ entries: [ContentsEntry]) -> String {
            let items = entries.map { entry in
                "<li><a href=\"\(ArticleHTML.escape(entry.path))\">\(ArticleHTML.escape(entry.title))</a>"
                    + (entry.children.isEmpty ? "" : list(entry.children)) + "</li>"
            }
            return "<ol>" + items.joined(separator: "\n") + "</ol>"
        }
        // A navigation list may not be empty: a book without contents lists its first document.
        let entries = contents.isEmpty ? (documents.first.map { [ContentsEntry(title: title, path: $0.path)] } ?? []) : contents
        let body = "<nav epub:type=\"toc\" id=\"toc\"><h1>\(ArticleHTML.escape(contentsTitle))</h1>\n" + list(entries) + "</nav>"
        return Self.xhtml(title: contentsTitle, language: language, body: body, styleSheet: styleSheet == nil ? nil : Self.styleSheetPath)
    }

    /// A whole XHTML5 document around `body` (already XHTML); `styleSheet` is a path relative to the document.
    public static func xhtml(title: String, language: String, body: String, styleSheet: String? = nil) -> String {
        let link = styleSheet.map { "\n<link rel=\"stylesheet\" type=\"text/css\" href=\"\(ArticleHTML.escape($0))\"/>" } ?? ""
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE html>
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="\(ArticleHTML.escape(language))" xml:lang="\(ArticleHTML.escape(language))">
            <head>
            <meta charset="UTF-8"/>
            <title>\(ArticleHTML.escape(title))</title>\(link)
            </head>
            <body>
            \(body)
            </body>
            </html>

            """
    }
}
