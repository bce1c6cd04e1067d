import Feeds
import Foundation
import NewsstandKit
import Pictures
import Terminal
import TextLayout

/// What the catalog screen shows: the kept catalogs, or a page of one and the pages walked
/// to reach it, and a prompt (a URL to add, words to search) while one is open.
struct CatalogBrowsing {
    var catalogs: [Catalog] = []
    var listSelection = 0
    /// The pages walked, the one shown last; empty: the list of catalogs.
    var stack: [CatalogStop] = []
    /// What is being fetched, for the title bar; nil when nothing is.
    var loading: URL?
    var prompt: CatalogPrompt?
    /// A server asked for a user name and password.
    var signIn: CatalogSignIn?

    var page: CatalogStop? { stack.last }
}

enum CatalogPrompt: Equatable {
    case addURL(String)
    case search(String)

    var line: String {
        switch self {
        case .addURL(let text): return "Catalog URL: " + text
        case .search(let text): return "Search: " + text
        }
    }
}

/// One page as shown: its rows and where the selection is.
struct CatalogStop {
    var page: CatalogPage
    var rows: [CatalogRow]
    var selection: Int
    var scroll = 0

    init(_ page: CatalogPage) {
        self.page = page
        rows = CatalogRow.rows(of: page)
        selection = rows.firstIndex { $0.isSelectable } ?? 0
    }

    var selectedRow: CatalogRow? { rows.indices.contains(selection) ? rows[selection] : nil }

    /// Keeps the selection on screen, the page moving only as far as it must (so a row
    /// clicked stays under the pointer for the click that opens it).
    mutating func followSelection(visible: Int) {
        if selection < scroll { scroll = selection }
        if selection >= scroll + visible { scroll = selection - visible + 1 }
        scroll = max(0, min(scroll, rows.count - visible))
    }
}

/// A line of a page: a heading (a group's title), a link to another page, or a book.
enum CatalogRow: Equatable {
    case heading(String)
    case link(CatalogLink)
    case book(CatalogBook)

    var isSelectable: Bool { if case .heading = self { return false } else { return true } }

    /// Navigation first, then each group (its links, books and "more"), then the facets
    /// not shown now, then the page's books.
    static func rows(of page: CatalogPage) -> [CatalogRow] {
        var rows = page.navigation.map(CatalogRow.link)
        for group in page.groups {
            rows.append(.heading(group.title))
            rows += group.navigation.map(CatalogRow.link) + group.books.map(CatalogRow.book)
            if let more = group.url { rows.append(.link(CatalogLink(title: "More of \(group.title)…", url: more))) }
        }
        if !page.books.isEmpty {
            if !rows.isEmpty { rows.append(.heading("Books")) }
            rows += page.books.map(CatalogRow.book)
        }
        let facets = page.facets.filter { !$0.active }
        if !facets.isEmpty {
            rows.append(.heading("Other views"))
            rows += facets.map { facet in
                var shown = facet
                shown.title = (facet.facetGroup.map { "\($0): " } ?? "") + facet.title
                return .link(shown)
            }
        }
        return rows
    }
}

/// The catalog screen: decides what a key does; fetching pages and covers, subscribing and
/// taking books are effects (`EffectRunner+Catalogs`).
enum CatalogScreen {
    typealias State = ShelfApp.State
    typealias Effect = ShelfApp.Effect

    // MARK: Keys

