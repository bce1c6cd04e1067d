import Foundation
import NewsstandKit
import Terminal

extension ShelfApp {
    /// The one place state changes: a message in, the effects to perform out. Pure: no
    /// library, no clock, no I/O (the open reader is a model object of its own, changed
    /// only through its own update).
    static func update(_ state: inout State, _ message: Message) -> [Effect] {
        let effects = route(&state, message)
        StoreScreen.followSelection(&state)
        return effects
    }

    private static func route(_ state: inout State, _ message: Message) -> [Effect] {
        switch message {
        case .resize(let width, let height):
            state.width = width
            state.height = height
            return updateReader(&state) { $0.resize(width: width, height: height) }
        case .mouse(let button, let x, let y):
            return mouse(&state, button, x: x, y: y)
        case .key(let key):
            if state.screen == .store, !state.storeIsRead, key != .control("c"), key != .control("z"),
               state.keysAwaitingStore.count < Self.keysKeptForStore {
                state.keysAwaitingStore.append(key)
                return []
            }
            return self.key(&state, key)
        case .startReading(let issue):
            state.readerIsWholeProgram = true
            var effects: [Effect] = []
            if let index = state.summaries.firstIndex(where: { $0.publication.id == issue.publicationId }) {
                state.shelfSelection = index
                effects = StoreScreen.open(&state)
                state.issueToSelect = issue.id
            }
            return effects + [.markOpened(issue)]
        case .libraryChanged:
            return [.readLibrary]
        case .libraryRead(let read):
            var effects = apply(read, to: &state)
            // The store's issues arrived: the keys typed meanwhile act on them, in order.
            while state.storeIsRead || state.screen != .store, !state.keysAwaitingStore.isEmpty {
                effects += key(&state, state.keysAwaitingStore.removeFirst())
                StoreScreen.followSelection(&state)
            }
            return effects
        case .coverReady:
            return updateReader(&state) { $0.backgroundReady() }
        case .quitting:
            return updateReader(&state) { $0.leave() }
        case .refreshed(let added, let failures):
            if failures.isEmpty {
                state.setStatus(added == 0 ? "Up to date." : counted(added, "new issue") + ".")
            } else {
                state.setStatus(failures.joined(separator: "; "), error: true)
            }
            return [.readLibrary]
        case .effectFailed(let text):
            state.setStatus(text, error: true)
            return [.readLibrary]
        case .downloadCancelled(let issue):
            state.setStatus("Cancelled the download of “\(issue.title)”.")
            return [.readLibrary]
        case .contentRemoved(let issue):
            state.setStatus("Removed the content of “\(issue.title)”; tap to download it again.")
            return [.readLibrary]
        case .alert(let text):
            // A push alert (breaking news) goes to the status line once.
            state.setStatus("▶ " + text)
            return []
        case .issueOpened(let issue):
            return [.openReader(issue)]
        case .issueGone(let issue):
            state.setStatus("“\(issue.title)” was removed to save space; tap to download it again.", error: true)
            return [.readLibrary]
        case .readerNeedsPassword(let issue, let wrong):
            state.passwordPrompt = PasswordPrompt(issue: issue, wasWrong: wrong)
            state.setStatus(nil)
            return []
        case .catalogsRead(let catalogs):
            state.catalog.catalogs = catalogs
            state.catalog.listSelection = max(0, min(state.catalog.listSelection, catalogs.count - 1))
            return []
        case .catalogPageLoaded(let page, let replacing):
            return CatalogScreen.pageLoaded(&state, page, replacing: replacing)
        case .catalogNeedsSignIn(let host, let server, let wrong, let retry):
            state.catalog.signIn = CatalogSignIn(host: host, server: server, wrong: wrong, retry: retry)
            state.setStatus(nil)
            return []
        case .signedIn(let retry):
            return [retry]
        case .catalogFailed(let text):
            CatalogScreen.failed(&state, text)
            return []
        case .catalogSubscribed(let text):
            state.setStatus(text)
            return [.readLibrary]
        case .bookTaken(let issue):
            guard let id = issue.id else { return [] }
            if issue.status == .available {
                state.setStatus("“\(issue.title)” is already on the shelf, in From catalogs.")
                return [.readLibrary]
            }
            state.setStatus("Downloading “\(issue.title)” into From catalogs…", cause: .download(issueID: id))
            return [.enqueue(issueID: id), .startAgent, .readLibrary]
        case .readerOpened(let reader):
            state.reader = reader
            state.push(.reader)
            state.setStatus(nil)
            return updateReader(&state) { $0.start() } + [.readLibrary]
        case .reader(let result):
            return updateReader(&state) { $0.loaded(result) }
        }
    }

