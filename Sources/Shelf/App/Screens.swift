import Foundation
import NewsstandKit
import Terminal

extension ShelfApp {
    /// Which screen is which: the app routes keys and messages by it, key bindings and
    /// help's sections are kept by it.
    enum Screen: Hashable { case shelf, store, reader, help, catalog, search, highlights }

    /// A screen open on the stack: the component itself, with its own state. Back (q,
    /// Escape, Backspace) pops the value; the shelf is always at the bottom.
    enum ScreenState {
        case shelf(ShelfScreen)
        case store(StoreScreen)
        /// The open issue (`ReaderAdapter` over `ReaderScreen`).
        case reader(ReaderAdapter)
        case help(HelpScreen)
        case catalog(CatalogScreen)
        /// `S`: a search of every issue (`SearchScreen`).
        case search(SearchScreen)
        /// `H`: every highlight on the shelf (`HighlightsScreen`).
        case highlights(HighlightsScreen)

        var kind: Screen {
            switch self {
            case .shelf: return .shelf
            case .store: return .store
            case .reader: return .reader
            case .help: return .help
            case .catalog: return .catalog
            case .search: return .search
            case .highlights: return .highlights
            }
        }
    }

    /// What every screen may read of the app and never change: the key bindings, the
    /// window's size, the library's publications as last read, the settings screens follow.
    struct Shared {
        let keyBindings: KeyBindings
        let width: Int
        let height: Int
        /// Every publication as last read, before any filter.
        let summaries: [PublicationSummary]
        /// `open_after_download`: Enter on an issue not downloaded opens it once it is here.
        let openAfterDownload: Bool
        /// The publications whose store shows a list rather than tiles (`v`).
        let storesShownAsList: Set<Int64>

        init(keyBindings: KeyBindings, width: Int, height: Int, summaries: [PublicationSummary], openAfterDownload: Bool = true,
             storesShownAsList: Set<Int64> = []) {
            self.keyBindings = keyBindings; self.width = width; self.height = height; self.summaries = summaries
            self.openAfterDownload = openAfterDownload; self.storesShownAsList = storesShownAsList
        }
    }

    /// What a screen's `update` asks for: the effects the app performs, and what only the
    /// app changes (the status line, the stack of screens, quitting), in order.
    enum ScreenEffect {
        case run(Effect)
        /// A new status line (`State.setStatus`).
        case status(String?, error: Bool = false, cause: StatusCause? = nil)
        /// Opens a screen over this one.
        case open(ScreenState)
        /// Opens the catalogs as they were left (`State.catalog`).
        case openCatalogs
        /// Keeps how this publication's store shows its issues (a list, or tiles).
        case keepStoreView(publicationID: Int64, asList: Bool)
        /// Opens the issue in the reader at `place`, finding `word` there (a search's hit).
        case read(Issue, at: Locator, finding: String?)
        /// Opens the issue in the reader at a highlight's words (as the reader's `H` list goes there).
        case readHighlight(Issue, Highlight)
        /// Closes this screen, back to the one under it.
        case close
        case help
        case quit
    }

    /// Does what a screen's update asked for; returns the effects for the app to perform.
    static func perform(_ asked: [ScreenEffect], on state: inout State) -> [Effect] {
        var effects: [Effect] = []
        for effect in asked {
            switch effect {
            case .run(let effect): effects.append(effect)
            case .status(let text, let error, let cause): state.setStatus(text, error: error, cause: cause)
            case .open(let screen): state.push(screen)
            case .openCatalogs: state.push(.catalog(state.catalog))
            case .keepStoreView(let id, let asList):
                if asList { state.storesShownAsList.insert(id) } else { state.storesShownAsList.remove(id) }
                effects.append(.saveStoreView(publicationID: id, asList: asList))
            case .read(let issue, let place, let word):
                state.readerTarget = ReaderTarget(issueID: issue.id, place: place, word: word)
                effects.append(.markOpened(issue))
            case .readHighlight(let issue, let highlight):
                state.readerTarget = ReaderTarget(issueID: issue.id, place: highlight.locator, word: nil, highlight: highlight)
                effects.append(.markOpened(issue))
            case .close: state.pop()
            case .help: showHelp(&state)
            case .quit: state.quit = true
            }
        }
        return effects
    }

    /// `r` and `R` on the shelf and in a store: one publication's feed, or all of them.
    static func refresh(_ targets: [Publication], all: Bool) -> [ScreenEffect] {
        guard !targets.isEmpty else { return [] }
        return [.status(all ? "Refreshing all publications…" : "Refreshing “\(targets[0].title)”…"), .run(.refresh(targets))]
    }

    /// `n`: the selection moves to the next item (round the end) whose flag is set (the
    /// next publication with unread issues, the next NEW issue), or the status says there is none.
    static func selectNextNew(_ flags: [Bool], _ selection: inout Int) -> [ScreenEffect] {
        guard !flags.isEmpty else { return [] }
        for step in 1...flags.count where flags[(selection + step) % flags.count] {
            selection = (selection + step) % flags.count
            return []
        }
        return [.status("Nothing new.")]
    }

    /// How far a list's selection moves for `action` (a line, a page, to the first or the
    /// last); nil for an action that does not move it.
    static func listStep(_ action: Action, page: Int) -> Int? {
        switch action {
        case .up: return -1
        case .down: return 1
        case .pageUp: return -page
        case .pageDown: return page
        case .first: return -Int.max / 2
        case .last: return Int.max / 2
        default: return nil
        }
    }

    static func clamp(_ index: Int, count: Int) -> Int { max(0, min(index, count - 1)) }
}

/// `/` on the shelf and in a store: only titles containing the text show
/// (case-insensitive). Typed as every prompt is (`TextField`): the titles shown follow each
/// key, Enter keeps it, Escape clears it. Each screen has its own.
struct TitleFilter: Equatable {
    private(set) var text = ""
    private(set) var isEditing = false

    /// `/`: typing starts where the filter is.
    mutating func begin() -> ShelfApp.ScreenEffect {
        isEditing = true
        return .status("/" + text)
    }

    /// A key while typing, or Escape to clear a filter kept; nil when nothing changed.
    mutating func edit(_ key: Key) -> ShelfApp.ScreenEffect? {
        var field = TextField(text, limit: 256)
        switch field.update(key) {
        case .submit:
            isEditing = false
        case .cancel:
            isEditing = false
            text = ""
        case .edited:
            text = field.text
        case .unchanged:
            return nil
        }
        return .status(isEditing ? "/" + text : (text.isEmpty ? nil : "Showing titles with “\(text)” (/ then Escape shows all)"))
    }

    func matches(_ title: String) -> Bool {
        title.range(of: text, options: [.caseInsensitive, .diacriticInsensitive]) != nil
    }

    /// What shows of `all`: without a filter the list is shared, not copied (a store may hold 20,000 issues).
    func shown<Item>(_ all: [Item], title: (Item) -> String) -> [Item] {
        text.isEmpty ? all : all.filter { matches(title($0)) }
    }
}
