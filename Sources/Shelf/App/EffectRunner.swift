import Feeds
import Foundation
import NewsstandKit

/// Where an effect runs: every effect names its queue (`Effect.queue`), and `run` sends it there.
enum EffectQueue: Equatable {
    /// On the run loop itself, at once: what changes the screen's own objects (the reader)
    /// or the terminal (suspending).
    case runLoop
    /// The library's reads for the screens, one at a time, the newest request wins.
    case reads
    /// The library's writes, one after another, in the order asked.
    case writes
    /// Feed refreshes and subscriptions, which take seconds: never in front of a write.
    case refresh
    /// Catalog pages, searches and covers: network reads, never behind a refresh.
    case catalog
    /// The reader's reads (an issue opened, its articles, a page's text, the contents), one
    /// at a time on their own queue (`ReaderEffects`), never behind the library's work.
    case readerIO
}

extension ShelfApp.Effect {
    /// The queue this effect runs on. A new effect does not compile until it says.
    var queue: EffectQueue {
        switch self {
        case .suspend, .closeStreamedComic, .openLink, .copyToClipboard, .editNote:
            return .runLoop
        case .openReader, .readStreamed, .reader, .define:
            return .readerIO
        case .readLibrary, .readStore, .searchLibrary, .listHighlights:
            return .reads
        case .enqueue, .startAgent, .setPinned, .markOpened, .evictContent, .cancelDownload, .saveReadingPlace,
             .saveTextWidth, .saveStoreView, .keepPictureAdviceGiven, .saveReaderView, .saveReaderFitWidth,
             .takeAlert, .removeCatalog, .takeBook, .changeHighlight, .deleteHighlight, .syncPlace, .answerPlaceOffer:
            return .writes
        case .refresh, .subscribeCatalogFeed:
            return .refresh
        case .readCatalogs, .loadCatalogPage, .searchCatalog, .addCatalog, .signIn, .fetchCatalogCovers:
            return .catalog
        }
    }
}

/// What only the run loop can do: it owns the screens' state, the reader and the terminal.
protocol RunLoopEffects: AnyObject {
    /// Reads the shelf (unless `storeOnly`) and the open store on the reads queue.
    func readLibrary(storeOnly: Bool)
    func openReader(_ issue: Issue, password: DocumentPassword?)
    func openStreamed(_ book: CatalogBook)
    func suspend()
    /// Hands the terminal to `$EDITOR` on a highlight's note, between frames.
    func editNote(_ highlight: Highlight, issueID: Int64, session: Int)
    /// Bytes for the terminal (the clipboard's escape), written after the next frame.
    func writeToTerminal(_ bytes: [UInt8])
}

/// Performs every effect `update` returns, each on its queue (`EffectQueue`), and posts
/// what came of them as messages for the run loop to feed to `update`. Writes go one after
/// another on one queue; feed refreshes, which take seconds, on another, so a pin never
/// waits behind a refresh.
final class EffectRunner: @unchecked Sendable {   // `environment`, `lastBrowser` and `loop` are touched only on the run loop

    let library: Library
    private let startAgent: @Sendable () -> Void
    private let clock: @Sendable () -> Date
    /// Where `$BROWSER` is read from (tests give their own).
    var environment = ProcessInfo.processInfo.environment
    /// The browser last started for a link (tests wait for it to end).
    private(set) var lastBrowser: Process?
    private let writes = DispatchQueue(label: "newsstand.shelf.effects")
    private let refreshes = DispatchQueue(label: "newsstand.shelf.refresh")
    /// Catalog pages, searches and covers: network reads, never behind a refresh.
    private let catalogs = DispatchQueue(label: "newsstand.shelf.catalogs")
    /// The library's reads for the screens (`ShelfApp.read`), one at a time.
    let reads = DispatchQueue(label: "newsstand.shelf.reads")
    private let writesInFlight = Counter()
    private let refreshesInFlight = Counter()
    /// Catalog work queued or running (pages, searches, covers).
    private let catalogWorkInFlight = Counter()
    private let readsInFlight = Counter()
    /// Results for the run loop.
    let mailbox = Mailbox<ShelfApp.Message>()
    /// The reader's I/O queue: opening an issue and what the open reader asks to read.
    let readerIO: ReaderEffects
    /// The open issue's place synced with the servers, on its own queue.
    let placeSync: ReaderPlaceSync
    /// The app whose run loop performs the `.runLoop` effects (none in tests of the runner alone).
    weak var loop: RunLoopEffects?

    init(library: Library, startAgent: @escaping @Sendable () -> Void, clock: @escaping @Sendable () -> Date) {
        self.library = library
        self.startAgent = startAgent
        self.clock = clock
        readerIO = ReaderEffects(mailbox: mailbox)
        placeSync = ReaderPlaceSync(mailbox: mailbox, sync: library.sync)
    }

