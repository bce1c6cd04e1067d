import Feeds
import Foundation
import Testing
import Terminal
@testable import NewsstandKit
@testable import Shelf

/// A small OPDS catalog written as files: a navigation root (with a search template), an
/// acquisition feed of two pages, and a search result; covers from the sample feed.
struct FileCatalog {
    let folder: URL

    init(in root: URL) throws {
        folder = root.appendingPathComponent("catalog", isDirectory: true)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("search"), withIntermediateDirectories: true)
        let cover = ShelfHarness.sampleFeed.appendingPathComponent("lantern-quarterly/covers/lantern-2026-06.png").absoluteString
        let acquisition = "application/atom+xml;profile=opds-catalog;kind=acquisition"
        try write("root.xml", """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>Harbour Books</title><id>urn:root</id>
            <link rel="search" type="application/atom+xml" href="search/{searchTerms}.xml"/>
            <entry><title>By Newest</title><id>n</id><content type="text">Newest first</content>
              <link rel="http://opds-spec.org/sort/new" href="new.xml" type="\(acquisition)"/></entry>
            <entry><title>Series</title><id>s</id><link rel="subsection" href="new.xml" type="\(acquisition)"/></entry>
            </feed>
            """)
        try write("new.xml", page(title: "By Newest", books: [
            ("urn:b:menders", "The Net Menders", "Ada Quay", "epub", "Winter repairs on the east quay."),
            ("urn:b:kindle", "Kindle Only", "Bo Keel", "mobi", "A book this program cannot read."),
        ], next: "new-2.xml", cover: cover))
        try write("new-2.xml", page(title: "By Newest", books: [
            ("urn:b:gulls", "Gull Comics", "Mara Gull", "cbz", "Twenty-four pages of gulls."),
        ], next: nil, cover: cover))
        try write("search/gulls.xml", page(title: "Search: gulls", books: [
            ("urn:b:gulls", "Gull Comics", "Mara Gull", "cbz", "Twenty-four pages of gulls."),
        ], next: nil, cover: cover))
    }

    var root: URL { folder.appendingPathComponent("root.xml") }

    private func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: folder.appendingPathComponent(name))
    }

    private func page(title: String, books: [(String, String, String, String, String)], next: String?, cover: String) -> String {
        let types = ["epub": "application/epub+zip", "mobi": "application/x-mobipocket-ebook", "cbz": "application/vnd.comicbook+zip"]
        let entries = books.map { id, name, author, format, summary in
            """
            <entry><title>\(name)</title><id>\(id)</id><author><name>\(author)</name></author>
            <updated>2026-02-01T00:00:00Z</updated><summary>\(summary)</summary>
            <link rel="http://opds-spec.org/image/thumbnail" href="\(cover)" type="image/png"/>
            <link rel="http://opds-spec.org/acquisition" href="books/\(id.split(separator: ":").last!).\(format)" type="\(types[format]!)"/></entry>
            """
        }.joined()
        let nextLink = next.map { #"<link rel="next" href="\#($0)"/>"# } ?? ""
        return #"<feed xmlns="http://www.w3.org/2005/Atom"><title>\#(title)</title><id>urn:\#(title)</id>\#(nextLink)\#(entries)</feed>"#
    }
}

/// The catalog screen decides; what it asks for are effects. Driven through `update`.
@Suite struct CatalogScreenUpdateTests {
    typealias State = ShelfApp.State

    static let root = URL(string: "http://books.example/opds")!

    static func page(_ books: [CatalogBook] = [], navigation: [CatalogLink] = [], next: URL? = nil,
                     search: CatalogSearch? = nil) -> CatalogPage {
        CatalogPage(format: .opds1, url: root, title: "Harbour Books", navigation: navigation, books: books,
                    pages: CatalogPages(next: next), search: search)
    }

    static let epub = CatalogBook(id: "urn:b:1", title: "The Net Menders", authors: ["Ada Quay"],
                                  acquisitions: [CatalogAcquisition(url: URL(string: "http://books.example/1.epub")!,
                                                                    type: "application/epub+zip", rel: "http://opds-spec.org/acquisition")])
    static let mobi = CatalogBook(id: "urn:b:2", title: "Kindle Only",
                                  acquisitions: [CatalogAcquisition(url: URL(string: "http://books.example/2.mobi")!,
                                                                    type: "application/x-mobipocket-ebook", rel: "http://opds-spec.org/acquisition")])

