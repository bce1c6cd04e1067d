import Foundation
import IssueArchive
import NewsstandKit
import Terminal

/// One way through an issue's reading order: reflowed text (`TextPager`) or whole pages
/// (`PagePager`). The reader model holds the one its content calls for and leaves moving,
/// finding and drawing to it; everything that changes a pager happens in its mutating
/// methods, and `render` only reads. A pager reads nothing and draws no picture itself: it
/// asks (`takeRequests`, `wantedPictures`) and is told what came (`receive`, `pictures`).
protocol ReaderPager {
    /// The article or page shown: an index in the reading order.
    var index: Int { get }
    /// Why nothing can be shown (an unreadable article), in a line.
    var loadError: String? { get }
    /// Where the reader is, for the title bar: "article 2 of 4", "page 3 of 9 · zoom 150%".
    var place: String { get }
    /// 0…1 through the whole issue.
    var progress: Double { get }
    /// False when `/` has nothing to search (a comic's pages have no text).
    var canSearch: Bool { get }
    /// Backspace turns a page back instead of leaving the reader.
    var takesBackspace: Bool { get }
    /// The hint bar in reading mode; nil where the app's bound keys are the hints.
    var hints: String? { get }
    /// What the status line says when nothing else is to be said ("Tab chooses a link").
    var idleNote: String? { get }
    /// Matches of a search are marked: Escape clears them before it leaves.
    var showsMatches: Bool { get }
    /// What the last search looked for: `v` carries it to the other view, where `n` goes on.
    var query: String? { get set }
    /// The match `n` last stepped to, by its number in the article or page shown: `v`
    /// carries it to the other view, where `n` goes on from it.
    var matchHere: Int? { get }
    /// The text width chosen with + and -, nil until then.
    var chosenTextWidth: Int? { get }
    /// The pictures as the painter had them prepared after the last frame (the model sets
    /// them when they arrive): `render` draws from these alone.
    var pictures: PreparedPictures { get set }
    /// The pictures `render` draws (waited for), those to prepare ahead, and those to let
    /// go: the runner prepares them after the frame, and their states come back in `pictures`.
    var wantedPictures: PictureWants { get }
    /// The page shown is on its way from the server.
    var waitsForStreamedPage: Bool { get }
    /// The issue's highlights, drawn where their words are (text) or over the page (pages).
    var highlights: [Highlight] { get set }

    /// The window changed size (and once at the start).
    mutating func resize(to frame: ReaderFrame)
    /// A key in reading mode; a note for the status line, if any.
    mutating func handle(_ key: Key) -> ReaderNote?
    /// The mouse wheel.
    mutating func wheel(_ steps: Int) -> ReaderNote?
    /// Opens a table-of-contents entry.
    mutating func open(_ entry: ContentsEntry)
    /// A new search (`/` then Enter).
    mutating func search(for query: String) -> ReaderNote
    /// `n` and `N`: the next or previous match.
    mutating func findNext(forward: Bool) -> ReaderNote
    /// After every message: takes in what arrived (pictures among it) and lays out what
    /// `render` will need, so that drawing changes nothing.
    mutating func settle()

    /// Escape: the search's matches are no longer marked.
    mutating func clearSearch()
    /// `v` brought the search here with match `number` of the page shown chosen: it is
    /// the current one here too, brought into view.
    mutating func goOn(fromMatch number: Int)
    /// What the pager wants read since it was last asked (an article, a search beyond the
    /// page shown…).
    mutating func takeRequests() -> [ReaderLoad]
    /// What was read for it; a note for the status line, if any.
    mutating func receive(_ loaded: ReaderLoaded) -> ReaderNote?

    /// The chosen link when it leads out of the issue to what a browser opens (http,
    /// https, mailto): `o` opens it, `y` copies it.
    var chosenOutsideLink: String? { get }

    /// The place on screen, layout left out.
    func locator(updated: Date) -> Locator
    /// Draws the text or the page between the bars.
    func render(into canvas: inout Canvas)
}

extension ReaderPager {
    /// The chosen link when it leads out of the issue to what a browser opens.
    var chosenOutsideLink: String? { nil }
    var idleNote: String? { nil }
    var chosenTextWidth: Int? { nil }
    var waitsForStreamedPage: Bool { false }
}

extension Locator {
    /// The index in `readingOrder` a locator points at: its resource, else its page.
    func index(in readingOrder: [Resource]) -> Int {
        let found = readingOrder.firstIndex { $0.path == resource } ?? page ?? 0
        return max(0, min(found, readingOrder.count - 1))
    }

    /// Two locators for the same words or page, whenever they were set.
    func isSamePlace(as other: Locator) -> Bool {
        resource == other.resource && page == other.page && text == other.text
    }
}
