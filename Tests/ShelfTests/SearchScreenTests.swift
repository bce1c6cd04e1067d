import Foundation
import Testing
import Terminal
import TextLayout
@testable import NewsstandKit
@testable import Shelf

/// `S` on the shelf: the search screen through the app's update (a query goes to the reads
/// queue as an effect, its result comes back as a message, a stale one is dropped), its
/// goldens, and a search of a real library's index whose hit opens the reader at the match.
@Suite struct SearchScreenTests {
    typealias Fixture = ShelfStateFixture
    typealias State = ShelfApp.State

    static func hit(_ kind: SearchablePart.Kind, _ resource: String?, position: Int, label: String?, page: Int? = nil,
                    _ pieces: [(String, Bool)]) -> SearchHit {
        SearchHit(issueID: 0, part: SearchablePart(kind: kind, resource: resource, page: page, position: position, label: label, title: "", text: ""),
                  score: -1, snippet: SearchSnippet(pieces: pieces.map { SearchSnippet.Piece(text: $0.0, matched: $0.1) }))
    }

    /// Tidewater's No. 30 (here) with two articles that matched, No. 28 removed to save
    /// space with a page that matched, and No. 31 (never downloaded) by its summary.
    static func results() -> SearchResults {
        let issues = Fixture.tidewaterIssues()
        var evicted = issues[3]
        evicted.evicted = true
        return SearchResults(groups: [
            .init(issue: issues[1], shortName: "tide/30", publication: "Tidewater", hits: [
                hit(.text, "OEBPS/ch2.xhtml", position: 1, label: "Keeper of the Light",
                    [("…the old ", false), ("harbour", true), (" wall, where the keeper counted gulls at dusk and the tide ran", false)]),
                hit(.text, "OEBPS/ch4.xhtml", position: 3, label: "Letters to the Editor",
                    [("Dear editor, the ", false), ("harbour", true), (" lamp is too bright…", false)]),
            ]),
            .init(issue: evicted, shortName: "tide/28", publication: "Tidewater", hits: [
                hit(.page, "issue.pdf#page=3", position: 2, label: nil, page: 2, [("Charts of the ", false), ("harbour", true), (" mouth", false)]),
            ]),
            .init(issue: issues[0], shortName: "tide/31", publication: "Tidewater", hits: [
                hit(.about, nil, position: 0, label: nil, [("A winter in the ", false), ("harbour", true), (" town", false)]),
            ]),
        ], pending: 0)
    }

    static func keys(_ state: inout State, _ keys: Key...) -> [ShelfApp.Effect] {
        keys.flatMap { ShelfApp.update(&state, .key($0)) }
    }

    static func typed(_ state: inout State, _ text: String) {
        for character in text { _ = ShelfApp.update(&state, .key(.character(character))) }
    }

    /// The search screen with `text` typed (not sent).
    static func typing(_ text: String, width: Int = 120, height: Int = 40) -> State {
        var state = Fixture.shelf(width: width, height: height)
        _ = keys(&state, .character("S"))
        typed(&state, text)
        return state
    }

    /// "harbour" searched and found: the results shown.
    static func found(width: Int = 120, height: Int = 40) -> State {
        var state = typing("harbour", width: width, height: height)
        _ = keys(&state, .enter)
        _ = ShelfApp.update(&state, .searchFound(.init(serial: 1, outcome: .success(results()))))
        return state
    }

    static let goldens = ScreenGoldens(screens: [
        ("search-typing", { w, h in typing("harbo* \"equinox tide\" -gulls in:tide", width: w, height: h) }),
        ("search-results", { w, h in found(width: w, height: h) }),
        ("search-evicted", { w, h in
            var state = found(width: w, height: h)
            _ = keys(&state, .down, .down, .enter)   // the page of the issue removed to save space
            return state
        }),
        ("search-nothing", { w, h in
            var state = typing("zeppelin", width: w, height: h)
            _ = keys(&state, .enter)
            _ = ShelfApp.update(&state, .searchFound(.init(serial: 1, outcome: .success(SearchResults(groups: [], pending: 2)))))
            return state
        }),
    ])

    @Test(arguments: goldens.cases)
    func theScreen(_ name: String, _ width: Int, _ height: Int) throws {
        try Self.goldens.expect(name, width, height)
    }

