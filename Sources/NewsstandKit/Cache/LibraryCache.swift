import Foundation
import GRDB
import IssueArchive

extension LibraryStore {
    /// "v2-cache": issue content sizes and downloads paused by a full disk. Registered after
    /// v1; independent of other v2 migrations.
    static func registerCacheMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v2-cache: measured content sizes, downloads waiting for disk space") { db in
            try db.alter(table: "issue") { t in t.add(column: "contentSize", .integer) }
            try db.alter(table: "assetDownload") { t in t.add(column: "waitingForSpace", .integer) }
        }
    }
}

/// Issue content as a cache: measured, kept within the budget, evicted least recently used
/// first, and always downloadable again. A service over the store and the download queue's
/// files; it never holds the `Library` (the agent evicts through it too).
public struct ContentCache: Sendable {
    let store: LibraryStore
    /// Where each issue's content is, and how it is measured and recorded.
    let downloads: DownloadQueue
    var paths: Paths { downloads.paths }

    /// Bytes of the regular files under `directory` (symbolic links are not followed), but
    /// for the files a reader kept beside the content later (`measureKept`).
    public static func measureContent(at directory: URL) -> Int64 {
        guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.fileSizeKey, .isRegularFileKey]) else { return 0 }
        var total: Int64 = 0
        for case let file as URL in walker where !KeptBeside.isKept(file.lastPathComponent) {
            total += regularFileSize(file)
        }
        return total
    }

    /// Bytes of the files a reader kept beside an issue's content once it was installed (a
    /// PDF's page texts, `KeptBeside`): in its folder or the folders in it, where the
    /// documents of an issue are; names only are read below that.
    public static func measureKept(at directory: URL) -> Int64 {
        guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else { return 0 }
        var total: Int64 = 0
        for case let file as URL in walker {
            if walker.level >= 2 { walker.skipDescendants() }
            if KeptBeside.isKept(file.lastPathComponent) { total += regularFileSize(file) }
        }
        return total
    }

    private static func regularFileSize(_ file: URL) -> Int64 {
        guard let values = try? file.resourceValues(forKeys: [.fileSizeKey, .isRegularFileKey]), values.isRegularFile == true else { return 0 }
        return Int64(values.fileSize ?? 0)
    }

    /// Every issue whose content is on disk, with its size (measured now for issues that have
    /// none stored yet, e.g. installed before sizes were kept), the files a reader kept beside
    /// it since included (looked at each time: they are written after the install).
    public func cachedIssues() throws -> [CachedIssue] {
        let available = try store.availableIssues()
        return try available.map { issue in
            let kept = Self.measureKept(at: downloads.contentDirectory(for: issue))
            let size = try issue.contentSize ?? downloads.recordContentSize(of: issue)
            return CachedIssue(id: issue.id ?? 0, name: issue.name, title: issue.title, publicationID: issue.publicationId,
                               date: issue.date, size: size + kept, kept: kept, lastOpenedAt: issue.lastOpenedAt,
                               downloadedAt: issue.downloadedAt, pinned: issue.pinned)
        }
    }

    /// Removes downloaded content but keeps the issue, its position and cover. `toSaveSpace`
    /// marks it evicted (its tile says so); a removal the user asked for does not.
    public func evictContent(of issue: Issue, toSaveSpace: Bool = true) throws {
        guard let id = issue.id else { return }
        try store.markContentRemoved(issueID: id, toSaveSpace: toSaveSpace)
        try? FileManager.default.removeItem(at: downloads.contentDirectory(for: issue))
    }

    /// Evicts what the policy picks so that the cache fits `budget` and the disk keeps its
    /// reserve free, plus `room` bytes more (what a paused download or an install needs).
    /// Returns what went, in order. Each eviction re-checks the rules in its own
    /// transaction, so an issue pinned or opened meanwhile stays.
    @discardableResult
    public func enforceBudget(_ budget: CacheBudget, storage: Storage = SystemStorage(), room: Int64 = 0) throws -> [CachedIssue] {
        // One plan at a time in a process (the agent's workers, folders refreshed side by
        // side): two plans made from the same sizes would both evict for the same overrun.
        try Self.evictions.withLock { try evict(within: budget, storage: storage, room: room) }
    }

    private static let evictions = NSLock()

    private func evict(within budget: CacheBudget, storage: Storage, room: Int64) throws -> [CachedIssue] {
        let cached = try cachedIssues()
        let disk = CacheBudget.disk(at: paths.issuesDirectory, storage: storage)
        let toFree = disk.map { max(0, $0.reserve + max(0, room) - $0.free) } ?? 0
        let plan = EvictionPolicy.issuesToEvict(cached, currentlyReadingID: store.currentlyReadingIssue()?.id, limit: budget.limit, bytesToFree: toFree)
        var evicted: [CachedIssue] = []
        for issue in plan where try evictToSaveSpace(issue) { evicted.append(issue) }
        return evicted
    }

    /// The user's own files just installed by a command (`subscribe`, `refresh`, the shelf's
    /// refresh) held to the budget then, as the agent holds its installs, not only at the
    /// agent's next run. The budget is config.toml's, the default when it cannot be read.
    public func holdToBudget() -> BudgetKept {
        let budget = CacheBudget(limit: ((try? Config.load(paths: paths)) ?? Config()).cacheLimit)
        do { return BudgetKept(evicted: try enforceBudget(budget), limit: budget.limit) } catch {
            return BudgetKept(evicted: [], limit: budget.limit, problem: "cannot keep the cache within its budget: \(error)")
        }
    }

    /// Removes one issue's content to save space, unless meanwhile it was pinned, opened,
    /// removed or is being downloaded again. True when it went.
    func evictToSaveSpace(_ cached: CachedIssue) throws -> Bool {
        let changed = try store.markEvictedToSaveSpace(issueID: cached.id)
        guard changed, let issue = try store.issue(id: cached.id) else { return false }
        // Hidden beside the content first, so a reader never sees a half-deleted directory.
        let directory = downloads.contentDirectory(for: issue)
        let doomed = directory.deletingLastPathComponent().appendingPathComponent(".\(directory.lastPathComponent).replaced-evicted-\(UUID().uuidString.prefix(8))")
        if rename(directory.path, doomed.path) == 0 {
            try? FileManager.default.removeItem(at: doomed)
        } else {
            try? FileManager.default.removeItem(at: directory)
        }
        return true
    }
}

/// What holding the cache to its budget took (`ContentCache.holdToBudget`).
public struct BudgetKept: Sendable, Equatable {
    public var evicted: [CachedIssue]
    public var limit: Int64
    /// Why the budget could not be held, in one line; nil when it was.
    public var problem: String?

    /// "Removed 2 issue(s) to keep the cache within 1 KiB (…): A, B; …"; nil when nothing went.
    public var line: String? {
        guard !evicted.isEmpty else { return nil }
        let freed = ByteSize.format(evicted.reduce(Int64(0)) { $0 + $1.size })
        return "Removed \(evicted.count) issue(s) to keep the cache within \(ByteSize.format(limit)) (\(freed)): "
            + evicted.map(\.title).joined(separator: ", ") + "; `newsstand download` brings one back."
    }
}
