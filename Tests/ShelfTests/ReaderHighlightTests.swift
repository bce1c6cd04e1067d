import Foundation
import IssueArchive
import Testing
import Terminal
import TextLayout
@testable import NewsstandKit
@testable import Shelf

/// Highlights and notes in the reader: made from a selection (Enter, 1–5), drawn on their
/// words at any width, recoloured, noted on the status line, deleted; the reader only asks
/// (`ReaderEffect.highlight`) and draws what the library sends back.
@Suite struct ReaderHighlightTests {
    typealias Selecting = ReaderSelectionTests

    /// The one highlight a reader's effects ask to make.
    static func draft(_ effects: [ReaderEffect]) -> HighlightDraft? {
        for effect in effects { if case .highlight(.add(let draft)) = effect { return draft } }
        return nil
    }

    /// The highlight the library would make of `draft`, as it sends it back.
    static func made(_ draft: HighlightDraft, id: String = "h1") -> Highlight {
        Highlight(id: id, issueID: draft.issueID, locator: draft.locator, position: draft.position, textOffset: draft.textOffset,
                  quote: draft.quote, color: draft.color, note: draft.note, chapter: draft.chapter, created: Date(timeIntervalSince1970: 0))
    }

    /// The text of the cells with `background`, row by row, joined by "/".
    static func painted(_ reader: ReaderScreen, _ background: Color, width: Int = 80) -> String {
        let canvas = Selecting.screen(reader, width: width)
        return (1..<22).map { y in (0..<width).filter { canvas[$0, y].style.background == background }.map { canvas[$0, y].glyph }.joined() }
            .filter { !$0.isEmpty }.joined(separator: "/")
    }

    static let green = Highlight.Color.green.style(over: Theme.classic.readerText).background

    /// "He lit the lamp!" chosen and highlighted in green (key 2), the library's answer sent back.
    static func highlighted() throws -> (ReaderScreen, HighlightDraft) {
        var reader = Selecting.opened()
        Selecting.press(&reader, "s)s")
        Selecting.press(&reader, "www")
        let effects = reader.update(.key(.character("2")))
        let draft = try #require(Self.draft(effects))
        _ = reader.update(.loaded(.highlights([Self.made(draft)])))
        return (reader, draft)
    }

    @Test func aColourKeyHighlightsTheWordsChosenByTheirQuote() throws {
        let (reader, draft) = try Self.highlighted()
        #expect(draft.quote.exact == "He lit the lamp!")
        #expect(draft.quote.prefix.hasSuffix("The keeper rose early. "))
        #expect(draft.quote.suffix.hasPrefix(" Ships passed"))
        #expect(draft.color == .green && draft.position == 0 && draft.locator.resource == "ch1.xhtml")
        #expect(draft.locator.text == Locator.TextPlace(block: 0, offset: 19), "the quote's first visible character")
        #expect(reader.mode == .reading)
        #expect(Self.painted(reader, Self.green) == "He lit the lamp!")
    }

    @Test func aHighlightIsOnTheSameWordsAtAnotherWidth() throws {
        var (reader, _) = try Self.highlighted()
        _ = reader.update(.resize(width: 24, height: 24))
        let narrow = Self.painted(reader, Self.green, width: 24)
        #expect(narrow.replacingOccurrences(of: "/", with: " ") == "He lit the lamp!" && narrow.contains("/"), "\(narrow)")
    }