    @Test func theMatchedWordsAreDrawnInTheThemesMatchStyle() throws {
        let canvas = ShelfApp.view(Self.found(), ShelfApp.ViewContext(theme: .classic, covers: KnownCovers()))
        let at = try #require(canvas.locate("harbour wall"))
        for x in at.x..<(at.x + 7) { #expect(canvas[x, at.y].style == Theme.classic.readerMatch) }
        #expect(canvas[at.x + 8, at.y].style != Theme.classic.readerMatch)
    }

    @Test func aMatchFarIntoItsSnippetIsBroughtIntoView() {
        let far = SearchSnippet(pieces: [.init(text: String(repeating: "lorem ", count: 20), matched: false),
                                         .init(text: "harbour", matched: true), .init(text: " wall", matched: false)])
        let shown = SearchScreen.shownPieces(of: far, room: 40)
        let before = shown.prefix { !$0.matched }.map(\.text).joined()
        #expect(before.hasPrefix("…") && DisplayWidth.of(before) <= 40 / 3 + 1)   // a third of the room, and "…"
        #expect(shown.contains(.init(text: "harbour", matched: true)))
        // One that fits is left whole.
        #expect(SearchScreen.shownPieces(of: far, room: 200) == far.pieces)
    }

    @Test func aQueryIsAnEffectOnTheReadsQueueAndAKeyNeverWaitsForIt() throws {
        var state = Self.typing("harbour in:tide")
        #expect(state.screens == [.shelf, .search])
        let effects = Self.keys(&state, .enter)
        let query = try SearchQuery("harbour in:tide")
        #expect(effects == [.searchLibrary(query, serial: 1)])
        #expect(query.publication == "tide" && query.match == "\"harbour\"")
        #expect(ShelfApp.Effect.searchLibrary(query, serial: 1).queue == .reads)
        // Typed again while the first is on its way: only the second's results are shown.
        _ = Self.keys(&state, .character("/"), .control("u"))
        Self.typed(&state, "gulls")
        #expect(Self.keys(&state, .enter) == [.searchLibrary(try SearchQuery("gulls"), serial: 2)])
        _ = ShelfApp.update(&state, .searchFound(.init(serial: 1, outcome: .success(Self.results()))))
        #expect(state.search?.results == nil && state.search?.isSearching == true)
        _ = ShelfApp.update(&state, .searchFound(.init(serial: 2, outcome: .success(SearchResults(groups: [], pending: 0)))))
        #expect(state.search?.results?.groups.isEmpty == true && state.search?.isSearching == false)
    }

    @Test func issuesNotIndexedYetStartTheAgentAndTheResultsFollowIt() throws {
        var state = Self.typing("harbour")
        _ = Self.keys(&state, .enter)
        let effects = ShelfApp.update(&state, .searchFound(.init(serial: 1, outcome: .success(SearchResults(groups: [], pending: 3)))))
        #expect(effects == [.startAgent])
        #expect(state.status == "3 issues not indexed yet: the agent is indexing them.")
        // The agent's writes change the library: the same search again, its results in place of these.
        #expect(ShelfApp.update(&state, .libraryChanged).contains(.searchLibrary(try SearchQuery("harbour"), serial: 2, again: true)))
        _ = ShelfApp.update(&state, .searchFound(.init(serial: 2, outcome: .success(Self.results()), again: true)))
        #expect(state.search?.results?.groups.count == 3 && state.search?.selection == 0)
    }

    @Test func aQueryThatCannotBeMadeSaysWhyAtOnce() {
        var state = Self.typing("-gulls")
        #expect(Self.keys(&state, .enter).isEmpty)
        #expect(state.search?.problem == "Cannot search: give a word to search for, not only words to leave out (-word).")
    }

    @Test func enterOpensTheReaderAtTheHitAndFindsItsWord() throws {
        var state = Self.found()
        let issue = Fixture.tidewaterIssues()[1]
        #expect(Self.keys(&state, .down) == [])
        #expect(Self.keys(&state, .enter) == [.markOpened(issue)])
        // The issue is still here: it opens at the hit's article, not at its saved place.
        let opened = ShelfApp.update(&state, .issueOpened(issue))
        guard case .openReader(let toOpen, _)? = opened.first else { Issue.record("\(opened)"); return }
        #expect(toOpen.locator?.resource == "OEBPS/ch4.xhtml" && toOpen.locator?.progression == 0)
        #expect(state.readerTarget?.word == "harbour")
        // Another issue opened later opens at its own place.
        _ = ShelfApp.update(&state, .issueOpened(Fixture.tidewaterIssues()[2]))
        #expect(state.readerTarget == nil)
    }

    @Test func anIssueNotHereSaysSoAndDOffersItsDownload() throws {
        var state = Self.found()
        _ = Self.keys(&state, .down, .down)
        #expect(state.search?.selected?.group.issue.name == "issue-14")
        #expect(Self.keys(&state, .enter).isEmpty)
        #expect(state.status == "“No. 28 · August 2026” was removed to save space: d downloads it again." && state.statusIsError)
        #expect(Self.keys(&state, .character("d")) == [.enqueue(issueID: 14), .startAgent])
        #expect(state.status == "Downloading “No. 28 · August 2026”…")
        // The library changed (the download ended): the same search again, the selection kept.
        let again = ShelfApp.update(&state, .libraryChanged)
        #expect(again.contains(.searchLibrary(try SearchQuery("harbour"), serial: 2, again: true)))
        var results = Self.results()
        results.groups[1].issue.status = .available
        _ = ShelfApp.update(&state, .searchFound(.init(serial: 2, outcome: .success(results), again: true)))
        #expect(state.search?.selected?.group.issue.name == "issue-14" && state.search?.selected?.group.issue.status == .available)
    }

    @Test func backLeavesForTheShelfAndEscapeFirstLeavesTheQueryLine() {
        var state = Self.found()
        _ = Self.keys(&state, .character("/"))
        Self.typed(&state, "q")
        #expect(state.search?.isEditing == true && state.screen == .search)
        _ = Self.keys(&state, .escape)
        #expect(state.search?.isEditing == false && state.search?.field.text == "harbour")
        _ = Self.keys(&state, .character("q"))
        #expect(state.screens == [.shelf])
        // With nothing searched yet, Escape on the query line leaves.
        var empty = Self.typing("")
        _ = Self.keys(&empty, .escape)
        #expect(empty.screens == [.shelf])
    }
}

/// The search screen over a real library: the index built as the agent builds it, the query
/// run on the reads queue, and Enter on a hit opens the reader there with the word found.
@Suite(.serialized) struct SearchScreenLibraryTests {
    @Test func aHitOpensTheReaderAtItsPlaceWithTheWordFound() throws {
        let h = try ShelfHarness(samples: false)
        _ = try ReaderFixture.install(ReaderFixture.magazine(), in: h, name: "harbour-monthly", title: "Harbour Monthly")
        try h.library.search.indexer(texts: IssueSearchTexts()).catchUp()
        h.app.reload()
        _ = h.settle()
        _ = h.key(.character("S"))
        h.type("\"night watch\"")
        let results = h.key(.enter).text
        #expect(results.contains("Harbour Monthly") && results.contains("“Keeper of the Light”"), "\(results)")
        #expect(results.contains("Night Watch"), "\(results)")
        let reader = h.key(.enter).text
        let model = try #require(h.app.reader)
        #expect(model.locator.resource == "OEBPS/ch2.xhtml")
        #expect(model.pager.query?.lowercased() == "night watch" || model.pager.query?.lowercased() == "night")
        // The heading 40 paragraphs down is on screen, the chapter's start is not.
        #expect(reader.contains("Night Watch") && !reader.contains("bp0w0"), "\(reader)")
    }