    func inCatalog() -> State {
        var state = ShelfStateFixture.shelf()
        #expect(ShelfApp.update(&state, .key(.character("c"))) == [.readCatalogs])
        #expect(state.screen == .catalog)
        _ = ShelfApp.update(&state, .catalogsRead([Catalog(id: 1, url: Self.root.absoluteString, title: "Harbour Books", addedAt: Date())]))
        return state
    }

    @Test func enterOpensACatalogAndALinkAndEscapeGoesBack() {
        var state = inCatalog()
        #expect(ShelfApp.update(&state, .key(.enter)) == [.loadCatalogPage(Self.root, replacing: false)])
        #expect(state.catalog.loading == Self.root)
        let series = URL(string: "http://books.example/opds/series")!
        let root = Self.page(navigation: [CatalogLink(title: "New", url: URL(string: "http://books.example/opds/new")!),
                                          CatalogLink(title: "Series", url: series)])
        #expect(ShelfApp.update(&state, .catalogPageLoaded(root, replacing: false)).isEmpty)
        #expect(state.catalog.loading == nil)
        _ = ShelfApp.update(&state, .key(.down))
        #expect(ShelfApp.update(&state, .key(.enter)) == [.loadCatalogPage(series, replacing: false)])
        _ = ShelfApp.update(&state, .catalogPageLoaded(Self.page([Self.epub]), replacing: false))
        #expect(state.catalog.stack.count == 2)
        _ = ShelfApp.update(&state, .key(.escape))
        #expect(state.catalog.stack.count == 1)
        #expect(state.catalog.page?.selection == 1)   // the place on the page is kept
        _ = ShelfApp.update(&state, .key(.backspace))
        #expect(state.catalog.stack.isEmpty)
        #expect(state.screen == .catalog)
        _ = ShelfApp.update(&state, .key(.escape))
        #expect(state.screen == .shelf)
    }

    @Test func pagesReplaceEachOtherAndCoversComeAfter() {
        var state = inCatalog()
        let next = URL(string: "http://books.example/opds/new?page=2")!
        var book = Self.epub
        book.thumbnailURL = URL(string: "http://books.example/covers/1.png")
        let effects = ShelfApp.update(&state, .catalogPageLoaded(Self.page([book], next: next), replacing: false))
        #expect(effects == [.fetchCatalogCovers([URL(string: "http://books.example/covers/1.png")!])])
        #expect(ShelfApp.update(&state, .key(.character("]"))) == [.loadCatalogPage(next, replacing: true)])
        _ = ShelfApp.update(&state, .catalogPageLoaded(Self.page([Self.mobi]), replacing: true))
        #expect(state.catalog.stack.count == 1)
        #expect(ShelfApp.update(&state, .key(.character("]"))).isEmpty)
        #expect(state.status == "This is the last page.")
    }

    @Test func searchSubscribeAndTake() {
        var state = inCatalog()
        let page = Self.page([Self.epub, Self.mobi], search: .template("http://books.example/s/{searchTerms}", base: Self.root))
        _ = ShelfApp.update(&state, .catalogPageLoaded(page, replacing: false))
        #expect(ShelfApp.update(&state, .key(.character("/"))).isEmpty)
        for character in "gull" { _ = ShelfApp.update(&state, .key(.character(character))) }
        #expect(state.catalog.prompt == .search("gull"))
        #expect(ShelfApp.update(&state, .key(.enter)) == [.searchCatalog(page, terms: "gull")])
        #expect(state.catalog.prompt == nil)

        #expect(ShelfApp.update(&state, .key(.character("s"))) == [.subscribeCatalogFeed(Self.root, title: "Harbour Books")])
        #expect(ShelfApp.update(&state, .key(.enter)) == [.takeBook(Self.epub)])
        _ = ShelfApp.update(&state, .key(.down))
        #expect(ShelfApp.update(&state, .key(.character("d"))).isEmpty)
        #expect(state.statusIsError)
        #expect(state.status?.contains("MOBI") == true)

        let issue = Issue(id: 7, publicationId: 9, name: "urn:b:1", date: Date(), title: "The Net Menders")
        #expect(ShelfApp.update(&state, .bookTaken(issue)) == [.enqueue(issueID: 7), .startAgent, .readLibrary])
    }