    static func key(_ state: inout State, _ key: Key) -> [Effect] {
        if state.catalog.signIn != nil { return CatalogSignIn.key(&state, key) }
        if state.catalog.prompt != nil { return editPrompt(&state, key) }
        guard let action = state.keyBindings.action(for: key, on: .catalog) else { return [] }
        switch action {
        case .up: move(&state, by: -1)
        case .down: move(&state, by: 1)
        case .pageUp: move(&state, by: -pageRows(state))
        case .pageDown: move(&state, by: pageRows(state))
        case .first: move(&state, by: -Int.max / 2)
        case .last: move(&state, by: Int.max / 2)
        case .tap: return tap(&state, download: false)
        case .download: return tap(&state, download: true)
        case .nextPage, .previousPage:
            guard let stop = state.catalog.page else { return [] }
            let target = action == .nextPage ? stop.page.pages.next : stop.page.pages.previous
            guard let target else {
                state.setStatus(action == .nextPage ? "This is the last page." : "This is the first page.")
                return []
            }
            return load(&state, target, replacing: true)
        case .filter:
            guard let stop = state.catalog.page else {
                state.setStatus("Open a catalog to search it.")
                return []
            }
            guard stop.page.search != nil else {
                state.setStatus("“\(stop.page.title)” offers no search.", error: true)
                return []
            }
            state.catalog.prompt = .search("")
            return []
        case .subscribe:
            guard let stop = state.catalog.page, stop.page.isAcquisitionFeed else {
                state.setStatus("Only a page that lists books can be subscribed to.", error: true)
                return []
            }
            state.setStatus("Subscribing to “\(stop.page.title)”…")
            return [.subscribeCatalogFeed(stop.page.url, title: stop.page.title)]
        case .addCatalog:
            state.catalog.prompt = .addURL("")
            return []
        case .readOnline:
            return readOnline(&state)
        case .remove:
            guard state.catalog.stack.isEmpty, state.catalog.catalogs.indices.contains(state.catalog.listSelection) else { return [] }
            let catalog = state.catalog.catalogs[state.catalog.listSelection]
            return [.removeCatalog(catalog)]
        case .back:
            // One level: a page goes back to the one before it, the first to the list of
            // catalogs, the list to the shelf.
            if state.catalog.stack.isEmpty {
                leave(&state)
            } else {
                state.catalog.stack.removeLast()
                state.catalog.loading = nil
                state.setStatus(nil)
                if let stop = state.catalog.page { return covers(for: stop) }
            }
        case .help:
            ShelfApp.showHelp(&state)
        case .quit:
            state.quit = true
        default:
            break
        }
        return []
    }

    static func leave(_ state: inout State) {
        state.pop()
        state.catalog.stack = []
        state.catalog.loading = nil
        state.setStatus(nil)
    }

    static func move(_ state: inout State, by delta: Int) {
        if state.catalog.stack.isEmpty {
            let count = state.catalog.catalogs.count
            guard count > 0 else { return }
            state.catalog.listSelection = max(0, min(count - 1, state.catalog.listSelection + clampStep(delta)))
            return
        }
        guard var stop = state.catalog.stack.popLast() else { return }
        defer { state.catalog.stack.append(stop) }
        let selectable = stop.rows.indices.filter { stop.rows[$0].isSelectable }
        guard let position = selectable.firstIndex(of: stop.selection) ?? selectable.first.map({ _ in 0 }) else { return }
        let target = max(0, min(selectable.count - 1, position + clampStep(delta)))
        stop.selection = selectable[target]
        stop.followSelection(visible: visibleRows(state))
    }

    /// Rows of a page on screen: below the title bar and a blank row, above the pages line,
    /// the status and the hints.
    static func visibleRows(_ state: State) -> Int { max(1, state.height - 5) }

    /// A click selects the catalog or row under it; a click on the selected one opens it (as Enter).
    static func click(_ state: inout State, x: Int, y: Int) -> [Effect] {
        guard state.catalog.prompt == nil, state.catalog.signIn == nil else { return [] }
        guard var stop = state.catalog.page else {
            let index = y - 2
            guard state.catalog.catalogs.indices.contains(index), 2 + index < state.height - 3 else { return [] }
            if index == state.catalog.listSelection { return tap(&state, download: false) }
            state.catalog.listSelection = index
            return []
        }
        let listWidth = state.width - detailsWidth(state) - 1
        stop.followSelection(visible: visibleRows(state))   // the rows as drawn
        let index = stop.scroll + y - 2
        guard x < listWidth, y >= 2, y - 2 < visibleRows(state), stop.rows.indices.contains(index),
              stop.rows[index].isSelectable else { return [] }
        if index == stop.selection { return tap(&state, download: false) }
        stop.selection = index
        state.catalog.stack[state.catalog.stack.count - 1] = stop
        return []
    }

