import CSystemZlib
import Foundation
import IssueArchive
import Testing
import TextLayout
@testable import PDF
@testable import PDFEngine

/// PDFs written byte by byte: cairo can neither turn a page (/Rotate) nor break a page tree.
enum HandWrittenPDF {
    /// A page of A5 (420×595 pt) turned `rotation` degrees clockwise when shown, with lines of
    /// Helvetica (x and y of the baseline from the page's bottom left, as the PDF has them).
    struct Page {
        var rotation = 0
        var lines: [(text: String, x: Int, y: Int, size: Int)]

        var object: (contents: String, page: String) {
            let stream = lines.map { "BT /F1 \($0.size) Tf \($0.x) \($0.y) Td (\($0.text)) Tj ET" }.joined(separator: "\n")
            return ("<< /Length \(stream.utf8.count) >>\nstream\n\(stream)\nendstream",
                    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 420 595] /Rotate \(rotation) /Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>")
        }
    }

    /// `pages` in order under one page tree.
    static func write(_ pages: [Page], to url: URL) throws {
        var objects = ["<< /Type /Catalog /Pages 2 0 R >>", "", "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
        var kids: [String] = []
        for page in pages {
            let (contents, node) = page.object
            objects.append(contents)
            objects.append(node.replacingOccurrences(of: "%d", with: String(objects.count)))
            kids.append("\(objects.count) 0 R")
        }
        objects[1] = "<< /Type /Pages /Kids [\(kids.joined(separator: " "))] /Count \(kids.count) >>"
        try write(objects: objects, to: url)
    }

    /// As pdf.js's Pages-tree-refs.pdf: the tree counts two pages, the first readable, the
    /// second a node whose kids lead back to itself.
    static func writeLoopingTree(_ first: Page, to url: URL) throws {
        let (contents, node) = first.object
        try write(objects: [
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [6 0 R 4 0 R] /Count 2 >>",
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
            "<< /Type /Pages /Parent 2 0 R /Kids [5 0 R] /Count 1 >>",
            "<< /Type /Pages /Parent 4 0 R /Kids [4 0 R] /Count 1 >>",
            node.replacingOccurrences(of: "%d", with: "7"),
            contents,
        ], to: url)
    }

    /// Numbered objects (the first is 1, the catalog), a cross-reference table and a trailer
    /// (naming object `info` as the document's Info dictionary, when given).
    static func write(objects: [String], info: Int? = nil, to url: URL) throws {
        var out = "%PDF-1.4\n"
        var offsets: [Int] = []
        for (index, body) in objects.enumerated() {
            offsets.append(out.utf8.count)
            out += "\(index + 1) 0 obj\n\(body)\nendobj\n"
        }
        let table = out.utf8.count
        out += "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for offset in offsets { out += String(repeating: "0", count: 10 - String(offset).count) + "\(offset) 00000 n \n" }
        out += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R \(info.map { "/Info \($0) 0 R " } ?? "")>>\nstartxref\n\(table)\n%%EOF\n"
        try Data(out.utf8).write(to: url)
    }

    /// One page whose content stream inflates from about 60 KB to 20 MB of lines across it:
    /// a flate bomb (benchmarks/reliability/pdf_paths.py writes one of 64 MB).
    /// With `inMetadata`, the 20 MB go into the document's XMP metadata stream instead, and
    /// the page is empty.
    static func writeFlateBomb(to url: URL, inMetadata: Bool = false) throws {
        let line = Array((inMetadata ? "<rdf:li>urn:isbn:9780306406157</rdf:li>\n" : "0 0 m 420 595 l S\n").utf8)
        var content = [UInt8](repeating: 0, count: 20 << 20).enumerated().map { line[$0.offset % line.count] }
        if inMetadata {
            // A packet whole and well-formed, every line an identifier: read, it would give some.
            content = Array(#"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/"><xmp:Identifier><rdf:Bag>"#.utf8)
                + content.prefix(content.count / line.count * line.count)
                + Array("</rdf:Bag></xmp:Identifier></rdf:Description></rdf:RDF></x:xmpmeta>".utf8)
        }
        try writeCompressed(content, inMetadata: inMetadata, to: url)
    }

    /// A one-page PDF whose page contents, or (`inMetadata`) whose XMP metadata, are `content`
    /// compressed with Flate.
    static func writeCompressed(_ content: [UInt8], inMetadata: Bool, to url: URL) throws {
        var size = compressBound(uLong(content.count))
        var packed = [UInt8](repeating: 0, count: Int(size))
        guard compress2(&packed, &size, content, uLong(content.count), 9) == Z_OK else { throw CocoaError(.fileWriteUnknown) }
        var out = Data("%PDF-1.4\n".utf8)
        var offsets: [Int] = []
        let objects: [Data] = [
            Data("<< /Type /Catalog /Pages 2 0 R\(inMetadata ? " /Metadata 4 0 R" : "") >>".utf8),
            Data("<< /Type /Pages /Kids [3 0 R] /Count 1 >>".utf8),
            Data("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 420 595]\(inMetadata ? "" : " /Contents 4 0 R") >>".utf8),
            Data("<< /Length \(size) /Filter /FlateDecode\(inMetadata ? " /Type /Metadata /Subtype /XML" : "") >>\nstream\n".utf8)
                + Data(packed.prefix(Int(size))) + Data("\nendstream".utf8),
        ]
        for (index, body) in objects.enumerated() {
            offsets.append(out.count)
            out += Data("\(index + 1) 0 obj\n".utf8) + body + Data("\nendobj\n".utf8)
        }
        let table = out.count
        var tail = "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for offset in offsets { tail += String(repeating: "0", count: 10 - String(offset).count) + "\(offset) 00000 n \n" }
        tail += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(table)\n%%EOF\n"
        try (out + Data(tail.utf8)).write(to: url)
    }

    /// `text` as a PDF text string in UTF-16BE (`<FEFF…>`), which can carry any character,
    /// controls too (a literal string is PDFDocEncoding, where ESC is a breve).
    static func utf16(_ text: String) -> String {
        "<FEFF" + text.utf16.map { String(format: "%04X", $0) }.joined() + ">"
    }
}

@Suite struct PDFTurnedAndBrokenPagesTests {
    private let worker = PDFWorker(executable: builtWorker)

    private func paragraph(_ text: String) -> Block { .paragraph([StyledSpan(text)]) }

    @Test func aTurnedPageReadsAsTheUprightOneDoes() throws {
        let folder = try SamplePDF.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("turned.pdf")
        let lines = [(text: "Turned pages read", x: 60, y: 500, size: 12), (text: "like upright ones.", x: 60, y: 486, size: 12),
                     (text: "A second paragraph", x: 60, y: 440, size: 12), (text: "follows the first.", x: 60, y: 426, size: 12)]
        try HandWrittenPDF.write([0, 90, 180, 270].map { HandWrittenPDF.Page(rotation: $0, lines: lines) }, to: file)
        let reader = PDFTextReader(worker: worker)
        let expected = [paragraph("Turned pages read like upright ones."), paragraph("A second paragraph follows the first.")]
        for index in 0..<4 {
            #expect(try reader.page(index, of: file).blocks == expected, "page \(index + 1), turned \(index * 90)°")
        }
        // The page as shown keeps its own rectangles (a match is marked on the page drawn).
        let shown = try PDFDocument(url: file).text(page: 1, figures: false)
        #expect(shown.rotation == 90 && shown.size == PDFSize(width: 595, height: 420))
        #expect(shown.upright.size == PDFSize(width: 420, height: 595))
        // Search reads every page's words, upside down too.
        let texts = try reader.pageTexts(of: file)
        #expect(texts.count == 4)
        for text in texts { #expect(text.contains("upright") && text.contains("second"), "\(text)") }
    }

    @Test func aPageTheTreeCannotGiveIsNamedAndTheRestIsRead() throws {
        let folder = try SamplePDF.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let download = folder.appendingPathComponent("looping.pdf")
        try HandWrittenPDF.writeLoopingTree(HandWrittenPDF.Page(lines: [(text: "Testcase: Pages loop", x: 30, y: 500, size: 22)]), to: download)

        let info = try worker.info(of: download)
        #expect(info.pageCount == 2 && info.unreadablePages == [1])
        #expect(PDFReport.summary(info).contains("pages that cannot be read: 2"))
        do {
            _ = try PDFDocument(url: download).text(page: 1)
            Issue.record("page 2 of a looping tree was read")
        } catch let error as PDFError {
            #expect(error.kind == .unreadablePage)
            // Never "has no page 2 (it has 2)".
            #expect(error.description == "page 2 of looping.pdf cannot be read: its place in the PDF's page tree is broken")
        }

        let formats = IssueFormats()
        formats.register(PDFIssueFormat(worker: worker))
        let target = folder.appendingPathComponent("issue")
        let content = try IssueInstaller.install(download: download, into: target, formats: formats)
        #expect(content.readingOrder.map(\.path) == ["issue.pdf#page=1", "issue.pdf#page=2"])
        let reader = PDFTextReader(worker: worker)
        let installed = target.appendingPathComponent("issue.pdf")
        #expect(try reader.page(0, of: installed).blocks == [paragraph("Testcase: Pages loop")])
        #expect(try reader.page(1, of: installed).blocks == [paragraph("[This page cannot be read: its place in the PDF's page tree is broken.]")])
    }

    /// Either library would read the bomb's lines until the worker's wall clock ended it
    /// (20 s): its contents are measured first, and the page refused in one line.
    @Test func aFlateBombIsRefusedBeforeEitherLibraryReadsIt() throws {
        let folder = try SamplePDF.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bomb = folder.appendingPathComponent("bomb.pdf")
        try HandWrittenPDF.writeFlateBomb(to: bomb)
        let refusal = "page 1 of bomb.pdf cannot be read: its contents inflate to more than 16 MB from"
        let document = try PDFDocument(url: bomb)
        let text = #expect(throws: PDFError.self) { try document.text(page: 0) }
        #expect(text?.description.contains(refusal) == true, "\(String(describing: text))")
        let drawing = #expect(throws: PDFError.self) { try document.render(page: 0, fitting: (100, 140)) }
        #expect(drawing?.description.contains(refusal) == true, "\(String(describing: drawing))")
        let read = #expect(throws: PDFError.self) { try PDFTextReader(worker: worker).page(0, of: bomb) }
        #expect(read?.description.contains(refusal) == true && read?.description.contains("\n") == false,
                "one line, from the worker\n\(String(describing: read))")
        // A page of real text is read as before.
        let sample = folder.appendingPathComponent("sample.pdf")
        SamplePDF.write(to: sample, pages: 1)
        #expect(try PDFDocument(url: sample).text(page: 0).characters.count > 100)
    }

    @Test func errorsAboutAnInstalledPDFNeverNameItsPlaceInTheLibrary() throws {
        // `issue.pdf` is the library's name for the file, which the user never saw (see also
        // PDFIssueFormatTests.aBrokenPDFIsRefusedAtInstall).
        let folder = try SamplePDF.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let installed = folder.appendingPathComponent("issue.pdf")
        SamplePDF.write(to: installed, pages: 2)
        #expect(throws: PDFError(.noSuchPage, "the file has no page 3 (it has 2)")) { try PDFDocument(url: installed).text(page: 2) }
        #expect(throws: PDFError(.noSuchPage, "the file has no page 3 (it has 2)")) {
            try PDFTextReader(worker: worker).page(2, of: installed)
        }
    }
}
