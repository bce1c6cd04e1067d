import Foundation
import Terminal
import TextLayout

/// `?`: every key of every screen, as bound, the section of the screen it was opened from
/// first. A screen of its own that scrolls (it is longer than 80×24): the moving keys
/// scroll it, back and `?` close it, any other key does nothing.
enum HelpScreen {
    /// One line of help: the keys, and what they do (a section's title has no text).
    struct Line: Equatable {
        var keys: String
        var text: String
        var isHeading: Bool { text.isEmpty && !keys.isEmpty }
    }

    static func update(_ state: inout ShelfApp.State, _ key: Key) -> [ShelfApp.Effect] {
        guard let action = state.keyBindings.action(for: key, on: .help) else { return [] }
        let page = max(1, rows(state) - 1)
        switch action {
        case .up: scroll(&state, by: -1)
        case .down: scroll(&state, by: 1)
        case .pageUp: scroll(&state, by: -page)
        case .pageDown: scroll(&state, by: page)
        case .first: scroll(&state, by: -Int.max / 2)
        case .last: scroll(&state, by: Int.max / 2)
        case .back, .help: state.pop()
        case .quit: state.quit = true
        default: break
        }
        return []
    }

    static func scroll(_ state: inout ShelfApp.State, by delta: Int) {
        let last = max(0, lines(state).count - rows(state))
        state.helpScroll = max(0, min(last, state.helpScroll + max(-1_000_000, min(1_000_000, delta))))
    }

    /// Rows for help's lines: below the title bar and a blank row, above the status and hint bars.
    static func rows(_ state: ShelfApp.State) -> Int { max(1, state.height - 4) }

    /// The screen help was opened over.
    static func opener(_ state: ShelfApp.State) -> ShelfApp.Screen {
        state.screens.dropLast().last ?? .shelf
    }

    /// Every section, the opener's first.
    static func lines(_ state: ShelfApp.State) -> [Line] {
        let keys = state.keyBindings
        func rows(_ rows: [(actions: [Action], text: String)]) -> [Line] {
            rows.map { Line(keys: keys.label($0.actions), text: $0.text) }
        }
        let everywhere = [Line(keys: "Everywhere", text: "")] + rows(KeyBindings.helpEverywhere) + [
            Line(keys: "Ctrl-C", text: "quit"),
            Line(keys: "Ctrl-Z", text: "suspend to the shell (fg comes back)"),
            Line(keys: "click", text: "select; click the selected one again to open it"),
            Line(keys: "wheel", text: "move, scroll"),
        ]
        let shelf = [Line(keys: "Shelf and store", text: "")] + rows(KeyBindings.helpShelfAndStore)
        let catalogs = [Line(keys: "Catalogs", text: "")] + rows(KeyBindings.helpCatalogs)
        let reader = [Line(keys: "Reader", text: "")] + ReaderAdapter.helpLines.map { line in
            // The reader's sub-headings ("Comics:") have no text: keep them as headings.
            Line(keys: line.0, text: line.1)
        }
        let contents = [Line(keys: "Contents (t in the reader)", text: ""),
                        Line(keys: "↑↓ jk PgUp/PgDn gG", text: "choose an entry"),
                        Line(keys: "Enter →", text: "open it"),
                        Line(keys: "q Esc t ←", text: "back to the page")]
        let prompts = [Line(keys: "Prompts (filter, search, password, sign-in, catalog URL)", text: ""),
                       Line(keys: "type", text: "the text (a password shows as dots)"),
                       Line(keys: "Backspace", text: "remove the last character"),
                       Line(keys: "Enter", text: "go (sign-in: the user name, then the password)"),
                       Line(keys: "Esc", text: "cancel; a filter kept with Enter: Esc clears it")]
        var sections = [everywhere, shelf, catalogs, reader, contents, prompts]
        let first: Int
        switch opener(state) {
        case .shelf, .store, .help: first = 1
        case .catalog: first = 2
        case .reader: first = 3
        }
        sections.insert(sections.remove(at: first), at: 0)
        var all: [Line] = []
        let room = max(10, state.width - 1 - keyColumn(sections.flatMap { $0 }, width: state.width))
        for section in sections {
            if !all.isEmpty { all.append(Line(keys: "", text: "")) }
            for line in section {
                // A text too long for the window goes on below its keys.
                let wrapped = line.isHeading ? [] : LineWrap.wrap(line.text, width: room)
                guard wrapped.count > 1 else { all.append(line); continue }
                all.append(Line(keys: line.keys, text: wrapped[0]))
                all += wrapped.dropFirst().map { Line(keys: "", text: $0) }
            }
        }
        return all
    }

    /// Where the texts start: after the widest keys, at most half the window.
    static func keyColumn(_ lines: [Line], width: Int) -> Int {
        let widest = lines.filter { !$0.isHeading }.map { DisplayWidth.of($0.keys) }.max() ?? 0
        return min(width / 2, 4 + widest + 2)
    }

    static func view(_ state: ShelfApp.State, _ context: ShelfApp.ViewContext, into canvas: inout Canvas) {
        let theme = context.theme
        let lines = lines(state)
        let rows = rows(state)
        let scroll = max(0, min(state.helpScroll, lines.count - rows))
        let shown = lines.count <= rows ? counted(lines.count, "line")
            : "\(scroll + 1)–\(min(lines.count, scroll + rows)) of \(lines.count)"
        Chrome.titleBar("Keys", right: shown, theme: theme, into: &canvas)
        let keyColumn = Self.keyColumn(lines, width: state.width)
        for (offset, line) in lines.dropFirst(scroll).prefix(rows).enumerated() {
            let y = 2 + offset
            if line.isHeading {
                canvas.put(line.keys, x: 2, y: y, style: theme.title.with(.bold), limit: state.width - 1)
                continue
            }
            canvas.put(line.keys, x: 4, y: y, style: theme.title, limit: keyColumn - 1)
            canvas.put(line.text, x: keyColumn, y: y, style: theme.text, limit: state.width - 1)
        }
    }
}
