import Foundation
import NewsstandKit
import Terminal
import TextLayout

/// `S` on the shelf: a search of every issue (the index `newsstand search` reads), typed
/// on the screen's own line with the command's syntax (words, `harbo*`, `"a phrase"`,
/// `-word`, `in:publication`). Enter sends it to the library's reads queue: a key never
/// waits for a query, and a result for a search since replaced is dropped. The results
/// are grouped by issue, each part that matched with a snippet, its matched words marked;
/// Enter opens the reader there and finds the first matched word, `d` downloads an issue
/// that is not here (an evicted one stays findable and says so). A component: its own
/// state, `update` returning what it asks of the app, and a pure `view`.
struct SearchScreen {
    typealias Asked = [ShelfApp.ScreenEffect]

    /// What a search on the reads queue came back with, for the search numbered `serial`.
    struct Found: Sendable {
        var serial: Int
        var outcome: Result<SearchResults, Failure>
        /// Searched again because the library changed: the selection stays where it was.
        var again = false
    }

    /// Why a search failed, in one sentence for the screen.
    struct Failure: Error, Sendable {
        var text: String
    }

    /// The most issues a search shows, and parts of each.
    static let issueLimit = 30
    static let partsPerIssue = 3

    private(set) var field = TextField(limit: 200)
    /// The query line takes the keys (as at the start); otherwise they move over the results.
    private(set) var isEditing = true
    /// The query of the results shown (or on their way), as parsed and as typed.
    private(set) var asked: SearchQuery?
    private var askedText = ""
    /// Which search the results must answer: one typed since makes an earlier one's stale.
    private(set) var serial = 0
    private(set) var isSearching = false
    private(set) var results: SearchResults?
    /// A query that cannot be made, or a search that failed.
    private(set) var problem: String?
    /// The selected part, by its place in `hits`.
    private(set) var selection = 0

    /// Every part shown, in order, by (group, part) index: what the selection moves over.
    var hits: [(group: Int, hit: Int)] {
        (results?.groups ?? []).enumerated().flatMap { group, found in found.hits.indices.map { (group, $0) } }
    }

    var selected: (group: SearchResults.Group, hit: SearchHit)? {
        let all = hits
        guard let results, all.indices.contains(selection) else { return nil }
        let (group, hit) = all[selection]
        return (results.groups[group], results.groups[group].hits[hit])
    }

    // MARK: Update

    mutating func update(_ key: Key, _ shared: ShelfApp.Shared) -> Asked {
        if isEditing { return edit(key) }
        guard let action = shared.keyBindings.action(for: key, on: .search) else { return [] }
        let page = max(1, Self.listRows(height: shared.height) / 2)
        if let step = ShelfApp.listStep(action, page: page) { move(by: step); return [] }
        switch action {
        case .tap: return open()
        case .download:
            guard let issue = selected?.group.issue else { return [] }
            return StoreScreen.tap(issue, allowRead: false)
        case .filter:
            isEditing = true
            return [.status(nil)]
        case .help: return [.help]
        case .quit: return [.quit]
        case .back: return [.close, .status(nil)]
        default: break
        }
        return []
    }

    private mutating func edit(_ key: Key) -> Asked {
        var typed = field
        switch typed.update(key) {
        case .submit:
            return search(typed.text)
        case .cancel:
            // Back to the results, as they were asked; without any, out of the screen.
            guard results != nil || isSearching else { return [.close, .status(nil)] }
            isEditing = false
            field = TextField(askedText, limit: field.limit)
        case .edited:
            field = typed
            problem = nil
        case .unchanged:
            // Down from the query line goes to the results.
            if key == .down, results?.groups.isEmpty == false { isEditing = false }
        }
        return []
    }

    /// Sends `text` to be searched; a query that cannot be made says why at once.
    private mutating func search(_ text: String) -> Asked {
        let query: SearchQuery
        do { query = try SearchQuery(text) } catch {
            problem = "Cannot search: \(error)."
            return []
        }
        serial += 1
        asked = query
        askedText = text
        field = TextField(text, limit: field.limit)
        isSearching = true
        isEditing = false
        problem = nil
        return [.status(nil), .run(.searchLibrary(query, serial: serial))]
    }

    /// The library changed (a download ended, an issue was evicted): the same search
    /// again, so what the results say of each issue stays true.
    mutating func searchAgain() -> [ShelfApp.Effect] {
        guard let asked, !isSearching else { return [] }
        serial += 1
        isSearching = true
        return [.searchLibrary(asked, serial: serial, again: true)]
    }