    /// True while a write, a read or catalog work is queued or running or its result waits:
    /// the run loop then looks for results often rather than waiting for input (a page
    /// fetched in 10 ms is shown then, not at the next poll).
    var isBusy: Bool {
        writesInFlight.value > 0 || readsInFlight.value > 0 || catalogWorkInFlight.value > 0 || readerIO.isBusy
            || mailbox.hasMessages
    }

    /// True while a refresh or subscription runs: its result is looked for, less often.
    var isRefreshing: Bool { refreshesInFlight.value > 0 || placeSync.isBusy }

    /// True while catalog work (a page, a search, covers) is queued or running.
    var isFetching: Bool { catalogWorkInFlight.value > 0 }

    /// The one place an effect is performed: each case says what it does, on its queue.
    func run(_ effect: ShelfApp.Effect) {
        let library = library
        let box = mailbox
        let queue = effect.queue
        switch effect {
        case .readLibrary:
            loop?.readLibrary(storeOnly: false)
        case .readStore:
            loop?.readLibrary(storeOnly: true)
        case .searchLibrary(let query, let serial, let again):
            submit(queue) {
                let outcome: Result<SearchResults, SearchScreen.Failure>
                do {
                    outcome = .success(try library.search.find(query, issues: SearchScreen.issueLimit, perIssue: SearchScreen.partsPerIssue))
                } catch {
                    outcome = .failure(SearchScreen.Failure(text: "Cannot search: \(error)"))
                }
                box.post(.searchFound(SearchScreen.Found(serial: serial, outcome: outcome, again: again)))
            }
        case .listHighlights(let publication, let text, let serial):
            submit(queue) {
                let outcome: Result<HighlightsScreen.Listed.Found, SearchScreen.Failure>
                do {
                    outcome = .success(.init(highlights: try library.highlights.all(publication: publication, containing: text)))
                } catch {
                    outcome = .failure(SearchScreen.Failure(text: "Cannot list the highlights: \(error)."))
                }
                box.post(.highlightsListed(.init(serial: serial, outcome: outcome)))
            }
        case .openReader(let issue, let password):
            loop?.openReader(issue, password: password)
        case .readStreamed(let book):
            loop?.openStreamed(book)
        case .reader(let request):
            readerIO.perform(request)
        case .suspend:
            loop?.suspend()
        case .editNote(let highlight, let issueID, let session):
            loop?.editNote(highlight, issueID: issueID, session: session)
        case .openLink(let link):
            do { lastBrowser = try ExternalLinks.open(link, environment: environment) } catch { box.post(.effectFailed("cannot open \(link): \(error)")) }
        case .copyToClipboard(let text):
            loop?.writeToTerminal(ExternalLinks.clipboardEscape(text))
        case .closeStreamedComic(let comic):
            comic.close()
            // The page left at, to a server that keeps it from the pages asked for (Codex); a
            // server that is down misses it (a streamed comic is no issue to keep a place for).
            submit(.refresh) { try? comic.tellPlace(through: OPDSProgress(paths: library.paths)) }
        case .enqueue(let id):
            submit(queue) {
                guard let issue = try library.store.issue(id: id) else { return }
                try library.downloads.enqueue(issue)
                box.post(.libraryChanged)
            }
        case .startAgent:
            submit(queue) { self.startAgent() }
        case .setPinned(let id, let pinned):
            submit(queue) {
                guard let issue = try library.store.issue(id: id) else { return }
                try library.store.setPinned(issue, pinned)
                box.post(.libraryChanged)
            }
        case .markOpened(let issue):
            submit(queue) { self.open(issue) }
        case .syncPlace(let id, let session, let leaving):
            // Behind the writes asked before (the place kept on leaving), then on its own queue.
            submit(queue) { self.placeSync.sync(issueID: id, session: session, leaving: leaving) }
        case .answerPlaceOffer(let id, let take):
            submit(queue) {
                guard let issue = try library.store.issue(id: id) else { return }
                if take { try library.sync.acceptOffer(for: issue) } else { try library.sync.declineOffer(for: issue) }
            }
        case .evictContent(let id):
            submit(queue) {
                guard let issue = try library.store.issue(id: id) else { return }
                try library.cache.evictContent(of: issue, toSaveSpace: false)
                box.post(.contentRemoved(issue))
            }
        case .cancelDownload(let id):
            submit(queue) {
                guard let issue = try library.store.issue(id: id) else { return }
                try library.downloads.cancelDownload(issue)
                box.post(.downloadCancelled(issue))
            }
        case .saveTextWidth(let width):
            submit(queue) { try library.store.setReaderTextWidth(width) }
        case .saveStoreView(let id, let asList):
            submit(queue) { try library.store.setStoreShownAsList(publicationID: id, asList) }
        case .keepPictureAdviceGiven:
            submit(queue) { try library.store.setPictureAdviceGiven() }
        case .saveReaderView(let id, let view):
            submit(queue) {
                guard let issue = try library.store.issue(id: id) else { return }
                try library.store.setReaderView(view, for: issue)
            }
        case .saveReaderFitWidth(let id, let fits):
            submit(queue) {
                guard let issue = try library.store.issue(id: id) else { return }
                try library.store.setReaderFitsWidth(fits, for: issue)
            }
        case .saveReadingPlace(let id, let locator):
            submit(queue) {
                guard let issue = try library.store.issue(id: id) else { return }
                try library.store.saveLocator(locator, for: issue)
                box.post(.libraryChanged)
            }
        case .changeHighlight(let edit, let id, let session):
            submit(queue) {
                switch edit {
                case .add(let draft): try library.highlights.add(draft)
                case .note(let highlight, let note): try library.highlights.editNote(highlight, to: note)
                case .recolor(let highlight, let color): try library.highlights.recolor(highlight, to: color)
                case .delete(let highlight): try library.highlights.delete(highlight)
                }
                guard let issue = try library.store.issue(id: id) else { return }
                box.post(.reader(ReaderResult(session: session, loaded: .highlights(try library.highlights.list(for: issue)))))
            }
        case .deleteHighlight(let id):
            submit(queue) { try library.highlights.delete(id) }
        case .define(let word, let session):
            let environment = environment
            readerIO.submit {
                box.post(.reader(ReaderResult(session: session, loaded: .definition(word: word, WordDictionary.define(word, environment: environment)))))
            }
        case .takeAlert:
            submit(queue) { if let alert = try? library.store.takeUnshownAlert(now: self.clock()) { box.post(.alert(alert.text)) } }
        case .removeCatalog(let catalog):
            submit(queue) {
                try library.store.removeCatalog(catalog)
                box.post(.catalogsRead(try library.store.catalogs()))
            }
        case .takeBook(let book):
            submit(queue) {
                box.post(.bookTaken(try library.subscriptions.take(book)))
                box.post(.libraryChanged)
            }
        case .refresh(let publications):
            submit(queue) { self.refresh(publications) }
        case .subscribeCatalogFeed(let url, let title):
            submit(queue) { self.subscribe(catalogFeed: url, title: title, effect: effect) }
        case .readCatalogs:
            submit(queue) {
                do { box.post(.catalogsRead(try library.store.catalogs())) } catch { box.post(.catalogFailed("catalogs: \(error)")) }
            }
        case .loadCatalogPage(let url, let replacing):
            submit(queue) {
                do { box.post(.catalogPageLoaded(try library.catalogs.page(at: url), replacing: replacing)) } catch {
                    self.report(error, retry: effect, as: "")
                }
            }
        case .searchCatalog(let page, let terms):
            submit(queue) {
                do { box.post(.catalogPageLoaded(try library.catalogs.search(page, terms: terms), replacing: false)) } catch {
                    self.report(error, retry: effect, as: "search: ")
                }
            }
        case .addCatalog(let url):
            submit(queue) { self.addCatalog(url, effect: effect) }
        case .signIn(let host, let user, let password, let retry):
            submit(queue) { self.signIn(host: host, user: user, password: password, retry: retry) }
        case .fetchCatalogCovers(let urls):
            // After the page: the covers arrive as they come, and the screen draws them then.
            submit(queue) { if library.covers.fetchCatalogCovers(urls) > 0 { box.post(.coverReady) } }
        }
    }