    @Test func takingABookSaysSoAtOnceAndWhereItIsWhenDone() {
        var state = inCatalog()
        _ = ShelfApp.update(&state, .catalogPageLoaded(Self.page([Self.epub]), replacing: false))
        #expect(ShelfApp.update(&state, .key(.enter)) == [.takeBook(Self.epub)])
        #expect(state.status == "Taking “The Net Menders” into From catalogs…")
        var issue = Issue(id: 7, publicationId: 9, name: "urn:b:1", date: Date(), title: "The Net Menders")
        _ = ShelfApp.update(&state, .bookTaken(issue))
        #expect(state.status == "Downloading “The Net Menders” into From catalogs…")
        _ = ShelfApp.update(&state, .libraryRead(ShelfApp.LibraryRead(summaries: ShelfStateFixture.summaries(), pendingDownloads: [7])))
        #expect(state.status == "Downloading “The Net Menders” into From catalogs…")
        issue.status = .available
        _ = ShelfApp.update(&state, .libraryRead(ShelfApp.LibraryRead(summaries: ShelfStateFixture.summaries(), pendingDownloads: [],
                                                                      finishedDownloads: [issue])))
        #expect(state.status == "“The Net Menders” is on the shelf, in From catalogs.")
    }

    @Test func theCatalogsListFollowsTheLibraryChangedElsewhere() {
        var state = inCatalog()
        #expect(ShelfApp.update(&state, .libraryChanged) == [.readLibrary, .readCatalogs])
        _ = ShelfApp.update(&state, .catalogPageLoaded(Self.page([Self.epub]), replacing: false))
        #expect(ShelfApp.update(&state, .libraryChanged) == [.readLibrary])
        var shelf = ShelfStateFixture.shelf()
        #expect(ShelfApp.update(&shelf, .libraryChanged) == [.readLibrary])
    }

    @Test func aBookTakenShowsItsAuthorsInTheStore() {
        var book = Issue(id: 7, publicationId: 1, name: "urn:b:1", date: ShelfStateFixture.lastIssueDate, title: "The Net Menders")
        book.feedAuthors = "Ada Quay\nBo Lind"
        book.status = .available
        var state = ShelfStateFixture.store(issues: [book])
        #expect(ShelfGoldenTests.screen(state).text.contains("20 Nov 2026  · Ada Quay, Bo Lind"))
        _ = ShelfApp.update(&state, .key(.character("v")))
        #expect(ShelfGoldenTests.screen(state).text.contains("Ada Quay, Bo Lind"))
    }

    @Test func aNavigationPageCannotBeSubscribedToNorSearchedWithoutATemplate() {
        var state = inCatalog()
        _ = ShelfApp.update(&state, .catalogPageLoaded(Self.page(navigation: [CatalogLink(title: "New", url: Self.root)]), replacing: false))
        #expect(ShelfApp.update(&state, .key(.character("s"))).isEmpty)
        #expect(state.statusIsError)
        #expect(ShelfApp.update(&state, .key(.character("/"))).isEmpty)
        #expect(state.catalog.prompt == nil)
    }