    // MARK: Keys

    /// How many keys typed ahead into a store still being read are kept.
    static let keysKeptForStore = 64

    private static func key(_ state: inout State, _ key: Key) -> [Effect] {
        if key == .control("c") { state.quit = true; return [] }
        if key == .control("z") { return [.suspend] }
        if state.editingFilter { editFilter(&state, key); return [] }
        if state.passwordPrompt != nil { return editPassword(&state, key) }
        let yes = key == .character("y") || key == .character("Y")
        if let id = state.confirmRemoval {
            state.confirmRemoval = nil
            if yes { return [.evictContent(issueID: id)] }
            state.setStatus("Kept.")
            return []
        }
        if let issue = state.confirmCancel {
            state.confirmCancel = nil
            guard yes, let id = issue.id else { state.setStatus("The download goes on."); return [] }
            state.setStatus("Cancelling the download of “\(issue.title)”…")
            return [.cancelDownload(issueID: id)]
        }
        switch state.screen {
        case .shelf, .store:
            guard let action = state.keyBindings.action(for: key, on: state.screen) else { return [] }
            return perform(action, key: key, on: &state)
        case .reader:
            return readerKey(&state, key)
        case .help:
            guard var help = state.help else { state.pop(); return [] }
            let outcome = help.update(key, keys: state.keyBindings, width: state.width, height: state.height)
            state.help = help
            switch outcome {
            case .stay: break
            case .close: state.pop()
            case .quit: state.quit = true
            }
            return []
        case .catalog:
            return CatalogScreen.key(&state, key)
        }
    }

    /// An action on the shelf or in a store: what both share here, the rest in each screen.
    private static func perform(_ action: Action, key: Key, on state: inout State) -> [Effect] {
        switch action {
        case .refresh, .refreshAll:
            return refresh(&state, all: action == .refreshAll)
        case .filter:
            state.editingFilter = true
            state.setStatus("/" + state.filter)
            return []
        case .nextNew:
            selectNextNew(&state)
            return []
        case .help:
            showHelp(&state)
            return []
        case .quit:
            state.quit = true
            return []
        case .catalogs:
            return CatalogScreen.open(&state)
        case .back where key == .escape && !state.filter.isEmpty:
            // Escape takes a filter away before it leaves the screen.
            editFilter(&state, .escape)
            return []
        default:
            return state.screen == .shelf ? ShelfScreen.perform(action, key: key, on: &state)
                                          : StoreScreen.perform(action, on: &state)
        }
    }

    /// The reader gets every key the app does not take: leaving, quitting and help are the app's.
    private static func readerKey(_ state: inout State, _ key: Key) -> [Effect] {
        guard state.reader != nil else { state.pop(); return [] }
        let bindings = state.keyBindings
        return updateReader(&state) { $0.update(key, bindings: bindings) }
    }

