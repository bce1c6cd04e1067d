import Foundation
import Testing
import Terminal
import TextLayout
@testable import Shelf

/// Golden screens (after ratatui's `Buffer::with_lines`): the reader's whole 80×24 canvas
/// from a fixed fixture, compared as text line by line. The two bottom rows are the app's
/// status and hint bars, drawn by the shelf, so the reader leaves them blank.
@Suite struct ReaderGoldenTests {
    /// Every row of `canvas` against `lines`, each padded with spaces to the canvas's width.
    func expectScreen(_ canvas: Canvas, _ lines: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(lines.count == canvas.height, "\(lines.count) lines for \(canvas.height) rows", sourceLocation: sourceLocation)
        for y in 0..<min(lines.count, canvas.height) {
            let expected = lines[y] + String(repeating: " ", count: max(0, canvas.width - DisplayWidth.of(lines[y])))
            #expect(canvas.text(row: y) == expected, "row \(y)", sourceLocation: sourceLocation)
        }
    }

    @Test func anArticlesFirstPageAt80By24() throws {
        let files = try OpenReader(ReaderFixture.magazine())
        let reader = try files.open(width: 80, height: 24)
        _ = reader.update(.key(.right))
        let screen = files.screen(reader)
        expectScreen(screen, [
            " Harbour Monthly                                                 article 2 of 4",
            "",
            "  Keeper of the Light",
            "",
            "  The LIGHTHOUSE stood tall; a lighthouse keeper lived there.",
            "",
            "  bp0w0 bp0w1 bp0w2 bp0w3 bp0w4 bp0w5 bp0w6 bp0w7 bp0w8 bp0w9 bp0w10 bp0w11",
            "  bp0w12 bp0w13",
            "",
            "  bp1w0 bp1w1 bp1w2 bp1w3 bp1w4 bp1w5 bp1w6 bp1w7 bp1w8 bp1w9 bp1w10 bp1w11",
            "  bp1w12 bp1w13",
            "",
            "  bp2w0 bp2w1 bp2w2 bp2w3 bp2w4 bp2w5 bp2w6 bp2w7 bp2w8 bp2w9 bp2w10 bp2w11",
            "  bp2w12 bp2w13",
            "",
            "  bp3w0 bp3w1 bp3w2 bp3w3 bp3w4 bp3w5 bp3w6 bp3w7 bp3w8 bp3w9 bp3w10 bp3w11",
            "  bp3w12 bp3w13",
            "",
            "  bp4w0 bp4w1 bp4w2 bp4w3 bp4w4 bp4w5 bp4w6 bp4w7 bp4w8 bp4w9 bp4w10 bp4w11",
            "  bp4w12 bp4w13",
            "",
            "  bp5w0 bp5w1 bp5w2 bp5w3 bp5w4 bp5w5 bp5w6 bp5w7 bp5w8 bp5w9 bp5w10 bp5w11",
            "",
            "",
        ])
        // The title bar in its colours, the heading in the heading's.
        #expect(screen[1, 0].style == Theme.classic.statusLine.with(.bold) && screen[79, 0].style == Theme.classic.statusLine)
        #expect(screen[2, 2].style.foreground == Theme.classic.readerHeading.foreground)
        #expect(screen[2, 4].style == Theme.classic.readerText)
    }

    @Test func theContentsListAt80By24() throws {
        let files = try OpenReader(ReaderFixture.magazine())
        let reader = try files.open(width: 80, height: 24)
        _ = reader.update(.key(.right))
        _ = reader.update(.key(.character("t")))
        let screen = files.screen(reader)
        expectScreen(screen, [
            " Harbour Monthly                                                       contents",
            "",
            "  Contents",
            "",
            "    Harbour News",
            "  ▸ The Lighthouse Keeper",
            "  ▸   Night Watch",
            "    Weather at Sea",
            "    Letters to the Editor",
        ] + Array(repeating: "", count: 15))
        #expect(screen[4, 5].style == Theme.classic.selection, "the article being read is chosen")
    }
}
