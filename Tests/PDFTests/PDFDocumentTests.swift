import Foundation
import Imaging
import Testing
@testable import PDF
@testable import PDFEngine

@Suite struct PDFDocumentTests {
    private func withSample<Result>(pages: Int = 3, _ body: (URL) throws -> Result) throws -> Result {
        let folder = try SamplePDF.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("sample.pdf")
        SamplePDF.write(to: file, pages: pages)
        return try body(file)
    }

    @Test func readsPagesMetadataAndLabels() throws {
        try withSample(pages: 4) { file in
            let document = try PDFDocument(url: file)
            #expect(document.pageCount == 4)
            #expect(document.title == "The Test Monthly")
            #expect(document.author == "Ada Writer")
            let size = try document.pageSize(0)
            #expect(abs(size.width - 420) < 0.5 && abs(size.height - 595) < 0.5)
            #expect(document.pageLabels == ["i", "ii", "1", "2"])
        }
    }

    @Test func outlineLeadsToPagesNamedDestinationsResolved() throws {
        try withSample(pages: 3) { file in
            let outline = try PDFDocument(url: file).outline
            #expect(outline.map(\.title) == ["Cover", "Second article"])
            #expect(outline.map(\.page) == [0, 1])
            #expect(outline.last?.children == [PDFOutlineItem(title: "Letters", page: 2)])
        }
    }

    @Test func drawsThePictureWhereItWasPutOnWhitePaper() throws {
        try withSample { file in
            let image = try PDFDocument(url: file).render(page: 0, fitting: (width: 210, height: 1000))
            // Fitted by width: half a point a pixel.
            #expect(image.width == 210)
            #expect(image.height == 298)
            func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(image.pixels[(y * image.width + x) * 4..<(y * image.width + x) * 4 + 4]) }
            let inside = (x: Int((SamplePDF.picture.x + SamplePDF.picture.width / 2) / 2),
                          y: Int((SamplePDF.picture.y + SamplePDF.picture.height / 2) / 2))
            #expect(pixel(inside.x, inside.y) == [0, 0, 0, 255])
            #expect(pixel(200, 290) == [255, 255, 255, 255])
        }
    }

    @Test func picturesAreFoundWhereTheyAreDrawnAndARegionIsDrawnAlone() throws {
        try withSample { file in
            let document = try PDFDocument(url: file)
            let text = try document.text(page: 0)
            #expect(abs(text.size.width - 420) < 0.5 && abs(text.size.height - 595) < 0.5)
            let photo = SamplePDF.photo
            let found = try #require(text.figures.first)
            #expect(text.figures.count == 1)
            #expect(abs(found.x0 - photo.x) < 1 && abs(found.y0 - photo.y) < 1)
            #expect(abs(found.x1 - (photo.x + photo.width)) < 1 && abs(found.y1 - (photo.y + photo.height)) < 1)

            let region = try #require(PageRegion(x0: found.x0 / 420, y0: found.y0 / 595, x1: found.x1 / 420, y1: found.y1 / 595))
            let image = try document.render(page: 0, region: region, fitting: (width: 300, height: 300))
            #expect(image.width == 300 && image.height == 200)
            func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(image.pixels[(y * image.width + x) * 4..<(y * image.width + x) * 4 + 3]) }
            // Red at the left edge, blue at the right: the photograph fills the picture.
            #expect(pixel(3, 100)[0] > 200 && pixel(3, 100)[2] < 60)
            #expect(pixel(296, 100)[2] > 200 && pixel(296, 100)[0] < 60)
        }
    }

    @Test func everyPagesPlainTextComesInOneGo() throws {
        try withSample(pages: 3) { file in
            let texts = try PDFDocument(url: file).pageTexts()
            #expect(texts.count == 3)
            #expect(texts[2].contains("Heading 3") && texts[2].contains("right column 4"))
        }
    }

    @Test func textComesWithRectanglesAndFontSizes() throws {
        try withSample { file in
            let text = try PDFDocument(url: file).text(page: 1)
            #expect(text.string.contains("Heading 2"))
            #expect(text.string.contains("left column 3"))
            #expect(text.string.contains("right column 4"))
            let heading = try #require(text.characters.first { $0.scalar == "H" })
            #expect(abs(heading.fontSize - 24) < 0.5)
            let body = try #require(text.characters.first { $0.scalar == "l" })
            #expect(abs(body.fontSize - 10) < 0.5)
            // The right column's characters lie right of the left column's.
            let right = try #require(text.characters.first { $0.scalar == "r" })
            #expect(right.rect.x0 >= 229 && body.rect.x1 < 229)
            #expect(heading.rect.y0 < body.rect.y0)
        }
    }

    @Test func aGarbageOrTruncatedFileIsRefusedWithOneError() throws {
        try withSample { file in
            let folder = file.deletingLastPathComponent()
            let garbage = folder.appendingPathComponent("garbage.pdf")
            try Data("%PDF-1.7\nthis is not really a PDF at all\n".utf8).write(to: garbage)
            let truncated = folder.appendingPathComponent("truncated.pdf")
            try Data(try Data(contentsOf: file).prefix(200)).write(to: truncated)
            for broken in [garbage, truncated, folder.appendingPathComponent("missing.pdf")] {
                #expect(throws: PDFError.self) { try PDFDocument(url: broken) }
                do { _ = try PDFDocument(url: broken) } catch let error as PDFError { #expect(error.kind == .unreadable) }
            }
        }
    }

    @Test func aPageItDoesNotHaveIsAnError() throws {
        try withSample { file in
            let document = try PDFDocument(url: file)
            #expect(throws: PDFError(.noSuchPage, "sample.pdf has no page 4 (it has 3)")) { try document.render(page: 3, fitting: nil) }
        }
    }
}
