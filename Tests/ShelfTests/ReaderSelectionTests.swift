import Foundation
import IssueArchive
import Testing
import Terminal
import TextLayout
@testable import NewsstandKit
@testable import Shelf

/// Selection mode in the text views (`s`): a cursor moved by word, sentence, paragraph and
/// line, then a selection grown from where `s` was pressed again; drawn as it grows, kept on
/// its words when the width changes.
@Suite struct ReaderSelectionTests {
    static let story = """
        The keeper rose early. He lit the lamp! Ships passed by the rocks all night long.

        A second paragraph follows here.
        """

    static func opened(_ text: String = story, size: (Int, Int) = (80, 24)) -> ReaderScreen {
        let content = IssueContent(format: .epub, metadata: IssueMetadata(title: "Harbour Monthly"),
                                   readingOrder: [Resource(path: "ch1.xhtml", mediaType: "application/xhtml+xml")])
        let issue = Issue(id: 1, publicationId: 1, name: "harbour", date: Date(timeIntervalSince1970: 0), title: "Harbour")
        let article = LoadedArticle(document: PlainTextReader.document(text: text), pictures: [:])
        let source = ReaderSource(issue: issue, content: content, folder: "/nowhere/", weights: [1], isDocument: false,
                                  pages: [], articles: [0: article])
        var reader = ReaderScreen(source, theme: .classic, size: size, clock: { Date(timeIntervalSince1970: 0) })
        _ = reader.start()
        return reader
    }

    static func screen(_ reader: ReaderScreen, width: Int = 80, height: Int = 24) -> Canvas {
        var canvas = Canvas(width: width, height: height)
        reader.view(into: &canvas)
        return canvas
    }

    /// The text of the cells drawn in the selection's colours, row by row, joined by "/".
    static func selected(_ reader: ReaderScreen, width: Int = 80, height: Int = 24) -> String {
        let canvas = screen(reader, width: width, height: height)
        var rows: [String] = []
        for y in 1..<(height - 2) {
            let row = (0..<width).filter { canvas[$0, y].style.background == Theme.classic.selection.background }
                .map { canvas[$0, y].glyph }.joined()
            if !row.isEmpty { rows.append(row) }
        }
        return rows.joined(separator: "/")
    }

    static func press(_ reader: inout ReaderScreen, _ keys: String) {
        for key in keys { _ = reader.update(.key(.character(key))) }
    }

    @Test func theCursorMovesByWordSentenceAndParagraph() {
        var reader = Self.opened()
        #expect(Self.selected(reader).isEmpty, "nothing is chosen before s")
        Self.press(&reader, "s")
        #expect(reader.mode == .selecting)
        #expect(Self.selected(reader) == "The")
        #expect(reader.statusLine.text?.contains("“The”") == true)
        Self.press(&reader, "w")
        #expect(Self.selected(reader) == "keeper")
        Self.press(&reader, ")")
        #expect(Self.selected(reader) == "He", "the next sentence")
        Self.press(&reader, ")")
        #expect(Self.selected(reader) == "Ships", "after an exclamation mark")
        Self.press(&reader, "}")
        #expect(Self.selected(reader) == "A", "the next paragraph")
        Self.press(&reader, "{")
        #expect(Self.selected(reader) == "The", "back to the start of the paragraph before")
        Self.press(&reader, "w(")
        #expect(Self.selected(reader) == "The", "the start of the sentence it is in")
        Self.press(&reader, "b")
        #expect(Self.selected(reader) == "The", "no word before the first")
    }

    @Test func theSelectionGrowsFromWhereSWasPressedAgainAndEscapeLeaves() {
        var reader = Self.opened()
        Self.press(&reader, "s)s")
        Self.press(&reader, "ww")
        #expect(Self.selected(reader) == "He lit the")
        #expect(reader.statusLine.text == "Chosen: 3 words")
        Self.press(&reader, ")")
        #expect(Self.selected(reader) == "He lit the lamp! Ships")
        Self.press(&reader, "bb")
        #expect(Self.selected(reader) == "He lit the", "moving back shrinks it")
        Self.press(&reader, "(b")
        #expect(Self.selected(reader) == "early. He", "and past where it started, grows the other way")
        _ = reader.update(.key(.escape))
        #expect(reader.mode == .reading)
        #expect(Self.selected(reader).isEmpty)
    }

    @Test func aSelectionKeepsItsWordsWhenTheWidthChanges() {
        var reader = Self.opened()
        Self.press(&reader, "s))s")
        Self.press(&reader, "wwwwwww")
        #expect(Self.selected(reader) == "Ships passed by the rocks all night/long.")
        _ = reader.update(.resize(width: 30, height: 24))
        // At 30 columns the sentence is broken over lines; the same words are chosen.
        let narrow = Self.selected(reader, width: 30)
        #expect(narrow.replacingOccurrences(of: "/", with: " ") == "Ships passed by the rocks all night long.", "\(narrow)")
        #expect(narrow.contains("/"))
    }

    @Test func pagesOfAPDFSendTheReaderToTheTextViewToChoose() throws {
        let files = try OpenReader(["issue.pdf": TestDocument.magazine().data])
        TestDocument.register()
        let reader = try files.open(width: 80, height: 24)
        _ = reader.update(.key(.character("s")))
        #expect(reader.mode == .reading)
        #expect(reader.statusLine.text == "Words are chosen in the text view: v, then s.")
    }
}

/// Clicks and drags in a text view: a click puts the cursor on a word and, once the
/// selection grows (`s`), a second click ends it there; a drag from the press grows it as it goes.
@Suite struct ReaderClickSelectionTests {
    @Test func aDragFromAWordGrowsTheSelectionToTheWordUnderThePointer() {
        var reader = ReaderSelectionTests.opened()
        _ = reader.update(.drag(x: 2 + 24, y: 2))
        #expect(reader.mode == .reading, "a drag with no press before it chooses nothing")
        _ = reader.update(.click(x: 2 + 5, y: 2))
        _ = reader.update(.drag(x: 2 + 14, y: 2))
        #expect(ReaderSelectionTests.selected(reader) == "keeper rose")
        _ = reader.update(.drag(x: 2 + 24, y: 2))
        #expect(ReaderSelectionTests.selected(reader) == "keeper rose early. He")
        _ = reader.update(.drag(x: 40, y: 20))
        #expect(ReaderSelectionTests.selected(reader) == "keeper rose early. He", "no word there: nothing changes")
        _ = reader.update(.drag(x: 2 + 5, y: 2))
        #expect(ReaderSelectionTests.selected(reader) == "keeper", "dragged back to where it began")
    }

    @Test func aClickChoosesAWordAndAClickAfterSGrowsTheSelectionToAnother() {
        var reader = ReaderSelectionTests.opened()
        // Row 2 is the first line of text; the column is centred: 76 columns in 80.
        _ = reader.update(.click(x: 2 + 5, y: 2))
        #expect(reader.mode == .selecting)
        #expect(ReaderSelectionTests.selected(reader) == "keeper")
        _ = reader.update(.key(.character("s")))
        _ = reader.update(.click(x: 2 + 24, y: 2))
        #expect(ReaderSelectionTests.selected(reader) == "keeper rose early. He")
        _ = reader.update(.click(x: 40, y: 20))
        #expect(ReaderSelectionTests.selected(reader) == "keeper rose early. He", "no word there: nothing changes")
    }
}
