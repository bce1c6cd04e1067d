import Foundation
import Terminal
import TextLayout

/// `?`: every key of every screen, as bound, the section of the screen it was opened from
/// first. A screen of its own that scrolls (it is longer than 80×24): the moving keys
/// scroll it, back and `?` close it, any other key does nothing. A component: its own
/// state (what it was opened over, how far it is scrolled), `update` and a pure `view`;
/// what it shares with the app (the key bindings, the window's size) is passed in.
struct HelpScreen: Equatable {
    /// The screen help was opened over: its keys come first.
    let opener: ShelfApp.Screen
    /// The first line shown.
    private(set) var scroll = 0

    init(opener: ShelfApp.Screen) { self.opener = opener }

    /// One line of help: the keys, and what they do (a section's title has no text).
    struct Line: Equatable {
        var keys: String
        var text: String
        var isHeading: Bool { text.isEmpty && !keys.isEmpty }
    }

    enum Outcome: Equatable { case stay, close, quit }

    /// A key: the moving ones scroll, back and help close, quit quits, others do nothing.
    mutating func update(_ key: Key, keys: KeyBindings, width: Int, height: Int) -> Outcome {
        guard let action = keys.action(for: key, on: .help) else { return .stay }
        let page = max(1, Self.rows(height: height) - 1)
        switch action {
        case .up: scroll(by: -1, keys: keys, width: width, height: height)
        case .down: scroll(by: 1, keys: keys, width: width, height: height)
        case .pageUp: scroll(by: -page, keys: keys, width: width, height: height)
        case .pageDown: scroll(by: page, keys: keys, width: width, height: height)
        case .first: scroll(by: -Int.max / 2, keys: keys, width: width, height: height)
        case .last: scroll(by: Int.max / 2, keys: keys, width: width, height: height)
        case .back, .help: return .close
        case .quit: return .quit
        default: break
        }
        return .stay
    }

    /// Scrolls by lines (the wheel too), never past the first or the last line.
    mutating func scroll(by delta: Int, keys: KeyBindings, width: Int, height: Int) {
        let last = max(0, lines(keys: keys, width: width).count - Self.rows(height: height))
        scroll = max(0, min(last, scroll + max(-1_000_000, min(1_000_000, delta))))
    }

    /// Rows for help's lines: below the title bar and a blank row, above the status and hint bars.
    static func rows(height: Int) -> Int { max(1, height - 4) }

    /// Every section, the opener's first, the texts wrapped to `width`.
    func lines(keys: KeyBindings, width: Int) -> [Line] {
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
        switch opener {
        case .shelf, .store, .help, .search, .highlights: first = 1
        case .catalog: first = 2
        case .reader: first = 3
        }
        sections.insert(sections.remove(at: first), at: 0)
        var all: [Line] = []
        let room = max(10, width - 1 - Self.keyColumn(sections.flatMap { $0 }, width: width))
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

    /// The app's view of help: the component's, with what it shares.
    static func view(_ state: ShelfApp.State, _ context: ShelfApp.ViewContext, into canvas: inout Canvas) {
        state.help?.view(keys: state.keyBindings, theme: context.theme, into: &canvas)
    }

    /// Draws into the canvas, whose size is the window's.
    func view(keys: KeyBindings, theme: Theme, into canvas: inout Canvas) {
        let width = canvas.width
        let lines = lines(keys: keys, width: width)
        let rows = Self.rows(height: canvas.height)
        let scroll = max(0, min(scroll, lines.count - rows))
        let shown = lines.count <= rows ? counted(lines.count, "line")
            : "\(scroll + 1)–\(min(lines.count, scroll + rows)) of \(lines.count)"
        Chrome.titleBar("Keys", right: shown, theme: theme, into: &canvas)
        let keyColumn = Self.keyColumn(lines, width: width)
        for (offset, line) in lines.dropFirst(scroll).prefix(rows).enumerated() {
            let y = 2 + offset
            if line.isHeading {
                canvas.put(line.keys, x: 2, y: y, style: theme.title.with(.bold), limit: width - 1)
                continue
            }
            canvas.put(line.keys, x: 4, y: y, style: theme.title, limit: keyColumn - 1)
            canvas.put(line.text, x: keyColumn, y: y, style: theme.text, limit: width - 1)
        }
    }
}