    private static func clampStep(_ delta: Int) -> Int { max(-1_000_000, min(1_000_000, delta)) }

    static func pageRows(_ state: State) -> Int { max(1, state.height - 6) }

    /// Enter: open a catalog or a link; on a book, take it (and download it).
    private static func tap(_ state: inout State, download: Bool) -> [Effect] {
        guard let stop = state.catalog.page else {
            guard state.catalog.catalogs.indices.contains(state.catalog.listSelection),
                  let url = URL(string: state.catalog.catalogs[state.catalog.listSelection].url) else {
                if state.catalog.catalogs.isEmpty { state.catalog.prompt = .addURL("") }
                return []
            }
            return load(&state, url, replacing: false)
        }
        switch stop.selectedRow {
        case .link(let link)?:
            return load(&state, link.url, replacing: false)
        case .book(let book)?:
            guard book.issueEntry(fallbackDate: .distantPast) != nil else {
                let formats = book.formats.isEmpty ? "no format" : book.formats.joined(separator: ", ")
                state.setStatus("“\(book.title)” comes as \(formats); only EPUB, CBZ, PDF and zip are read here.", error: true)
                return []
            }
            state.setStatus("Taking “\(book.title)” into From catalogs…")
            return [.takeBook(book)]
        default:
            return []
        }
    }

    /// `r` on a book the server streams page by page (OPDS-PSE): read it in the reader,
    /// nothing taken onto the shelf.
    private static func readOnline(_ state: inout State) -> [Effect] {
        guard case .book(let book)? = state.catalog.page?.selectedRow else {
            state.setStatus("Choose a book to read it online.")
            return []
        }
        guard let stream = book.stream, stream.count > 0 else {
            state.setStatus("“\(book.title)” cannot be read page by page from this server; Enter takes it.", error: true)
            return []
        }
        state.setStatus(nil)
        return [.readStreamed(book)]
    }

    private static func load(_ state: inout State, _ url: URL, replacing: Bool) -> [Effect] {
        state.catalog.loading = url
        state.setStatus("Loading…")
        return [.loadCatalogPage(url, replacing: replacing)]
    }

    /// Typing a URL or search words (`TextField`): Enter goes, Escape cancels.
    private static func editPrompt(_ state: inout State, _ key: Key) -> [Effect] {
        guard let prompt = state.catalog.prompt else { return [] }
        var field: TextField
        switch prompt { case .addURL(let text), .search(let text): field = TextField(text, limit: 2048) }
        switch field.update(key) {
        case .cancel:
            state.catalog.prompt = nil
            return []
        case .edited, .unchanged:
            break
        case .submit:
            state.catalog.prompt = nil
            let trimmed = field.text.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { return [] }
            switch prompt {
            case .addURL:
                guard let url = catalogURL(trimmed) else {
                    state.setStatus("“\(trimmed)” is not an http, https or file URL.", error: true)
                    return []
                }
                state.setStatus("Adding the catalog…")
                return [.addCatalog(url)]
            case .search:
                guard let stop = state.catalog.page else { return [] }
                state.catalog.loading = stop.page.url
                state.setStatus("Searching “\(stop.page.title)” for “\(trimmed)”…")
                return [.searchCatalog(stop.page, terms: trimmed)]
            }
        }
        switch prompt {
        case .addURL: state.catalog.prompt = .addURL(field.text)
        case .search: state.catalog.prompt = .search(field.text)
        }
        return []
    }

    static func catalogURL(_ text: String) -> URL? {
        if text.hasPrefix("/") { return URL(fileURLWithPath: text) }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https", "file"].contains(scheme) else { return nil }
        return url
    }

    // MARK: Results of effects

