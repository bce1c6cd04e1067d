import Feeds
import Foundation
import NewsstandKit
import Pictures
import Terminal
import TextLayout

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

/// The catalog screen: the kept catalogs, or a page of one and the pages walked to reach
/// it, and the prompts it shows (a URL to add, words to search, a server's sign-in). A
/// component: its own state, `update` returning what it asks of the app, and a pure
/// `view`; fetching pages and covers, subscribing and taking books are effects
/// (`EffectRunner+Catalogs`).
struct CatalogScreen {
    typealias Asked = [ShelfApp.ScreenEffect]

    /// The kept catalogs, as last read.
    var catalogs: [Catalog] = []
    var listSelection = 0
    /// The pages walked, the one shown last; empty: the list of catalogs.
    var stack: [CatalogStop] = []
    /// What is being fetched, for the title bar; nil when nothing is.
    var loading: URL?
    var prompt: CatalogPrompt?
    /// A server asked for a user name and password.
    var signIn: CatalogSignIn?
    /// The user name last sent to each host: a refused password asks again with it kept.
    private(set) var usersSent: [String: String] = [:]

    var page: CatalogStop? { stack.last }

    // MARK: Keys

    mutating func update(_ key: Key, _ shared: ShelfApp.Shared) -> Asked {
        if signIn != nil { return editSignIn(key) }
        if prompt != nil { return editPrompt(key) }
        guard let action = shared.keyBindings.action(for: key, on: .catalog) else { return [] }
        switch action {
        case .up: move(by: -1, shared)
        case .down: move(by: 1, shared)
        case .pageUp: move(by: -Self.pageRows(height: shared.height), shared)
        case .pageDown: move(by: Self.pageRows(height: shared.height), shared)
        case .first: move(by: -Int.max / 2, shared)
        case .last: move(by: Int.max / 2, shared)
        case .tap: return tap(download: false)
        case .download: return tap(download: true)
        case .nextPage, .previousPage:
            guard let stop = page else { return [] }
            let target = action == .nextPage ? stop.page.pages.next : stop.page.pages.previous
            guard let target else { return [.status(action == .nextPage ? "This is the last page." : "This is the first page.")] }
            return load(target, replacing: true)
        case .filter:
            guard let stop = page else { return [.status("Open a catalog to search it.")] }
            guard stop.page.search != nil else { return [.status("“\(stop.page.title)” offers no search.", error: true)] }
            prompt = .search("")
        case .subscribe:
            guard let stop = page, stop.page.isAcquisitionFeed else {
                return [.status("Only a page that lists books can be subscribed to.", error: true)]
            }
            return [.status("Subscribing to “\(stop.page.title)”…"), .run(.subscribeCatalogFeed(stop.page.url, title: stop.page.title))]
        case .addCatalog:
            prompt = .addURL("")
        case .readOnline:
            return readOnline()
        case .remove:
            guard stack.isEmpty, catalogs.indices.contains(listSelection) else { return [] }
            return [.run(.removeCatalog(catalogs[listSelection]))]
        case .back:
            // One level: a page goes back to the one before it, the first to the list of
            // catalogs, the list to the shelf.
            if stack.isEmpty {
                loading = nil
                return [.close, .status(nil)]
            }
            stack.removeLast()
            loading = nil
            return [.status(nil)] + (page.map(Self.covers) ?? [])
        case .help:
            return [.help]
        case .quit:
            return [.quit]
        default:
            break
        }
        return []
    }

    mutating func move(by delta: Int, _ shared: ShelfApp.Shared) {
        if stack.isEmpty {
            guard !catalogs.isEmpty else { return }
            listSelection = max(0, min(catalogs.count - 1, listSelection + Self.clampStep(delta)))
            return
        }
        guard var stop = stack.popLast() else { return }
        defer { stack.append(stop) }
        let selectable = stop.rows.indices.filter { stop.rows[$0].isSelectable }
        guard let position = selectable.firstIndex(of: stop.selection) ?? selectable.first.map({ _ in 0 }) else { return }
        let target = max(0, min(selectable.count - 1, position + Self.clampStep(delta)))
        stop.selection = selectable[target]
        stop.followSelection(visible: Self.visibleRows(height: shared.height))
    }

    /// Rows of a page on screen: below the title bar and a blank row, above the pages line,
    /// the status and the hints.
    static func visibleRows(height: Int) -> Int { max(1, height - 5) }

