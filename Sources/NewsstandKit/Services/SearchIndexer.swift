import Foundation
import Logging

/// Reads the text of an installed issue's content for the index. NewsstandKit reads no
/// HTML or PDF text itself: the program gives one (`IssueSearchTexts` in Shelf, over the
/// text layout and the PDF worker).
public protocol IssueTextSource: Sendable {
    /// Every readable part of the content installed in `directory`, in reading order
    /// (`kind` `.text` or `.page`).
    func parts(ofContentIn directory: URL) throws -> [SearchablePart]
}

/// Brings the search index up to date with what the triggers marked (`searchPending`):
/// each issue's details, and the text of what was installed, read outside any
/// transaction and written one issue a transaction. Run by the agent after its installs
/// and by `newsstand search` (never on the shelf's key path); two processes catching up
/// at once write the same rows twice, never wrong ones.
public struct SearchIndexer: Sendable {
    let store: LibraryStore
    let texts: (any IssueTextSource)?
    let contentDirectory: @Sendable (Issue) -> URL

    /// Indexes everything marked; how many issues it indexed. `progress` hears (done, left).
    @discardableResult
    public func catchUp(progress: (Int, Int) -> Void = { _, _ in }) throws -> Int {
        var done = 0
        // A mark is done once: one that stays (its issue gone meanwhile) is not read again.
        var handled: Set<[Int64]> = []
        while true {
            let work = try store.pendingSearchWork().filter { !handled.contains([$0.issueID, $0.stamp]) }
            if work.isEmpty { break }
            for (number, item) in work.enumerated() {
                try index(item)
                handled.insert([item.issueID, item.stamp])
                done += 1
                progress(done, work.count - number - 1)
            }
        }
        if done > 0 { try store.optimizeSearchIndex() }
        return done
    }

    /// One issue: its details, and its content's text when it was installed since.
    func index(_ work: LibraryStore.SearchWork) throws {
        guard let issue = try store.issue(id: work.issueID) else {
            return try store.writeSearchParts(work, about: nil, content: nil)
        }
        let readable = work.content && issue.status == .available
        var content: [SearchablePart]?
        if readable, let texts {
            // Unreadable content (damaged, a PDF the worker gave up on) leaves the details findable.
            content = (try? texts.parts(ofContentIn: contentDirectory(issue))) ?? []
        }
        // Without a reader of text the content stays marked, for a process that has one.
        try store.writeSearchParts(work, about: Self.about(issue), content: content, done: !readable || texts != nil)
    }

    /// An issue's details as a part: its titles weigh most; its authors and summary.
    static func about(_ issue: Issue) -> SearchablePart {
        var titles = [issue.title]
        if let own = issue.contentTitle, own != issue.title { titles.append(own) }
        let text = (issue.authors + [issue.summary ?? ""]).filter { !$0.isEmpty }.joined(separator: "\n")
        return SearchablePart(kind: .about, resource: nil, page: nil, position: 0, label: nil,
                              title: titles.joined(separator: "\n"), text: text)
    }
}

/// The search index as the library offers it: its indexer, its rebuild, how far behind it
/// is, and its queries (`newsstand search`; the agent keeps it up to date).
public struct SearchIndex: Sendable {
    let store: LibraryStore
    let downloads: DownloadQueue

    /// The indexer of this library; without `texts`, only issues' details are indexed.
    public func indexer(texts: (any IssueTextSource)?) -> SearchIndexer {
        let queue = downloads
        return SearchIndexer(store: store, texts: texts, contentDirectory: { queue.contentDirectory(for: $0) })
    }

    /// Every issue indexed again (the text of evicted ones is kept: it cannot be read again).
    public func rebuild(texts: (any IssueTextSource)?, progress: (Int, Int) -> Void = { _, _ in }) throws -> Int {
        try store.markAllForSearch()
        return try indexer(texts: texts).catchUp(progress: progress)
    }

    /// Issues the index has still to catch up with.
    public func pendingCount() throws -> Int { try store.pendingSearchCount() }

    /// The index's size and the size of the text it holds, in bytes.
    public func size() throws -> (index: Int64, text: Int64) { try store.searchIndexSize() }

    /// What `query` finds, by issue, best first: at most `issues` issues and `perIssue`
    /// parts each; with `publication` (else the query's `in:`), only that publication's
    /// (`publication(matching:)`).
    public func find(_ query: SearchQuery, publication: String? = nil, issues: Int = 20, perIssue: Int = 3) throws -> SearchResults {
        let only = try (publication ?? query.publication).map { [try store.publication(matching: $0, includingUnsubscribed: true).id ?? -1] }
        return try store.searchResults(match: query.match, publicationIDs: only, issues: issues, perIssue: perIssue)
    }
}

/// The agent's indexing: one catch-up at a time on a thread of its own, beside the
/// transfers, started when the triggers have marked something (a look at one small table).
/// The thread runs at a lower priority (nice 10): indexing is work for when the machine has
/// time, and the shelf's keys (another process) must not wait behind it on a busy machine.
/// A thread of its own, not a dispatch queue's: a niced pooled thread would stay niced for
/// whatever the pool gives it next.
final class SearchCatchUp: @unchecked Sendable {
    // @unchecked: `running` is read and written only under `lock`.
    private let indexer: SearchIndexer
    private let lock = NSLock()
    private var running = false
    /// After a failure (a full disk), the next try waits this long, not the loop's next tick.
    private var notBefore = Date.distantPast
    static let retryAfter: TimeInterval = 60
    /// The indexing thread's niceness (0 is the agent's own; 19 the lowest).
    static let niceness: Int32 = 10

    init(_ indexer: SearchIndexer) { self.indexer = indexer }

    var isRunning: Bool { lock.withLock { running } }

    func requestIfMarked(group: DispatchGroup, logger: Logger) {
        guard lock.withLock({ !running && Date() >= notBefore }), (try? indexer.store.pendingSearchCount()) ?? 0 > 0 else { return }
        lock.withLock { running = true }
        group.enter()
        Thread.detachNewThread { [self] in
            defer { group.leave() }
            // This thread alone: on Linux `who` 0 is the calling thread, each niced on its own.
            setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, Self.niceness)
            var failed = false
            defer { lock.withLock { running = false; if failed { notBefore = Date().addingTimeInterval(Self.retryAfter) } } }
            do {
                let indexed = try indexer.catchUp()
                if indexed > 0 { logger.info("search index: \(indexed) issue(s) indexed") }
            } catch {
                failed = true
                logger.error("search index: \(error)")
            }
        }
    }
}
