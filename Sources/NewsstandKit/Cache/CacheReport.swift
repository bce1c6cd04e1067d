import Foundation
import IssueArchive

/// What `newsstand cache` shows: use per publication, the budget, the disk, and what an
/// eviction removed.
public struct CacheReport: Sendable, Equatable, Codable {
    public struct PublicationUse: Sendable, Equatable, Codable {
        public var title: String
        /// Issues with content on disk.
        public var issues: Int
        public var bytes: Int64
        public var pinned: Int
    }

    public struct EvictedIssue: Sendable, Equatable, Codable {
        public var name: String
        public var title: String
        public var publication: String
        public var bytes: Int64
    }

    /// A download paused because the disk is full.
    public struct PausedDownload: Sendable, Equatable, Codable {
        public var name: String
        public var title: String
        public var needed: Int64
        public var reason: String
    }

    public var limit: Int64
    public var used: Int64
    /// Of `used`, the page texts readers kept beside PDFs for search (`KeptBeside`).
    public var keptTexts: Int64
    /// Bytes of `.part` files: downloads under way or paused (not counted in `used`).
    public var partial: Int64
    public var publications: [PublicationUse]
    public var disk: DiskSpace?
    /// Issues removed by this run (`--evict`); nil when nothing was asked to go.
    public var evicted: [EvictedIssue]?
    public var paused: [PausedDownload]

    /// The report of `library` now, against `budget`; `evicted` lists issues just removed.
    public static func make(library: Library, budget: CacheBudget, storage: Storage = SystemStorage(),
                            evicted: [CachedIssue]? = nil) throws -> CacheReport {
        let cached = try library.cache.cachedIssues()
        let titles = try library.store.publicationTitles()
        func title(_ id: Int64?) -> String { id.flatMap { titles[$0] } ?? "(no publication)" }
        var uses: [String: PublicationUse] = [:]
        for issue in cached {
            let name = title(issue.publicationID)
            var use = uses[name] ?? PublicationUse(title: name, issues: 0, bytes: 0, pinned: 0)
            use.issues += 1
            use.bytes += issue.size
            if issue.pinned { use.pinned += 1 }
            uses[name] = use
        }
        let ordered = uses.values.sorted { ($0.bytes, $1.title) > ($1.bytes, $0.title) }
        return CacheReport(
            limit: budget.limit, used: cached.reduce(0) { $0 + $1.size }, keptTexts: cached.reduce(0) { $0 + $1.kept },
            partial: ContentCache.measureContent(at: library.paths.partialDirectory), publications: ordered,
            disk: CacheBudget.disk(at: library.paths.issuesDirectory, storage: storage),
            evicted: evicted.map { $0.map { EvictedIssue(name: $0.name, title: $0.title, publication: title($0.publicationID), bytes: $0.size) } },
            paused: try library.store.downloadsWaitingForSpace().map { asset, issue in
                PausedDownload(name: issue.name, title: issue.title, needed: asset.waitingForSpace ?? 0, reason: asset.lastError ?? "")
            })
    }

    /// Lines for a person.
    public var text: String {
        var lines: [String] = []
        if let evicted {
            if evicted.isEmpty {
                lines.append("Nothing to remove: the cache is within its budget and the disk has room.")
            } else {
                let freed = evicted.reduce(Int64(0)) { $0 + $1.bytes }
                lines.append("Removed \(evicted.count) issue\(evicted.count == 1 ? "" : "s") to save space (\(ByteSize.format(freed))):")
                for issue in evicted {
                    lines.append("  \(issue.title) (\(issue.publication), \(ByteSize.format(issue.bytes)))")
                }
            }
            lines.append("")
        }
        let width = max(11, publications.map { $0.title.count }.max() ?? 0)
        func pad(_ text: String) -> String { text + String(repeating: " ", count: max(0, width - text.count)) }
        lines.append("\(pad("publication"))  issues  size")
        for use in publications {
            let pinned = use.pinned > 0 ? "  (\(use.pinned) pinned)" : ""
            lines.append("\(pad(use.title))  \(String(repeating: " ", count: max(0, 6 - String(use.issues).count)))\(use.issues)  \(ByteSize.format(use.bytes))\(pinned)")
        }
        if publications.isEmpty { lines.append("(no downloaded issues)") }
        let percent = limit > 0 ? " (\(Int((Double(used) / Double(limit) * 100).rounded()))%)" : ""
        lines.append("")
        lines.append("cache: \(ByteSize.format(used)) of \(ByteSize.format(limit))\(percent)")
        if keptTexts > 0 { lines.append("  of which page texts kept for search: \(ByteSize.format(keptTexts))") }
        if partial > 0 { lines.append("partial downloads: \(ByteSize.format(partial))") }
        if let disk {
            lines.append("disk: \(ByteSize.format(disk.free)) free of \(ByteSize.format(disk.total)); keeps \(ByteSize.format(disk.reserve)) free")
        }
        for download in paused {
            lines.append("waiting for space: \(download.title) (\(ByteSize.format(download.needed)) needed)")
        }
        return lines.joined(separator: "\n")
    }

    /// JSON with sorted keys (sizes in bytes).
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