    /// Runs `work` on `queue`, counted while it waits or runs; what it throws reaches the
    /// status line. The run loop's own work runs at once.
    func submit(_ queue: EffectQueue, _ work: @escaping @Sendable () throws -> Void) {
        let box = mailbox
        let (dispatch, count): (DispatchQueue, Counter)
        switch queue {
        case .runLoop:
            do { try work() } catch { box.post(.effectFailed("\(error)")) }
            return
        case .reads: (dispatch, count) = (reads, readsInFlight)
        case .writes: (dispatch, count) = (writes, writesInFlight)
        case .refresh: (dispatch, count) = (refreshes, refreshesInFlight)
        case .catalog: (dispatch, count) = (catalogs, catalogWorkInFlight)
        case .readerIO:
            readerIO.submit { do { try work() } catch { box.post(.effectFailed("\(error)")) } }
            return
        }
        count.add(1)
        dispatch.async {
            do { try work() } catch { box.post(.effectFailed("\(error)")) }
            count.add(-1)
        }
    }

    /// Waits for the writes queued so far (at exit, so a pin pressed just before q is kept),
    /// then for the place being sent on leaving the reader, a few seconds at most: a server
    /// that does not answer by then gets it from the agent or the next sync (it waits in the
    /// library), but one that is only slow must not lose it to the exit.
    func finishWrites() {
        writes.sync {}
        placeSync.finish(within: Self.placeSyncAtExit)
    }

