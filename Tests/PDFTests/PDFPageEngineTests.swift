import Foundation
import Imaging
import Testing
@testable import PDF
@testable import PDFEngine
import PDFDrawing

/// Pages drawn by MuPDF (`MuPDFPages`) while poppler answers everything else: the password
/// that opened the document opens its pages, and MuPDF's own refusals read like poppler's.
@Suite struct PDFPageEngineTests {
    /// The sample encrypted with AES-256 by qpdf: user password `tide`, owner password `keeper`.
    private func withLockedSample<Result>(_ body: (_ plain: URL, _ locked: URL) throws -> Result) throws -> Result {
        try SamplePDF.withSample { file in
            let locked = file.deletingLastPathComponent().appendingPathComponent("locked.pdf")
            let qpdf = Process()
            qpdf.executableURL = URL(fileURLWithPath: "/usr/bin/qpdf")
            qpdf.arguments = ["--encrypt", "tide", "keeper", "256", "--", file.path, locked.path]
            try qpdf.run()
            qpdf.waitUntilExit()
            try #require(qpdf.terminationStatus == 0, "qpdf (./dev packages test) encrypts the sample")
            return try body(file, locked)
        }
    }

    @Test func theDocumentsPasswordOpensItsPagesAndTheyAreThePlainOnes() throws {
        try withLockedSample { plain, locked in
            let expected = try PDFDocument(url: plain).render(page: 1, fitting: (width: 200, height: 200))
            let drawn = try PDFDocument(url: locked, password: "tide").render(page: 1, fitting: (width: 200, height: 200))
            #expect(drawn == expected)
            #expect(drawn.pixels.contains(0), "the page's black picture is drawn, not a blank page")
        }
    }

    @Test func withoutItsPasswordOrWithAWrongOneMuPDFSaysWhatPopplerSays() throws {
        try withLockedSample { _, locked in
            #expect(throws: PDFError(.needsPassword, "locked.pdf needs a password")) { try MuPDFPages(url: locked, password: nil) }
            #expect(throws: PDFError(.wrongPassword, "the password does not open locked.pdf")) {
                try MuPDFPages(url: locked, password: "guess")
            }
            #expect(throws: PDFError(.needsPassword, "locked.pdf needs a password")) { try PDFDocument(url: locked) }
        }
    }

    @Test func aPageOutOfRangeAndAFileThatIsNotAPDFAreOneErrorEach() throws {
        try SamplePDF.withSample { file in
            let pages = try MuPDFPages(url: file, password: nil)
            #expect(pages.pageCount == 3)
            #expect(throws: PDFError(.noSuchPage, "sample.pdf has no page 4 (it has 3)")) {
                try pages.render(page: 3, region: nil, fitting: (width: 10, height: 10), maximumPixels: 1_000)
            }
            let notes = file.deletingLastPathComponent().appendingPathComponent("notes.pdf")
            try Data("these are notes".utf8).write(to: notes)
            #expect(throws: PDFError.self) { try MuPDFPages(url: notes, password: nil) }
            #expect(throws: PDFError(.unreadable, "cannot read '/no/such/file.pdf'")) {
                try MuPDFPages(url: URL(fileURLWithPath: "/no/such/file.pdf"), password: nil)
            }
        }
    }

    @Test func aHugePageIsDrawnNoLargerThanTheLimit() throws {
        try SamplePDF.withSample { file in
            let image = try MuPDFPages(url: file, password: nil).render(page: 0, region: nil, fitting: (width: 100_000, height: 100_000),
                                                                        maximumPixels: 250_000)
            #expect(image.width * image.height <= 250_000 && image.width * image.height > 240_000)
            #expect(abs(Double(image.width) / Double(image.height) - 420.0 / 595.0) < 0.01)
        }
    }
}
