import Foundation
import Imaging
import IssueArchive
import TextLayout
@testable import Shelf

/// PDF issues for the reader's tests, at the two edges the shelf reads PDFs through: the
/// issue-format registry (what a PDF's pages, labels and outline are) and `DocumentTexts`
/// (a page's words reflowed). The real readers run poppler in the worker (PDF module, tested
/// there with PDFs cairo writes); these read a small JSON description kept as `issue.pdf`,
/// so the shelf's side is tested on its own.
struct TestDocument: Codable {
    struct Page: Codable {
        var label: String?
        /// Paragraphs, one per line; empty for a page without a text layer.
        var text: String
        /// A figure on the page, as a fraction of it.
        var figure: [Double]?
    }

    struct Entry: Codable {
        var title: String
        var page: Int
    }

    var pages: [Page]
    var outline: [Entry] = []
    /// The password the document needs, if encrypted.
    var password: String?

    var data: Data { (try? JSONEncoder().encode(self)) ?? Data() }

    static func read(_ file: URL) throws -> TestDocument {
        try JSONDecoder().decode(TestDocument.self, from: Data(contentsOf: file))
    }

    /// Five pages: labels i, ii, then 1–3; page 2 has no text; "zebra" only on page 4; a
    /// figure on page 3; an outline of two entries.
    static func magazine(password: String? = nil) -> TestDocument {
        TestDocument(pages: [
            Page(label: "i", text: "Cover story\nThe harbour at dawn."),
            Page(label: "ii", text: ""),
            Page(label: "1", text: "Tides\nThe tide tables for the month ahead.", figure: [0.1, 0.5, 0.6, 0.8]),
            Page(label: "2", text: "Wildlife\nA zebra was seen near the lighthouse."),
            Page(label: "3", text: "Letters\nDear editor, thank you."),
        ], outline: [Entry(title: "Cover story", page: 0), Entry(title: "Wildlife", page: 3)], password: password)
    }

    /// Registers the test readers once per process.
    static func register() { _ = registered }
    private static let registered: Void = {
        IssueFormats.shared.register(TestDocumentFormat())
        DocumentTexts.shared.register(TestDocumentTexts(), forExtension: "pdf")
    }()
}

/// Opens a folder holding `issue.pdf` (a `TestDocument`) as a PDF issue does: its pages
/// `issue.pdf#page=N` with their labels, its outline as contents; an encrypted one needs the
/// password the user gave (`DocumentPasswords`), as the worker does. A picture `insert.png`
/// beside it comes after the pages, as in a zip of PDFs and pictures.
struct TestDocumentFormat: IssueFormatReader {
    var format: IssueFormat { IssueFormat(rawValue: "pdf") }
    var packaging: IssuePackaging { .singleFile(name: "issue.pdf") }
    func recognizes(_ download: DownloadedFile) -> Bool { false }
    func recognizes(_ files: ContentTree) -> Bool { files.files.contains("issue.pdf") }

    func open(_ files: ContentTree) throws -> IssueContent {
        let file = files.root.appendingPathComponent("issue.pdf")
        let document = try TestDocument.read(file)
        if let needed = document.password {
            guard let given = DocumentPasswords.shared.password(for: file) else {
                throw ArchiveError(.encrypted, "issue.pdf needs a password")
            }
            guard given == needed else { throw ArchiveError(.encrypted, "wrong password for issue.pdf") }
        }
        return IssueContent(
            format: format, metadata: IssueMetadata(title: "The Test Monthly"),
            tableOfContents: document.outline.map { TOCEntry(title: $0.title, path: "issue.pdf#page=\($0.page + 1)") },
            readingOrder: document.pages.enumerated().map { index, page in
                Resource(path: "issue.pdf#page=\(index + 1)", mediaType: "application/pdf", label: page.label)
            } + (files.files.contains("insert.png") ? [Resource(path: "insert.png", mediaType: "image/png")] : []))
    }
}

/// A page's paragraphs as blocks (the first a heading), its figure as a `PageFigure` block.
struct TestDocumentTexts: DocumentTextReader {
    func page(_ index: Int, of document: URL) throws -> TextDocument {
        let page = try TestDocument.read(document).pages[index]
        let lines = page.text.split(separator: "\n").map(String.init)
        var blocks: [Block] = lines.enumerated().map { number, line in
            number == 0 ? .heading(level: 1, [StyledSpan(line)]) : .paragraph([StyledSpan(line)])
        }
        if let box = page.figure {
            blocks.append(.image(source: PageFigure(page: index, x0: box[0], y0: box[1], x1: box[2], y1: box[3]).source, alt: "Figure"))
        }
        return TextDocument(blocks: blocks)
    }

    func pageTexts(of document: URL) throws -> [String] {
        try TestDocument.read(document).pages.map(\.text)
    }

    /// The text set as on a typewriter: line `l` from 10 + 10·l % of the page down, 5 % tall;
    /// character `c` of it from 10 + 1.5·c % across, 1.5 % wide (a line's end too).
    func characters(ofPage index: Int, of document: URL) throws -> PageCharacters? {
        Self.typewritten(try TestDocument.read(document).pages[index].text)
    }

    static func typewritten(_ text: String) -> PageCharacters {
        var scalars: [Unicode.Scalar] = [], boxes: [PageBox] = []
        var (line, column) = (0, 0)
        for scalar in text.unicodeScalars {
            let (x, y) = (0.1 + 0.015 * Double(column), 0.1 + 0.1 * Double(line))
            scalars.append(scalar)
            boxes.append(PageBox(x0: x, y0: y, x1: x + 0.015, y1: y + 0.05))
            if scalar == "\n" { (line, column) = (line + 1, 0) } else { column += 1 }
        }
        return PageCharacters(scalars: scalars, boxes: boxes)
    }
}
