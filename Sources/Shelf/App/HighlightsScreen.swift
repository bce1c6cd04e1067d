import Foundation
import NewsstandKit
import Terminal
import TextLayout

/// `H` on the shelf: every highlight on the shelf, newest first (the reader's `H` lists
/// one issue's). `/` filters as elsewhere, by words of the quote, note or chapter and by
/// `in:publication`; each change is read again on the library's reads queue (a key never
/// waits, and the list of a filter since replaced is dropped). Enter opens the reader at
/// the highlight's words, `x` deletes it (a tombstone, kept for sync). A component: its
/// own state, `update` returning what it asks of the app, and a pure `view`.
struct HighlightsScreen {
    typealias Asked = [ShelfApp.ScreenEffect]

    /// What a listing on the reads queue came back with, for the listing numbered `serial`.
    struct Listed: Sendable {
        var serial: Int
        var outcome: Result<Found, SearchScreen.Failure>

        struct Found: Sendable {
            /// Each with the issue it is in: Enter opens one.
            var highlights: [ListedHighlight]
        }
    }

    private(set) var filter = TitleFilter()
    private(set) var serial = 0
    private(set) var found: Listed.Found?
    private(set) var problem: String?
    private(set) var selection = 0

    var highlights: [ListedHighlight] { found?.highlights ?? [] }
    var selected: ListedHighlight? { highlights.indices.contains(selection) ? highlights[selection] : nil }

    /// The screen opened, its list asked for.
    static func open() -> Asked {
        var screen = HighlightsScreen()
        let asked = screen.listAgain()
        return [.status(nil), .open(.highlights(screen))] + asked.map(ShelfApp.ScreenEffect.run)
    }

    /// The filter as the library takes it: `in:NAME` the publication, the other words the text.
    static func query(_ text: String) -> (publication: String?, text: String?) {
        var publication: String?
        var words: [Substring] = []
        for word in text.split(separator: " ") {
            if word.lowercased().hasPrefix("in:"), word.count > 3 { publication = String(word.dropFirst(3)) } else { words.append(word) }
        }
        return (publication, words.isEmpty ? nil : words.joined(separator: " "))
    }

    /// Lists again with the filter shown (opened, the filter changed, the library changed).
    mutating func listAgain() -> [ShelfApp.Effect] {
        serial += 1
        let query = Self.query(filter.text)
        return [.listHighlights(publication: query.publication, containing: query.text, serial: serial)]
    }

    // MARK: Update

    mutating func update(_ key: Key, _ shared: ShelfApp.Shared) -> Asked {
        if filter.isEditing { return editFilter(key) }
        guard let action = shared.keyBindings.action(for: key, on: .highlights) else { return [] }
        let page = max(1, Self.shownItems(height: shared.height))
        if let step = ShelfApp.listStep(action, page: page) { move(by: step); return [] }
        switch action {
        case .tap: return open()
        case .remove: return delete()
        case .filter: return [filter.begin()]
        case .help: return [.help]
        case .quit: return [.quit]
        case .back: return [.close, .status(nil)]
        default: break
        }
        return []
    }

    private mutating func editFilter(_ key: Key) -> Asked {
        let before = filter.text
        guard filter.edit(key) != nil else { return [] }
        let text = Sanitizer.clean(filter.text)
        let status: String? = filter.isEditing ? "/" + text
            : (text.isEmpty ? nil : "Showing highlights with “\(text)” (/ then Escape shows all)")
        guard filter.text != before else { return [.status(status)] }
        selection = 0
        return [.status(status)] + listAgain().map(ShelfApp.ScreenEffect.run)
    }

    /// What the reads queue listed; nothing for a listing replaced since.
    mutating func listed(_ listed: Listed) {
        guard listed.serial == serial else { return }
        switch listed.outcome {
        case .success(let found):
            let before = selected?.highlight.id
            self.found = found
            problem = nil
            selection = before.flatMap { id in found.highlights.firstIndex { $0.highlight.id == id } } ?? selection
            move(by: 0)
        case .failure(let failure):
            problem = failure.text
            found = nil
        }
    }

    mutating func move(by delta: Int) {
        let count = highlights.count
        guard count > 0 else { selection = 0; return }
        selection = max(0, min(count - 1, selection + max(-count, min(count, delta))))
    }