    static func pageLoaded(_ state: inout State, _ page: CatalogPage, replacing: Bool) -> [Effect] {
        state.catalog.loading = nil
        guard state.screens.contains(.catalog) else { return [] }
        var page = page
        // A page without a search of its own searches the catalog it was reached from.
        if page.search == nil { page.search = state.catalog.page?.page.search }
        let stop = CatalogStop(page)
        if replacing, !state.catalog.stack.isEmpty { state.catalog.stack.removeLast() }
        state.catalog.stack.append(stop)
        state.setStatus(page.rows.isEmpty ? "“\(page.title)” is empty." : nil)
        return covers(for: stop)
    }

    /// The covers of the books on a page, fetched after the page is shown.
    static func covers(for stop: CatalogStop) -> [Effect] {
        var urls: [URL] = []
        for row in stop.rows {
            if case .book(let book) = row, let url = book.thumbnailURL ?? book.coverURL, !urls.contains(url) { urls.append(url) }
        }
        return urls.isEmpty ? [] : [.fetchCatalogCovers(urls)]
    }

    static func failed(_ state: inout State, _ message: String) {
        state.catalog.loading = nil
        state.setStatus(message, error: true)
    }

    // MARK: View

    static func view(_ state: State, _ context: ShelfApp.ViewContext, into canvas: inout Canvas) {
        let theme = context.theme
        let browsing = state.catalog
        let loading = browsing.loading != nil ? "loading…" : nil
        guard var stop = browsing.page else {
            Chrome.titleBar("CATALOGS", right: loading ?? counted(browsing.catalogs.count, "catalog"), theme: theme, into: &canvas)
            if browsing.catalogs.isEmpty {
                let message = "No catalogs yet: a to add one by its URL"
                canvas.put(message, x: max(0, (state.width - DisplayWidth.of(message)) / 2), y: state.height / 2, style: theme.dimText)
            }
            for (index, catalog) in browsing.catalogs.enumerated() where 2 + index < state.height - 3 {
                let selected = index == browsing.listSelection
                canvas.put(selected ? "▶" : " ", x: 1, y: 2 + index, style: theme.title)
                canvas.put(Sanitizer.clean(catalog.title), x: 3, y: 2 + index, style: selected ? theme.selection : theme.title,
                           limit: state.width / 2)
                canvas.put(Sanitizer.clean(catalog.url), x: state.width / 2 + 2, y: 2 + index, style: theme.dimText, limit: state.width - 1)
            }
            return
        }
        let page = stop.page
        let books = page.allBooks.count
        Chrome.titleBar(Sanitizer.clean(page.title), right: loading ?? (books > 0 ? counted(books, "book") : counted(stop.rows.count, "item")),
                        theme: theme, into: &canvas)
        let detailsWidth = Self.detailsWidth(state)
        let listWidth = state.width - detailsWidth - 1
        let top = 2
        let visible = visibleRows(state)
        stop.followSelection(visible: visible)   // the window may have shrunk since
        let scroll = stop.scroll
        for (offset, row) in stop.rows.dropFirst(scroll).prefix(visible).enumerated() {
            let y = top + offset
            let index = scroll + offset
            let selected = index == stop.selection
            switch row {
            case .heading(let title):
                canvas.put(Sanitizer.clean(title), x: 1, y: y, style: theme.title.with(.bold), limit: listWidth)
            case .link(let link):
                if selected { canvas.put("▶", x: 1, y: y, style: theme.title) }
                let count = link.count.map { " (\($0))" } ?? ""
                canvas.put("▸ " + Sanitizer.clean(link.title) + count, x: 3, y: y, style: selected ? theme.selection : theme.text, limit: listWidth)
            case .book(let book):
                if selected { canvas.put("▶", x: 1, y: y, style: theme.title) }
                let authors = book.authors.isEmpty ? "" : " — " + book.authors.joined(separator: ", ")
                let formats = (book.formats.isEmpty ? "" : "  [" + book.formats.joined(separator: " ") + "]")
                    + (book.stream.map { "  " + streamNote($0) } ?? "")
                let room = max(1, listWidth - 3 - DisplayWidth.of(formats))
                let line = DisplayWidth.truncate(Sanitizer.clean(book.title + authors), to: room)
                canvas.put(line, x: 3, y: y, style: selected ? theme.selection : theme.title, limit: listWidth)
                canvas.put(formats, x: 3 + DisplayWidth.of(line), y: y, style: theme.dimText, limit: listWidth)
            }
        }
        let pages = [page.pages.previous.map { _ in "[ previous page" }, page.pages.next.map { _ in "] next page" }].compactMap { $0 }
        if !pages.isEmpty { canvas.put(pages.joined(separator: "   "), x: 3, y: state.height - 3, style: theme.dimText, limit: listWidth) }
        if detailsWidth > 0, case .book(let book)? = stop.selectedRow {
            details(book, x: listWidth + 1, width: detailsWidth, state: state, context: context, into: &canvas)
        }
    }

