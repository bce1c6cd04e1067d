import Foundation
import Imaging
import IssueArchive
import NewsstandKit
import Terminal
import TextLayout

/// The interactive program. All state lives in `state`; events change it in `handle`;
/// `render` turns it into a canvas. Library reads happen in `reload`, which runs when the
/// library changed (any process) or after the program's own actions.
public final class ShelfApp {
    public struct Environment {
        public var library: Library
        public var theme: Theme
        public var colorMode: ColorMode
        public var symbols: Symbols
        public var coverCache: CoverCache
        /// Starts the download agent if it is not running (detached in real use).
        public var startAgent: () -> Void
        public init(library: Library, theme: Theme, colorMode: ColorMode, symbols: Symbols, coverCache: CoverCache,
                    startAgent: @escaping () -> Void) {
            self.library = library; self.theme = theme; self.colorMode = colorMode; self.symbols = symbols
            self.coverCache = coverCache; self.startAgent = startAgent
        }
    }

    enum Screen: Equatable { case shelf, store, reader, help }

    struct State {
        var screen: Screen = .shelf
        var previousScreen: Screen = .shelf
        var summaries: [PublicationSummary] = []
        var shelfSelection = 0
        var storePublicationID: Int64?
        var tiles: [IssueTile] = []
        var storeSelection = 0
        var storeScroll = 0
        var status: String?
        var statusIsError = false
        var confirmRemoval: Int64?
        /// `/`: only titles containing this are shown (case-insensitive).
        var filter = ""
        var editingFilter = false
        var width = 80
        var height = 24
        var quit = false
    }

    enum HitTarget: Equatable { case publication(Int), issue(Int) }

    let env: Environment
    var state = State()
    var reader: ReaderScreen?
    let painter: CoverPainter
    private var hitRegions: [(Rect, HitTarget)] = []
    /// Ctrl-Z: the run loop hands the terminal back to the shell.
    private var suspendRequested = false
    private var changeToken = -1
    private let backgroundQueue = DispatchQueue(label: "newsstand.shelf.background")
    private let messages = MessageBox()

    public init(environment: Environment) {
        env = environment
        painter = CoverPainter(cache: environment.coverCache, colorMode: environment.colorMode, symbols: environment.symbols)
    }

    /// Starts in the reader on an issue (`newsstand read ISSUE`); q leads to its store.
    public func startReading(_ issue: Issue) {
        reload()
        if let index = state.summaries.firstIndex(where: { $0.publication.id == issue.publicationId }) {
            state.shelfSelection = index
            openStore()
            state.storeSelection = state.tiles.firstIndex { $0.issue.id == issue.id } ?? 0
        }
        openReader(issue)
    }

    // MARK: Running

    /// Runs until the user quits. Never blocks on I/O: covers render on workers, feeds
    /// refresh on a background queue, downloads happen in the agent.
    public func run(backend: TerminalBackend) {
        let size = backend.size
        state.width = size.width
        state.height = size.height
        reload()
        backend.draw(render())
        while !state.quit {
            // Input wakes the loop at once; otherwise look for library changes ten times a
            // second, and for finished covers every 15 ms while some are still rendering.
            let event = backend.nextEvent(timeout: painter.isWaitingForCovers ? 0.015 : 0.1)
            var dirty = false
            if let event {
                handle(event)
                dirty = true
            }
            if suspendRequested {
                suspendRequested = false
                backend.suspend()
                dirty = true
            }
            if pollChanges() { dirty = true }
            if dirty { backend.draw(render()) }
        }
        reader?.savePosition(library: env.library)
    }

    /// Processes library changes, finished covers and background results. True when the
    /// screen must be drawn again.
    func pollChanges() -> Bool {
        var dirty = false
        let token = env.library.changeToken()
        if token != changeToken {
            changeToken = token
            reload()
            // A push alert (breaking news) goes to the status line once.
            if let alert = env.library.takeUnshownAlert() { setStatus("▶ " + alert.text) }
            dirty = true
        }
        if painter.readyFlag.take() { dirty = true }
        for message in messages.takeAll() {
            setStatus(message.text, error: message.isError)
            reload()
            dirty = true
        }
        return dirty
    }

    /// Reads what the current screen shows from the library.
    func reload() {
        do {
            state.summaries = try env.library.shelfSummaries().filter { matchesFilter($0.publication.title) }
            state.shelfSelection = clamp(state.shelfSelection, count: state.summaries.count)
            if let id = state.storePublicationID {
                state.tiles = try env.library.storeTiles(publicationID: id).filter { matchesFilter($0.issue.title) }
                state.storeSelection = clamp(state.storeSelection, count: state.tiles.count)
            }
        } catch {
            setStatus("library: \(error)", error: true)
        }
    }

    private func matchesFilter(_ title: String) -> Bool {
        state.filter.isEmpty || title.range(of: state.filter, options: [.caseInsensitive, .diacriticInsensitive]) != nil
    }

