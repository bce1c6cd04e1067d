import Foundation
import Testing
import Terminal
import TextLayout
@testable import NewsstandKit
@testable import Shelf

/// `H` on the shelf: every highlight on the shelf through the app's update (the list read
/// on the reads queue as an effect, its result back as a message, a stale one dropped),
/// its goldens, and a highlight of a real library opened in the reader at its words.
@Suite struct HighlightsScreenTests {
    typealias Fixture = ShelfStateFixture
    typealias State = ShelfApp.State

    static func listed(_ id: String, issue: NewsstandKit.Issue, _ quote: String, color: Highlight.Color = .yellow, note: String? = nil,
                       chapter: String?, resource: String, daysBefore: Int) -> ListedHighlight {
        let made = Fixture.lastIssueDate.addingTimeInterval(-Double(daysBefore) * Fixture.day)
        let place = Locator(resource: resource, progression: 0.5, totalProgression: 0.3, text: Locator.TextPlace(block: 2, offset: 4),
                            updated: made)
        let highlight = Highlight(id: id, issueID: issue.id ?? 0, locator: place, position: 1, textOffset: 40,
                                  quote: TextQuoteSelector(exact: quote), color: color, note: note, chapter: chapter, created: made)
        return ListedHighlight(highlight: highlight, issue: issue, publicationTitle: "Tidewater")
    }

    /// Three highlights, newest first: two in No. 30 (here), one in No. 28 (not here).
    static func found() -> HighlightsScreen.Listed.Found {
        let issues = Fixture.tidewaterIssues()
        return .init(highlights: [
            listed("h3", issue: issues[1], "The keeper counted gulls at dusk and the tide ran high under the harbour wall all night long",
                   color: .green, note: "Ask Mum about\nthe lamp", chapter: "Keeper of the Light", resource: "OEBPS/ch2.xhtml", daysBefore: 1),
            listed("h2", issue: issues[1], "Dear editor, the harbour lamp is too bright.", color: .pink, chapter: "Letters to the Editor",
                   resource: "OEBPS/ch4.xhtml", daysBefore: 3),
            listed("h1", issue: issues[3], "Charts of the harbour mouth", color: .underline, chapter: "Page 3",
                   resource: "issue.pdf#page=3", daysBefore: 20),
        ])
    }

    static func keys(_ state: inout State, _ keys: Key...) -> [ShelfApp.Effect] {
        keys.flatMap { ShelfApp.update(&state, .key($0)) }
    }

    static func opened(width: Int = 120, height: Int = 40) -> State {
        var state = Fixture.shelf(width: width, height: height)
        _ = keys(&state, .character("H"))
        return state
    }

    static func shown(width: Int = 120, height: Int = 40) -> State {
        var state = opened(width: width, height: height)
        _ = ShelfApp.update(&state, .highlightsListed(.init(serial: 1, outcome: .success(found()))))
        return state
    }

    static let goldens = ScreenGoldens(screens: [
        ("highlights-list", { w, h in shown(width: w, height: h) }),
        ("highlights-none", { w, h in
            var state = opened(width: w, height: h)
            _ = ShelfApp.update(&state, .highlightsListed(.init(serial: 1, outcome: .success(.init(highlights: [])))))
            return state
        }),
    ])

    @Test(arguments: goldens.cases)
    func theScreen(_ name: String, _ width: Int, _ height: Int) throws {
        try Self.goldens.expect(name, width, height)
    }

    @Test func eachQuoteIsDrawnInItsHighlightsColour() throws {
        let canvas = ShelfApp.view(Self.shown(), ShelfApp.ViewContext(theme: .classic, covers: KnownCovers()))
        let pink = try #require(canvas.locate("Dear editor"))
        #expect(canvas[pink.x, pink.y].style == Highlight.Color.pink.style(over: Theme.classic.text))
        let green = try #require(canvas.locate("The keeper counted"))
        #expect(canvas[green.x, green.y].style == Highlight.Color.green.style(over: Theme.classic.text))
    }

