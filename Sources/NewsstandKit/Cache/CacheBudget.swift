import Foundation
import IssueArchive

/// How much issue content may stay on disk: `cache_limit` bytes, and never so much that
/// the disk's free space drops under a reserve (1 GiB, or 5% of a smaller disk).
public struct CacheBudget: Sendable, Equatable {
    public static let defaultLimit: Int64 = 2 * ByteSize.gibibyte
    public static let maximumReserve: Int64 = ByteSize.gibibyte

    public var limit: Int64
    public init(limit: Int64 = CacheBudget.defaultLimit) { self.limit = limit }

    /// The free space to keep on a disk of `diskSize` bytes.
    public static func reserve(diskSize: Int64) -> Int64 { min(maximumReserve, max(0, diskSize) / 20) }

    /// The state of the disk holding `directory`, as `storage` reports it.
    public static func disk(at directory: URL, storage: Storage) -> DiskSpace? {
        guard let free = storage.freeBytes(in: directory), let total = storage.totalBytes(in: directory) else { return nil }
        return DiskSpace(free: free, total: total, reserve: reserve(diskSize: total))
    }
}

/// Free space on the disk that holds the cache.
public struct DiskSpace: Sendable, Equatable, Codable {
    public var free: Int64
    public var total: Int64
    /// What eviction keeps free.
    public var reserve: Int64
    /// Bytes to free to get back to the reserve (0 when there is enough).
    public var shortfall: Int64 { max(0, reserve - free) }
}
