import Foundation
import Imaging
import IssueArchive
import Testing
import ZIPFoundation
@testable import PDF
@testable import PDFEngine

/// The worker is the built `newsstand-pdf`, beside the test bundle as it is beside `newsstand`.
let builtWorker = PDFWorker.besideThisProgram
/// `newsstand-pdf-draw`, built beside it.
let builtDrawer = PDFWorker.beside(PDFWorker.drawerName)

@Suite struct PDFIssueFormatTests {
    private let format = PDFIssueFormat(worker: PDFWorker(executable: builtWorker))

    @Test func recognisesADownloadByItsHeaderOrName() {
        let folder = URL(fileURLWithPath: "/tmp")
        #expect(format.recognizes(DownloadedFile(url: folder.appendingPathComponent("download"), head: Array("%PDF-1.7\n".utf8))))
        #expect(format.recognizes(DownloadedFile(url: folder.appendingPathComponent("x.bin"), head: Array("junk\r\n%PDF-1.4".utf8))))
        #expect(format.recognizes(DownloadedFile(url: folder.appendingPathComponent("magazine-1.pdf"), head: [1, 2, 3])))
        #expect(!format.recognizes(DownloadedFile(url: folder.appendingPathComponent("book.epub"), head: Array("PK\u{03}\u{04}".utf8))))
        #expect(!format.recognizes(DownloadedFile(url: folder.appendingPathComponent("odd.pdf"), head: Array("PK\u{03}\u{04}".utf8))))
    }

    @Test func installsAndOpensIntoPagesAndContents() throws {
        let folder = try SamplePDF.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let download = folder.appendingPathComponent("magazine-1.pdf")
        SamplePDF.write(to: download, pages: 3)
        let formats = IssueFormats()
        formats.register(format)
        let content = try IssueInstaller.install(download: download, into: folder.appendingPathComponent("issue"), formats: formats)
        #expect(content.format == .pdf)
        #expect(content.metadata.title == "The Test Monthly")
        #expect(content.metadata.creators == ["Ada Writer"])
        #expect(content.readingOrder.map(\.path) == ["issue.pdf#page=1", "issue.pdf#page=2", "issue.pdf#page=3"])
        #expect(content.readingOrder.map(\.label) == ["i", "ii", "1"])
        #expect(content.tableOfContents == [
            TOCEntry(title: "Cover", path: "issue.pdf#page=1"),
            TOCEntry(title: "Second article", path: "issue.pdf#page=2", children: [TOCEntry(title: "Letters", path: "issue.pdf#page=3")]),
        ])
        // No cover in the PDF but its first page.
        #expect(content.coverImage == "issue.pdf#page=1")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("issue/issue.pdf").path))
        #expect(try formats.open(directory: folder.appendingPathComponent("issue")) == content)
    }

    /// A zip of `files` (name → bytes) at `url`.
    private func zip(_ files: [(String, Data)], to url: URL) throws {
        let archive = try Archive(url: url, accessMode: .create)
        for (path, data) in files {
            try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
    }

    @Test func aPDFsDayIsItsCreationDate() throws {
        let folder = try SamplePDF.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let download = folder.appendingPathComponent("made.pdf")
        SamplePDF.write(to: download, pages: 1, created: "2019-05-04T10:00:00Z")
        let formats = IssueFormats()
        formats.register(format)
        let content = try IssueInstaller.install(download: download, into: folder.appendingPathComponent("issue"), formats: formats)
        #expect(content.metadata.day == Date(timeIntervalSince1970: 1_556_928_000))
    }

    @Test func aZipOfPDFsAndPicturesIsOneIssueInNaturalNameOrder() throws {
        let folder = try SamplePDF.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let magazine = folder.appendingPathComponent("magazine.pdf"), insert = folder.appendingPathComponent("insert.pdf")
        SamplePDF.write(to: magazine, pages: 3)
        SamplePDF.write(to: insert, pages: 2)
        let picture = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let download = folder.appendingPathComponent("magazine-2.zip")
        // Natural order: 2 before 10, whatever order the zip holds them in.
        try zip([("10-insert.pdf", try Data(contentsOf: insert)), ("3-map.png", picture),
                 ("2-magazine.pdf", try Data(contentsOf: magazine)), ("1-front.jpg", picture), ("notes.txt", Data("hi".utf8))],
                to: download)
        let formats = IssueFormats()
        formats.register(format)
        let target = folder.appendingPathComponent("issue")
        let content = try IssueInstaller.install(download: download, into: target, formats: formats)
        #expect(content.format == .pdf)
        #expect(content.readingOrder.map(\.path) == [
            "1-front.jpg", "2-magazine.pdf#page=1", "2-magazine.pdf#page=2", "2-magazine.pdf#page=3", "3-map.png",
            "10-insert.pdf#page=1", "10-insert.pdf#page=2",
        ])
        #expect(content.readingOrder.map(\.mediaType) == ["image/jpeg"] + Array(repeating: "application/pdf", count: 3)
                + ["image/png", "application/pdf", "application/pdf"])
        // The metadata of the first PDF; the contents of every PDF's outline, in order.
        #expect(content.metadata.title == "The Test Monthly")
        #expect(content.tableOfContents.map(\.path) == ["2-magazine.pdf#page=1", "2-magazine.pdf#page=2",
                                                        "10-insert.pdf#page=1", "10-insert.pdf#page=2"])
        #expect(content.tableOfContents[1].children == [TOCEntry(title: "Letters", path: "2-magazine.pdf#page=3")])
        // What is read first is the cover: here a picture.
        #expect(content.coverImage == "1-front.jpg")
        #expect(try formats.open(directory: target) == content)
    }

    @Test func aFolderWithArticlesBesideItsPDFIsNotAPDFIssue() throws {
        let folder = try SamplePDF.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        SamplePDF.write(to: folder.appendingPathComponent("extra.pdf"), pages: 1)
        try Data("<html><body><h1>Article</h1></body></html>".utf8).write(to: folder.appendingPathComponent("article.html"))
        #expect(!format.recognizes(try ContentTree(root: folder)))
        try FileManager.default.removeItem(at: folder.appendingPathComponent("article.html"))
        #expect(format.recognizes(try ContentTree(root: folder)))
    }

    @Test func aBrokenPDFIsRefusedAtInstall() throws {
        let folder = try SamplePDF.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let download = folder.appendingPathComponent("broken.pdf")
        try Data("%PDF-1.7\ntruncated".utf8).write(to: download)
        let formats = IssueFormats()
        formats.register(format)
        do {
            _ = try IssueInstaller.install(download: download, into: folder.appendingPathComponent("issue"), formats: formats)
            Issue.record("a broken PDF installed")
        } catch let error as ArchiveError {
            #expect(error.kind == .invalidContent)
            // The user named broken.pdf; `issue.pdf` is the library's name for it, which they never saw.
            #expect(error.description.hasPrefix("the file is not a PDF that can be read"), "\(error.description)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("issue").path))
    }

    @Test func whatAPDFSaysOfItselfReachesTheLibraryWithoutControls() throws {
        // Its title reaches `newsstand issues` as it was stored (found by
        // benchmarks/reliability/pdf_paths.py: a BEL, and in UTF-16 an ESC, went through).
        let folder = try SamplePDF.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let download = folder.appendingPathComponent("escapes.pdf")
        let (contents, page) = HandWrittenPDF.Page(lines: [(text: "Inside", x: 30, y: 500, size: 20)]).object
        try HandWrittenPDF.write(objects: [
            "<< /Type /Catalog /Pages 2 0 R /Outlines 6 0 R /PageLabels << /Nums [0 << /S /D /P \(HandWrittenPDF.utf16("\u{1B}[31mA-"))>>] >> >>",
            "<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
            page.replacingOccurrences(of: "%d", with: "5"),
            contents,
            "<< /Type /Outlines /First 7 0 R /Last 7 0 R /Count 1 >>",
            "<< /Title \(HandWrittenPDF.utf16("\u{1B}[2JCover\u{07}")) /Parent 6 0 R /Dest [4 0 R /Fit] >>",
            "<< /Title \(HandWrittenPDF.utf16("\u{1B}]52;c;UFdORUQ=\u{07}The \u{202E}Spring\u{9B}31m Number")) /Author (Ada\\007 Writer) >>",
        ], info: 8, to: download)
        let formats = IssueFormats()
        formats.register(format)
        let content = try IssueInstaller.install(download: download, into: folder.appendingPathComponent("issue"), formats: formats)
        #expect(content.metadata.title == "]52;c;UFdORUQ=The Spring31m Number")
        #expect(content.metadata.creators == ["Ada Writer"])
        #expect(content.tableOfContents == [TOCEntry(title: "[2JCover", path: "issue.pdf#page=1")])
        #expect(content.readingOrder.map(\.label) == ["[31mA-1"])
    }

    @Test func pagesAreDrawnThroughTheRegisteredRendererAndFailuresNameThePage() throws {
        let folder = try SamplePDF.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("issue.pdf")
        SamplePDF.write(to: file, pages: 2)
        let renderers = DocumentRenderers()
        renderers.register(PDFPageRenderer(worker: PDFWorker(executable: builtWorker)), for: .pdf)
        let page = try renderers.render(DocumentPage(document: file, kind: .pdf, index: 1), fitting: (width: 42, height: 60))
        #expect(page.width == 42 && page.height == 60)
        #expect(throws: ImageError(.corrupt, "the file has no page 3 (it has 2)")) {
            try renderers.render(DocumentPage(document: file, kind: .pdf, index: 2), fitting: nil)
        }
    }
}

