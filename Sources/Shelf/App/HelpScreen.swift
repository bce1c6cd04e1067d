import Foundation
import Terminal
import TextLayout

/// `?`: the keys as bound, the reader's first when it was opened from the reader. Any key closes it.
enum HelpScreen {
    /// Any key goes back to the screen help was opened from.
    static func update(_ state: inout ShelfApp.State, _ key: Key) -> [ShelfApp.Effect] {
        state.screen = state.previousScreen
        return []
    }

    static func view(_ state: ShelfApp.State, _ context: ShelfApp.ViewContext, into canvas: inout Canvas) {
        let theme = context.theme
        Chrome.titleBar("Keys", right: "any key to close", theme: theme, into: &canvas)
        let keys = state.keyBindings
        let general = KeyBindings.helpRows.map { (keys.label($0.actions), $0.text) }
        let reading = [("Reader", "")] + ReaderAdapter.helpLines
        let lines = state.previousScreen == .reader ? reading + [("", "")] + general : general + [("", "")] + reading
        let keyColumn = min(state.width / 2, 4 + (lines.map { DisplayWidth.of($0.0) }.max() ?? 0) + 2)
        for (i, line) in lines.enumerated() where 2 + i < state.height - 2 {
            canvas.put(line.0, x: 4, y: 2 + i, style: theme.title, limit: keyColumn - 1)
            canvas.put(line.1, x: keyColumn, y: 2 + i, style: theme.text, limit: state.width - 1)
        }
    }
}
