import Foundation
import NewsstandKit
import TextLayout
import Terminal

/// The reader as the app sees it: the app's keys and bindings turned into the reader's
/// messages, and what the reader asks for turned into outcomes the app's update maps to
/// effects. The reader itself (`Reader/ReaderScreen.swift`) is a value that never touches
/// the library, a file or a worker.
struct ReaderAdapter {
    /// What the reader asks of the app.
    enum Outcome: Equatable {
        case save(Locator)
        /// The user chose another text width: a preference kept in the library.
        case keepTextWidth(Int)
        /// A PDF issue's view changed: kept in the library for the issue.
        case keepView(ReaderView)
        /// Pages fitted to the width or not: kept in the library for the issue.
        case keepFitWidth(Bool)
        /// Something to read for the reader on the reader I/O queue (`ReaderEffects`).
        case load(ReaderRequest)
        case leave
        case quit
        case help
        /// A link out of the issue, for the browser.
        case openLink(String)
        /// A link for the terminal's clipboard.
        case copyLink(String)
        /// A highlight to make or change in the library, for this reader's issue.
        case highlight(HighlightEdit)
        /// A word to look up in the dictionary.
        case define(String)
        /// A highlight's note to edit in `$EDITOR`.
        case editNote(Highlight)
        /// The issue's place to sync with the servers (`leaving`: only sent).
        case syncPlace(leaving: Bool)
        /// The place another reader offered, taken or declined in the library.
        case answerOffer(take: Bool)
    }

    var screen: ReaderScreen
    /// Which opening of a reader this is: results for another are not this one's.
    let session: Int
    var issue: Issue { screen.issue }

    init(screen: ReaderScreen, session: Int = 0) {
        self.screen = screen
        self.session = session
    }

    /// The shared moving and paging actions as the keys the reader knows them by.
    private static let readerKeys: [Action: Key] = [.moveLeft: .left, .moveRight: .right, .up: .up, .down: .down,
                                                    .pageUp: .pageUp, .pageDown: .pageDown, .first: .home, .last: .end]

    /// The reader gets the shared moving and paging actions as its own keys, and every key
    /// no action claims (t, /, n, N, +, -, z…); a default key the user rebound away does
    /// nothing. Its contents list and search prompt take keys as typed, and Escape clears a
    /// search's marked matches before it leaves.
    mutating func update(_ key: Key, bindings: KeyBindings) -> [Outcome] {
        // Backspace turns a comic's page back rather than leaving it.
        if screen.mode != .reading || (screen.takesBackspace && key == .backspace) || (key == .escape && screen.takesEscape)
            || (key == .enter && screen.answersOffer) {
            return send(.key(key))
        }
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

    /// A search started as if typed after `/`: a search's hit opened finds its word.
    mutating func find(_ word: String) -> [Outcome] {
        ([Key.character("/")] + word.map { Key.character($0) } + [.enter]).flatMap { send(.key($0)) }
    }

    /// The reader at a highlight's words, as its own `H` list goes there.
    mutating func show(_ highlight: Highlight) -> [Outcome] { send(.showHighlight(highlight)) }

    /// The first frame's layout, and what the reader asks to have read first.
    mutating func start() -> [Outcome] { outcomes(screen.start()) }
    /// The mouse wheel: lines, never pages.
    mutating func scroll(by lines: Int) -> [Outcome] { send(.scroll(lines)) }
    /// A left click: a word for the selection, in a text view.
    mutating func click(x: Int, y: Int) -> [Outcome] { send(.click(x: x, y: y)) }
    mutating func drag(x: Int, y: Int) -> [Outcome] { send(.drag(x: x, y: y)) }
    mutating func resize(width: Int, height: Int) -> [Outcome] { send(.resize(width: width, height: height)) }
    /// A picture finished rendering (the reader's own come back as `loaded`, after the frame).
    mutating func backgroundReady() -> [Outcome] { send(.backgroundReady) }
    /// Leaving the reader or quitting: the place is kept once more.
    mutating func leave() -> [Outcome] { send(.leave) }
    /// What the reader I/O queue read for this reader; nothing for another's.
    mutating func loaded(_ result: ReaderResult) -> [Outcome] {
        result.session == session ? send(.loaded(result.loaded)) : []
    }

    private mutating func send(_ message: ReaderMessage) -> [Outcome] { outcomes(screen.update(message)) }

    private func outcomes(_ effects: [ReaderEffect]) -> [Outcome] {
        effects.map {
            switch $0 {
            case .save(let locator): return .save(locator)
            case .keepView(let view): return .keepView(view)
            case .keepFitWidth(let fits): return .keepFitWidth(fits)
            case .keepTextWidth(let width): return .keepTextWidth(width)
            case .load(let load): return .load(ReaderRequest(session: session, load: load))
            case .leave: return .leave
            case .openLink(let link): return .openLink(link)
            case .copyLink(let link): return .copyLink(link)
            case .highlight(let edit): return .highlight(edit)
            case .define(let word): return .define(word)
            case .editNote(let highlight): return .editNote(highlight)
            case .syncPlace(let leaving): return .syncPlace(leaving: leaving)
            case .answerOffer(let take): return .answerOffer(take: take)
            }
        }
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
    /// The reader's preferences as the app keeps them.
    var readerPreferences: ReaderPreferences { state.readerPreferences }

    /// Changes the open reader through `change` and maps what it asked for to the app's
    /// effects (the reader is a value in the state: changed in place, then put back).
    static func updateReader(_ state: inout State, _ change: (inout ReaderAdapter) -> [ReaderAdapter.Outcome]) -> [Effect] {
        guard var reader = state.reader else { return [] }
        let outcomes = change(&reader)
        state.reader = reader
        return apply(outcomes, from: reader, to: &state)
    }
}
