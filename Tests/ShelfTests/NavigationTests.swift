import Feeds
import Foundation
import Testing
import Terminal
@testable import NewsstandKit
@testable import Shelf

/// One navigation model on every screen: q, Escape and Backspace go back one level (Escape
/// first cancels what is typed), Q quits, ? opens help, a click selects and a click on the
/// selected item opens it.
@Suite struct NavigationTests {
    typealias Fixture = ShelfStateFixture
    typealias Catalogs = CatalogScreenUpdateTests

    func view(_ state: ShelfApp.State) -> String {
        ShelfApp.view(state, ShelfApp.ViewContext(theme: .classic, covers: KnownCovers())).text
    }

    /// The catalog screen two pages deep: the kept catalog, its root, a page of books.
    func twoPagesDeep() -> ShelfApp.State {
        var state = Fixture.shelf()
        _ = ShelfApp.update(&state, .key(.character("c")))
        _ = ShelfApp.update(&state, .catalogsRead([Catalog(id: 1, url: Catalogs.root.absoluteString, title: "Harbour Books", addedAt: Date())]))
        _ = ShelfApp.update(&state, .key(.enter))
        _ = ShelfApp.update(&state, .catalogPageLoaded(Catalogs.page(navigation: [CatalogLink(title: "New", url: Catalogs.root)]), replacing: false))
        _ = ShelfApp.update(&state, .key(.enter))
        _ = ShelfApp.update(&state, .catalogPageLoaded(Catalogs.page([Catalogs.epub, Catalogs.mobi]), replacing: false))
        return state
    }

    @Test(arguments: [Key.character("q"), .escape, .backspace])
    func backGoesOneLevelInTheCatalogs(_ back: Key) {
        var state = twoPagesDeep()
        #expect(state.screens == [.shelf, .catalog] && state.catalog.stack.count == 2)
        _ = ShelfApp.update(&state, .key(back))
        #expect(state.screen == .catalog && state.catalog.stack.count == 1)
        _ = ShelfApp.update(&state, .key(back))
        #expect(state.screen == .catalog && state.catalog.stack.isEmpty)
        #expect(view(state).contains("CATALOGS"))
        _ = ShelfApp.update(&state, .key(back))
        #expect(state.screens == [.shelf])
        #expect(!state.quit)
    }

    @Test(arguments: [Key.character("q"), .escape, .backspace])
    func backLeavesTheStoreForTheShelf(_ back: Key) {
        var state = Fixture.store()
        _ = ShelfApp.update(&state, .key(back))
        #expect(state.screens == [.shelf] && state.storePublicationID == nil && !state.quit)
    }

    @Test func escapeFirstCancelsWhatIsTyped() {
        // A catalog's search prompt: Escape closes the prompt, the page stays.
        var state = twoPagesDeep()
        state.catalog.stack[1].page.search = .template("http://books.example/s/{searchTerms}", base: Catalogs.root)
        _ = ShelfApp.update(&state, .key(.character("/")))
        _ = ShelfApp.update(&state, .key(.character("q")))      // typed, not back
        #expect(state.catalog.prompt == .search("q") && state.catalog.stack.count == 2)
        _ = ShelfApp.update(&state, .key(.escape))
        #expect(state.catalog.prompt == nil && state.catalog.stack.count == 2)

        // A filter being typed, then a filter kept: Escape clears it before leaving the store.
        var store = Fixture.store()
        _ = ShelfApp.update(&store, .key(.character("/")))
        _ = ShelfApp.update(&store, .key(.character("q")))
        #expect(store.store?.filter.text == "q" && store.screen == .store)
        _ = ShelfApp.update(&store, .key(.enter))
        _ = ShelfApp.update(&store, .key(.escape))
        #expect(store.store?.filter.text == "" && store.screen == .store)
        _ = ShelfApp.update(&store, .key(.escape))
        #expect(store.screen == .shelf)
    }

    @Test func onTheShelfQAndEscapeQuitButBackspaceDoesNot() {
        var state = Fixture.shelf()
        _ = ShelfApp.update(&state, .key(.backspace))
        #expect(!state.quit)
        _ = ShelfApp.update(&state, .key(.character("q")))
        #expect(state.quit)
        var again = Fixture.shelf()
        _ = ShelfApp.update(&again, .key(.escape))
        #expect(again.quit)
    }

    /// Q and Ctrl-C quit from every screen, help included; ? opens help over each.
    @Test(arguments: [Key.character("Q"), .control("c")])
    func quitWorksOnEveryScreen(_ quit: Key) {
        var help = Fixture.store()
        _ = ShelfApp.update(&help, .key(.character("?")))
        for var state in [Fixture.shelf(), Fixture.store(), twoPagesDeep(), help] {
            _ = ShelfApp.update(&state, .key(quit))
            #expect(state.quit, "\(state.screens)")
        }
    }

