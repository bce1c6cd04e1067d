import CPoppler
import Imaging
import IssueArchive
import Foundation
import Testing
import TextLayout
@testable import PDF

/// Pages the reflow tests draw with cairo: lines of text placed where a layout would put
/// them, at their own sizes and weights, and raster pictures.
struct DrawnPage {
    struct Line {
        var text: String
        var x: Double, y: Double
        var size: Double = 10
        var bold = false
        /// `x` is where the line ends (right-aligned text), not where it starts.
        var endsAtX = false
    }

    var lines: [Line] = []
    /// Raster pictures: x, y, width, height in points.
    var pictures: [(x: Double, y: Double, width: Double, height: Double)] = []

    mutating func text(_ text: String, x: Double, y: Double, size: Double = 10, bold: Bool = false) {
        lines.append(Line(text: text, x: x, y: y, size: size, bold: bold))
    }

    /// Lines of 10-point text one under another, 14 points apart, from `y` down.
    mutating func column(_ lines: [String], x: Double, y: Double) {
        for (index, line) in lines.enumerated() { text(line, x: x, y: y + Double(index) * 14) }
    }

    /// Right-to-left text drawn as a typesetter places it: its letters from right to left
    /// (cairo draws a string's glyphs left to right, so the string goes in reversed; the
    /// words here hold no numbers or Latin), the line ending at `right`.
    mutating func rightToLeft(_ text: String, right: Double, y: Double) {
        lines.append(Line(text: String(text.reversed()), x: right, y: y, endsAtX: true))
    }

    static let size = (width: 420.0, height: 595.0)

    /// Writes `pages` as one PDF at `url`.
    static func write(_ pages: [DrawnPage], to url: URL) {
        let surface = cairo_pdf_surface_create(url.path, size.width, size.height)
        let cairo = cairo_create(surface)
        for page in pages {
            cairo_set_source_rgb(cairo, 0, 0, 0)
            for line in page.lines {
                cairo_select_font_face(cairo, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, line.bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
                cairo_set_font_size(cairo, line.size)
                var extents = cairo_text_extents_t()
                cairo_text_extents(cairo, line.text, &extents)
                cairo_move_to(cairo, line.endsAtX ? line.x - extents.x_advance : line.x, line.y)
                cairo_show_text(cairo, line.text)
            }
            for picture in page.pictures { drawPicture(picture, on: cairo) }
            cairo_show_page(cairo)
        }
        cairo_destroy(cairo)
        cairo_surface_finish(surface)
        cairo_surface_destroy(surface)
    }

    /// A grey image of a pixel per 5 points, scaled alike both ways: poppler reports it as a picture.
    private static func drawPicture(_ place: (x: Double, y: Double, width: Double, height: Double), on cairo: OpaquePointer?) {
        let (width, height) = (Int(place.width / 5), Int(place.height / 5))
        let image = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height))
        let data = cairo_image_surface_get_data(image)!
        let stride = Int(cairo_image_surface_get_stride(image))
        for y in 0..<height {
            for x in 0..<width { (data + y * stride + x * 4).initialize(repeating: UInt8(40 + (x + y) % 150), count: 3) }
        }
        cairo_surface_mark_dirty(image)
        cairo_save(cairo)
        cairo_translate(cairo, place.x, place.y)
        cairo_scale(cairo, 5, 5)
        cairo_set_source_surface(cairo, image, 0, 0)
        cairo_paint(cairo)
        cairo_restore(cairo)
        cairo_surface_destroy(image)
    }
}


/// The reflow of pages written with cairo and read back through the worker, and of text
/// layers built by hand where no font here can draw the script (vertical CJK).
@Suite struct PDFReflowTests {
    private let worker = PDFWorker(executable: builtWorker)

    /// Writes `pages`, reads them through a fresh `PDFTextReader`, and gives page `index`'s blocks.
    private func reflow(_ pages: [DrawnPage], page index: Int = 0) throws -> [Block] {
        let folder = try SamplePDF.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("reflow.pdf")
        DrawnPage.write(pages, to: file)
        return try PDFTextReader(worker: worker).page(index, of: file).blocks
    }

