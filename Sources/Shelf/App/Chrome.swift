import Foundation
import NewsstandKit
import Terminal
import TextLayout

/// What every screen shares: the title bar, the status line, the hint bar, and the
/// placeholder that stands in for a cover still rendering.
enum Chrome {
    static func titleBar(_ text: String, right: String, theme: Theme, into canvas: inout Canvas) {
        let width = canvas.width
        canvas.fill(Rect(x: 0, y: 0, width: width, height: 1), with: Cell(glyph: " ", style: theme.statusLine))
        let room = width - DisplayWidth.of(right) - 3
        canvas.put(" " + DisplayWidth.truncate(text, to: room), x: 0, y: 0, style: theme.statusLine.with(.bold), limit: room + 1)
        canvas.put(right, x: width - DisplayWidth.of(right) - 1, y: 0, style: theme.statusLine)
    }

    static func placeholderCover(title: String, rect: Rect, theme: Theme, into canvas: inout Canvas) {
        let style = Style(foreground: theme.text.foreground, background: .rgb(0x55, 0x4a, 0x40))
        canvas.fill(rect, with: Cell(glyph: " ", style: style))
        let words = Sanitizer.clean(title).split(separator: " ").map(String.init)
        var line = ""
        var y = rect.y + 1
        for word in words {
            if DisplayWidth.of(line + " " + word) > rect.width - 2, !line.isEmpty {
                canvas.put(line, x: rect.x + 1, y: y, style: style, limit: rect.maxX - 1)
                y += 1
                line = word
            } else {
                line = line.isEmpty ? word : line + " " + word
            }
        }
        if y < rect.maxY - 1 {
            canvas.put(line, x: rect.x + 1, y: y, style: style, limit: rect.maxX - 1)
        }
    }

    /// The status line (the app's message, or the reader's and its progress) and the hint bar below it.
    static func statusAndHints(_ state: ShelfApp.State, theme: Theme, into canvas: inout Canvas) {
        let statusY = state.height - 2
        canvas.fill(Rect(x: 0, y: statusY, width: state.width, height: 1), with: Cell(glyph: " ", style: theme.statusLine))
        var status = state.status
        var statusIsError = state.statusIsError
        var right = ""
        if state.screen == .reader, let reader = state.reader {
            // The reader's search prompt or message, and how far through the issue it is.
            let line = reader.statusLine
            if let text = line.text { status = text; statusIsError = line.isError }
            right = line.right
            canvas.put(right, x: max(0, state.width - DisplayWidth.of(right)), y: statusY, style: theme.statusLine)
        }
        if let status {
            var style = theme.statusLine
            if statusIsError { style.foreground = theme.error.foreground; style.attributes.insert(.bold) }
            canvas.put(" " + DisplayWidth.truncate(status, to: max(1, state.width - 3 - DisplayWidth.of(right))), x: 0, y: statusY, style: style)
        }
        let hints = hintText(state)
        canvas.fill(Rect(x: 0, y: state.height - 1, width: state.width, height: 1), with: Cell(glyph: " ", style: theme.hintBar))
        canvas.put(" " + DisplayWidth.truncate(hints, to: state.width - 2), x: 0, y: state.height - 1, style: theme.hintBar, limit: state.width)
    }

    /// The bottom bar: the first key of the commonest actions, as bound.
    static func hintText(_ state: ShelfApp.State) -> String {
        let keys = state.keyBindings
        func hint(_ actions: [Action], _ text: String) -> String? {
            let label = keys.label(actions, all: false)
            return label.isEmpty ? nil : label + " " + text
        }
        let move = [Action.moveLeft, .down, .up, .moveRight]
        let items: [String?]
        switch state.screen {
        case .shelf:
            items = [hint(move, "move"), hint([.tap], "open"), hint([.download], "download"), hint([.filter], "filter"),
                     hint([.nextNew], "next new"), hint([.refresh], "refresh"), hint([.help], "help"), hint([.back], "quit")]
        case .store:
            items = [hint([.up, .down], "move"), hint([.tap], "tap"), hint([.download], "download"), hint([.remove], "remove"), hint([.pin], "pin"),
                     hint([.filter], "filter"), hint([.nextNew], "next new"), hint([.help], "help"), hint([.back], "back")]
        case .reader:
            // Comics, the contents list and the search prompt have the reader's own hints.
            guard let reader = state.reader else { return "" }
            guard let ownHints = reader.ownHints else {
                items = [hint([.up, .down], "scroll"), hint([.pageDown], "page"), hint([.moveLeft, .moveRight], "article"),
                         "t contents", "/ search", "n/N match", "+/- width", hint([.help], "help"), hint([.back], "back")]
                break
            }
            return ownHints
        case .help:
            items = ["any key to close"]
        }
        return items.compactMap { $0 }.joined(separator: "  ")
    }
}
