import Foundation
import TextLayout
import NewsstandKit
import Terminal

extension ShelfApp {
    /// The screens the app routes keys and messages to.
    enum Screen: Hashable { case shelf, store, reader, help, catalog }

    /// Everything the screens show, in one value: `update` changes it, `view` draws it.
    struct State {
        var keyBindings: KeyBindings = .defaults
        /// The screens open, the shelf at the bottom and the one shown on top: back (q,
        /// Escape, Backspace) closes the top one and shows the one under it.
        private(set) var screens: [Screen] = [.shelf]
        var screen: Screen { screens.last ?? .shelf }
        /// Help, while it is open (`?`).
        var help: HelpScreen?
        var width = 80
        var height = 24

        /// The library as last read, before the filter.
        var allSummaries: [PublicationSummary] = []
        var allTiles: [IssueTile] = []
        /// What the screens show of it: titles matching the filter.
        var summaries: [PublicationSummary] = []
        var tiles: [IssueTile] = []

        var shelfSelection = 0
        var storePublicationID: Int64?
        var storeSelection = 0
        /// The first tile shown; follows the selection (see `StoreScreen.followSelection`).
        var storeScroll = 0
        /// The open store's issues have been read (they are read after it opens).
        var storeIsRead = false
        /// Keys typed into a store whose issues are still being read (Enter, then at once
        /// Down, Down, p): kept in order and handled once they arrive, so none acts on an
        /// empty store or is lost.
        var keysAwaitingStore: [Key] = []
        /// The issue to select once the store's issues are read (`newsstand read`).
        var issueToSelect: Int64?

        var status: String?
        var statusIsError = false
        /// What the status line is about while it lasts: it clears when that ends.
        var statusCause: StatusCause?
        /// `x` asked whether to remove this issue's content; the next key answers.
        var confirmRemoval: Int64?
        /// `x` asked whether to cancel this issue's download; the next key answers.
        var confirmCancel: Issue?
        /// `/`: only titles containing this are shown (case-insensitive).
        var filter = ""
        var editingFilter = false
        var quit = false

        /// Issues with a download queued or running when the library was last read.
        var watchedDownloads: Set<Int64> = []
        /// Each publication's last feed error as last read (nil inside: none), so only a new one is reported.
        var feedErrors: [Int64: String?] = [:]

        /// An encrypted PDF asked for its password; keys go to the prompt.
        var passwordPrompt: PasswordPrompt?

        /// The catalog screen: the kept catalogs, the pages walked (`CatalogScreen`).
        var catalog = CatalogBrowsing()
        /// A key set a fetch going whose result the screen waits for (a catalog page).
        var isFetching: Bool { catalog.loading != nil }

        /// The open issue while reading.
        var reader: ReaderAdapter?
        /// The reader's text width and the like, kept from one issue to the next.
        var readerPreferences = ReaderPreferences()
        /// The reader was opened by `newsstand read`: leaving it leaves the program.
        var readerIsWholeProgram = false

        init(keyBindings: KeyBindings = .defaults, width: Int = 80, height: Int = 24) {
            self.keyBindings = keyBindings
            self.width = width
            self.height = height
        }

        var selectedSummary: PublicationSummary? {
            summaries.indices.contains(shelfSelection) ? summaries[shelfSelection] : nil
        }

        var selectedTile: IssueTile? {
            tiles.indices.contains(storeSelection) ? tiles[storeSelection] : nil
        }

        /// Something on screen moves without a key: a download's progress in the store or
        /// the status line, or the reader (a long article read in the background).
        var showsProgress: Bool {
            if statusCause != nil { return true }
            switch screen {
            case .store: return StoreScreen.visible(self).contains { tiles[$0.index].issue.status == .downloading }
            case .reader: return true
            case .shelf, .help, .catalog: return false
            }
        }

        var isTooSmall: Bool { width < ShelfApp.minimumSize.width || height < ShelfApp.minimumSize.height }

        /// Opens `screen` over the one shown.
        mutating func push(_ screen: Screen) {
            if screen == .help { help = HelpScreen(opener: self.screen) }
            screens.append(screen)
        }

        /// Closes the screen shown, back to the one under it; the shelf stays.
        mutating func pop() {
            guard screens.count > 1 else { return }
            if screens.removeLast() == .help { help = nil }
        }

        /// A new status line; `cause` is what ends it (nil: it stays until the next one).
        mutating func setStatus(_ text: String?, error: Bool = false, cause: StatusCause? = nil) {
            status = text.map { Sanitizer.clean($0) }
            statusIsError = error
            statusCause = cause
        }
    }

    /// Work in progress a status line reports, so the line goes when the work is done.
    enum StatusCause: Equatable {
        /// "Downloading …": over once the library shows the issue downloaded, or the download ended.
        case download(issueID: Int64)
    }

    static let minimumSize = (width: 40, height: 12)
}
