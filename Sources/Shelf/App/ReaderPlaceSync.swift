import Foundation
import NewsstandKit

/// Syncs the open issue's place with the servers on a queue of its own, so that a server
/// that is slow or down holds up neither a key, the library's writes nor the reader's
/// reads; the open reader is told what came of it (`ReaderLoaded.placeSynced`). A sync
/// asked while one runs for the same issue is not asked twice.
final class ReaderPlaceSync: @unchecked Sendable {  // `sync` is immutable; `waiting` is guarded by `lock`
    private let queue = DispatchQueue(label: "newsstand.shelf.place-sync", qos: .utility)
    private let mailbox: Mailbox<ShelfApp.Message>
    /// One for the shelf's life: its connections kept alive from one minute's sync to the next.
    private let sync: PlaceSync
    private let inFlight = Counter()
    private let lock = NSLock()
    private var waiting: Set<Int64> = []

    init(mailbox: Mailbox<ShelfApp.Message>, sync: PlaceSync) {
        self.mailbox = mailbox
        self.sync = sync
    }

    /// A sync queued or running: the run loop looks for its answer now and then.
    var isBusy: Bool { inFlight.value > 0 }

    /// Syncs issue `id` (called after the writes asked before it); reader `session` is told
    /// unless `leaving`. A place that cannot reach its server stays waiting in the library,
    /// tried again with the agent's backoff.
    func sync(issueID id: Int64, session: Int, leaving: Bool) {
        let queued = lock.withLock { waiting.insert(id).inserted }
        guard queued || leaving else { return }
        inFlight.add(1)
        queue.async { [self] in
            lock.withLock { _ = waiting.remove(id) }
            let synced = sync.syncOpenIssue(id: id, leaving: leaving)
            if !leaving { mailbox.post(.reader(ReaderResult(session: session, loaded: .placeSynced(synced)))) }
            inFlight.add(-1)
        }
    }

    /// Waits for the syncs queued so far (tests).
    func finishAll() { queue.sync {} }

    /// Waits for the syncs queued so far, at most `seconds`: whether they ended.
    @discardableResult
    func finish(within seconds: TimeInterval) -> Bool {
        let ended = DispatchSemaphore(value: 0)
        queue.async { ended.signal() }
        return ended.wait(timeout: .now() + seconds) == .success
    }
}