    private func paragraph(_ text: String) -> Block { .paragraph([StyledSpan(text)]) }
    private func heading(_ level: Int, _ text: String) -> Block { .heading(level: level, [StyledSpan(text)]) }

    @Test func twoColumnsUnderATitleAreReadColumnByColumnWithHeadingsBySize() throws {
        var page = DrawnPage()
        page.text("The Harbour Report", x: 40, y: 60, size: 22, bold: true)
        // Left column, 40…195; right column, 225…380; the lines of both at the same heights.
        page.text("Boats", x: 40, y: 100, size: 14, bold: true)
        page.column(["Boats come in at dawn and", "leave before the evening", "tide turns again."], x: 40, y: 120)
        page.text("Nets are mended on the", x: 50, y: 162)
        page.text("quay by the old men.", x: 40, y: 176, bold: true)
        page.text("Fish", x: 225, y: 100, size: 14, bold: true)
        page.column(["Fish are sold at the market", "every morning, and what", "is left goes to the cats."], x: 225, y: 120)
        page.text("Prices", x: 225, y: 180, size: 12, bold: true)
        page.text("A cod costs a shilling.", x: 225, y: 196)
        let blocks = try reflow([page])
        #expect(blocks == [
            heading(1, "The Harbour Report"),
            heading(2, "Boats"),
            paragraph("Boats come in at dawn and leave before the evening tide turns again."),
            // Bold at the body's size is emphasis, not a heading.
            .paragraph([StyledSpan("Nets are mended on the "), StyledSpan("quay by the old men.", style: .bold)]),
            heading(2, "Fish"),
            paragraph("Fish are sold at the market every morning, and what is left goes to the cats."),
            heading(3, "Prices"),
            paragraph("A cod costs a shilling."),
        ])
    }

    @Test func aPictureInAColumnStandsWhereItIsAndLineEndHyphensAreJoinedOrKept() throws {
        var page = DrawnPage()
        page.column(["The painter, a well-known", "figure, drew one exam-", "ple of the harbour."], x: 40, y: 60)
        page.pictures.append((x: 40, y: 100, width: 150, height: 80))
        page.column(["Below the picture the text", "goes on."], x: 40, y: 200)
        page.column(["Critics called him well-", "known across the coast and", "Anglo-", "Saxon in his manner."], x: 225, y: 60)
        let figure = PageFigure(page: 0, x0: 40 / DrawnPage.size.width, y0: 100 / DrawnPage.size.height,
                                x1: 190 / DrawnPage.size.width, y1: 180 / DrawnPage.size.height)
        let blocks = try reflow([page])
        #expect(blocks == [
            paragraph("The painter, a well-known figure, drew one example of the harbour."),
            .image(source: figure.source, alt: ""),
            paragraph("Below the picture the text goes on."),
            paragraph("Critics called him well-known across the coast and Anglo-Saxon in his manner."),
        ])
    }

    @Test func aSentenceGoesOnInTheNextColumnButAFinishedOneDoesNot() throws {
        var page = DrawnPage()
        page.column(["The boats went out late", "and came back with"], x: 40, y: 60)
        page.column(["nothing in their nets.", "Nobody was surprised."], x: 225, y: 60)
        var finished = DrawnPage()
        finished.column(["The ships went out early", "and came back empty."], x: 40, y: 60)
        finished.column(["nobody was surprised."], x: 225, y: 60)
        let blocks = try reflow([page, finished], page: 0)
        #expect(blocks == [paragraph("The boats went out late and came back with nothing in their nets. Nobody was surprised.")])
        let second = try reflow([page, finished], page: 1)
        #expect(second == [paragraph("The ships went out early and came back empty."), paragraph("nobody was surprised.")])
    }

    @Test func runningHeadersFootersAndPageNumbersAreLeftOut() throws {
        let pages = (0..<4).map { number -> DrawnPage in
            var page = DrawnPage()
            page.text("The Test Monthly", x: 40, y: 30)
            page.text("Page \(number + 1) of 4", x: 320, y: 30)
            // Footers alternate between left and right pages; the number is alone.
            page.text(number % 2 == 0 ? "Harbour stories, issue \(number + 7)" : "Boats and fish", x: 40, y: 575)
            page.text("\(number + 1)", x: 205, y: 575)
            if number == 1 { page.text("A new story begins here.", x: 40, y: 50) }
            page.text("Body text of page \(number + 1).", x: 40, y: 100)
            return page
        }
        for index in 0..<4 {
            let expected = (index == 1 ? [paragraph("A new story begins here.")] : []) + [paragraph("Body text of page \(index + 1).")]
            let blocks = try reflow(pages, page: index)
            #expect(blocks == expected, "page \(index + 1)")
        }
    }

    @Test func aPageWithoutTextGivesNoBlocks() throws {
        var picture = DrawnPage()
        picture.pictures.append((x: 0, y: 0, width: DrawnPage.size.width, height: DrawnPage.size.height))
        var text = DrawnPage()
        text.text("Words on the next page.", x: 40, y: 100)
        #expect(try reflow([picture, text], page: 0) == [])
        #expect(try reflow([picture, text], page: 1) == [paragraph("Words on the next page.")])
        #expect(PDFReflow.document(of: PDFPageText(characters: []), index: 0) == TextDocument())
    }

    @Test func rightToLeftLinesComeOutInReadingOrder() throws {
        var page = DrawnPage()
        page.column(["Shalom means peace; the greeting that people use reads", "as follows in two languages."], x: 40, y: 60)
        page.rightToLeft("שלום עולם וברוכים", right: 380, y: 110)
        page.rightToLeft("הבאים לכאן", right: 380, y: 124)
        page.rightToLeft("مرحبا بالعالم", right: 380, y: 160)
        page.text("That is all from the two of us for today.", x: 40, y: 200)
        // poppler-glib brackets each right-to-left word in two embedding marks that have no
        // rectangle: nothing after them may lose its own (the last line once came back short).
        let blocks = try reflow([page])
        #expect(blocks == [
            paragraph("Shalom means peace; the greeting that people use reads as follows in two languages."),
            paragraph("שלום עולם וברוכים הבאים לכאן"),
            paragraph("مرحبا بالعالم"),
            paragraph("That is all from the two of us for today."),
        ])
    }

    @Test func aPageWrittenRightToLeftKeepsItsFirstAndLastLines() throws {
        // Read from its top left corner, poppler-glib gave the middle two lines of this page only.
        var page = DrawnPage()
        page.rightToLeft("שלום עולם וברוכים", right: 380, y: 100)
        page.rightToLeft("הבאים לכאן היום", right: 380, y: 114)
        page.rightToLeft("ומחר נשוב שוב", right: 380, y: 128)
        page.rightToLeft("ונקרא עוד", right: 380, y: 142)
        let blocks = try reflow([page])
        #expect(blocks == [paragraph("שלום עולם וברוכים הבאים לכאן היום ומחר נשוב שוב ונקרא עוד")], "\(blocks)")
        // Search reads the same text.
        let folder = try SamplePDF.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("rtl.pdf")
        DrawnPage.write([page], to: file)
        let words = try PDFTextReader(worker: worker).pageTexts(of: file)[0]
        #expect(words.contains("שלום") && words.contains("עוד"))
    }

    @Test func rightToLeftWordsPopplerPartedWithoutASpaceKeepTheirSpace() {
        // As poppler-glib gives ArabicCIDTrueType.pdf's lines: each word between U+202B and
        // U+202C, its letters in reading order and its rectangles from the left; the first two
        // words back to back with no space, 1.5 points apart (less than a gap makes a space at
        // this size); the space before the third spanning both words (reversed).
        var layer = HandBuiltText()
        func word(_ letters: String, left: Double) {
            layer.characters.append(PDFCharacter(scalar: "\u{202B}", rect: PDFRect(x0: 0, y0: 0, x1: 0, y1: 0), fontSize: 10, fontName: "Hand"))
            for (offset, scalar) in letters.unicodeScalars.enumerated() {
                let x = left + Double(offset) * 6
                layer.characters.append(PDFCharacter(scalar: scalar, rect: PDFRect(x0: x, y0: 91, x1: x + 6, y1: 103), fontSize: 10, fontName: "Hand"))
            }
            layer.characters.append(PDFCharacter(scalar: "\u{202C}", rect: PDFRect(x0: 0, y0: 0, x1: 0, y1: 0), fontSize: 10, fontName: "Hand"))
        }
        word("שלום", left: 145)
        word("עולם", left: 119.5)
        layer.characters.append(PDFCharacter(scalar: " ", rect: PDFRect(x0: 143.5, y0: 91, x1: 100, y1: 103), fontSize: 10, fontName: "Hand"))
        word("טוב", left: 97.5)
        layer.characters.append(PDFCharacter(scalar: "\n", rect: PDFRect(x0: 97.5, y0: 100, x1: 97.5, y1: 100), fontSize: 10, fontName: "Hand"))
        #expect(PDFReflow.document(of: layer.page, index: 0).blocks == [paragraph("שלום עולם טוב")])
    }

    @Test func aRightToLeftPageReadsItsColumnsFromTheRight() {
        // Poppler orders the lines of a right-to-left page with two columns itself, so this
        // page is built by hand to show the reflow's own order: glyphs in visual order, 6 points apart.
        var layer = HandBuiltText()
        layer.line(visual: String("ימין ראשון".reversed()), x: 250, y: 100)
        layer.line(visual: String("ימין שני".reversed()), x: 262, y: 114)
        layer.line(visual: String("שמאל ראשון".reversed()), x: 40, y: 100)
        layer.line(visual: String("ושני".reversed()), x: 76, y: 114)
        #expect(PDFReflow.document(of: layer.page, index: 0).blocks == [
            paragraph("ימין ראשון ימין שני"),
            paragraph("שמאל ראשון ושני"),
        ])
    }

    @Test func verticalTextIsReadDownItsColumnsFromRightToLeft() {
        var layer = HandBuiltText()
        // Given left to right, as a PDF may order them; read from the right.
        layer.column("夜来風雨声", x: 200, y: 100)
        layer.column("処処聞啼鳥", x: 280, y: 100)
        layer.column("春眠不覚暁", x: 300, y: 100)
        #expect(PDFReflow.document(of: layer.page, index: 0).blocks == [
            paragraph("春眠不覚暁処処聞啼鳥"),
            paragraph("夜来風雨声"),
        ])
    }

    @Test func aTitleAndBylineCentredOverTheGutterStayAboveColumnsReadWhole() {
        // As on py-pdf's multicolumn.pdf: the date centred over the gutter, "Abstract" level
        // with the right column's first line. The date once joined the right column's first two
        // lines, which were read before the abstract, a sentence broken.
        var layer = HandBuiltText()
        layer.centred("Two Columns of Lorem Ipsum", y: 60, size: 16)
        layer.centred("Your Name", y: 90)
        layer.centred("January 3, 2024", y: 110)
        layer.line(visual: "Abstract", x: 40, y: 140, size: 12)
        // Left column 40…196, right column 210…366: 26 characters a line.
        let left = ["This is a sample document", "with two columns of text.", "Lorem ipsum dolor sit ame", "t, consectetuer elit."]
        let right = ["pellentesque ante, Phasel", "lus adipiscing semper elit", "and Proin fermentum massa", "ac quam in the end."]
        for (row, text) in left.enumerated() { layer.line(visual: text, x: 40, y: 156 + Double(row) * 14) }
        for (row, text) in right.enumerated() { layer.line(visual: text, x: 210, y: 140 + Double(row) * 14) }
        let blocks = PDFReflow.document(of: layer.page, index: 0).blocks
        #expect(blocks == [
            heading(1, "Two Columns of Lorem Ipsum"),
            paragraph("Your Name"),
            paragraph("January 3, 2024"),
            heading(2, "Abstract"),
            paragraph(left.joined(separator: " ")),
            paragraph(right.joined(separator: " ")),
        ], "\(blocks.map(\.plainText))")
    }

    @Test func aPageWhoseOnlyLineItsNeighboursRepeatIsReadNotLeftBlank() {
        // As py-pdf's habibi-rotated.pdf: one line at the top of every page, the same each time.
        var layer = HandBuiltText()
        layer.line(visual: "habibi", x: 62, y: 30)
        let page = layer.page
        #expect(PDFReflow.document(of: page, index: 1, neighbours: [page.runningBands, page.runningBands]).blocks == [paragraph("habibi")])
        var number = HandBuiltText()
        number.line(visual: "12", x: 200, y: 580)
        #expect(PDFReflow.document(of: number.page, index: 1, neighbours: [number.page.runningBands]).blocks == [])
    }

    @Test func controlCharactersNeverPass() {
        var layer = HandBuiltText()
        layer.line(visual: "bell\u{07} esc\u{1B}[31m red\u{9B}1m", x: 40, y: 100)
        let text = PDFReflow.document(of: layer.page, index: 0).blocks.map(\.plainText).joined()
        // What is left of an escape sequence without its ESC is harmless text.
        #expect(text == "bell esc [31m red 1m")
        #expect(!text.unicodeScalars.contains { $0.properties.generalCategory == .control })
    }

    @Test func aPageThatCannotBeReadSaysWhichPage() throws {
        let folder = try SamplePDF.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let garbage = folder.appendingPathComponent("garbage.pdf")
        try Data("%PDF-1.4 not much else".utf8).write(to: garbage)
        do {
            _ = try PDFTextReader(worker: worker).page(2, of: garbage)
            Issue.record("a garbage PDF was read")
        } catch let error as PDFError {
            #expect(error.description.hasPrefix("page 3 of garbage.pdf: "), "\(error.description)")
            #expect(!error.description.contains("\n"))
        }
    }

    @Test func pagesReadOnceAreNotAskedForAgain() throws {
        let folder = try SamplePDF.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("cached.pdf")
        DrawnPage.write((1...3).map { number in
            var page = DrawnPage()
            page.text("Page \(number) says hello.", x: 40, y: 100)
            return page
        }, to: file)
        let reader = PDFTextReader(worker: worker)
        let first = try reader.page(1, of: file)
        // With its worker gone, the reader can only answer from what it kept.
        kill(try #require(worker.processID), SIGKILL)
        #expect(try reader.page(1, of: file) == first)
        #expect(throws: PDFError.self) { try PDFTextReader(worker: worker).page(1, of: file) }
    }

    @Test func theShelfFindsTheReaderForPDFs() {
        let (formats, renderers, texts) = (IssueFormats(), DocumentRenderers(), DocumentTexts())
        PDFSupport.register(worker: worker, formats: formats, renderers: renderers, texts: texts)
        #expect(texts.reader(for: URL(fileURLWithPath: "/tmp/x.PDF")) is PDFTextReader)
    }
}

