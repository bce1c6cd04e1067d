import Foundation
import TextLayout
import NewsstandKit
import Terminal

extension ShelfApp {
    /// What the app keeps: what every screen shares (the key bindings, the window's size,
    /// the library as last read, the status line) and the stack of screens, each a
    /// component with its own state (`ScreenState`). `update` changes it, `view` draws it.
    struct State {
        var keyBindings: KeyBindings = .defaults
        /// The screens open, the shelf at the bottom and the one shown on top: back (q,
        /// Escape, Backspace) closes the top one and shows the one under it.
        private(set) var stack: [ScreenState] = [.shelf(ShelfScreen())]
        var width = 80
        var height = 24

        /// The library's publications as last read, before any filter.
        var allSummaries: [PublicationSummary] = []

        var status: String?
        var statusIsError = false
        /// The status is shown whole, wrapped over up to three lines (the picture advice);
        /// others are one line, cut.
        var statusWraps = false
        /// What the status line is about while it lasts: it clears when that ends.
        var statusCause: StatusCause?
        var quit = false

        /// Issues with a download queued or running when the library was last read.
        var watchedDownloads: Set<Int64> = []
        /// Each publication's last feed error as last read (nil inside: none), so only a new one is reported.
        var feedErrors: [Int64: String?] = [:]

        /// The catalog screen as it was last closed: it opens again as it was left (its
        /// catalogs as read, the one selected).
        private var closedCatalogs = CatalogScreen()
        /// A key set a fetch going whose result the screen waits for (a catalog page).
        var isFetching: Bool { catalog.loading != nil }

        /// The reader's text width and the like, kept from one issue to the next.
        var readerPreferences = ReaderPreferences()
        /// The reader was opened by `newsstand read`: leaving it leaves the program.
        var readerIsWholeProgram = false
        /// `open_after_download` (config.toml).
        var openAfterDownload = true
        /// The publications whose store shows a list rather than tiles (`v`), as kept in the library.
        var storesShownAsList: Set<Int64> = []
        /// What pictures need (tmux's passthrough), not said yet: said once, when a screen
        /// that draws pictures in pixels first shows.
        var pictureAdvice: PictureAdvice?

        init(keyBindings: KeyBindings = .defaults, width: Int = 80, height: Int = 24) {
            self.keyBindings = keyBindings
            self.width = width
            self.height = height
        }

        /// Which screens are open, the one shown last.
        var screens: [Screen] { stack.map(\.kind) }
        var screen: Screen { stack.last?.kind ?? .shelf }

        /// What the screens read of the app.
        var shared: Shared {
            Shared(keyBindings: keyBindings, width: width, height: height, summaries: allSummaries, openAfterDownload: openAfterDownload,
                   storesShownAsList: storesShownAsList)
        }

        /// The shelf, always at the bottom of the stack.
        var shelf: ShelfScreen {
            get { if case .shelf(let shelf)? = stack.first { return shelf } else { return ShelfScreen() } }
            set { stack[0] = .shelf(newValue) }
        }

        /// The store open (the topmost, if ever more than one), shown or under another screen.
        var store: StoreScreen? {
            get { topmost { if case .store(let store) = $0 { store } else { nil } } }
            set { replaceTopmost(.store, with: newValue.map(ScreenState.store)) }
        }

        /// The catalog screen: the open one, else as it was left (the kept catalogs as read
        /// and a failure reach it while it is closed).
        var catalog: CatalogScreen {
            get { topmost { if case .catalog(let catalog) = $0 { catalog } else { nil } } ?? closedCatalogs }
            set {
                if screens.contains(.catalog) { replaceTopmost(.catalog, with: .catalog(newValue)) } else { closedCatalogs = newValue }
            }
        }

        /// The open issue while reading; set to nil, the reader closes.
        var reader: ReaderAdapter? {
            get { topmost { if case .reader(let reader) = $0 { reader } else { nil } } }
            set {
                if let newValue { replaceTopmost(.reader, with: .reader(newValue)) }
                else if let index = stack.lastIndex(where: { $0.kind == .reader }) { stack.remove(at: index) }
            }
        }

