import Foundation

/// The file-system boundary of downloads and installs: every byte of a `.part` file or of
/// extracted content is written through it, and the free space is asked of it. The real
/// one is `SystemStorage`; a test passes a small, fillable disk of its own to see what a
/// full disk does (work pauses, nothing is corrupted).
public protocol Storage: Sendable {
    /// write(2) on an open descriptor: the number of bytes written (possibly fewer than
    /// `count`), or minus the `errno` (`-ENOSPC` when the disk is full).
    func write(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int
    /// Bytes an unprivileged writer may still put on the file system holding `directory`.
    func freeBytes(in directory: URL) -> Int64?
    /// The size of that file system.
    func totalBytes(in directory: URL) -> Int64?
    /// Whether bytes may reach files without passing through `write` (splice(2) from a
    /// socket): only where nothing needs to see each write.
    var permitsSplice: Bool { get }
}

extension Storage {
    public var permitsSplice: Bool { false }

    /// Writes all of `count` bytes, retrying short writes and EINTR; returns 0, or the errno
    /// of the write that failed.
    public func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int32 {
        var done = 0
        while done < count {
            let result = write(descriptor, bytes + done, count - done)
            if result < 0 {
                if Int32(-result) == EINTR { continue }
                return Int32(-result)
            }
            if result == 0 { return EIO }
            done += result
        }
        return 0
    }
}

/// The machine's own file system (write(2) and statvfs(3)).
public struct SystemStorage: Storage {
    public init() {}

    public func write(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        let result = Foundation.write(descriptor, bytes, count)
        return result < 0 ? -Int(errno) : result
    }

    public func freeBytes(in directory: URL) -> Int64? {
        statistics(of: directory).map { Int64($0.f_bavail) * Int64($0.f_frsize) }
    }

    public func totalBytes(in directory: URL) -> Int64? {
        statistics(of: directory).map { Int64($0.f_blocks) * Int64($0.f_frsize) }
    }

    public var permitsSplice: Bool { true }

    private func statistics(of directory: URL) -> statvfs? {
        var info = statvfs()
        return statvfs(directory.path, &info) == 0 ? info : nil
    }
}

/// Whether an `errno` means "no room left" (the disk, or the user's quota, is full).
public func isOutOfSpaceError(_ code: Int32) -> Bool { code == ENOSPC || code == EDQUOT }