    /// Enter: the reader at the highlight's words (as the reader's own `H` list goes there).
    private func open() -> Asked {
        guard let listed = selected else { return [] }
        let issue = listed.issue
        guard issue.status == .available else {
            let why = issue.status == .downloading ? "is downloading…" : "is not downloaded: open its store to download it."
            return [.status("“\(issue.shownTitle)” \(why)", error: issue.status != .downloading)]
        }
        return [.status(nil), .readHighlight(issue, listed.highlight)]
    }

    /// `x`: the highlight goes from the list at once; the library keeps its tombstone.
    private mutating func delete() -> Asked {
        guard let listed = selected else { return [] }
        found?.highlights.remove(at: selection)
        move(by: 0)
        return [.status("Highlight deleted."), .run(.deleteHighlight(id: listed.highlight.id))]
    }

    // MARK: View

    /// The list's top row, under the title bar and a gap; each highlight takes three rows
    /// (its quote; its day, issue, publication and chapter; its note, or a gap), above the
    /// "more below" mark, the status and the hint bars.
    static let listTop = 2
    static let itemRows = 3
    static func shownItems(height: Int) -> Int { max(1, (height - listTop - 3 + 1) / itemRows) }

    func view(_ shared: ShelfApp.Shared, _ context: ShelfApp.ViewContext, into canvas: inout Canvas) {
        let theme = context.theme
        let width = canvas.width
        let right = found.map { counted($0.highlights.count, "highlight") } ?? (problem == nil ? "reading…" : "")
        Chrome.titleBar("Every highlight", right: right, theme: theme, into: &canvas)
        let top = Self.listTop
        if let problem {
            canvas.put(Sanitizer.clean(problem), x: 2, y: top, style: theme.error, limit: width - 1)
            return
        }
        guard let found else { return }
        guard !found.highlights.isEmpty else {
            let empty = filter.text.isEmpty ? "No highlights yet: in the reader, s chooses words and Enter highlights them."
                : "No highlight with “\(Sanitizer.clean(filter.text))”."
            for (offset, line) in LineWrap.wrap(empty, width: max(10, width - 4)).enumerated() {
                canvas.put(line, x: 2, y: top + offset, style: theme.dimText)
            }
            return
        }
        let room = Self.shownItems(height: canvas.height)
        let first = max(0, selection - room + 1)
        for (offset, listed) in found.highlights.dropFirst(first).prefix(room).enumerated() {
            Self.draw(listed, selected: first + offset == selection, y: top + offset * Self.itemRows, theme: theme, into: &canvas)
        }
        let below = max(0, found.highlights.count - first - room)
        Chrome.scrollMarks(above: first, below: below, belowY: canvas.height - 3, theme: theme, into: &canvas)
    }

    /// A highlight's rows: its quote in its colour; where it is; its note.
    private static func draw(_ listed: ListedHighlight, selected: Bool, y: Int, theme: Theme, into canvas: inout Canvas) {
        let width = canvas.width
        let highlight = listed.highlight
        if selected { canvas.put("▶", x: 2, y: y, style: theme.title) }
        let quote = "“" + oneLine(highlight.quote.exact) + "”"
        canvas.put(DisplayWidth.truncate(quote, to: max(1, width - 5)), x: 4, y: y, style: highlight.color.style(over: theme.text))
        // The day first: the list is in its order, and a long title is cut, never the day.
        var place = SearchReport.day(highlight.created) + " · " + Sanitizer.clean(listed.issueTitle)
        if let publication = listed.publicationTitle { place += " · " + Sanitizer.clean(publication) }
        if let chapter = highlight.chapter, !chapter.isEmpty { place += " · " + oneLine(chapter) }
        canvas.put(DisplayWidth.truncate(place, to: max(1, width - 5)), x: 4, y: y + 1, style: selected ? theme.selection : theme.dimText)
        if let note = highlight.note {
            let x = canvas.put("✎ ", x: 4, y: y + 2, style: theme.dimText)
            canvas.put(DisplayWidth.truncate(oneLine(note), to: max(1, width - 1 - x)), x: x, y: y + 2, style: theme.text)
        }
    }

    private static func oneLine(_ text: String) -> String {
        Sanitizer.clean(text.replacingOccurrences(of: "\n", with: " ⏎ "))
    }

    /// The hint bar's words while the filter is typed.
    static let filterHints = "type words of a quote or note, in:publication  Enter keep  Esc clear"
}