    /// A click selects the catalog or row under it; a click on the selected one opens it (as Enter).
    mutating func click(x: Int, y: Int, _ shared: ShelfApp.Shared) -> Asked {
        guard prompt == nil, signIn == nil else { return [] }
        guard var stop = page else {
            let index = y - 2
            guard catalogs.indices.contains(index), 2 + index < shared.height - 3 else { return [] }
            if index == listSelection { return tap(download: false) }
            listSelection = index
            return []
        }
        let visible = Self.visibleRows(height: shared.height)
        let listWidth = shared.width - Self.detailsWidth(width: shared.width) - 1
        stop.followSelection(visible: visible)   // the rows as drawn
        let index = stop.scroll + y - 2
        guard x < listWidth, y >= 2, y - 2 < visible, stop.rows.indices.contains(index),
              stop.rows[index].isSelectable else { return [] }
        if index == stop.selection { return tap(download: false) }
        stop.selection = index
        stack[stack.count - 1] = stop
        return []
    }

    private static func clampStep(_ delta: Int) -> Int { max(-1_000_000, min(1_000_000, delta)) }

    static func pageRows(height: Int) -> Int { max(1, height - 6) }

    /// Enter: open a catalog or a link; on a book, take it (and download it).
    private mutating func tap(download: Bool) -> Asked {
        guard let stop = page else {
            guard catalogs.indices.contains(listSelection), let url = URL(string: catalogs[listSelection].url) else {
                if catalogs.isEmpty { prompt = .addURL("") }
                return []
            }
            return load(url, replacing: false)
        }
        switch stop.selectedRow {
        case .link(let link)?:
            return load(link.url, replacing: false)
        case .book(let book)?:
            guard book.issueEntry(fallbackDate: .distantPast) != nil else {
                let formats = book.formats.isEmpty ? "no format" : book.formats.joined(separator: ", ")
                return [.status("“\(book.title)” comes as \(formats); only EPUB, CBZ, PDF and zip are read here.", error: true)]
            }
            return [.status("Taking “\(book.title)” into From catalogs…"), .run(.takeBook(book))]
        default:
            return []
        }
    }

    /// `r` on a book the server streams page by page (OPDS-PSE): read it in the reader,
    /// nothing taken onto the shelf.
    private func readOnline() -> Asked {
        guard case .book(let book)? = page?.selectedRow else { return [.status("Choose a book to read it online.")] }
        guard let stream = book.stream, stream.count > 0 else {
            return [.status("“\(book.title)” cannot be read page by page from this server; Enter takes it.", error: true)]
        }
        return [.status(nil), .run(.readStreamed(book))]
    }

    private mutating func load(_ url: URL, replacing: Bool) -> Asked {
        loading = url
        return [.status("Loading…"), .run(.loadCatalogPage(url, replacing: replacing))]
    }

    /// Typing a URL or search words (`TextField`): Enter goes, Escape cancels.
    private mutating func editPrompt(_ key: Key) -> Asked {
        guard let prompt else { return [] }
        var field: TextField
        switch prompt { case .addURL(let text), .search(let text): field = TextField(text, limit: 2048) }
        switch field.update(key) {
        case .cancel:
            self.prompt = nil
            return []
        case .edited, .unchanged:
            break
        case .submit:
            self.prompt = nil
            let trimmed = field.text.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { return [] }
            switch prompt {
            case .addURL:
                guard let url = Self.catalogURL(trimmed) else {
                    return [.status("“\(trimmed)” is not an http, https or file URL.", error: true)]
                }
                return [.status("Adding the catalog…"), .run(.addCatalog(url))]
            case .search:
                guard let stop = page else { return [] }
                loading = stop.page.url
                return [.status("Searching “\(stop.page.title)” for “\(trimmed)”…"), .run(.searchCatalog(stop.page, terms: trimmed))]
            }
        }
        switch prompt {
        case .addURL: self.prompt = .addURL(field.text)
        case .search: self.prompt = .search(field.text)
        }
        return []
    }

    /// The sign-in prompt's keys (`CatalogSignIn`): Escape gives up, Enter goes on to the
    /// password, then does again what the server refused, signed in.
    private mutating func editSignIn(_ key: Key) -> Asked {
        guard var asking = signIn else { return [] }
        switch asking.update(key) {
        case .stay:
            signIn = asking
            return []
        case .cancel:
            signIn = nil
            loading = nil
            return [.status("Not signed in to \(asking.server).")]
        case .signIn(let effect):
            signIn = nil
            usersSent[asking.host] = asking.user
            return [.status("Signing in to \(asking.server)…"), .run(effect)]
        }
    }

    static func catalogURL(_ text: String) -> URL? {
        if text.hasPrefix("/") { return URL(fileURLWithPath: text) }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https", "file"].contains(scheme) else { return nil }
        return url
    }

    // MARK: Results of effects

