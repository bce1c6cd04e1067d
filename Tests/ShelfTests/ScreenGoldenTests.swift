import Feeds
import Foundation
import Testing
import Terminal
@testable import NewsstandKit
@testable import Shelf

/// Every screen of the app at 80×24 and 120×40, compared whole against
/// `Goldens/<screen>-<width>x<height>.txt` (see `Golden` for recording them): the shelf, the
/// first start, a store, help at its top and its end, the catalogs and a catalog page, and
/// each prompt (filter, search, catalog URL, sign-in, a PDF's password, a removal asked).
@Suite struct ScreenGoldenTests {
    typealias Fixture = ShelfStateFixture
    typealias Catalogs = CatalogScreenUpdateTests
    typealias State = ShelfApp.State

    static let sizes = [(80, 24), (120, 40)]

    /// `state` after these keys and this text typed.
    static func after(_ state: State, _ keys: [Key], typing text: String = "") -> State {
        var state = state
        for key in keys { _ = ShelfApp.update(&state, .key(key)) }
        typed(&state, text)
        return state
    }

    static func keys(_ state: inout State, _ keys: Key...) {
        for key in keys { _ = ShelfApp.update(&state, .key(key)) }
    }

    static func typed(_ state: inout State, _ text: String) {
        for character in text { _ = ShelfApp.update(&state, .key(.character(character))) }
    }

    static func catalogs(width: Int, height: Int) -> State {
        var state = Fixture.shelf(width: width, height: height)
        keys(&state, .character("c"))
        _ = ShelfApp.update(&state, .catalogsRead([
            Catalog(id: 1, url: Catalogs.root.absoluteString, title: "Harbour Books", addedAt: Date(timeIntervalSince1970: 0)),
            Catalog(id: 2, url: "https://quay.example/opds/v2/home.json", title: "Quay Library", addedAt: Date(timeIntervalSince1970: 0)),
        ]))
        return state
    }

    static func catalogPage(width: Int, height: Int) -> State {
        var state = catalogs(width: width, height: height)
        keys(&state, .enter)
        var menders = Catalogs.epub
        menders.summary = "Three sisters mend the nets of a harbour town through one long winter, and learn what the sea keeps."
        var page = Catalogs.page([menders, Catalogs.mobi], navigation: [CatalogLink(title: "By Newest", url: Catalogs.root)],
                                 next: URL(string: "http://books.example/opds?page=2"),
                                 search: .template("http://books.example/s/{searchTerms}", base: Catalogs.root))
        page.groups = [CatalogGroup(title: "Staff picks", url: URL(string: "http://books.example/picks"), books: [Catalogs.mobi])]
        _ = ShelfApp.update(&state, .catalogPageLoaded(page, replacing: false))
        keys(&state, .down, .down, .down)      // past the Staff pick and its "more", to the page's first book
        return state
    }

    /// Each screen by name, as reached by keys and messages from the fixtures.
    static let screens: [(name: String, make: @Sendable (Int, Int) -> State)] = [
        ("first-start", { w, h in Fixture.shelf(of: [], width: w, height: h) }),
        ("shelf", { w, h in Fixture.shelf(width: w, height: h) }),
        ("shelf-filter", { w, h in after(Fixture.shelf(width: w, height: h), [.character("/")], typing: "ti") }),
        ("store", { w, h in Fixture.store(width: w, height: h) }),
        ("store-list", { w, h in
            var issues = Fixture.tidewaterIssues()
            issues[1].contentAuthors = "Maren Holt"
            return after(Fixture.store(width: w, height: h, issues: issues), [.character("v"), .down])
        }),
        ("store-remove-asked", { w, h in after(Fixture.store(width: w, height: h), [.down, .character("x")]) }),
        ("store-pdf-password", { w, h in
            var state = Fixture.store(width: w, height: h)
            _ = ShelfApp.update(&state, .readerNeedsPassword(Fixture.tidewaterIssues()[1], wrong: true))
            typed(&state, "sec")
            return state
        }),
        ("help", { w, h in after(Fixture.shelf(width: w, height: h), [.character("?")]) }),
        ("help-end", { w, h in after(Fixture.shelf(width: w, height: h), [.character("?"), .character("G")]) }),
        ("catalogs-none", { w, h in
            var state = Fixture.shelf(width: w, height: h)
            keys(&state, .character("c"))
            _ = ShelfApp.update(&state, .catalogsRead([]))
            return state
        }),
        ("catalogs", { w, h in catalogs(width: w, height: h) }),
        ("catalogs-add-url", { w, h in after(catalogs(width: w, height: h), [.character("a")], typing: "https://books.example/op") }),
        ("catalog-page", { w, h in catalogPage(width: w, height: h) }),
        ("catalog-search", { w, h in after(catalogPage(width: w, height: h), [.character("/")], typing: "nets") }),
        ("catalog-sign-in", { w, h in
            var state = catalogs(width: w, height: h)
            _ = ShelfApp.update(&state, .catalogNeedsSignIn(host: "books.example", server: "Harbour Books", wrong: false,
                                                             retry: .loadCatalogPage(Catalogs.root, replacing: false)))
            typed(&state, "ada")
            keys(&state, .enter)
            typed(&state, "nets")
            return state
        }),
    ]

    static var cases: [(String, Int, Int)] {
        screens.flatMap { screen in sizes.map { (screen.name, $0.0, $0.1) } }
    }

    @Test(arguments: cases)
    func theScreen(_ name: String, _ width: Int, _ height: Int) throws {
        let make = try #require(Self.screens.first { $0.name == name }?.make)
        let canvas = ShelfApp.view(make(width, height), ShelfApp.ViewContext(theme: .classic, covers: KnownCovers()))
        #expect(canvas.width == width && canvas.height == height)
        expectGolden(canvas, "\(name)-\(width)x\(height)")
    }

    /// The comparison itself: a screen one cell off fails and says which row.
    @Test func aScreenOneCellOffIsReportedByRow() {
        let differences = Golden.differences(got: ["abc", "def", "ghi"], expected: ["abc", "dEf", "ghi"])
        #expect(differences == ["row  1 got      |def|\n       expected |dEf|"])
        #expect(Golden.differences(got: ["a"], expected: ["a", "b"]).first == "1 rows, expected 2")
        #expect(Golden.differences(got: ["a", "b"], expected: ["a", "b"]).isEmpty)
    }
}
