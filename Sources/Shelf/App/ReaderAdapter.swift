import Foundation
import NewsstandKit
import Terminal

/// The reader as the app sees it: every call the app makes to `ReaderScreen` is here, so
/// the new reader (update returning effects, a view that does not change it) replaces
/// this file alone. Until then the reader is a class that changes itself as keys arrive
/// and saves its own place as it goes.
struct ReaderAdapter {
    /// What a key in the reader asks of the app.
    enum Outcome: Equatable {
        case save(Locator)
        case leave
        case quit
        case help
    }

    let screen: ReaderScreen
    var issue: Issue { screen.issue }

    /// Reads the issue's content and opens it where the reader last was.
    static func open(_ issue: Issue, library: Library, painter: CoverPainter, theme: Theme,
                     preferences: ReaderPreferences) throws -> ReaderAdapter {
        ReaderAdapter(screen: try ReaderScreen(issue: issue, library: library, painter: painter, theme: theme, preferences: preferences))
    }

    /// The shared moving and paging actions as the keys the reader knows them by.
    private static let readerKeys: [Action: Key] = [.moveLeft: .left, .moveRight: .right, .up: .up, .down: .down,
                                                    .pageUp: .pageUp, .pageDown: .pageDown, .first: .home, .last: .end]

    /// The reader gets the shared moving and paging actions as its own keys, and every key
    /// no action claims (t, /, n, N, +, -, z…); a default key the user rebound away does
    /// nothing. Its contents list and search prompt take keys as typed.
    func update(_ key: Key, bindings: KeyBindings, width: Int, height: Int) -> [Outcome] {
        // Backspace turns a comic's page back rather than leaving it.
        if screen.mode != .reading || (screen.isComic && key == .backspace) {
            _ = screen.handle(key, width: width, height: height)
            return []
        }
        guard let action = bindings.action(for: key, on: .reader) else {
            if KeyBindings.defaults.action(for: key, on: .reader) == nil { _ = screen.handle(key, width: width, height: height) }
            return []
        }
        switch action {
        case .back:
            close()
            return [.leave]
        case .quit: return [.quit]
        case .help: return [.help]
        default:
            if let readerKey = Self.readerKeys[action] { _ = screen.handle(readerKey, width: width, height: height) }
            return []
        }
    }

    /// The mouse wheel: lines, never pages.
    func scroll(by lines: Int, height: Int) { screen.scroll(by: lines, height: height) }

    func view(into canvas: inout Canvas, theme: Theme) { screen.draw(into: &canvas, theme: theme) }

    /// Keeps the place (leaving the reader, quitting).
    func close() { screen.savePosition(library: screen.library) }

    var statusLine: (text: String?, isError: Bool, right: String) { screen.statusLine }

    /// The hint bar's text when the reader has its own (comics, contents, search); nil
    /// while reading text, whose hints follow the user's key bindings.
    var ownHints: String? { screen.mode == .reading && !screen.isComic ? nil : screen.hints }

    static var helpLines: [(String, String)] { ReaderScreen.helpLines }
}

extension ShelfApp {
    /// The open reader (tests look inside it).
    var reader: ReaderScreen? { state.reader?.screen }
}
