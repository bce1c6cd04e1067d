import Foundation
import NewsstandKit

/// Performs the effects that touch the library, off the main thread, and posts what came
/// of them as messages for the run loop to feed to `update`. Writes go one after another
/// on one queue; feed refreshes, which take seconds, on another, so a pin never waits
/// behind a refresh.
final class EffectRunner {
    let library: Library
    private let startAgent: () -> Void
    private let clock: () -> Date
    private let writes = DispatchQueue(label: "newsstand.shelf.effects")
    private let refreshes = DispatchQueue(label: "newsstand.shelf.refresh")
    /// Catalog pages, searches and covers: network reads, never behind a refresh.
    let catalogs = DispatchQueue(label: "newsstand.shelf.catalogs")
    private let writesInFlight = Counter()
    /// Catalog work queued or running (pages, searches, covers).
    private let catalogWorkInFlight = Counter()
    /// Results for the run loop.
    let mailbox = Mailbox<ShelfApp.Message>()

    init(library: Library, startAgent: @escaping () -> Void, clock: @escaping () -> Date) {
        self.library = library
        self.startAgent = startAgent
        self.clock = clock
    }

    /// True while a write or catalog work is queued or running or its result waits: the
    /// run loop then looks for results often rather than waiting for input (a page fetched
    /// in 10 ms is shown then, not at the next tenth of a second).
    var isBusy: Bool { writesInFlight.value > 0 || catalogWorkInFlight.value > 0 || mailbox.hasMessages }

    /// True while catalog work (a page, a search, covers) is queued or running.
    var isFetching: Bool { catalogWorkInFlight.value > 0 }

    func perform(_ effect: ShelfApp.Effect) {
        if case .refresh(let publications) = effect {
            refreshes.async { self.refresh(publications) }
            return
        }
        if case .subscribeCatalogFeed(let url, let title) = effect {
            refreshes.async { self.subscribe(catalogFeed: url, title: title, effect: effect) }
            return
        }
        catalogWorkInFlight.add(1)
        if performCatalogRead(effect) {
            catalogs.async { self.catalogWorkInFlight.add(-1) }   // after the work just queued
            return
        }
        catalogWorkInFlight.add(-1)
        writesInFlight.add(1)
        writes.async {
            self.write(effect)
            self.writesInFlight.add(-1)
        }
    }

    /// Waits for the writes queued so far (at exit, so a pin pressed just before q is kept).
    func finishWrites() { writes.sync {} }

    /// Waits for everything queued so far, refreshes too (tests, and `newsstand read` before the first frame).
    func finishAll() {
        writes.sync {}
        refreshes.sync {}
        catalogs.sync {}
    }

    private func write(_ effect: ShelfApp.Effect) {
        let box = mailbox
        do {
            switch effect {
            case .enqueue(let id):
                guard let issue = try library.issue(id: id) else { return }
                try library.enqueue(issue)
                box.post(.libraryChanged)
            case .startAgent:
                startAgent()
            case .setPinned(let id, let pinned):
                guard let issue = try library.issue(id: id) else { return }
                try library.setPinned(issue, pinned)
                box.post(.libraryChanged)
            case .markOpened(let issue):
                open(issue)
            case .evictContent(let id):
                guard let issue = try library.issue(id: id) else { return }
                try library.evictContent(of: issue, toSaveSpace: false)
                box.post(.contentRemoved(issue))
            case .cancelDownload(let id):
                guard let issue = try library.issue(id: id) else { return }
                try library.cancelDownload(issue)
                box.post(.downloadCancelled(issue))
            case .saveTextWidth(let width):
                try library.setReaderTextWidth(width)
            case .saveReaderView(let id, let view):
                guard let issue = try library.issue(id: id) else { return }
                try library.setReaderView(view, for: issue)
            case .saveReadingPlace(let id, let locator):
                guard let issue = try library.issue(id: id) else { return }
                try library.saveLocator(locator, for: issue)
                box.post(.libraryChanged)
            case .takeAlert:
                if let alert = library.takeUnshownAlert(now: clock()) { box.post(.alert(alert.text)) }
            case .removeCatalog(let catalog):
                try library.removeCatalog(catalog)
                box.post(.catalogsRead(try library.catalogs()))
            case .takeBook(let book):
                box.post(.bookTaken(try library.take(book)))
                box.post(.libraryChanged)
            case .refresh, .readLibrary, .readStore, .openReader, .suspend, .subscribeCatalogFeed,
                 .readCatalogs, .loadCatalogPage, .searchCatalog, .fetchCatalogCovers, .addCatalog, .signIn,
                 .readStreamed, .closeStreamedComic, .reader:
                break   // not the runner's writes: see `ShelfApp.perform` and `perform(_:)`
            }
        } catch {
            box.post(.effectFailed("\(error)"))
        }
    }

    /// Being the issue read first keeps the agent's eviction away from it; then make sure
    /// its content is still there (an eviction may have come just before). On a library
    /// opened read-only because the disk was full, nothing can evict: read.
    private func open(_ issue: Issue) {
        do {
            if library.diskFull == nil { try library.markOpened(issue, at: clock()) }
            guard let current = try library.issue(id: issue.id ?? -1), current.status == .available else {
                mailbox.post(.issueGone(issue))
                return
            }
            mailbox.post(.issueOpened(current))
        } catch {
            mailbox.post(.effectFailed("cannot open “\(issue.shownTitle)”: \(error)"))
        }
    }

    private func refresh(_ publications: [Publication]) {
        var added = 0
        var failures: [String] = []
        for publication in publications {
            do { added += try library.refresh(publication).added.count } catch { failures.append("\(publication.title): \(error)") }
        }
        mailbox.post(.refreshed(added: added, failures: failures))
    }
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
    /// Keeps `newValue`; true when none was waiting (the caller then schedules a take).
    func replace(with newValue: Value) -> Bool { lock.withLock { defer { value = newValue }; return value == nil } }
    func take() -> Value? { lock.withLock { defer { value = nil }; return value } }
}