    /// Columns for the selected book's details, right of the list (none below 80 columns).
    static func detailsWidth(_ state: State) -> Int { state.width >= 80 ? state.width * 2 / 5 : 0 }

    /// The selected book: its cover (half-blocks, once fetched), title, authors, formats, summary.
    private static func details(_ book: CatalogBook, x: Int, width: Int, state: State, context: ShelfApp.ViewContext,
                                into canvas: inout Canvas) {
        let theme = context.theme
        var y = 2
        let coverColumns = min(width - 2, 20)
        let coverRows = coverColumns * 3 / 4
        if coverRows >= 4, y + coverRows < state.height - 8 {
            let rect = Rect(x: x + 1, y: y, width: coverColumns, height: coverRows)
            if let url = book.thumbnailURL ?? book.coverURL,
               let picture = context.catalogArt(url, columns: coverColumns, rows: coverRows) {
                picture.draw(&canvas, x + 1 + (coverColumns - picture.columns) / 2, y, theme.wall)
            } else {
                Chrome.placeholderCover(title: book.title, rect: rect, theme: theme, into: &canvas)
            }
            y += coverRows + 1
        }
        func lines(_ text: String, style: Style, max count: Int) {
            for line in LineWrap.wrap(Sanitizer.clean(text), width: width - 2).prefix(count) where y < state.height - 3 {
                canvas.put(line, x: x + 1, y: y, style: style, limit: x + width)
                y += 1
            }
        }
        lines(book.title, style: theme.title.with(.bold), max: 2)
        if !book.authors.isEmpty { lines(book.authors.joined(separator: ", "), style: theme.text, max: 2) }
        if !book.formats.isEmpty { lines(book.formats.joined(separator: ", "), style: theme.dimText, max: 1) }
        if let stream = book.stream {
            lines("\(stream.count) pages, streamed: r reads online", style: theme.dimText, max: 1)
        }
        if let summary = book.summary {
            y += 1
            lines(summary, style: theme.text, max: max(0, state.height - 3 - y))
        }
    }
}

extension CatalogScreen {
    /// A streamed book on its line: where reading goes on ("continue at page 11 of 35",
    /// from the server's `pse:lastRead`), or its length.
    static func streamNote(_ stream: PageStream) -> String {
        guard let last = stream.lastRead, last > 0, stream.count > 0 else { return "r: \(stream.count) pages online" }
        return "r: continue at page \(min(last, stream.count)) of \(stream.count)"
    }
}

extension CatalogPage {
    fileprivate var rows: [CatalogRow] { CatalogRow.rows(of: self) }
}

/// Words wrapped to a width in display cells (a long word is cut).
enum LineWrap {
    static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ").map(String.init) {
            let candidate = line.isEmpty ? word : line + " " + word
            if DisplayWidth.of(candidate) <= width {
                line = candidate
            } else {
                if !line.isEmpty { lines.append(line) }
                line = DisplayWidth.of(word) > width ? DisplayWidth.truncate(word, to: width) : word
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