    /// Typing a filter: characters add, Backspace removes, Enter keeps it, Escape clears it.
    private func editFilter(_ key: Key) {
        switch key {
        case .enter:
            state.editingFilter = false
        case .escape:
            state.editingFilter = false
            state.filter = ""
        case .backspace:
            if !state.filter.isEmpty { state.filter.removeLast() }
        case .character(let character):
            state.filter.append(character)
        default:
            return
        }
        setStatus(state.editingFilter ? "/" + state.filter : (state.filter.isEmpty ? nil : "Showing titles with “\(state.filter)” (/ then Escape shows all)"))
        reload()
    }

    private func startFilter() {
        state.editingFilter = true
        setStatus("/" + state.filter)
    }

    /// `n`: the next publication with unread issues, or the next NEW issue in a store.
    private func selectNextNew() {
        let flags: [Bool]
        let current: Int
        switch state.screen {
        case .shelf: flags = state.summaries.map { $0.unreadCount > 0 }; current = state.shelfSelection
        case .store: flags = state.tiles.map { $0.issue.unread && $0.issue.status == .available }; current = state.storeSelection
        default: return
        }
        guard !flags.isEmpty else { return }
        for step in 1...flags.count where flags[(current + step) % flags.count] {
            let index = (current + step) % flags.count
            if state.screen == .shelf { state.shelfSelection = index } else { state.storeSelection = index }
            return
        }
        setStatus("Nothing new.")
    }

    func setStatus(_ text: String?, error: Bool = false) {
        state.status = text.map { Sanitizer.clean($0) }
        state.statusIsError = error
    }

    // MARK: Update

    func handle(_ event: Event) {
        switch event {
        case .resize(let width, let height):
            state.width = width
            state.height = height
            return
        case .mouse(let button, let x, let y):
            handleMouse(button, x: x, y: y)
            return
        case .key(let key):
            if key == .control("c") { state.quit = true; return }
            if key == .control("z") { suspendRequested = true; return }
            if state.editingFilter { editFilter(key); return }
            if let id = state.confirmRemoval {
                state.confirmRemoval = nil
                if key == .character("y") || key == .character("Y") { removeContent(issueID: id) } else { setStatus("Kept.") }
                return
            }
            switch state.screen {
            case .shelf: handleShelfKey(key)
            case .store: handleStoreKey(key)
            case .reader: handleReaderKey(key)
            case .help: state.screen = state.previousScreen
            }
        }
    }

    private func handleShelfKey(_ key: Key) {
        let columns = max(1, shelfLayout().perRow)
        switch key {
        case .left, .character("h"): moveShelf(by: -1)
        case .right, .character("l"): moveShelf(by: 1)
        case .up, .character("k"): moveShelf(by: -columns)
        case .down, .character("j"): moveShelf(by: columns)
        case .home, .character("g"): state.shelfSelection = 0
        case .end, .character("G"): state.shelfSelection = max(0, state.summaries.count - 1)
        case .enter: openStore()
        case .character("d"):
            if let summary = selectedSummary, let id = summary.publication.id,
               let newest = try? env.library.storeTiles(publicationID: id).first {
                tap(newest.issue, allowRead: false)
            }
        case .pageUp: moveShelf(by: -columns * 2)
        case .pageDown: moveShelf(by: columns * 2)
        case .character("r"): refreshSelected(all: false)
        case .character("R"): refreshSelected(all: true)
        case .character("/"): startFilter()
        case .character("n"): selectNextNew()
        case .character("?"): showHelp()
        case .escape where !state.filter.isEmpty: editFilter(.escape)
        case .character("q"), .character("Q"), .escape: state.quit = true
        default: break
        }
    }

    private func handleStoreKey(_ key: Key) {
        switch key {
        case .up, .character("k"), .left, .character("h"): moveStore(by: -1)
        case .down, .character("j"), .right, .character("l"): moveStore(by: 1)
        case .pageUp: moveStore(by: -storeVisibleTiles())
        case .pageDown: moveStore(by: storeVisibleTiles())
        case .home, .character("g"): state.storeSelection = 0
        case .end, .character("G"): state.storeSelection = max(0, state.tiles.count - 1)
        case .enter: if let tile = selectedTile { tap(tile.issue, allowRead: true) }
        case .character("d"): if let tile = selectedTile { tap(tile.issue, allowRead: false) }
        case .character("x"):
            if let tile = selectedTile, tile.issue.status == .available, let id = tile.issue.id {
                state.confirmRemoval = id
                setStatus("Remove the downloaded content of “\(tile.issue.title)”? (y/n)")
            }
        case .character("r"): refreshSelected(all: false)
        case .character("/"): startFilter()
        case .character("n"): selectNextNew()
        case .character("?"): showHelp()
        case .character("Q"): state.quit = true
        case .escape where !state.filter.isEmpty:
            editFilter(.escape)
        case .character("q"), .escape, .backspace:
            state.screen = .shelf
            state.storePublicationID = nil
            state.filter = ""
            setStatus(nil)
            reload()
        default: break
        }
    }

    private func handleReaderKey(_ key: Key) {
        guard let reader else { state.screen = .store; return }
        switch key {
        case .character("q"), .escape, .backspace:
            reader.savePosition(library: env.library)
            self.reader = nil
            state.screen = .store
            reload()
        case .character("Q"):
            state.quit = true
        case .character("?"):
            showHelp()
        default:
            reader.handle(key, height: state.height)
        }
    }