    @Test func groupsAndOtherViewsAreRowsAndHeadingsAreNeverSelected() {
        var state = inCatalog()
        var page = Self.page([Self.epub])
        let featured = URL(string: "http://books.example/featured")!
        page.groups = [CatalogGroup(title: "Featured", url: featured, books: [Self.mobi])]
        page.facets = [CatalogLink(title: "Newest", url: Self.root, facetGroup: "Order", active: true),
                       CatalogLink(title: "Title", url: URL(string: "http://books.example/by-title")!, facetGroup: "Order")]
        _ = ShelfApp.update(&state, .catalogPageLoaded(page, replacing: false))
        let rows = state.catalog.page?.rows ?? []
        // Featured, its book, its "more"; Books, the page's book; Other views, the facet not shown now.
        #expect(rows.count == 7)
        #expect(rows.first == .heading("Featured"))
        #expect(rows.last == .link(CatalogLink(title: "Order: Title", url: URL(string: "http://books.example/by-title")!,
                                               facetGroup: "Order")))
        #expect(state.catalog.page?.selection == 1)            // the first book, not the heading
        _ = ShelfApp.update(&state, .key(.character("G")))
        _ = ShelfApp.update(&state, .key(.up))
        #expect(state.catalog.page?.selectedRow == .book(Self.epub))   // over the "Other views" heading
        _ = ShelfApp.update(&state, .key(.up))                          // and the "Books" one
        #expect(ShelfApp.update(&state, .key(.enter)) == [.loadCatalogPage(featured, replacing: false)])
    }

    @Test func xForgetsTheSelectedCatalog() {
        var state = inCatalog()
        let kept = state.catalog.catalogs[0]
        #expect(ShelfApp.update(&state, .key(.character("x"))) == [.removeCatalog(kept)])
        _ = ShelfApp.update(&state, .catalogsRead([]))
        #expect(ShelfApp.update(&state, .key(.enter)).isEmpty)
        #expect(state.catalog.prompt == .addURL(""))       // nothing kept: Enter asks for one
    }

    @Test func addingACatalogByURL() {
        var state = inCatalog()
        _ = ShelfApp.update(&state, .key(.character("a")))
        for character in "ftp://x" { _ = ShelfApp.update(&state, .key(.character(character))) }
        #expect(ShelfApp.update(&state, .key(.enter)).isEmpty)
        #expect(state.statusIsError)
        _ = ShelfApp.update(&state, .key(.character("a")))
        for character in "http://books.example/opds" { _ = ShelfApp.update(&state, .key(.character(character))) }
        #expect(ShelfApp.update(&state, .key(.enter)) == [.addCatalog(Self.root)])
    }
}

/// The whole screen against a real library and a catalog of files.
@Suite(.serialized) struct CatalogScreenTests {
    @Test func browseSearchSubscribeAndTakeABook() throws {
        let h = try ShelfHarness(samples: false)
        let catalog = try FileCatalog(in: h.root)
        var screen = h.key(.character("c")).text
        #expect(screen.contains("CATALOGS") && screen.contains("No catalogs yet"), "\(screen)")

        _ = h.key(.character("a"))
        for character in catalog.root.path { h.app.handle(.key(.character(character))) }
        screen = h.key(.enter).text
        #expect(screen.contains("Harbour Books") && screen.contains("▸ By Newest") && screen.contains("▸ Series"), "\(screen)")
        #expect(try h.library.store.catalogs().map(\.title) == ["Harbour Books"])

        screen = h.key(.enter).text
        #expect(screen.contains("The Net Menders — Ada Quay") && screen.contains("[EPUB]") && screen.contains("[MOBI]"), "\(screen)")
        #expect(screen.contains("Winter repairs on the east quay."), "\(screen)")
        // The cover arrives after the page (half-blocks, rendered in the background).
        screen = h.waitForPictures { $0.contains("▀") }
        #expect(screen.contains("▀"), "\(screen)")

        screen = h.key(.character("]")).text
        #expect(screen.contains("Gull Comics") && !screen.contains("Net Menders"), "\(screen)")
        screen = h.key(.character("[")).text
        #expect(screen.contains("This is the first page."), "\(screen)")

        _ = h.key(.character("/"))
        for character in "gulls" { h.app.handle(.key(.character(character))) }
        screen = h.key(.enter).text
        #expect(screen.contains("Search: gulls") && screen.contains("Gull Comics"), "\(screen)")
        screen = h.key(.escape).text
        #expect(screen.contains("Gull Comics") && screen.contains("] next page") == false, "\(screen)")

        // Enter on a book: taken into "From catalogs" and queued for download.
        screen = h.key(.enter).text
        let taken = try #require(try h.library.store.issue(named: "urn:b:gulls"))
        #expect(taken.contentURL?.hasSuffix("catalog/books/gulls.cbz") == true)
        #expect(try h.library.store.publications().map(\.title).contains("From catalogs"))
        #expect(h.agentStartCount >= 1)

        // Back to the first page of By Newest, and subscribe to it: both pages' books.
        _ = h.key(.escape)
        _ = h.key(.enter)
        screen = h.key(.character("s")).text
        // The comic already taken stays in From catalogs; the Kindle book is not one this program reads.
        #expect(screen.contains("Subscribed to “By Newest”: 1 new issue(s)"), "\(screen)")
        let newest = try #require(try h.library.store.publications().first { $0.title == "By Newest" })
        #expect(try h.library.store.issues(publicationID: newest.id ?? -1).map(\.name) == ["urn:b:menders"])
        // q goes back one page at a time, to the catalogs, then to the shelf.
        for _ in h.app.state.catalog.stack { screen = h.key(.character("q")).text }
        #expect(screen.contains("CATALOGS"), "\(screen)")
        screen = h.key(.character("q")).text
        #expect(screen.contains("NEWSSTAND") && screen.contains("By Newest"), "\(screen)")
    }

