import Foundation
import NewsstandKit
import TextLayout
import Terminal

/// The reader as the app sees it: the app's keys and bindings turned into the reader's
/// messages, and what the reader asks for turned into outcomes the app's update maps to
/// effects. The reader itself (`Reader/ReaderScreen.swift`) never touches the library.
struct ReaderAdapter {
    /// What the reader asks of the app.
    enum Outcome: Equatable {
        case save(Locator)
        /// The user chose another text width: a preference kept in the library.
        case keepTextWidth(Int)
        /// A PDF issue's view changed: kept in the library for the issue.
        case keepView(ReaderView)
        case leave
        case quit
        case help
    }

    let screen: ReaderScreen
    var issue: Issue { screen.issue }

    /// Reads the issue's content and opens it where the reader last was.
    static func open(_ issue: Issue, directory: URL, painter: CoverPainter, theme: Theme, preferences: ReaderPreferences,
                     size: (width: Int, height: Int), clock: @escaping () -> Date, view: ReaderView? = nil,
                     texts: DocumentTexts = .shared) throws -> ReaderAdapter {
        ReaderAdapter(screen: try ReaderScreen(issue: issue, root: directory, painter: painter, theme: theme,
                                               preferences: preferences, size: size, clock: clock, view: view, texts: texts))
    }

    /// A comic read from its server page by page, at the page after the one last read there.
    static func streaming(_ comic: StreamedComic, painter: CoverPainter, theme: Theme, preferences: ReaderPreferences,
                          size: (width: Int, height: Int), clock: @escaping () -> Date) -> ReaderAdapter {
        ReaderAdapter(screen: ReaderScreen(streaming: comic, painter: painter, theme: theme, preferences: preferences, size: size,
                                           clock: clock))
    }

    /// The shared moving and paging actions as the keys the reader knows them by.
    private static let readerKeys: [Action: Key] = [.moveLeft: .left, .moveRight: .right, .up: .up, .down: .down,
                                                    .pageUp: .pageUp, .pageDown: .pageDown, .first: .home, .last: .end]

    /// The reader gets the shared moving and paging actions as its own keys, and every key
    /// no action claims (t, /, n, N, +, -, z…); a default key the user rebound away does
    /// nothing. Its contents list and search prompt take keys as typed.
    func update(_ key: Key, bindings: KeyBindings) -> [Outcome] {
        // Backspace turns a comic's page back rather than leaving it.
        if screen.mode != .reading || (screen.takesBackspace && key == .backspace) { return send(.key(key)) }
        guard let action = bindings.action(for: key, on: .reader) else {
            return KeyBindings.defaults.action(for: key, on: .reader) == nil ? send(.key(key)) : []
        }
        switch action {
        case .back: return leave()
        case .quit: return [.quit]
        case .help: return [.help]
        default: return Self.readerKeys[action].map { send(.key($0)) } ?? []
        }
    }

    /// The mouse wheel: lines, never pages.
    func scroll(by lines: Int) -> [Outcome] { send(.scroll(lines)) }
    func resize(width: Int, height: Int) -> [Outcome] { send(.resize(width: width, height: height)) }
    /// A picture finished rendering, or the whole of a long article was read.
    func backgroundReady() -> [Outcome] { send(.backgroundReady) }
    /// Leaving the reader or quitting: the place is kept once more.
    func leave() -> [Outcome] { send(.leave) }

    private func send(_ message: ReaderMessage) -> [Outcome] {
        var outcomes: [Outcome] = screen.update(message).map {
            switch $0 {
            case .save(let locator): return .save(locator)
            case .keepView(let view): return .keepView(view)
            case .leave: return .leave
            }
        }
        let preferences = screen.preferences
        if let width = preferences.textWidth, width != preferences.savedTextWidth {
            preferences.savedTextWidth = width
            outcomes.append(.keepTextWidth(width))
        }
        return outcomes
    }

    func view(into canvas: inout Canvas) { screen.view(into: &canvas) }

    var statusLine: (text: String?, isError: Bool, right: String) { screen.statusLine }

    /// The hint bar's text when the reader has its own (comics, contents, search); nil
    /// while reading text, whose hints follow the user's key bindings.
    var ownHints: String? { screen.ownHints }

    static var helpLines: [(String, String)] { ReaderScreen.helpLines }
}

extension ShelfApp {
    /// The open reader (tests look inside it).
    var reader: ReaderScreen? { state.reader?.screen }
}