        /// The search screen, while it is open (`S`).
        var search: SearchScreen? {
            get { topmost { if case .search(let search) = $0 { search } else { nil } } }
            set { replaceTopmost(.search, with: newValue.map(ScreenState.search)) }
        }

        /// The screen of every highlight, while it is open (`H`).
        var highlights: HighlightsScreen? {
            get { topmost { if case .highlights(let screen) = $0 { screen } else { nil } } }
            set { replaceTopmost(.highlights, with: newValue.map(ScreenState.highlights)) }
        }

        /// Where the issue being opened from a search's hit opens, and the word it finds there.
        var readerTarget: ReaderTarget?

        /// Help, while it is open (`?`).
        var help: HelpScreen? {
            get { topmost { if case .help(let help) = $0 { help } else { nil } } }
            set { replaceTopmost(.help, with: newValue.map(ScreenState.help)) }
        }

        /// The topmost screen on the stack that `component` finds a value in.
        private func topmost<Component>(_ component: (ScreenState) -> Component?) -> Component? {
            stack.reversed().lazy.compactMap(component).first
        }

        /// Puts a screen's changed value back in its place (nil: nothing to put back).
        private mutating func replaceTopmost(_ kind: Screen, with screen: ScreenState?) {
            guard let screen, let index = stack.lastIndex(where: { $0.kind == kind }) else { return }
            stack[index] = screen
        }

        /// Whose issues the run loop reads for the screens: the open store's.
        var storePublicationID: Int64? { store?.publicationID }
        /// The publications the shelf shows (its filter applied).
        var summaries: [PublicationSummary] { shelf.summaries }
        /// The open store's password prompt (an encrypted PDF's).
        var passwordPrompt: PasswordPrompt? { store?.passwordPrompt }

        /// Something on screen moves without a key: a download's progress in the store or
        /// the status line, or the reader (a long article read in the background).
        var showsProgress: Bool {
            if statusCause != nil { return true }
            switch screen {
            case .store:
                guard let store else { return false }
                return store.visible(height: height).contains { store.tiles[$0.index].issue.status == .downloading }
            case .reader: return true
            case .shelf, .help, .catalog, .search, .highlights: return false
            }
        }

        var isTooSmall: Bool { width < ShelfApp.minimumSize.width || height < ShelfApp.minimumSize.height }

        /// Opens `screen` over the one shown.
        mutating func push(_ screen: ScreenState) {
            stack.append(screen)
        }

        /// Closes the screen shown, back to the one under it; the shelf stays.
        mutating func pop() {
            guard stack.count > 1 else { return }
            if case .catalog(let catalog) = stack.removeLast() { closedCatalogs = catalog }
        }

        /// A new status line; `cause` is what ends it (nil: it stays until the next one).
        mutating func setStatus(_ text: String?, error: Bool = false, cause: StatusCause? = nil, wraps: Bool = false) {
            status = text.map { Sanitizer.clean($0) }
            statusWraps = wraps
            statusIsError = error
            statusCause = cause
        }
    }

    /// Work in progress a status line reports, so the line goes when the work is done.
    enum StatusCause: Equatable {
        /// "Downloading …": over once the library shows the issue downloaded, or the download ended.
        case download(issueID: Int64)
        /// "Downloading … into From catalogs…": a book taken; once here, the status says where it is.
        case take(issueID: Int64, title: String)
    }

    /// A search's hit or a highlight being opened: the reader opens this issue at `place`
    /// (not its saved one) and finds `word` from there, or goes to `highlight`'s words.
    struct ReaderTarget: Equatable {
        var issueID: Int64?
        var place: Locator
        var word: String?
        var highlight: Highlight?
    }

    static let minimumSize = (width: 40, height: 12)

    /// Advice the terminal's pictures need, and the screens that would draw them in pixels:
    /// a store's thumbnails and the reader, the shelf only with `covers = "pixels"`.
    struct PictureAdvice: Equatable {
        var text: String
        var shelfDrawsPictures: Bool

        func isNeeded(on screen: Screen) -> Bool {
            switch screen {
            case .store, .reader: return true
            case .shelf: return shelfDrawsPictures
            case .help, .catalog, .search, .highlights: return false
            }
        }
    }
}