    /// What the reader asked for, as the app's effects.
    static func apply(_ outcomes: [ReaderAdapter.Outcome], from reader: ReaderAdapter, to state: inout State) -> [Effect] {
        var effects: [Effect] = []
        for outcome in outcomes {
            switch outcome {
            case .save(let locator):
                if let id = reader.issue.id { effects.append(.saveReadingPlace(issueID: id, locator)) }
            case .keepTextWidth(let width):
                state.readerPreferences.textWidth = width
                effects.append(.saveTextWidth(width))
            case .load(let request):
                effects.append(.reader(request))
            case .keepView(let view):
                if let id = reader.issue.id { effects.append(.saveReaderView(issueID: id, view)) }
            case .leave:
                state.reader = nil
                if state.screen == .reader { state.pop() }
                if let comic = reader.screen.streamed {
                    // Back to the catalog it was read from; its pages go.
                    effects.append(.closeStreamedComic(comic))
                    break
                }
                effects.append(.readLibrary)
                if state.readerIsWholeProgram { state.quit = true }
            case .quit:
                state.quit = true
            case .help:
                showHelp(&state)
            }
        }
        return effects
    }

    static func showHelp(_ state: inout State) {
        state.push(.help)
    }

    // MARK: Mouse

    private static func mouse(_ state: inout State, _ button: MouseButton, x: Int, y: Int) -> [Effect] {
        switch button {
        case .wheelUp, .wheelDown:
            // Scrolling only moves; it never opens or marks anything read.
            let step = button == .wheelUp ? -1 : 1
            switch state.screen {
            case .shelf: ShelfScreen.move(&state, by: step)
            case .store: StoreScreen.move(&state, by: step)
            case .reader:
                return updateReader(&state) { $0.scroll(by: step * 3) }
            case .help: state.help?.scroll(by: step * 3, keys: state.keyBindings, width: state.width, height: state.height)
            case .catalog: CatalogScreen.move(&state, by: step)
            }
            return []
        case .left:
            // On every screen a click selects, and a click on what is selected opens it (as Enter).
            guard !state.isTooSmall, !state.editingFilter, state.passwordPrompt == nil else { return [] }
            switch state.screen {
            case .shelf:
                guard let index = ShelfScreen.publication(at: x, y, in: state) else { return [] }
                if state.shelfSelection == index { return StoreScreen.open(&state) }
                state.shelfSelection = index
                return []
            case .store:
                guard let index = StoreScreen.tile(at: x, y, in: state) else { return [] }
                if state.storeSelection == index { return StoreScreen.tapSelected(&state, allowRead: true) }
                state.storeSelection = index
                return []
            case .catalog:
                return CatalogScreen.click(&state, x: x, y: y)
            case .reader, .help:
                return []
            }
        default:
            return []
        }
    }

    // MARK: Filter, next new, refresh

    /// Typing a filter (`TextField`): the titles shown follow each key, Enter keeps it,
    /// Escape clears it.
    static func editFilter(_ state: inout State, _ key: Key) {
        var field = TextField(state.filter, limit: 256)
        switch field.update(key) {
        case .submit:
            state.editingFilter = false
        case .cancel:
            state.editingFilter = false
            state.filter = ""
        case .edited:
            state.filter = field.text
        case .unchanged:
            return
        }
        state.setStatus(state.editingFilter ? "/" + state.filter
                        : (state.filter.isEmpty ? nil : "Showing titles with “\(state.filter)” (/ then Escape shows all)"))
        applyFilter(&state)
    }

    /// `n`: the next publication with unread issues, or the next NEW issue in a store.
    private static func selectNextNew(_ state: inout State) {
        let onShelf = state.screen == .shelf
        let flags = onShelf ? state.summaries.map { $0.unreadCount > 0 }
                            : state.tiles.map { $0.issue.unread && $0.issue.status == .available }
        let current = onShelf ? state.shelfSelection : state.storeSelection
        guard !flags.isEmpty else { return }
        for step in 1...flags.count where flags[(current + step) % flags.count] {
            let index = (current + step) % flags.count
            if onShelf { state.shelfSelection = index } else { state.storeSelection = index }
            return
        }
        state.setStatus("Nothing new.")
    }