    /// #32: a highlight's quote and its note are found, marked as such, and Enter opens the
    /// reader at the highlight's words.
    @Test func aHighlightAndANoteAreFoundAndEnterOpensTheReaderAtThem() throws {
        let h = try ShelfHarness(samples: false)
        let issue = try ReaderFixture.install(ReaderFixture.magazine(), in: h, name: "noted-monthly", title: "Noted Monthly")
        try h.library.highlights.add(quote: "Dear editor, the lighthouse lamp", in: issue, texts: HighlightTexts(), note: "Write back about the zeppelin")
        try h.library.search.indexer(texts: IssueSearchTexts()).catchUp()
        h.app.reload()
        _ = h.settle()
        _ = h.key(.character("S"))
        h.type("zeppelin")
        let results = h.key(.enter).text
        #expect(results.contains("note, “Letters to the Editor”") && results.contains("Write back about the zeppelin"), "\(results)")
        h.type("/")
        for _ in "zeppelin" { _ = h.key(.backspace) }
        h.type("lamp")
        let quoted = h.key(.enter).text
        let highlightLine = quoted.range(of: "highlight, “Letters to the Editor”"), textLine = quoted.range(of: "  “Letters to the Editor”")
        #expect(highlightLine != nil && textLine != nil && highlightLine!.lowerBound < textLine!.lowerBound,
                "the highlight first in its issue, then the article's own text\n\(quoted)")

        let reader = h.key(.enter).text
        let model = try #require(h.app.reader)
        #expect(model.locator.resource == "OEBPS/ch4.xhtml", "\(reader)")
        #expect(reader.contains("Dear editor, the lighthouse lamp"), "\(reader)")
    }
}