    static let placeSyncAtExit: TimeInterval = 3

    /// Waits for everything queued so far, refreshes and reads too (tests, and `newsstand
    /// read` before the first frame).
    func finishAll() {
        writes.sync {}
        refreshes.sync {}
        catalogs.sync {}
        reads.sync {}
        readerIO.finishAll()
        placeSync.finishAll()   // queued from the writes queue, waited for above
    }

    /// Being the issue read first keeps the agent's eviction away from it; then make sure
    /// its content is still there (an eviction may have come just before). On a library
    /// opened read-only because the disk was full, nothing can evict: read.
    private func open(_ issue: Issue) {
        do {
            if library.store.diskFull == nil { try library.store.markOpened(issue, at: clock()) }
            guard let current = try library.store.issue(id: issue.id ?? -1), current.status == .available else {
                mailbox.post(.issueGone(issue))
                return
            }
            mailbox.post(.issueOpened(current))
        } catch {
            mailbox.post(.effectFailed("cannot open “\(issue.shownTitle)”: \(error)"))
        }
    }

    /// A few feeds at a time, at most two a server (as `newsstand refresh`); with more than
    /// one, each that ends is counted to the status line. Failures keep the feeds' order.
    private func refresh(_ publications: [Publication]) {
        let tally = RefreshTally(), mailbox = mailbox
        library.subscriptions.refresh(publications) { index, result in
            let title = publications[index].title
            // A folder's files are held to the cache budget as they are installed; a budget that
            // could not be held is that refresh's failure.
            let outcome: Result<Int, RefreshFailure> = switch result {
            case let .success(refreshed):
                refreshed.budget?.problem.map { .failure(RefreshFailure(text: "\(title): \($0)")) } ?? .success(refreshed.added.count)
            case let .failure(error): .failure(RefreshFailure(text: "\(title): \(error)"))
            }
            tally.record(outcome, at: index) { done in
                if publications.count > 1 { mailbox.post(.refreshing(done: done, of: publications.count)) }
            }
        }
        mailbox.post(.refreshed(added: tally.added, failures: tally.failures))
    }
}

/// What the refresh of several feeds has brought so far, told from the threads that refresh
/// them. The lock guards the counts, and keeps the counts posted in order.
private final class RefreshTally: @unchecked Sendable {
    private let lock = NSLock()
    private var done = 0, newIssues = 0
    private var failed: [Int: String] = [:]

    func record(_ result: Result<Int, RefreshFailure>, at index: Int, then tell: (Int) -> Void) {
        lock.withLock {
            switch result {
            case .success(let added): newIssues += added
            case .failure(let failure): failed[index] = failure.text
            }
            done += 1
            tell(done)
        }
    }
    var added: Int { lock.withLock { newIssues } }
    /// In the order the feeds were given.
    var failures: [String] { lock.withLock { failed.keys.sorted().compactMap { failed[$0] } } }
}

private struct RefreshFailure: Error {
    let text: String
}

/// Messages from other threads, taken by the run loop. The lock guards `pending`.
final class Mailbox<Message>: @unchecked Sendable {
    private let lock = NSLock()
    private var pending: [Message] = []
    func post(_ message: Message) { lock.withLock { pending.append(message) } }
    func takeAll() -> [Message] { lock.withLock { defer { pending.removeAll() }; return pending } }
    var hasMessages: Bool { lock.withLock { !pending.isEmpty } }
}

/// A count several threads change. The lock guards `count`.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add(_ delta: Int) { lock.withLock { count += delta } }
    var value: Int { lock.withLock { count } }
}

/// The newest of a value several threads hand over, taken once. The lock guards `value`.
final class Latest<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value?
    /// Keeps `newValue`, or what `merge` makes of the value waiting and it; true when none
    /// was waiting (the caller then schedules a take).
    func replace(with newValue: Value, merging merge: (Value, Value) -> Value = { $1 }) -> Bool {
        lock.withLock {
            defer { value = value.map { merge($0, newValue) } ?? newValue }
            return value == nil
        }
    }
    func take() -> Value? { lock.withLock { defer { value = nil }; return value } }
}