@Suite struct PDFCommandWorkTests {
    @Test func renderDrawsTheAskedPageAndNamesAFailingOne() throws {
        let folder = try SamplePDF.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("magazine.pdf")
        SamplePDF.write(to: file, pages: 2)
        let documents = DocumentRenderers()
        documents.register(PDFPageRenderer(worker: PDFWorker(executable: builtWorker)), for: .pdf)
        let options = RenderOptions(columns: 20, rows: 14, colorMode: .truecolor, symbols: .half, letterbox: false)
        let drawn = RenderTool.render([file.path], page: 2, options: options, documents: documents)
        #expect(drawn.failures.isEmpty)
        // Black cells where the picture is: the background of some half block is black.
        #expect(String(decoding: drawn.output, as: UTF8.self).contains("48;2;0;0;0m"))
        let missing = RenderTool.render([file.path], page: 3, options: options, documents: documents)
        #expect(missing.failures == ["\(file.path): magazine.pdf has no page 3 (it has 2)"])
    }

    @Test func theSummaryNamesPagesLabelsAndContents() throws {
        let folder = try SamplePDF.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("magazine.pdf")
        SamplePDF.write(to: file, pages: 3)
        let summary = PDFReport.summary(try PDFDocument(url: file).info())
        #expect(summary == """
            format: pdf
            title: The Test Monthly
            author: Ada Writer
            pages: 3
            page size: 420×595 pt
            page labels: i, ii, 1
            contents:
              Cover  → page 1 (i)
              Second article  → page 2 (ii)
                Letters  → page 3 (1)
            """)
    }
}
