import Foundation
import NewsstandKit
import Terminal

extension ShelfApp {
    /// The one place state changes: a message in, the effects to perform out. Pure: no
    /// library, no clock, no I/O (the open reader is a model object of its own, changed
    /// only through its own update).
    static func update(_ state: inout State, _ message: Message) -> [Effect] {
        var effects = route(&state, message)
        let height = state.height
        state.store?.followSelection(height: height)
        if let advice = state.pictureAdvice, advice.isNeeded(on: state.screen) {
            // Said when it matters, once: the status line wraps to show it whole.
            state.pictureAdvice = nil
            state.setStatus(advice.text, wraps: true)
            effects.append(.keepPictureAdviceGiven)
        }
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
            if state.screen == .store, key != .control("c"), key != .control("z"), state.store?.keepUntilRead(key) == true {
                return []
            }
            return self.key(&state, key)
        case .startReading(let issue):
            state.readerIsWholeProgram = true
            var effects: [Effect] = []
            if let index = state.summaries.firstIndex(where: { $0.publication.id == issue.publicationId }) {
                state.shelf.selection = index
                let shared = state.shared
                let asked = state.shelf.openStore(shared, issueToSelect: issue.id)
                effects = perform(asked, on: &state)
            }
            return effects + [.markOpened(issue)]
        case .libraryChanged:
            // The catalogs list shown follows another terminal's `catalog add` and `remove`.
            let catalogsShown = state.screen == .catalog && state.catalog.page == nil
            // The results shown say what is downloaded: the same search again.
            let searchedAgain = state.screen == .search ? state.search?.searchAgain() ?? [] : []
            // The list of every highlight follows one made or deleted elsewhere.
            let listedAgain = state.screen == .highlights ? state.highlights?.listAgain() ?? [] : []
            return [.readLibrary] + (catalogsShown ? [.readCatalogs] : []) + searchedAgain + listedAgain
        case .libraryRead(let read):
            var effects = apply(read, to: &state)
            // The store's issues arrived: the keys typed meanwhile act on them, in order
            // (and on the screens they lead to; another store opened by them, still being
            // read, keeps the rest).
            guard var keys = state.store?.keysAwaiting, !keys.isEmpty else { return effects }
            state.store?.keysAwaiting = []
            while state.store?.isRead == true || state.screen != .store, !keys.isEmpty {
                effects += key(&state, keys.removeFirst())
                let height = state.height
                state.store?.followSelection(height: height)
            }
            if !keys.isEmpty, let waiting = state.store?.keysAwaiting { state.store?.keysAwaiting = keys + waiting }
            return effects
        case .coverReady:
            return updateReader(&state) { $0.backgroundReady() }
        case .quitting:
            return updateReader(&state) { $0.leave() }
        case .refreshing(let done, let total):
            state.setStatus("Refreshing \(done)/\(total)…")
            return []
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
        case .issueOpened(var issue):
            // Opened from a search's hit: at the hit, not at the place saved.
            if let target = state.readerTarget, target.issueID == issue.id { issue.locator = target.place } else { state.readerTarget = nil }
            return [.openReader(issue)]
        case .issueGone(let issue):
            state.readerTarget = nil
            state.setStatus("“\(issue.title)” was removed to save space; tap to download it again.", error: true)
            return [.readLibrary]
        case .readerNeedsPassword(let issue, let wrong):
            // The store the issue was opened from asks.
            guard state.store != nil else {
                state.setStatus("“\(issue.title)” stays closed: it needs its password.")
                return []
            }
            state.store?.passwordPrompt = PasswordPrompt(issue: issue, wasWrong: wrong)
            state.setStatus(nil)
            return []
        case .catalogsRead(let catalogs):
            state.catalog.catalogs = catalogs
            state.catalog.listSelection = max(0, min(state.catalog.listSelection, catalogs.count - 1))
            return []
        case .catalogPageLoaded(let page, let replacing):
            // Pages that arrive after the catalogs closed are not shown.
            guard state.screens.contains(.catalog) else { state.catalog.loading = nil; return [] }
            let asked = state.catalog.pageLoaded(page, replacing: replacing)
            return perform(asked, on: &state)
        case .catalogNeedsSignIn(let host, let server, let wrong, let retry):
            let user = wrong ? state.catalog.usersSent[host] ?? "" : ""
            state.catalog.signIn = CatalogSignIn(host: host, server: server, wrong: wrong, retry: retry, user: user)
            state.setStatus(nil)
            return []
        case .signedIn(let retry):
            return [retry]
        case .catalogFailed(let text):
            state.catalog.loading = nil
            state.setStatus(text, error: true)
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
            state.setStatus("Downloading “\(issue.title)” into From catalogs…", cause: .take(issueID: id, title: issue.title))
            return [.enqueue(issueID: id), .startAgent, .readLibrary]
        case .readerOpened(let reader):
            state.push(.reader(reader))
            state.setStatus(nil)
            var effects = updateReader(&state) { $0.start() }
            if let target = state.readerTarget {
                state.readerTarget = nil
                if target.issueID == reader.issue.id, let word = target.word { effects += updateReader(&state) { $0.find(word) } }
                if target.issueID == reader.issue.id, let highlight = target.highlight {
                    effects += updateReader(&state) { $0.show(highlight) }
                }
            }
            return effects + [.readLibrary]
        case .searchFound(let found):
            let asked = state.search?.found(found) ?? []
            return perform(asked, on: &state)
        case .noteEdited(let highlight, let note, let issueID, let session):
            return [.changeHighlight(.note(id: highlight.id, note), issueID: issueID, session: session)]
        case .highlightsListed(let listed):
            state.highlights?.listed(listed)
            return []
        case .reader(let result):
            return updateReader(&state) { $0.loaded(result) }
        }
    }

    // MARK: Keys

    private static func key(_ state: inout State, _ key: Key) -> [Effect] {
        if key == .control("c") { state.quit = true; return [] }
        if key == .control("z") { return [.suspend] }
        let shared = state.shared
        switch state.screen {
        case .shelf:
            let asked = state.shelf.update(key, shared)
            return perform(asked, on: &state)
        case .store:
            guard let asked = state.store?.update(key, shared) else { state.pop(); return [] }
            return perform(asked, on: &state)
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
            let asked = state.catalog.update(key, shared)
            return perform(asked, on: &state)
        case .search:
            guard let asked = state.search?.update(key, shared) else { state.pop(); return [] }
            return perform(asked, on: &state)
        case .highlights:
            guard let asked = state.highlights?.update(key, shared) else { state.pop(); return [] }
            return perform(asked, on: &state)
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
            case .keepFitWidth(let fits):
                if let id = reader.issue.id { effects.append(.saveReaderFitWidth(issueID: id, fits)) }
            case .leave:
                state.reader = nil
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
            case .openLink(let link):
                effects.append(.openLink(link))
            case .copyLink(let link):
                effects.append(.copyToClipboard(link))
            case .highlight(let edit):
                if let id = reader.issue.id { effects.append(.changeHighlight(edit, issueID: id, session: reader.session)) }
            case .define(let word):
                effects.append(.define(word, session: reader.session))
            case .editNote(let highlight):
                if let id = reader.issue.id { effects.append(.editNote(highlight, issueID: id, session: reader.session)) }
            case .syncPlace(let leaving):
                if let id = reader.issue.id { effects.append(.syncPlace(issueID: id, session: reader.session, leaving: leaving)) }
            case .answerOffer(let take):
                if let id = reader.issue.id { effects.append(.answerPlaceOffer(issueID: id, take: take)) }
            }
        }
        return effects
    }

    static func showHelp(_ state: inout State) {
        state.push(.help(HelpScreen(opener: state.screen)))
    }

    // MARK: Mouse

    private static func mouse(_ state: inout State, _ button: MouseButton, x: Int, y: Int) -> [Effect] {
        switch button {
        case .wheelUp, .wheelDown:
            // Scrolling only moves; it never opens or marks anything read.
            let step = button == .wheelUp ? -1 : 1
            switch state.screen {
            case .shelf: state.shelf.move(by: step)
            case .store: state.store?.move(by: step)
            case .reader:
                return updateReader(&state) { $0.scroll(by: step * 3) }
            case .help:
                let shared = state.shared
                state.help?.scroll(by: step * 3, keys: shared.keyBindings, width: shared.width, height: shared.height)
            case .catalog:
                let shared = state.shared
                state.catalog.move(by: step, shared)
            case .search: state.search?.move(by: step)
            case .highlights: state.highlights?.move(by: step)
            }
            return []
        case .left:
            // On every screen a click selects, and a click on what is selected opens it (as Enter).
            guard !state.isTooSmall else { return [] }
            let shared = state.shared
            switch state.screen {
            case .shelf:
                let asked = state.shelf.click(x: x, y: y, shared)
                return perform(asked, on: &state)
            case .store:
                let asked = state.store?.click(x: x, y: y, shared) ?? []
                return perform(asked, on: &state)
            case .catalog:
                let asked = state.catalog.click(x: x, y: y, shared)
                return perform(asked, on: &state)
            case .reader:
                return updateReader(&state) { $0.click(x: x, y: y) }
            case .help, .search, .highlights:
                return []
            }
        case .leftDrag:
            // Only text being chosen follows a drag (the press before it began the choice).
            guard state.screen == .reader, !state.isTooSmall else { return [] }
            return updateReader(&state) { $0.drag(x: x, y: y) }
        default:
            return []
        }
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
        if let store = read.store, store.publicationID == state.storePublicationID { state.store?.read(store.tiles) }
        if let error = read.error {
            state.setStatus("library: \(error)", error: true)
            state.store?.isRead = true   // nothing more is coming
        }
        endFinishedStatus(read, in: &state)
        // What the screens show of it: titles matching their filters.
        let summaries = state.allSummaries
        state.shelf.show(summaries)
        state.store?.applyFilter()
        // Enter on an issue not downloaded: it opens once here, if its store still shows it chosen.
        if state.screen == .store, let issue = state.store?.takeDownloadedToOpen() { effects.append(.markOpened(issue)) }
        return effects
    }

    /// "Downloading …" goes once the read shows the issue downloaded, or its download over
    /// (a failure says so itself, in its own status).
    /// A book taken from a catalog says where it is once it is there.
    private static func endFinishedStatus(_ read: LibraryRead, in state: inout State) {
        guard let cause = state.statusCause else { return }
        let id: Int64
        switch cause {
        case .download(let issueID), .take(let issueID, _): id = issueID
        }
        let shown = (read.store?.tiles.map(\.issue) ?? []) + (read.summaries?.compactMap(\.newestIssue) ?? []) + read.finishedDownloads
        if shown.contains(where: { $0.id == id && $0.status == .available }), case .take(_, let title) = cause {
            state.setStatus("“\(title)” is on the shelf, in From catalogs.")
        } else if read.finishedDownloads.contains(where: { $0.id == id }) || shown.contains(where: { $0.id == id && $0.status == .available }) {
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
}