    @Test func aQuoteNoLongerInTheTextIsNotDrawnAnywhere() throws {
        var reader = Selecting.opened()
        let draft = try #require(HighlightDraft(issueID: 1, locator: Locator(resource: "ch1.xhtml", progression: 0, totalProgression: 0, updated: Date()),
                                                position: 0, range: "gone words".startIndex..<"gone words".endIndex, in: "gone words",
                                                color: .green))
        _ = reader.update(.loaded(.highlights([Self.made(draft)])))
        #expect(Self.painted(reader, Self.green).isEmpty)
        #expect((reader.pager as? TextPager)?.goneHighlights.map(\.id) == ["h1"])
    }

    @Test func onAHighlightTheKeysRecolourDeleteAndNoteIt() throws {
        var (reader, _) = try Self.highlighted()
        Selecting.press(&reader, "s)")
        #expect(reader.statusLine.text == "Highlight (green). No note")
        #expect(reader.update(.key(.character("3"))).contains(.highlight(.recolor(id: "h1", .blue))))
        #expect(reader.update(.key(.character("x"))).contains(.highlight(.delete(id: "h1"))))
        _ = reader.update(.key(.enter))
        #expect(reader.mode == .notePrompt)
        Selecting.press(&reader, "Two")
        _ = reader.update(.key(.control("o")))
        Selecting.press(&reader, "lines")
        #expect(reader.statusLine.text == "Note: Two ⏎ lines▏")
        let kept = reader.update(.key(.enter))
        #expect(kept.contains(.highlight(.note(id: "h1", "Two\nlines"))))
        #expect(reader.mode == .reading)
    }

    @Test func aNoteTypedForWordsChosenMakesTheirHighlightWithIt() throws {
        var reader = Selecting.opened()
        Selecting.press(&reader, "sw")
        _ = reader.update(.key(.character("n")))
        Selecting.press(&reader, "the keeper")
        let draft = try #require(Self.draft(reader.update(.key(.enter))))
        #expect(draft.quote.exact == "keeper" && draft.note == "the keeper" && draft.color == .yellow)
        // Escape in the prompt goes back to choosing, nothing asked.
        Selecting.press(&reader, "s")
        _ = reader.update(.key(.character("n")))
        #expect(reader.update(.key(.escape)).isEmpty)
        #expect(reader.mode == .selecting)
    }

    @Test func aNotedHighlightIsMarkedInTheMargin() throws {
        var (reader, draft) = try Self.highlighted()
        var noted = Self.made(draft)
        noted.note = "why"
        _ = reader.update(.loaded(.highlights([noted])))
        let canvas = Selecting.screen(reader)
        #expect(canvas.row(2).hasPrefix("✎"), "\(canvas.row(2))")
    }

    @Test func dLooksTheCursorsWordUpAndThePanelShowsTheAnswerUntilTheNextKey() {
        var reader = Selecting.opened()
        Selecting.press(&reader, "s))")
        #expect(reader.update(.key(.character("d"))) == [.define("Ships")])
        _ = reader.update(.loaded(.definition(word: "Ships", .found("ship\nn. a large boat"))))
        #expect(Selecting.screen(reader).text.contains("n. a large boat"))
        _ = reader.update(.key(.character("w")))
        #expect(!Selecting.screen(reader).text.contains("n. a large boat"))
        _ = reader.update(.loaded(.definition(word: "Ships", .noDictionary)))
        #expect(Selecting.screen(reader).text.contains("No dictionary is installed"))
    }
}

/// The dictionary programs as the reader runs them: the first installed, the word one argument.
@Suite struct WordDictionaryTests {
    /// A folder for PATH holding `name`, a shell script printing `output` and exiting `status`.
    static func path(with name: String, output: String, status: Int = 0) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-dict-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let script = folder.appendingPathComponent(name)
        try "#!/bin/sh\nprintf '%s\\n' \"\(output)\" \"$*\"\nexit \(status)\n".write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        return folder.path
    }

    @Test func sdcvsAnswerIsTheDefinitionAndTheWordIsOneArgument() throws {
        let path = try Self.path(with: "sdcv", output: "-->harbour")
        #expect(WordDictionary.define("harbour; rm", environment: ["PATH": path])
                == .found("-->harbour\n--non-interactive --utf8-output --utf8-input --exact-search -- harbour; rm"))
    }

    @Test func dictIsAskedWhenSdcvIsNotInstalledAndNoEntryIsSaid() throws {
        let path = try Self.path(with: "dict", output: "No definitions found for \"zzz\"", status: 20)
        #expect(WordDictionary.define("zzz", environment: ["PATH": path]) == .notFound)
        let empty = try Self.path(with: "other", output: "")
        #expect(WordDictionary.define("zzz", environment: ["PATH": empty]) == .noDictionary)
    }
}

