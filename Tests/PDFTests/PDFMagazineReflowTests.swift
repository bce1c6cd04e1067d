import Foundation
import Testing
import TextLayout
@testable import PDF

/// A magazine of dense two-column pages read as text page after page and by jumps, through
/// the worker: every article title is the page's first heading and no running header is
/// left. (How long it takes is measured by benchmarks/pdf/reader.sh, not here.)
@Suite struct PDFMagazineReflowTests {
    /// A page of the magazine: a running header and page number, an article title every
    /// fourth page, two columns of 40 lines of 10-point text.
    static func magazinePage(_ number: Int) -> DrawnPage {
        var page = DrawnPage()
        page.text("The Speed Monthly · November", x: 40, y: 28)
        page.text("\(number + 1)", x: 370, y: 28)
        var top = 70.0
        if number % 4 == 0 {
            page.text("Article \(number / 4 + 1)", x: 40, y: 60, size: 20, bold: true)
            top = 90
        }
        let words = ["harbour", "boats", "nets", "tide", "morning", "market", "fish", "gulls", "quay", "salt"]
        for column in 0..<2 {
            page.column((0..<40).map { line in
                (0..<5).map { words[(number + column * 7 + line * 3 + $0) % words.count] }.joined(separator: " ")
            }, x: column == 0 ? 40 : 225, y: top)
        }
        return page
    }

    @Test func everyPageOfAMagazineReadsFromItsTitleWithoutItsRunningHeader() throws {
        let folder = try SamplePDF.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("magazine.pdf")
        DrawnPage.write((0..<48).map(Self.magazinePage), to: file)
        let worker = PDFWorker(executable: builtWorker)
        let reader = PDFTextReader(worker: worker)
        // Paging through, then jumping to pages no reader has seen.
        for index in Array(0..<24) + [41, 30, 47] {
            let blocks = try reader.page(index, of: file).blocks
            #expect(index % 4 != 0 || blocks.first == .heading(level: 1, [StyledSpan("Article \(index / 4 + 1)")]), "page \(index + 1)")
            #expect(!blocks.contains { $0.plainText.contains("Speed Monthly") }, "page \(index + 1) kept its running header")
            #expect(blocks.contains { $0.plainText.contains("harbour") || $0.plainText.contains("tide") }, "page \(index + 1) lost its columns")
        }
    }
}
