import Foundation
import Imaging
import IssueArchive
import Testing
@testable import PDF

/// The worker is the built `newsstand`, beside the test bundle.
let builtNewsstand: URL = {
    let me = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
    return me.deletingLastPathComponent().appendingPathComponent("newsstand")
}()

@Suite struct PDFIssueFormatTests {
    private let format = PDFIssueFormat(worker: PDFWorker(executable: builtNewsstand))

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
        #expect(content.tableOfContents == [
            TOCEntry(title: "Cover", path: "issue.pdf#page=1"),
            TOCEntry(title: "Second article", path: "issue.pdf#page=2", children: [TOCEntry(title: "Letters", path: "issue.pdf#page=3")]),
        ])
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("issue/issue.pdf").path))
        #expect(try formats.open(directory: folder.appendingPathComponent("issue")) == content)
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
            #expect(error.description.contains("broken.pdf") || error.description.contains("issue.pdf"))
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("issue").path))
    }

    @Test func pagesAreDrawnThroughTheRegisteredRendererAndFailuresNameThePage() throws {
        let folder = try SamplePDF.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("issue.pdf")
        SamplePDF.write(to: file, pages: 2)
        let renderers = DocumentRenderers()
        renderers.register(PDFPageRenderer(worker: PDFWorker(executable: builtNewsstand)), for: .pdf)
        let page = try renderers.render(DocumentPage(document: file, kind: .pdf, index: 1), fitting: (width: 42, height: 60))
        #expect(page.width == 42 && page.height == 60)
        #expect(throws: ImageError(.corrupt, "issue.pdf has no page 3 (it has 2)")) {
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
        documents.register(PDFPageRenderer(worker: PDFWorker(executable: builtNewsstand)), for: .pdf)
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
