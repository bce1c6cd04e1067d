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
        public var keyBindings: KeyBindings
        public init(library: Library, theme: Theme, colorMode: ColorMode, symbols: Symbols, coverCache: CoverCache,
                    keyBindings: KeyBindings = .defaults, startAgent: @escaping () -> Void) {
            self.library = library; self.theme = theme; self.colorMode = colorMode; self.symbols = symbols
            self.coverCache = coverCache; self.keyBindings = keyBindings; self.startAgent = startAgent
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
    /// The reader's clock for saving its place as it goes (tests move it by hand).
    var readerClock: () -> Date = Date.init
    /// The reader's text width and the like, kept from one issue to the next.
    let readerPreferences = ReaderPreferences()
    let painter: CoverPainter
    private var hitRegions: [(Rect, HitTarget)] = []
    /// Ctrl-Z: the run loop hands the terminal back to the shell.
    private var suspendRequested = false
    private var changeToken = -1
    /// Reads the shelf and the store, issues only when they changed.
    let shelfReader: ShelfReader
    /// The library as last read, before the filter.
    private var allSummaries: [PublicationSummary] = []
    private var allTiles: [IssueTile] = []
    /// Issues with a download queued or running when the library was last read.
    private var watchedDownloads: Set<Int64> = []
    /// Each publication's last feed error as last read (nil inside: none), so only a new one is reported.
    private var feedErrors: [Int64: String?] = [:]
    private let backgroundQueue = DispatchQueue(label: "newsstand.shelf.background")
    private let messages = MessageBox()

    public init(environment: Environment) {
        env = environment
        painter = CoverPainter(cache: environment.coverCache, colorMode: environment.colorMode, symbols: environment.symbols)
        shelfReader = ShelfReader(library: environment.library)
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
        let times = FrameTimes()
        let runStart = DispatchTime.now().uptimeNanoseconds
        let size = backend.size
        handle(.resize(width: size.width, height: size.height))
        changeToken = env.library.changeToken()   // this first read is current: no second one at the first poll
        reload()
        times?.mark("reload")
        let first = render()
        times?.mark("render")
        backend.draw(first)
        times?.mark("draw")
        times?.frameDrawn(complete: !painter.isWaitingForCovers)
        times?.frameDetails("first", startedAt: runStart)
        while !state.quit {
            // Input wakes the loop at once; otherwise look for library changes ten times a
            // second, and for finished covers every 15 ms while some are still rendering.
            let event = backend.nextEvent(timeout: painter.isWaitingForCovers ? 0.015 : 0.1)
            let eventTime = DispatchTime.now().uptimeNanoseconds
            var dirty = false
            if let event {
                handle(event)
                times?.mark("handle")
                dirty = true
            }
            if suspendRequested {
                suspendRequested = false
                backend.suspend()
                dirty = true
            }
            if pollChanges() { dirty = true }
            times?.mark("poll")
            if dirty {
                let frame = render()
                times?.mark("render")
                backend.draw(frame)
                times?.mark("draw")
                if let times, let curses = backend as? CursesBackend {
                    let draw = curses.lastDraw
                    times.annotate("cells=\(draw.cellsWritten) pairs=\(draw.pairsAllocated)\(draw.pairsReset ? " reset" : "")"
                                   + String(format: " copy=%.2f update=%.2f", draw.copySeconds * 1000, draw.updateSeconds * 1000))
                }
                times?.frameDrawn(complete: !painter.isWaitingForCovers)
                if case .key(let key) = event { times?.keyHandled(key.label, startedAt: eventTime) } else { times?.frameDetails("update", startedAt: eventTime) }
            } else {
                times?.discardPhases()
            }
        }
        perform(reader?.update(.leave) ?? [])
        times?.write()
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
        if painter.readyFlag.take() {
            perform(reader?.update(.backgroundReady) ?? [])
            dirty = true
        }
        for message in messages.takeAll() {
            setStatus(message.text, error: message.isError)
            reload()
            dirty = true
        }
        return dirty
    }

    /// Reads what the shelf and the open store show from the library.
    func reload() {
        do {
            let summaries = try shelfReader.summaries()
            reportBackgroundErrors(summaries)
            allSummaries = summaries
        } catch {
            setStatus("library: \(error)", error: true)
        }
        reloadStore()
    }

    /// Reads the open store's issues only (opening a store changes nothing on the shelf).
    private func reloadStore() {
        do {
            allTiles = try state.storePublicationID.map { try shelfReader.storeTiles(publicationID: $0) } ?? []
        } catch {
            setStatus("library: \(error)", error: true)
        }
        applyFilter()
    }

    /// What the screens show of what was read: titles matching the filter.
    /// The selection stays on the same publication and issue when the lists change.
    private func applyFilter() {
        let publication = selectedSummary?.publication.id
        let issue = selectedTile?.issue.id
        // Without a filter the lists are shared, not copied (a store may hold 20,000 issues).
        state.summaries = state.filter.isEmpty ? allSummaries : allSummaries.filter { matchesFilter($0.publication.title) }
        state.shelfSelection = clamp(publication.flatMap { id in state.summaries.firstIndex { $0.publication.id == id } } ?? state.shelfSelection,
                                     count: state.summaries.count)
        state.tiles = state.filter.isEmpty ? allTiles : allTiles.filter { matchesFilter($0.issue.title) }
        state.storeSelection = clamp(issue.flatMap { id in state.tiles.firstIndex { $0.issue.id == id } } ?? state.storeSelection,
                                     count: state.tiles.count)
    }

    /// Failures of work done elsewhere (the agent's downloads and feed polls, another
    /// process's refresh) reach the status line when they happen, once each.
    private func reportBackgroundErrors(_ summaries: [PublicationSummary]) {
        let pending = Set(((try? env.library.pendingDownloads()) ?? []).map(\.issueId))
        for id in watchedDownloads.subtracting(pending) {
            if let issue = try? env.library.issue(id: id), issue.status == .none, let error = issue.lastError {
                setStatus("Download of “\(issue.title)” failed: \(error)", error: true)
            }
        }
        watchedDownloads = pending
        for summary in summaries {
            guard let id = summary.publication.id else { continue }
            let error = summary.publication.lastError
            if let previous = feedErrors[id], let error, previous != error {
                setStatus("Refreshing “\(summary.publication.title)” failed: \(error)", error: true)
            }
            feedErrors[id] = .some(error)
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
        applyFilter()
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
            perform(reader?.update(.resize(width: width, height: height)) ?? [])
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
            case .shelf, .store:
                if let action = env.keyBindings.action(for: key, on: state.screen) { perform(action, key: key) }
            case .reader: handleReaderKey(key)
            case .help: state.screen = state.previousScreen
            }
        }
    }

    /// An action on the shelf or in a store.
    private func perform(_ action: Action, key: Key) {
        let onShelf = state.screen == .shelf
        // On the shelf up and down move by a row of covers; a store is one column of tiles.
        let columns = onShelf ? max(1, shelfLayout().perRow) : 1
        let page = onShelf ? columns * 2 : storeVisibleTiles()
        switch action {
        case .moveLeft: move(by: -1)
        case .moveRight: move(by: 1)
        case .up: move(by: -columns)
        case .down: move(by: columns)
        case .pageUp: move(by: -page)
        case .pageDown: move(by: page)
        case .first: move(by: -Int.max / 2)
        case .last: move(by: Int.max / 2)
        case .tap:
            if onShelf { openStore() } else if let tile = selectedTile { tap(tile.issue, allowRead: true) }
        case .download:
            if !onShelf, let tile = selectedTile {
                tap(tile.issue, allowRead: false)
            } else if onShelf, let id = selectedSummary?.publication.id, let newest = try? shelfReader.storeTiles(publicationID: id).first {
                tap(newest.issue, allowRead: false)
            }
        case .remove:
            if let tile = selectedTile, tile.issue.status == .available, let id = tile.issue.id {
                state.confirmRemoval = id
                setStatus("Remove the downloaded content of “\(tile.issue.title)”? (y/n)")
            }
        case .pin:
            if let issue = selectedTile?.issue {
                do {
                    try env.library.setPinned(issue, !issue.pinned)
                    setStatus(issue.pinned ? "Unpinned “\(issue.title)”." : "Pinned “\(issue.title)”: it is never removed to save space.")
                } catch { setStatus("\(error)", error: true) }
                reload()
            }
        case .refresh: refreshSelected(all: false)
        case .refreshAll: refreshSelected(all: true)
        case .filter: startFilter()
        case .nextNew: selectNextNew()
        case .help: showHelp()
        case .back:
            // Escape takes a filter away before it leaves the screen.
            if key == .escape, !state.filter.isEmpty { editFilter(.escape); return }
            // There is nothing behind the shelf: back quits, except Backspace, which is too easy to hit.
            if onShelf { if key != .backspace { state.quit = true }; return }
            state.screen = .shelf
            state.storePublicationID = nil
            state.filter = ""
            setStatus(nil)
            reloadStore()
        case .quit: state.quit = true
        }
    }

    /// The reader gets the shared moving and paging actions as the keys it knows, and
    /// every key no action claims (its own keys: t, /, n, N, +, -, z…); a default key the
    /// user rebound away does nothing. Its contents list and search prompt take keys as typed.
    /// The shared actions as the keys the reader knows them by (built once, not per key).
    private static let readerKeys: [Action: Key] = [.moveLeft: .left, .moveRight: .right, .up: .up, .down: .down,
                                                    .pageUp: .pageUp, .pageDown: .pageDown, .first: .home, .last: .end]

    private func handleReaderKey(_ key: Key) {
        guard let reader else { state.screen = .store; return }
        // Backspace turns a comic's page back rather than leaving it.
        if reader.mode != .reading || (reader.takesBackspace && key == .backspace) {
            perform(reader.update(.key(key)))
            return
        }
        let bindings = env.keyBindings
        guard let action = bindings.action(for: key, on: .reader) else {
            if KeyBindings.defaults.action(for: key, on: .reader) == nil { perform(reader.update(.key(key))) }
            return
        }
        switch action {
        case .back:
            perform(reader.update(.leave))
        case .quit:
            state.quit = true
        case .help:
            showHelp()
        default:
            if let readerKey = Self.readerKeys[action] { perform(reader.update(.key(readerKey))) }
        }
    }

    /// Does what the reader asks: keeps its place, or closes it.
    private func perform(_ effects: [ReaderEffect]) {
        for effect in effects {
            switch effect {
            case .save(let locator):
                if let issue = reader?.issue { try? env.library.saveLocator(locator, for: issue) }
            case .leave:
                reader = nil
                state.screen = .store
                reload()
            }
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
            case .reader: perform(reader?.update(.scroll(step * 3)) ?? [])
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

    private func move(by delta: Int) {
        if state.screen == .shelf { moveShelf(by: delta) } else { moveStore(by: delta) }
    }

    private func openStore() {
        guard let summary = selectedSummary, let id = summary.publication.id else { return }
        state.storePublicationID = id
        state.filter = ""          // a filter belongs to the screen it was typed on
        setStatus(nil)
        state.storeSelection = 0
        state.storeScroll = 0
        state.screen = .store
        reloadStore()
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
            // Being the issue read first keeps the agent's eviction away from it; then make
            // sure its content is still there (an eviction may have come just before). On a
            // library opened read-only because the disk was full, nothing can evict: read.
            if env.library.diskFull == nil { try env.library.markOpened(issue) }
            guard let current = try env.library.issue(id: issue.id ?? -1), current.status == .available else {
                setStatus("“\(issue.title)” was removed to save space; tap to download it again.", error: true)
                reload()
                return
            }
            let screen = try ReaderScreen(issue: current, root: env.library.contentDirectory(for: current), painter: painter,
                                          theme: env.theme, preferences: readerPreferences, size: (state.width, state.height),
                                          clock: readerClock)
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
                box.post(added == 0 ? "Up to date." : counted(added, "new issue") + ".", isError: false)
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