    @Test func aCatalogThatFailsSaysSoInOneLine() throws {
        let h = try ShelfHarness(samples: false)
        _ = h.key(.character("c"))
        _ = h.key(.character("a"))
        for character in h.root.appendingPathComponent("missing.xml").path { h.app.handle(.key(.character(character))) }
        let screen = h.key(.enter).text
        #expect(screen.contains("missing.xml"), "\(screen)")
        #expect(try h.library.store.catalogs().isEmpty)
    }
}

/// The password prompt: user, then password as dots, then the same work again.
@Suite struct CatalogSignInUpdateTests {
    @Test func aServerThatAsksGetsAUserAndPasswordAndTheWorkIsDoneAgain() {
        var state = ShelfStateFixture.shelf()
        _ = ShelfApp.update(&state, .key(.character("c")))
        let retry = ShelfApp.Effect.loadCatalogPage(CatalogScreenUpdateTests.root, replacing: false)
        _ = ShelfApp.update(&state, .catalogNeedsSignIn(host: "books.example", server: "Quay", wrong: false, retry: retry))
        for character in "reader" { _ = ShelfApp.update(&state, .key(.character(character))) }
        #expect(state.catalog.signIn?.line == "Quay asks you to sign in. User: reader")
        _ = ShelfApp.update(&state, .key(.enter))
        for character in "tidx" { _ = ShelfApp.update(&state, .key(.character(character))) }
        _ = ShelfApp.update(&state, .key(.backspace))
        _ = ShelfApp.update(&state, .key(.character("e")))
        // Never shown: dots stand for it, on the screen too.
        #expect(state.catalog.signIn?.line == "Password for reader at Quay: ••••")
        let screen = ShelfApp.view(state, ShelfApp.ViewContext(theme: .classic, covers: KnownCovers())).text
        #expect(screen.contains("Password for reader at Quay: ••••") && !screen.contains("tide"), "\(screen)")
        #expect(ShelfApp.update(&state, .key(.enter)) == [.signIn(host: "books.example", user: "reader", password: "tide", retry: retry)])
        #expect(state.catalog.signIn == nil)

        // Refused: said in one line, and asked again, the user kept (Enter goes on to the password).
        _ = ShelfApp.update(&state, .catalogNeedsSignIn(host: "books.example", server: "Quay", wrong: true, retry: retry))
        #expect(state.catalog.signIn?.line == "Wrong user name or password. Quay asks you to sign in. User: reader")
        _ = ShelfApp.update(&state, .key(.enter))
        #expect(state.catalog.signIn?.line == "Wrong user name or password. Password for reader at Quay: ")
        _ = ShelfApp.update(&state, .key(.escape))
        #expect(state.catalog.signIn == nil)
        #expect(state.status == "Not signed in to Quay.")
    }
}

/// The catalog keys came after many users' `[keys]`: a key a user gave another action keeps
/// that action, and the catalog's default for it goes, rather than the config being refused.
@Suite struct CatalogKeyTests {
    @Test func aUsersKeyWinsOverACatalogDefault() throws {
        let keys = try KeyBindings(config: Config.parse("""
            [keys]
            down = ["s", "Down"]
            refresh = "a"
            """, file: "/home/u/.config/newsstand/config.toml"))
        #expect(keys.action(for: .character("s"), on: .catalog) == .down)
        #expect(keys.action(for: .character("a"), on: .shelf) == .refresh)
        #expect(keys.keys(for: .subscribe).isEmpty)
        #expect(keys.keys(for: .addCatalog).isEmpty)
        #expect(keys.action(for: .character("c"), on: .shelf) == .catalogs)
        // Written by the user on both sides, it is still refused.
        #expect(throws: ConfigError.self) {
            try KeyBindings(config: Config.parse("""
                [keys]
                down = "s"
                subscribe = "s"
                """, file: "/home/u/.config/newsstand/config.toml"))
        }
    }
}