    @Test func helpOpensOverEveryScreenAndClosesBackToIt() {
        for var state in [Fixture.shelf(), Fixture.store(), twoPagesDeep()] {
            let before = state.screens
            _ = ShelfApp.update(&state, .key(.character("?")))
            #expect(state.screen == .help && Array(state.screens.dropLast()) == before)
            _ = ShelfApp.update(&state, .key(.character("q")))
            #expect(state.screens == before)
        }
    }

    @Test(arguments: [Key.character("q"), .escape, .character("?"), .backspace])
    func helpClosesOnBackAndOnQuestionMark(_ key: Key) {
        var state = Fixture.store()
        _ = ShelfApp.update(&state, .key(.character("?")))
        _ = ShelfApp.update(&state, .key(key))
        #expect(state.screen == .store && !state.quit)
    }

    @Test func otherKeysDoNothingOnHelp() {
        var state = Fixture.shelf(width: 80, height: 24)
        _ = ShelfApp.update(&state, .key(.character("?")))
        for key in [Key.character("x"), .character("d"), .enter, .character("c"), .character("r")] {
            #expect(ShelfApp.update(&state, .key(key)) == [])
            #expect(state.screen == .help && state.help?.scroll == 0, "\(key)")
        }
    }

    /// At 80×24 help is longer than the window: the moving keys scroll it to every line,
    /// the reader's, the contents' and the prompts' included.
    @Test func helpScrollsToEveryKeyAt80By24() {
        var state = Fixture.shelf(width: 80, height: 24)
        _ = ShelfApp.update(&state, .key(.character("?")))
        let lines = state.help?.lines(keys: state.keyBindings, width: 80) ?? []
        let rows = HelpScreen.rows(height: 24)
        #expect(lines.count > rows)
        var seen = view(state)
        #expect(seen.contains("Shelf and store") && !seen.contains("Prompts"))
        _ = ShelfApp.update(&state, .key(.character("j")))
        #expect(state.help?.scroll == 1)
        _ = ShelfApp.update(&state, .key(.character("k")))
        _ = ShelfApp.update(&state, .key(.up))
        #expect(state.help?.scroll == 0)
        while (state.help?.scroll ?? .max) < lines.count - rows {
            let before = state.help?.scroll ?? .max
            _ = ShelfApp.update(&state, .key(.pageDown))
            #expect((state.help?.scroll ?? 0) > before)
            seen += view(state)
        }
        for text in ["Reader", "scroll a line", "table of contents", "Contents (t in the reader)", "Prompts",
                     "search the catalog", "add a catalog by its URL", "pin / unpin", "Ctrl-Z"] {
            #expect(seen.contains(text), "\(text)")
        }
        _ = ShelfApp.update(&state, .key(.pageDown))
        #expect(state.help?.scroll == lines.count - rows)       // not past the end
        _ = ShelfApp.update(&state, .key(.character("g")))
        #expect(state.help?.scroll == 0)
        _ = ShelfApp.update(&state, .key(.character("G")))
        #expect(state.help?.scroll == lines.count - rows)
        #expect(view(state).contains("cancel"))
        _ = ShelfApp.update(&state, .mouse(.wheelUp, x: 10, y: 10))
        #expect(state.help?.scroll == lines.count - rows - 3)
    }

    @Test func helpOpenedFromTheCatalogsShowsTheirKeysFirst() {
        var state = twoPagesDeep()
        _ = ShelfApp.update(&state, .key(.character("?")))
        #expect(state.help?.lines(keys: state.keyBindings, width: 120).first?.keys == "Catalogs")
    }

    @Test func aClickSelectsACatalogAndASecondOpensIt() {
        var state = Fixture.shelf()
        _ = ShelfApp.update(&state, .key(.character("c")))
        let second = URL(string: "http://books.example/second")!
        _ = ShelfApp.update(&state, .catalogsRead([Catalog(id: 1, url: Catalogs.root.absoluteString, title: "Harbour Books", addedAt: Date()),
                                                  Catalog(id: 2, url: second.absoluteString, title: "Second", addedAt: Date())]))
        // The list starts on row 2.
        #expect(ShelfApp.update(&state, .mouse(.left, x: 5, y: 3)) == [])
        #expect(state.catalog.listSelection == 1)
        #expect(ShelfApp.update(&state, .mouse(.left, x: 5, y: 3)) == [.loadCatalogPage(second, replacing: false)])
        #expect(ShelfApp.update(&state, .mouse(.left, x: 5, y: 20)) == [])   // below the list
    }

    @Test func aClickSelectsABookAndASecondTakesIt() {
        var state = twoPagesDeep()
        // A page of books only has no heading: the two books are rows 2 and 3.
        #expect(state.catalog.page?.selection == 0)
        #expect(ShelfApp.update(&state, .mouse(.left, x: 5, y: 3)) == [])
        #expect(state.catalog.page?.selection == 1)
        #expect(ShelfApp.update(&state, .mouse(.left, x: 5, y: 2)) == [])
        #expect(state.catalog.page?.selection == 0)
        #expect(ShelfApp.update(&state, .mouse(.left, x: 5, y: 2)) == [.takeBook(Catalogs.epub)])
    }