    @Test func hOnTheShelfListsOnTheReadsQueueAndAStaleListIsDropped() throws {
        var state = Fixture.shelf()
        let effects = Self.keys(&state, .character("H"))
        #expect(state.screens == [.shelf, .highlights])
        #expect(effects == [.listHighlights(publication: nil, containing: nil, serial: 1)])
        #expect(ShelfApp.Effect.listHighlights(publication: nil, containing: nil, serial: 1).queue == .reads)
        // The filter typed: each change lists again, `in:` naming the publication.
        #expect(Self.keys(&state, .character("/")) == [])
        #expect(state.status == "/")
        var asked: [ShelfApp.Effect] = []
        for character in "in:tide lamp" { asked += Self.keys(&state, .character(character)) }
        #expect(asked.last == .listHighlights(publication: "tide", containing: "lamp", serial: 13))
        #expect(Self.keys(&state, .enter) == [])
        #expect(state.status == "Showing highlights with “in:tide lamp” (/ then Escape shows all)")
        // The first listing arrives late: dropped; the newest is shown.
        _ = ShelfApp.update(&state, .highlightsListed(.init(serial: 1, outcome: .success(Self.found()))))
        #expect(state.highlights?.found == nil)
        var lamps = Self.found()
        lamps.highlights.removeFirst()
        _ = ShelfApp.update(&state, .highlightsListed(.init(serial: 13, outcome: .success(lamps))))
        #expect(state.highlights?.highlights.map(\.highlight.id) == ["h2", "h1"])
        // A publication the library does not know says so.
        _ = ShelfApp.update(&state, .highlightsListed(.init(serial: 13, outcome: .failure(.init(text: "Cannot list the highlights: no such publication.")))))
        let canvas = ShelfApp.view(state, ShelfApp.ViewContext(theme: .classic, covers: KnownCovers()))
        #expect(canvas.locate("Cannot list the highlights: no such publication.") != nil)
    }

    @Test func enterOpensTheReaderAtTheHighlight() throws {
        var state = Self.shown()
        let issue = Fixture.tidewaterIssues()[1]
        #expect(Self.keys(&state, .down) == [])
        #expect(Self.keys(&state, .enter) == [.markOpened(issue)])
        #expect(state.readerTarget?.highlight?.id == "h2")
        // It opens at the highlight's place, not the issue's saved one.
        let opened = ShelfApp.update(&state, .issueOpened(issue))
        guard case .openReader(let toOpen, _)? = opened.first else { Issue.record("\(opened)"); return }
        #expect(toOpen.locator?.resource == "OEBPS/ch4.xhtml" && toOpen.locator?.text == Locator.TextPlace(block: 2, offset: 4))
    }

    @Test func aHighlightInAnIssueNotHereSaysSo() {
        var state = Self.shown()
        _ = Self.keys(&state, .end)
        #expect(Self.keys(&state, .enter).isEmpty)
        #expect(state.status == "“No. 28 · August 2026” is not downloaded: open its store to download it." && state.statusIsError)
        #expect(state.readerTarget == nil)
    }

    @Test func xDeletesTheHighlightAndTheLibraryKeepsItsTombstone() {
        var state = Self.shown()
        _ = Self.keys(&state, .down)
        let effects = Self.keys(&state, .character("x"))
        #expect(effects == [.deleteHighlight(id: "h2")])
        #expect(ShelfApp.Effect.deleteHighlight(id: "h2").queue == .writes)
        #expect(state.highlights?.highlights.map(\.highlight.id) == ["h3", "h1"] && state.highlights?.selected?.highlight.id == "h1")
        #expect(state.status == "Highlight deleted.")
        // The library changed: the list is read again.
        #expect(ShelfApp.update(&state, .libraryChanged).contains(.listHighlights(publication: nil, containing: nil, serial: 2)))
        _ = Self.keys(&state, .character("q"))
        #expect(state.screens == [.shelf])
    }
}