    private static func refresh(_ state: inout State, all: Bool) -> [Effect] {
        let targets: [Publication] = all ? state.summaries.map(\.publication)
            : (state.storePublicationID.flatMap { id in state.summaries.first { $0.publication.id == id }?.publication }
               ?? state.selectedSummary?.publication).map { [$0] } ?? []
        guard !targets.isEmpty else { return [] }
        state.setStatus(all ? "Refreshing all publications…" : "Refreshing “\(targets[0].title)”…")
        return [.refresh(targets)]
    }

    // MARK: The library as read

    private static func apply(_ read: LibraryRead, to state: inout State) -> [Effect] {
        var effects: [Effect] = []
        if let summaries = read.summaries {
            reportBackgroundErrors(read, summaries: summaries, in: &state)
            state.allSummaries = summaries
            // A change anywhere may be a push alert to show.
            effects.append(.takeAlert)
        }
        if let store = read.store, store.publicationID == state.storePublicationID {
            state.allTiles = store.tiles
            state.storeIsRead = true
            if let id = state.issueToSelect {
                state.storeSelection = store.tiles.firstIndex { $0.issue.id == id } ?? 0
                state.issueToSelect = nil
            }
        } else if state.storePublicationID == nil {
            state.allTiles = []
        }
        if let error = read.error {
            state.setStatus("library: \(error)", error: true)
            if state.storePublicationID != nil { state.storeIsRead = true }   // nothing more is coming
        }
        endFinishedStatus(read, in: &state)
        applyFilter(&state)
        return effects
    }

    /// "Downloading …" goes once the read shows the issue downloaded, or its download over
    /// (a failure says so itself, in its own status).
    private static func endFinishedStatus(_ read: LibraryRead, in state: inout State) {
        guard case .download(let id) = state.statusCause else { return }
        let shown = (read.store?.tiles.map(\.issue) ?? []) + (read.summaries?.compactMap(\.newestIssue) ?? [])
        if read.finishedDownloads.contains(where: { $0.id == id }) || shown.contains(where: { $0.id == id && $0.status == .available }) {
            state.setStatus(nil)
        }
    }

    /// Failures of work done elsewhere (the agent's downloads and feed polls, another
    /// process's refresh) reach the status line when they happen, once each.
    private static func reportBackgroundErrors(_ read: LibraryRead, summaries: [PublicationSummary], in state: inout State) {
        for issue in read.finishedDownloads where issue.status == .none {
            if let error = issue.lastError { state.setStatus("Download of “\(issue.title)” failed: \(error)", error: true) }
        }
        if let pending = read.pendingDownloads { state.watchedDownloads = pending }
        for summary in summaries {
            guard let id = summary.publication.id else { continue }
            let error = summary.publication.lastError
            if let previous = state.feedErrors[id], let error, previous != error {
                state.setStatus("Refreshing “\(summary.publication.title)” failed: \(error)", error: true)
            }
            state.feedErrors[id] = .some(error)
        }
    }

    /// What the screens show of what was read: titles matching the filter.
    /// The selection stays on the same publication and issue when the lists change.
    static func applyFilter(_ state: inout State) {
        let publication = state.selectedSummary?.publication.id
        let issue = state.selectedTile?.issue.id
        let filter = state.filter
        func matches(_ title: String) -> Bool {
            title.range(of: filter, options: [.caseInsensitive, .diacriticInsensitive]) != nil
        }
        // Without a filter the lists are shared, not copied (a store may hold 20,000 issues).
        state.summaries = filter.isEmpty ? state.allSummaries : state.allSummaries.filter { matches($0.publication.title) }
        state.shelfSelection = clamp(publication.flatMap { id in state.summaries.firstIndex { $0.publication.id == id } } ?? state.shelfSelection,
                                     count: state.summaries.count)
        state.tiles = filter.isEmpty ? state.allTiles : state.allTiles.filter { matches($0.issue.title) }
        state.storeSelection = clamp(issue.flatMap { id in state.tiles.firstIndex { $0.issue.id == id } } ?? state.storeSelection,
                                     count: state.tiles.count)
    }

    private static func clamp(_ index: Int, count: Int) -> Int { max(0, min(index, count - 1)) }
}