/// A text layer made by hand: characters 6 points wide (12 points tall) at 10 points,
/// each line or column followed by poppler's line end.
struct HandBuiltText {
    var characters: [PDFCharacter] = []

    var page: PDFPageText { PDFPageText(characters: characters, size: PDFSize(width: DrawnPage.size.width, height: DrawnPage.size.height)) }

    /// A line at `size` points (characters 0.6 of it wide, 1.2 of it tall), its baseline at `y`.
    mutating func line(visual text: String, x: Double, y: Double, size: Double = 10) {
        let width = 0.6 * size
        for (offset, scalar) in text.unicodeScalars.enumerated() {
            let left = x + Double(offset) * width
            characters.append(PDFCharacter(scalar: scalar, rect: PDFRect(x0: left, y0: y - 0.9 * size, x1: left + width, y1: y + 0.3 * size),
                                           fontSize: size, fontName: "Hand"))
        }
        characters.append(PDFCharacter(scalar: "\n", rect: PDFRect(x0: x, y0: y, x1: x, y1: y), fontSize: size, fontName: "Hand"))
    }

    /// A line of `text` at `size` points centred on the page.
    mutating func centred(_ text: String, y: Double, size: Double = 10) {
        line(visual: text, x: (DrawnPage.size.width - Double(text.unicodeScalars.count) * 0.6 * size) / 2, y: y, size: size)
    }

    mutating func column(_ text: String, x: Double, y: Double) {
        for (offset, scalar) in text.unicodeScalars.enumerated() {
            let top = y + Double(offset) * 12
            characters.append(PDFCharacter(scalar: scalar, rect: PDFRect(x0: x, y0: top, x1: x + 12, y1: top + 12), fontSize: 12, fontName: "Hand"))
        }
        characters.append(PDFCharacter(scalar: "\n", rect: PDFRect(x0: x, y0: y, x1: x, y1: y), fontSize: 12, fontName: "Hand"))
    }
}