/// The screen over a real library: a highlight made by the `highlight` command's path is
/// listed, and Enter opens the reader at its words.
@Suite(.serialized) struct HighlightsScreenLibraryTests {
    @Test func aHighlightOpensTheReaderAtItsWordsAndXLeavesATombstone() throws {
        let h = try ShelfHarness(samples: false)
        let issue = try ReaderFixture.install(ReaderFixture.magazine(), in: h, name: "harbour-monthly", title: "Harbour Monthly")
        let made = try h.library.highlights.add(quote: "bp60w1 bp60w2 bp60w3", in: issue, texts: HighlightTexts(), color: .blue,
                                                note: "far down")
        h.app.reload()
        _ = h.settle()
        _ = h.key(.character("H"))
        let list = h.settle().text
        #expect(list.contains("“bp60w1 bp60w2 bp60w3”") && list.contains("far down"), "\(list)")
        let reader = h.key(.enter).text
        let model = try #require(h.app.reader)
        #expect(model.locator.resource == "OEBPS/ch2.xhtml")
        // Sixty paragraphs down the chapter: the highlight's words on screen, the chapter's start not.
        #expect(reader.contains("bp60w1") && !reader.contains("bp0w0"), "\(reader)")
        _ = h.key(.character("q"))
        _ = h.key(.character("x"))
        _ = h.settle()
        #expect(try h.library.highlights.highlight(id: made.id)?.deleted == true)   // settled: the write is done
        #expect(try h.library.highlights.all().isEmpty)
    }
}

/// Highlights made and changed in the reader through the app: `E` hands the terminal to
/// `$EDITOR` (a script on PATH here) on the note, and the note it wrote is kept; an EPUB's
/// new highlight gets its CFI.
@Suite(.serialized) struct NoteEditorTests {
    @Test func eOnAHighlightEditsItsNoteInTheEditorAndTheLibraryKeepsIt() throws {
        let h = try ShelfHarness.reading(ReaderFixture.magazine(), name: "harbour-note", width: 80, height: 24)
        let issue = try #require(h.app.reader?.issue)
        _ = h.key(.character("s"))
        _ = h.key(.enter)   // the cursor's word highlighted, back to reading
        let made = try #require(try h.library.highlights.list(for: issue).first)
        #expect(made.note == nil)
        _ = h.key(.character("s"))   // the cursor on the same first word, now a highlight
        let bin = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-editor-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: bin) }
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let script = bin.appendingPathComponent("fake-editor")
        try Data("#!/bin/sh\nprintf 'Written in the editor\\nand a second line\\n' > \"$1\"\n".utf8).write(to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = bin.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["EDITOR"] = "fake-editor"
        environment["VISUAL"] = nil
        h.app.runner.environment = environment
        let backend = MemoryBackend(width: 80, height: 24)
        backend.send(keys: [.character("E"), .control("c")])
        h.app.run(backend: backend)
        _ = h.settle()
        #expect(backend.handOvers == 1)
        #expect(try h.library.highlights.highlight(id: made.id)?.note == "Written in the editor\nand a second line")
    }

    @Test func aHighlightMadeInTheReaderOfAnEPUBCarriesItsCFI() throws {
        let h = try ShelfHarness.reading(ReaderFixture.magazine(), name: "harbour-cfi", width: 80, height: 24)
        let issue = try #require(h.app.reader?.issue)
        _ = h.key(.character("s"))
        _ = h.key(.enter)
        let made = try #require(try h.library.highlights.list(for: issue).first)
        #expect(made.resource == "OEBPS/ch1.xhtml")
        #expect(made.cfi?.hasPrefix("epubcfi(/6/2!/4/") == true, "\(made.cfi ?? "no CFI")")
    }
}
