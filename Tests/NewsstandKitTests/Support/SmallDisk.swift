import Foundation
import IssueArchive
@testable import NewsstandKit

/// A disk of `capacity` bytes for the files under `root` (the library's cache directory):
/// writes through it stop with ENOSPC when the files there would outgrow it, as on a real
/// full disk, and free space is what is left. Raising `capacity` or deleting files frees room.
// @unchecked: the counters and sizes (the `_`-named properties) are read and written only under `lock`.
final class SmallDisk: Storage, @unchecked Sendable {
    let root: URL
    private let lock = NSLock()
    private var _capacity: Int64
    private var _overstatement: Int64 = 0
    private var _written: Int64 = 0
    private var _refusals = 0
    private var _spaceChecks = 0

    init(root: URL, capacity: Int64) {
        self.root = root
        _capacity = capacity
    }

    var capacity: Int64 {
        get { lock.withLock { _capacity } }
        set { lock.withLock { _capacity = newValue } }
    }

    /// Free space reported above the truth (another program filling the disk meanwhile).
    var overstatement: Int64 {
        get { lock.withLock { _overstatement } }
        set { lock.withLock { _overstatement = newValue } }
    }

    /// Bytes written through this disk, and writes refused for want of room.
    var bytesWritten: Int64 { lock.withLock { _written } }
    var refusals: Int { lock.withLock { _refusals } }
    /// Times free space was asked for (an agent waiting for room asks at each of its checks).
    var spaceChecks: Int { lock.withLock { _spaceChecks } }

    var used: Int64 { ContentCache.measureContent(at: root) }

    func write(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        let room = capacity - used
        guard room > 0 else {
            lock.withLock { _refusals += 1 }
            return -Int(ENOSPC)
        }
        let result = Glibc.write(descriptor, bytes, min(count, Int(room)))
        if result < 0 { return -Int(errno) }
        lock.withLock { _written += Int64(result) }
        return result
    }

    func freeBytes(in directory: URL) -> Int64? {
        lock.withLock { _spaceChecks += 1 }
        return max(0, capacity - used) + overstatement
    }
    func totalBytes(in directory: URL) -> Int64? { capacity }
}

/// A disk that reports fixed figures and writes normally.
struct FixedDisk: Storage {
    var free: Int64
    var total: Int64
    func write(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        let result = Glibc.write(descriptor, bytes, count)
        return result < 0 ? -Int(errno) : result
    }
    func freeBytes(in directory: URL) -> Int64? { free }
    func totalBytes(in directory: URL) -> Int64? { total }
}