    /// A page arrived (in place of the one shown when `replacing`).
    mutating func pageLoaded(_ page: CatalogPage, replacing: Bool) -> Asked {
        loading = nil
        var page = page
        // A page without a search of its own searches the catalog it was reached from.
        if page.search == nil { page.search = self.page?.page.search }
        let stop = CatalogStop(page)
        if replacing, !stack.isEmpty { stack.removeLast() }
        stack.append(stop)
        return [.status(page.rows.isEmpty ? "“\(page.title)” is empty." : nil)] + Self.covers(for: stop)
    }

    /// The covers of the books on a page, fetched after the page is shown.
    static func covers(for stop: CatalogStop) -> Asked {
        var urls: [URL] = []
        for row in stop.rows {
            if case .book(let book) = row, let url = book.thumbnailURL ?? book.coverURL, !urls.contains(url) { urls.append(url) }
        }
        return urls.isEmpty ? [] : [.run(.fetchCatalogCovers(urls))]
    }

    // MARK: View

    /// The app's view of the catalogs: the component's, with what it shares.
    static func view(_ state: ShelfApp.State, _ context: ShelfApp.ViewContext, into canvas: inout Canvas) {
        state.catalog.view(state.shared, context, into: &canvas)
    }

    /// Draws into the canvas, whose size is the window's.
    func view(_ shared: ShelfApp.Shared, _ context: ShelfApp.ViewContext, into canvas: inout Canvas) {
        let theme = context.theme
        let loading = loading != nil ? "loading…" : nil
        guard var stop = page else {
            Chrome.titleBar("CATALOGS", right: loading ?? counted(catalogs.count, "catalog"), theme: theme, into: &canvas)
            if catalogs.isEmpty {
                let message = "No catalogs yet: a to add one by its URL"
                canvas.put(message, x: max(0, (shared.width - DisplayWidth.of(message)) / 2), y: shared.height / 2, style: theme.dimText)
            }
            for (index, catalog) in catalogs.enumerated() where 2 + index < shared.height - 3 {
                let selected = index == listSelection
                canvas.put(selected ? "▶" : " ", x: 1, y: 2 + index, style: theme.title)
                canvas.put(Sanitizer.clean(catalog.title), x: 3, y: 2 + index, style: selected ? theme.selection : theme.title,
                           limit: shared.width / 2)
                canvas.put(Sanitizer.clean(catalog.url), x: shared.width / 2 + 2, y: 2 + index, style: theme.dimText, limit: shared.width - 1)
            }
            return
        }
        let page = stop.page
        let books = page.allBooks.count
        Chrome.titleBar(Sanitizer.clean(page.title), right: loading ?? (books > 0 ? counted(books, "book") : counted(stop.rows.count, "item")),
                        theme: theme, into: &canvas)
        let detailsWidth = Self.detailsWidth(width: shared.width)
        let listWidth = shared.width - detailsWidth - 1
        let top = 2
        let visible = Self.visibleRows(height: shared.height)
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
                    + (book.stream.map { "  " + Self.streamNote($0) } ?? "")
                let room = max(1, listWidth - 3 - DisplayWidth.of(formats))
                let line = DisplayWidth.truncate(Sanitizer.clean(book.title + authors), to: room)
                canvas.put(line, x: 3, y: y, style: selected ? theme.selection : theme.title, limit: listWidth)
                canvas.put(formats, x: 3 + DisplayWidth.of(line), y: y, style: theme.dimText, limit: listWidth)
            }
        }
        let pages = [page.pages.previous.map { _ in "[ previous page" }, page.pages.next.map { _ in "] next page" }].compactMap { $0 }
        if !pages.isEmpty { canvas.put(pages.joined(separator: "   "), x: 3, y: shared.height - 3, style: theme.dimText, limit: listWidth) }
        if detailsWidth > 0, case .book(let book)? = stop.selectedRow {
            Self.details(book, x: listWidth + 1, width: detailsWidth, height: shared.height, context: context, into: &canvas)
        }
    }

    /// Columns for the selected book's details, right of the list (none below 80 columns).
    static func detailsWidth(width: Int) -> Int { width >= 80 ? width * 2 / 5 : 0 }

    /// The selected book: its cover (once fetched; in pixels where the terminal draws them),
    /// title, authors, formats, summary.
    private static func details(_ book: CatalogBook, x: Int, width: Int, height: Int, context: ShelfApp.ViewContext,
                                into canvas: inout Canvas) {
        let theme = context.theme
        var y = 2
        let coverColumns = min(width - 2, 20)
        let coverRows = coverColumns * 3 / 4
        if coverRows >= 4, y + coverRows < height - 8 {
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
            for line in LineWrap.wrap(Sanitizer.clean(text), width: width - 2).prefix(count) where y < height - 3 {
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
            lines(summary, style: theme.text, max: max(0, height - 3 - y))
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