    /// The page scrolls only as far as the selection needs: a row clicked stays under the
    /// pointer, so the second click lands on it.
    @Test func aCatalogPageScrollsOnlyAsFarAsItMust() {
        var state = twoPagesDeep()
        let books = (1...40).map { n in
            CatalogBook(id: "urn:b:\(n)", title: "Book \(n)", acquisitions: Catalogs.epub.acquisitions)
        }
        _ = ShelfApp.update(&state, .catalogPageLoaded(Catalogs.page(books), replacing: true))
        let visible = CatalogScreen.visibleRows(height: state.height)
        for _ in 0..<(visible - 1) { _ = ShelfApp.update(&state, .key(.down)) }
        #expect(state.catalog.page?.scroll == 0)
        _ = ShelfApp.update(&state, .key(.down))
        #expect(state.catalog.page?.scroll == 1)
        // Clicking the row at the top selects it where it is.
        #expect(ShelfApp.update(&state, .mouse(.left, x: 5, y: 2)) == [])
        #expect(state.catalog.page?.selection == 1 && state.catalog.page?.scroll == 1)
        #expect(ShelfApp.update(&state, .mouse(.left, x: 5, y: 2)) == [.takeBook(books[1])])
    }
}

/// The run loop's sleep when no key comes: an idle shelf wakes once a second.
@Suite struct PollIntervalTests {
    typealias Fixture = ShelfStateFixture

    func interval(_ state: ShelfApp.State, pictures: Bool = false, busy: Bool = false, refreshing: Bool = false) -> Double {
        ShelfApp.pollInterval(state, waitingForPictures: pictures, busy: busy, refreshing: refreshing)
    }

    @Test func anIdleShelfStoreOrCatalogWakesOnceASecond() {
        var catalogs = Fixture.shelf()
        _ = ShelfApp.update(&catalogs, .key(.character("c")))
        for state in [Fixture.shelf(), Fixture.store(), catalogs] { #expect(interval(state) == 1, "\(state.screens)") }
    }

    @Test func workUnderWayIsLookedForOften() {
        let shelf = Fixture.shelf()
        #expect(interval(shelf, pictures: true) == 0.015)
        #expect(interval(shelf, busy: true) == 0.005)
        #expect(interval(shelf, refreshing: true) == 0.1)
    }

    @Test func aDownloadOnScreenMovesItsBarTenTimesASecond() {
        var downloading = Fixture.tidewaterIssues()
        downloading[0].status = .downloading
        #expect(interval(Fixture.store(issues: downloading)) == 0.1)
        // "Downloading …" on the status line goes when the download ends.
        var shelf = Fixture.shelf()
        _ = ShelfApp.update(&shelf, .key(.character("d")))
        #expect(shelf.statusCause == .download(issueID: 11))
        #expect(interval(shelf) == 0.1)
    }
}

/// Every prompt is typed the same way (`TextField`).
@Suite struct TextFieldTests {
    @Test func charactersAddBackspaceAndDeleteRemoveCtrlUClears() {
        var field = TextField("ab", limit: 4)
        #expect(field.update(.character("c")) == .edited && field.text == "abc")
        #expect(field.update(.character("d")) == .edited)
        #expect(field.update(.character("e")) == .unchanged && field.text == "abcd")   // the limit
        #expect(field.update(.backspace) == .edited && field.text == "abc")
        #expect(field.update(.delete) == .edited && field.text == "ab")
        #expect(field.update(.control("u")) == .edited && field.text == "")
        #expect(field.update(.backspace) == .unchanged)
        #expect(field.update(.up) == .unchanged)
        #expect(field.update(.enter) == .submit && field.update(.escape) == .cancel)
    }

    /// Ctrl-U clears a catalog search, a filter and a user name alike, as it cleared a password.
    @Test func ctrlUClearsEveryPrompt() {
        var state = ShelfStateFixture.store()
        for key in [Key.character("/"), .character("n"), .character("o"), .control("u")] { _ = ShelfApp.update(&state, .key(key)) }
        #expect(state.store?.filter.text == "" && state.store?.filter.isEditing == true)

        var catalogs = ShelfStateFixture.shelf()
        _ = ShelfApp.update(&catalogs, .key(.character("c")))
        _ = ShelfApp.update(&catalogs, .catalogsRead([]))
        for key in [Key.character("a"), .character("h"), .control("u")] { _ = ShelfApp.update(&catalogs, .key(key)) }
        #expect(catalogs.catalog.prompt == .addURL(""))
        _ = ShelfApp.update(&catalogs, .key(.escape))
        _ = ShelfApp.update(&catalogs, .catalogNeedsSignIn(host: "h", server: "H", wrong: false, retry: .readCatalogs))
        for key in [Key.character("a"), .character("d"), .control("u"), .character("b")] { _ = ShelfApp.update(&catalogs, .key(key)) }
        #expect(catalogs.catalog.signIn?.user == "b")
    }
}