    /// What the reads queue found; nothing for a search replaced since.
    mutating func found(_ found: Found) -> Asked {
        guard found.serial == serial else { return [] }
        isSearching = false
        switch found.outcome {
        case .success(let results):
            let before = selected.map { ($0.group.issue.id, $0.hit.part) }
            self.results = results
            problem = nil
            if found.again, let before, let index = hits.firstIndex(where: {
                results.groups[$0.group].issue.id == before.0 && results.groups[$0.group].hits[$0.hit].part == before.1
            }) {
                selection = index
            } else if !found.again {
                selection = 0
            }
            move(by: 0)
            guard results.pending > 0 else { return [] }
            // Issues a refresh brought, or installed elsewhere, wait for the agent: it starts
            // unless it runs, and the results follow as it indexes (`searchAgain`).
            return [.status("\(counted(results.pending, "issue")) not indexed yet: the agent is indexing them."), .run(.startAgent)]
        case .failure(let failure):
            problem = failure.text
            if !found.again { results = nil }
            return []
        }
    }

    mutating func move(by delta: Int) {
        let count = hits.count
        guard count > 0 else { selection = 0; return }
        selection = max(0, min(count - 1, selection + max(-count, min(count, delta))))
    }

    /// Enter: the reader at the selected part, finding its first matched word (at a
    /// highlight's words, for a highlight or a note); an issue not here says what `d` does.
    private func open() -> Asked {
        guard let (group, hit) = selected else { return [] }
        let issue = group.issue
        switch issue.status {
        case .available:
            break
        case .downloading:
            return [.status("“\(issue.shownTitle)” is downloading…")]
        case .none:
            let why = group.mustDownloadAgain ? "was removed to save space" : "is not downloaded"
            return [.status("“\(issue.shownTitle)” \(why): d downloads it again.", error: true)]
        }
        if let highlight = hit.part.highlight { return [.status(nil), .readHighlight(issue, highlight)] }
        guard hit.part.kind != .about, let resource = hit.part.resource else {
            return [.run(.markOpened(issue))]
        }
        let place = Locator(resource: resource, progression: 0, totalProgression: 0,
                            page: hit.part.kind == .page ? hit.part.position : nil, updated: issue.date)
        let word = hit.snippet.pieces.first(where: \.matched).map { $0.text.trimmingCharacters(in: .whitespacesAndNewlines) }
        return [.read(issue, at: place, finding: word.flatMap { $0.isEmpty ? nil : $0 })]
    }

    // MARK: View

    /// The results' rows: below the title bar, the query line, the syntax line and a gap;
    /// above the line the "more below" mark takes, the status and the hint bars.
    static let listTop = 5
    static func listRows(height: Int) -> Int { max(1, height - listTop - 3) }

    enum Row: Equatable {
        case issue(Int)
        case hit(group: Int, hit: Int, index: Int)
    }

    var rows: [Row] {
        var rows: [Row] = []
        var index = 0
        for (number, group) in (results?.groups ?? []).enumerated() {
            rows.append(.issue(number))
            for hit in group.hits.indices {
                rows.append(.hit(group: number, hit: hit, index: index))
                index += 1
            }
        }
        return rows
    }

    /// The first row shown: the selected part's issue heading in view, the selection low on the list.
    func firstRow(_ rows: [Row], height: Int) -> Int {
        let room = Self.listRows(height: height)
        guard let at = rows.firstIndex(where: { if case .hit(_, _, let index) = $0 { index == selection } else { false } }) else { return 0 }
        return max(0, min(at - 1, max(0, at - room + 1)))
    }

    static let syntax = "words   harbo*   \"a phrase\"   -word   in:publication"