/// Highlights through the whole app: kept in the library by the effect runner, drawn again
/// when the issue is opened in another session at another width.
@Suite(.serialized) struct AppHighlightTests {
    @Test func aHighlightMadeByKeysIsKeptAndFoundAgainAfterARestartAtAnotherWidth() throws {
        let h = try ShelfHarness.reading(ReaderFixture.magazine(), name: "kept", width: 80, height: 24)
        _ = h.key(.right)
        h.type("s}swww2")
        _ = h.settle()
        let issue = try #require(try h.library.store.issue(named: "kept"))
        let kept = try h.library.highlights.list(for: issue)
        #expect(kept.map(\.quote.exact) == ["The LIGHTHOUSE stood tall;"] && kept.first?.color == .green)
        let green = Highlight.Color.green.style(over: Theme.classic.readerText).background
        #expect(ReaderHighlightTests.painted(try #require(h.app.reader), green) == "The LIGHTHOUSE stood tall;")

        let again = try h.restart(reading: "kept", width: 40, height: 24)
        var reader = try #require(again.reader)
        #expect(reader.pager.index == 1, "opened where it was left")
        _ = reader.update(.resize(width: 40, height: 24))
        let painted = ReaderHighlightTests.painted(reader, green, width: 40)
        #expect(painted.replacingOccurrences(of: "/", with: " ") == "The LIGHTHOUSE stood tall;", "\(painted)")
    }
}

/// `H`: the issue's highlights in the contents list's look; Enter goes to one.
@Suite struct ReaderHighlightListTests {
    @Test func hListsTheHighlightsAndEnterGoesToOne() throws {
        let long = (0..<40).map { "Paragraph \($0) of the night." }.joined(separator: "\n\n") + "\n\nThe final words here."
        var reader = ReaderSelectionTests.opened(long)
        _ = reader.update(.key(.character("H")))
        #expect(reader.statusLine.text == "No highlights in this issue yet: s chooses words, Enter highlights them.")
        _ = reader.update(.key(.character("G")))
        ReaderSelectionTests.press(&reader, "s}}}}}}}}}}}}}}}}}}}}s")
        let draft = try #require(ReaderHighlightTests.draft(reader.update(.key(.character("4")))))
        #expect(draft.quote.exact == "The")
        var made = ReaderHighlightTests.made(draft)
        made.note = "last"
        _ = reader.update(.loaded(.highlights([made])))
        _ = reader.update(.key(.character("g")))
        #expect(!ReaderSelectionTests.screen(reader).text.contains("The final words"))

        _ = reader.update(.key(.character("H")))
        let list = ReaderSelectionTests.screen(reader)
        #expect(reader.mode == .contents)
        #expect(list.text.contains("Highlights") && list.text.contains("“The”  ✎ last"), "\(list.text)")
        _ = reader.update(.key(.enter))
        #expect(reader.mode == .reading)
        let pink = Highlight.Color.pink.style(over: Theme.classic.readerText).background
        #expect(ReaderHighlightTests.painted(reader, pink) == "The", "the highlight is on screen")
    }

    @Test func aHighlightWhoseWordsAreGoneSaysSoInTheList() throws {
        var reader = ReaderSelectionTests.opened("Paragraph one of the night.\n\nThe final words here.")
        ReaderSelectionTests.press(&reader, "s")
        let draft = try #require(ReaderHighlightTests.draft(reader.update(.key(.enter))))
        var kept = ReaderHighlightTests.made(draft, id: "kept")
        kept.note = "here"
        var gone = ReaderHighlightTests.made(draft, id: "gone")
        gone.quote = TextQuoteSelector(exact: "words the new version no longer has")
        _ = reader.update(.loaded(.highlights([kept, gone])))
        _ = reader.update(.key(.character("H")))
        let list = ReaderSelectionTests.screen(reader).text
        #expect(list.contains("“words the new version no longer has”  (text changed)"), "\(list)")
        #expect(list.contains("“\(draft.quote.exact)”  ✎ here") && !list.contains("“\(draft.quote.exact)”  (text changed)"), "\(list)")
    }
}
