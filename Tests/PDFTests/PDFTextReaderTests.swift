import Foundation
import Pictures
import Testing
import TextLayout
@testable import PDF
@testable import PDFEngine

/// The text reader's requests to the worker: a page with its neighbours' running bands in
/// one, and every page's text read in batches, kept beside the PDF and read ahead.
@Suite struct PDFTextReaderTests {
    private let worker = PDFWorker(executable: builtWorker)

    private func withSample<Result>(pages: Int, _ body: (URL) throws -> Result) throws -> Result {
        let folder = try SamplePDF.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("issue.pdf")
        SamplePDF.write(to: file, pages: pages)
        return try body(file)
    }

    @Test func aPageAndItsNeighboursBandsComeInOneRequestAsInSeparateOnes() throws {
        try withSample(pages: 6) { file in
            for index in [0, 2, 5] {
                let read = try worker.readingText(page: index, of: file)
                #expect(read.page == (try worker.text(page: index, of: file)))
                let separately = PDFReflow.neighbourOffsets.map { offset in
                    (try? worker.text(page: index + offset, of: file))?.runningBands
                }
                #expect(read.neighbours == separately, "page \(index + 1)")
                #expect(read.neighbours.compactMap { $0 }.count == PDFReflow.neighbourOffsets.filter { (0..<6).contains(index + $0) }.count)
            }
            // A band holds the heading at the top of the page and not the columns below it.
            let band = try #require(try worker.readingText(page: 2, of: file).neighbours[1])
            #expect(band.string.contains("Heading 2") && !band.string.contains("column"))
            #expect(band.figures.isEmpty)
        }
    }

    @Test func bandsAreWhatRunningLinesReadOfAPage() throws {
        try withSample(pages: 3) { file in
            let whole = try PDFDocument(url: file).text(page: 1)
            let bands = whole.runningBands
            #expect(bands.characters.count < whole.characters.count)
            for character in whole.characters where !bands.characters.contains(character) {
                #expect(!RunningLines.inBand((character.rect.y0 + character.rect.y1) / 2, height: whole.size.height))
            }
        }
    }

    @Test func aPagesCharactersComeInFractionsOfThePageWhereTheyAreDrawn() throws {
        try withSample(pages: 3) { file in
            let page = try PDFDocument(url: file).text(page: 2)
            let characters = try #require(try PDFTextReader(worker: worker).characters(ofPage: 2, of: file))
            #expect(characters.scalars == page.characters.map(\.scalar) && characters.boxes.count == characters.scalars.count)
            for (box, character) in zip(characters.boxes, page.characters) {
                #expect(abs(box.x0 * page.size.width - character.rect.x0) < 0.001 && abs(box.y1 * page.size.height - character.rect.y1) < 0.001)
            }
            // The heading is at the top of the page, above everything else.
            let text = characters.scalars, heading = Array("Heading 3".unicodeScalars)
            let first = try #require(text.indices.first { text[$0...].starts(with: heading) })
            #expect(characters.boxes[first].y0 < 0.3 && characters.boxes.allSatisfy { (0...1).contains($0.y1) && (0...1).contains($0.x1) })
        }
    }

    @Test func everyPagesTextComesInBatchesToTheLastPage() throws {
        for pages in [PDFTextReader.batch * 2, PDFTextReader.batch * 2 + 3] {
            try withSample(pages: pages) { file in
                let texts = try PDFTextReader(worker: worker).pageTexts(of: file)
                #expect(texts.count == pages)
                #expect(texts.last?.contains("Heading \(pages)") == true)
                #expect(texts == (try PDFDocument(url: file).pageTexts().map { Sanitizer.clean($0, multiline: true) }))
            }
        }
    }

    @Test func keptTextsAreReadInsteadOfThePDFAndReplacedWhenItChanges() throws {
        try withSample(pages: 3) { file in
            let kept = KeptPageTexts.file(for: file)
            #expect(try PDFTextReader(worker: worker).pageTexts(of: file).count == 3)
            let written = try JSONDecoder().decode(KeptPageTexts.self, from: Data(contentsOf: kept))
            #expect(written.texts.count == 3 && written.texts[2].contains("Heading 3"))

            // A reader with no worker at all answers from the kept file.
            var marked = written
            marked.texts[2] = "only in the kept file"
            try JSONEncoder().encode(marked).write(to: kept)
            let workerless = PDFTextReader(worker: PDFWorker(executable: URL(fileURLWithPath: "/nonexistent/newsstand-pdf")))
            #expect(try workerless.pageTexts(of: file)[2] == "only in the kept file")

            // Texts an older text layer kept (no `layer`: poppler-glib's) are read again.
            marked.layer = nil
            try JSONEncoder().encode(marked).write(to: kept)
            #expect(KeptPageTexts.load(for: file) == nil)
            #expect(try PDFTextReader(worker: worker).pageTexts(of: file)[2].contains("Heading 3"))
            #expect(KeptPageTexts.load(for: file)?[2].contains("Heading 3") == true, "kept anew with this layer")

            // The PDF replaced (a new download): read again, and kept anew.
            let replacement = file.deletingLastPathComponent().appendingPathComponent("new.pdf")
            SamplePDF.write(to: replacement, pages: 5)
            #expect(rename(replacement.path, file.path) == 0)
            #expect(throws: PDFError.self) { try workerless.pageTexts(of: file) }
            let texts = try PDFTextReader(worker: worker).pageTexts(of: file)
            #expect(texts.count == 5 && texts[4].contains("Heading 5"))
            #expect(KeptPageTexts.load(for: file) == texts)
        }
    }

    @Test func textsAreReadAheadAndKeptWithoutASearch() throws {
        try withSample(pages: PDFTextReader.batch + 1) { file in
            let ended = ReadySignal()
            let reader = PDFTextReader(worker: worker, readingAheadAfter: 0, pausing: 0, readAheadEnded: ended.onReady)
            reader.readAhead(of: file)
            // Waits for the other thread to say it has ended, not for a time: the test asserts what it wrote.
            let kept = try #require(ended.wait { KeptPageTexts.load(for: file) })
            #expect(kept.count == PDFTextReader.batch + 1)
            // The search then takes what was read ahead: its worker is gone.
            kill(try #require(worker.processID), SIGKILL)
            #expect(try reader.pageTexts(of: file) == kept)
        }
    }
}