    func view(_ shared: ShelfApp.Shared, _ context: ShelfApp.ViewContext, into canvas: inout Canvas) {
        let theme = context.theme
        let width = canvas.width
        let right = isSearching ? "searching…" : results.map { counted($0.groups.count, "issue") } ?? ""
        Chrome.titleBar("Search every issue", right: right, theme: theme, into: &canvas)
        let x = canvas.put("  Find: ", x: 0, y: 2, style: theme.title.with(.bold))
        let end = canvas.put(Sanitizer.clean(field.text), x: x, y: 2, style: theme.text, limit: width - 2)
        if isEditing { canvas.put("▏", x: end, y: 2, style: theme.title) }
        canvas.put(Self.syntax, x: x, y: 3, style: theme.dimText, limit: width - 1)
        let top = Self.listTop
        if let problem {
            canvas.put(Sanitizer.clean(problem), x: 2, y: top, style: theme.error, limit: width - 1)
            return
        }
        guard let results else {
            let about = "Every downloaded issue's text, and the titles, authors and summaries of every issue in the library."
            for (offset, line) in LineWrap.wrap(about, width: max(10, width - 4)).enumerated() {
                canvas.put(line, x: 2, y: top + offset, style: theme.dimText)
            }
            return
        }
        guard !results.groups.isEmpty else {
            let query = Sanitizer.clean(field.text)
            canvas.put(isSearching ? "Searching…" : "Nothing found for “\(query)”.", x: 2, y: top, style: theme.dimText, limit: width - 1)
            return
        }
        let rows = rows
        let first = firstRow(rows, height: canvas.height)
        let room = Self.listRows(height: canvas.height)
        for (offset, row) in rows.dropFirst(first).prefix(room).enumerated() {
            let y = top + offset
            switch row {
            case .issue(let number):
                Self.drawHeading(results.groups[number], y: y, theme: theme, into: &canvas)
            case .hit(let group, let hit, let index):
                Self.drawHit(results.groups[group].hits[hit], selected: index == selection, y: y, theme: theme, into: &canvas)
            }
        }
        Chrome.scrollMarks(above: first, below: max(0, rows.count - first - room), belowY: canvas.height - 3, theme: theme, into: &canvas)
    }

    /// An issue's line: its short name, title, publication and date, and whether it is here.
    private static func drawHeading(_ group: SearchResults.Group, y: Int, theme: Theme, into canvas: inout Canvas) {
        let width = canvas.width
        let issue = group.issue
        var note = ""
        switch issue.status {
        case .available: break
        case .downloading: note = "downloading…"
        case .none: note = group.mustDownloadAgain ? "removed to save space: d downloads it again" : "not downloaded: d downloads it"
        }
        let noteWidth = note.isEmpty ? 0 : DisplayWidth.of(note) + 2
        var x = canvas.put(Sanitizer.clean(group.shortName ?? issue.name), x: 2, y: y, style: theme.title.with(.bold), limit: width - 1 - noteWidth)
        var details = "  " + Sanitizer.clean(issue.shownTitle)
        if let publication = group.publication { details += " · " + Sanitizer.clean(publication) }
        details += " · " + SearchReport.day(issue.date)
        x = canvas.put(DisplayWidth.truncate(details, to: max(1, width - 1 - noteWidth - x)), x: x, y: y, style: theme.text)
        if !note.isEmpty { canvas.put("  " + note, x: x, y: y, style: theme.sash, limit: width - 1) }
    }

    /// A part's line: where it is in the issue, then its snippet, the matched words in the
    /// theme's match style; the selected one marked.
    private static func drawHit(_ hit: SearchHit, selected: Bool, y: Int, theme: Theme, into canvas: inout Canvas) {
        let width = canvas.width
        if selected { canvas.put("▶", x: 2, y: y, style: theme.title) }
        let place = DisplayWidth.truncate(SearchReport.place(of: hit.part), to: max(8, width / 3))
        var x = canvas.put(place, x: 4, y: y, style: selected ? theme.selection : theme.dimText, limit: width - 1)
        x = canvas.put("  ", x: x, y: y, style: theme.text, limit: width - 1)
        for piece in shownPieces(of: hit.snippet, room: width - 1 - x) where x < width - 1 {
            x = canvas.put(piece.text, x: x, y: y, style: piece.matched ? theme.readerMatch : theme.text, limit: width - 1)
        }
    }

    /// The snippet's pieces, cleaned, the text before the first match cut (from its start,
    /// "…" in its place) when the match would not fit in `room` columns otherwise.
    static func shownPieces(of snippet: SearchSnippet, room: Int) -> [SearchSnippet.Piece] {
        var pieces = snippet.pieces.map { SearchSnippet.Piece(text: Sanitizer.clean($0.text), matched: $0.matched) }
        guard let first = pieces.firstIndex(where: \.matched) else { return pieces }
        let before = pieces[..<first].map(\.text).joined()
        let match = DisplayWidth.of(pieces[first].text)
        guard DisplayWidth.of(before) + match > room else { return pieces }
        // The match a third of the way in, or as far left as it must be to fit.
        var kept = ""
        for character in before.reversed() {
            guard DisplayWidth.of(String(character) + kept) <= max(0, min(room / 3, room - match - 1)) else { break }
            kept = String(character) + kept
        }
        pieces.replaceSubrange(..<first, with: [SearchSnippet.Piece(text: "…" + kept, matched: false)])
        return pieces
    }

    /// The hint bar's words while the query is typed.
    static let editingHints = "type words, harbo*, \"a phrase\", -word, in:publication  Enter search  Esc back"
}
