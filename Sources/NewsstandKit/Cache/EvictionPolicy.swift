import Foundation

/// What eviction knows of one issue whose content is on disk.
public struct CachedIssue: Sendable, Equatable, Codable {
    public var id: Int64
    public var name: String
    public var title: String
    public var publicationID: Int64?
    public var date: Date
    /// Bytes its content directory holds, `kept` included.
    public var size: Int64
    /// Of `size`, the files a reader kept beside the content (a PDF's page texts).
    public var kept: Int64
    public var lastOpenedAt: Date?
    public var downloadedAt: Date?
    public var pinned: Bool

    public init(id: Int64, name: String, title: String? = nil, publicationID: Int64?, date: Date, size: Int64, kept: Int64 = 0,
                lastOpenedAt: Date? = nil, downloadedAt: Date? = nil, pinned: Bool = false) {
        self.id = id; self.name = name; self.title = title ?? name; self.publicationID = publicationID
        self.date = date; self.size = size; self.kept = kept; self.lastOpenedAt = lastOpenedAt
        self.downloadedAt = downloadedAt; self.pinned = pinned
    }

    /// The last time the reader did anything with it: opened it, or (for an issue not yet
    /// opened since) downloaded it. A fresh download is as recent as a fresh read.
    public var lastUsed: Date? {
        switch (lastOpenedAt, downloadedAt) {
        case let (opened?, downloaded?): return max(opened, downloaded)
        case let (opened, downloaded): return opened ?? downloaded
        }
    }
}

/// Which downloaded issues go when the cache is over budget or the disk is short, and in
/// what order. A pure function of its inputs, so every rule can be tested on its own.
///
/// Rules: least recently used first (never used before used long ago; ties: the older
/// issue first, then the larger, then the lower id); never the issue being read, never the
/// newest downloaded issue of a publication (issues without a publication count as one
/// publication), never a pinned issue. It stops as soon as enough is freed.
public enum EvictionPolicy {
    public enum Protection: String, Sendable, Equatable, Codable {
        case currentlyReading = "being read"
        case newestOfPublication = "newest issue of its publication"
        case pinned = "pinned"
    }

    /// Why `issue` must stay, or nil when it may go.
    public static func protection(of issue: CachedIssue, among cached: [CachedIssue], currentlyReadingID: Int64?) -> Protection? {
        if issue.id == currentlyReadingID { return .currentlyReading }
        if issue.pinned { return .pinned }
        if newestOfEachPublication(cached).contains(issue.id) { return .newestOfPublication }
        return nil
    }

    /// Every issue that may be evicted, in the order it would be.
    public static func evictionOrder(_ cached: [CachedIssue], currentlyReadingID: Int64?) -> [CachedIssue] {
        let newest = newestOfEachPublication(cached)
        return cached
            .filter { $0.id != currentlyReadingID && !$0.pinned && !newest.contains($0.id) }
            .sorted(by: evictedBefore)
    }

    /// The issues to evict, in order, so that what stays fits in `limit` bytes and
    /// `bytesToFree` more are freed on top (the disk's low-space reserve). Fewer when the
    /// protected issues alone exceed the budget.
    public static func issuesToEvict(_ cached: [CachedIssue], currentlyReadingID: Int64?, limit: Int64,
                                     bytesToFree: Int64 = 0) -> [CachedIssue] {
        let total = cached.reduce(Int64(0)) { $0 + $1.size }
        let needed = max(total - max(0, limit), bytesToFree, 0)
        guard needed > 0 else { return [] }
        var freed: Int64 = 0
        var chosen: [CachedIssue] = []
        for issue in evictionOrder(cached, currentlyReadingID: currentlyReadingID) {
            if freed >= needed { break }
            chosen.append(issue)
            freed += issue.size
        }
        return chosen
    }

    static func evictedBefore(_ a: CachedIssue, _ b: CachedIssue) -> Bool {
        switch (a.lastUsed, b.lastUsed) {
        case (nil, _?): return true
        case (_?, nil): return false
        case let (x?, y?) where x != y: return x < y
        default: break
        }
        if a.date != b.date { return a.date < b.date }
        if a.size != b.size { return a.size > b.size }
        return a.id < b.id
    }

    /// Ids of the newest issue (by date, then id) of each publication.
    static func newestOfEachPublication(_ cached: [CachedIssue]) -> Set<Int64> {
        var newest: [Int64?: CachedIssue] = [:]
        for issue in cached {
            if let current = newest[issue.publicationID],
               (current.date, current.id) >= (issue.date, issue.id) { continue }
            newest[issue.publicationID] = issue
        }
        return Set(newest.values.map(\.id))
    }
}