    private func handleMouse(_ button: MouseButton, x: Int, y: Int) {
        switch button {
        case .wheelUp, .wheelDown:
            // Scrolling only moves; it never opens or marks anything read.
            let step = button == .wheelUp ? -1 : 1
            switch state.screen {
            case .shelf: moveShelf(by: step)
            case .store: moveStore(by: step)
            case .reader: reader?.scroll(by: step * 3, height: state.height)
            case .help: break
            }
        case .left:
            guard let target = hitRegions.first(where: { $0.0.contains(x: x, y: y) })?.1 else { return }
            switch target {
            case .publication(let index):
                if state.shelfSelection == index { openStore() } else { state.shelfSelection = index }
            case .issue(let index):
                state.storeSelection = index
                if let tile = selectedTile { tap(tile.issue, allowRead: true) }
            }
        default: break
        }
    }

    private func showHelp() {
        state.previousScreen = state.screen
        state.screen = .help
    }

    // MARK: Actions

    var selectedSummary: PublicationSummary? {
        state.summaries.indices.contains(state.shelfSelection) ? state.summaries[state.shelfSelection] : nil
    }

    var selectedTile: IssueTile? {
        state.tiles.indices.contains(state.storeSelection) ? state.tiles[state.storeSelection] : nil
    }

    private func moveShelf(by delta: Int) {
        guard !state.summaries.isEmpty else { return }
        state.shelfSelection = max(0, min(state.summaries.count - 1, state.shelfSelection + delta))
    }

    private func moveStore(by delta: Int) {
        guard !state.tiles.isEmpty else { return }
        state.storeSelection = max(0, min(state.tiles.count - 1, state.storeSelection + delta))
    }

    private func openStore() {
        guard let summary = selectedSummary, let id = summary.publication.id else { return }
        state.storePublicationID = id
        state.filter = ""          // a filter belongs to the screen it was typed on
        setStatus(nil)
        state.storeSelection = 0
        state.storeScroll = 0
        state.screen = .store
        reload()
    }

    /// "Tap": read what is here, download what is not.
    func tap(_ issue: Issue, allowRead: Bool) {
        switch issue.status {
        case .available:
            if allowRead { openReader(issue) } else { setStatus("“\(issue.title)” is already downloaded.") }
        case .downloading:
            setStatus("“\(issue.title)” is downloading…")
        case .none:
            do {
                try env.library.enqueue(issue)
                env.startAgent()
                setStatus("Downloading “\(issue.title)”…")
            } catch {
                setStatus("\(error)", error: true)
            }
            reload()
        }
    }

    private func openReader(_ issue: Issue) {
        do {
            let screen = try ReaderScreen(issue: issue, library: env.library, painter: painter, theme: env.theme)
            try env.library.markOpened(issue)
            reader = screen
            state.screen = .reader
            setStatus(nil)
            reload()
        } catch {
            setStatus("cannot open “\(issue.title)”: \(error)", error: true)
        }
    }

    private func removeContent(issueID: Int64) {
        do {
            guard let issue = try env.library.issue(id: issueID) else { return }
            try env.library.evictContent(of: issue, toSaveSpace: false)
            setStatus("Removed the content of “\(issue.title)”; tap to download it again.")
        } catch {
            setStatus("\(error)", error: true)
        }
        reload()
    }

    private func refreshSelected(all: Bool) {
        let library = env.library
        let targets: [Publication] = all ? state.summaries.map(\.publication)
            : (state.storePublicationID.flatMap { id in state.summaries.first { $0.publication.id == id }?.publication }
               ?? selectedSummary?.publication).map { [$0] } ?? []
        guard !targets.isEmpty else { return }
        setStatus(all ? "Refreshing all publications…" : "Refreshing “\(targets[0].title)”…")
        let box = messages
        backgroundQueue.async {
            var added = 0
            var failures: [String] = []
            for publication in targets {
                do { added += try library.refresh(publication).added.count } catch { failures.append("\(publication.title): \(error)") }
            }
            if failures.isEmpty {
                box.post(added == 0 ? "Up to date." : "\(added) new issue\(added == 1 ? "" : "s").", isError: false)
            } else {
                box.post(failures.joined(separator: "; "), isError: true)
            }
        }
    }

    // MARK: Hit testing (filled while rendering)

    func resetHitRegions() { hitRegions.removeAll(keepingCapacity: true) }
    func addHitRegion(_ rect: Rect, _ target: HitTarget) { hitRegions.append((rect, target)) }

    private func clamp(_ index: Int, count: Int) -> Int { max(0, min(index, count - 1)) }
}

/// Results from background work, taken by the main loop.
final class MessageBox: @unchecked Sendable {
    struct Message { var text: String; var isError: Bool }
    private let lock = NSLock()
    private var pending: [Message] = []
    func post(_ text: String, isError: Bool) { lock.withLock { pending.append(Message(text: text, isError: isError)) } }
    func takeAll() -> [Message] { lock.withLock { defer { pending.removeAll() }; return pending } }
}
