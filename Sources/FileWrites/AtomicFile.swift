import Foundation

/// A file that appears whole or not at all: it is made under a hidden name beside its place
/// (the same directory, so the same file system) and renamed into it; on any failure the
/// staging file is removed and what was at the place stays as it was. Not Foundation's
/// `.atomic` write: on Linux it makes its staging file and the result 0644 whatever the mode
/// of the file it replaces (a 0600 file rewritten that way became 0644), and cannot refuse
/// to replace.
public enum AtomicFile {
    /// Writes `data` at `url`. The staging file is created with `permissions` (a 0600 file is
    /// never readable by others, not even while it is written) and, with `sync`, is on disk
    /// before the rename. Without `replacing`, an existing file at `url` is never replaced.
    public static func write(_ data: Data, to url: URL, permissions: mode_t = 0o644, sync: Bool = false,
                             replacing: Bool = true) throws {
        try write(to: url, replacing: replacing, purpose: "writing") { staging in
            let fd = open(staging.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, permissions)
            guard fd >= 0 else { throw FileWriteError("create", staging, errno: errno) }
            defer { close(fd) }
            try data.withUnsafeBytes { bytes in
                var done = 0
                while done < bytes.count {
                    let wrote = Foundation.write(fd, bytes.baseAddress! + done, bytes.count - done)
                    if wrote < 0 {
                        if errno == EINTR { continue }
                        throw FileWriteError("write", staging, errno: errno)
                    }
                    done += wrote
                }
            }
            if sync, fsync(fd) != 0 { throw FileWriteError("write", staging, errno: errno) }
        }
    }

    /// Puts at `url` the file `fill` makes at the path it is given (nothing is there yet), for
    /// writers that create their own file (a zip archive). `purpose` names the staging file
    /// (`.book.epub.exporting-…`), so a leftover says what made it.
    public static func write(to url: URL, replacing: Bool = true, purpose: String, _ fill: (URL) throws -> Void) throws {
        let staging = try unusedPath(beside: url, purpose: purpose)
        do {
            try fill(staging)
            if replacing {
                guard rename(staging.path, url.path) == 0 else { throw FileWriteError("put in place", url, errno: errno) }
            } else {
                try FileRename.noReplace(staging, to: url)
            }
        } catch {
            unlink(staging.path)
            throw error
        }
    }

    /// A hidden name beside `target` that nothing occupies.
    private static func unusedPath(beside target: URL, purpose: String) throws -> URL {
        let parent = target.deletingLastPathComponent()
        var info = stat()
        guard stat(parent.path, &info) == 0 else { throw FileWriteError("write into", parent, errno: errno) }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { throw FileWriteError("write into", parent, errno: ENOTDIR) }
        for _ in 0..<16 {
            let suffix = String(UInt64.random(in: 0..<UInt64.max), radix: 36)
            let url = parent.appendingPathComponent(".\(target.lastPathComponent).\(purpose)-\(suffix)")
            if lstat(url.path, &info) != 0, errno == ENOENT { return url }
        }
        throw FileWriteError("find an unused name in", parent, errno: EEXIST)
    }
}

/// Renames that the plain `rename` cannot do: never replacing, or swapping two paths.
public enum FileRename {
    private typealias Renameat2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32

    /// glibc's renameat2 needs _GNU_SOURCE to be declared, so it is looked up at run time.
    private static let renameat2: Renameat2? = {
        #if os(Linux)
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "renameat2") else { return nil }
        return unsafeBitCast(symbol, to: Renameat2.self)
        #else
        return nil
        #endif
    }()

    private static let atCurrentDirectory: Int32 = -100 // AT_FDCWD
    private static let renameNoReplace: UInt32 = 1
    private static let renameExchange: UInt32 = 2

    /// Renames `source` to `destination`, failing with `.destinationExists` if something is there.
    public static func noReplace(_ source: URL, to destination: URL) throws {
        if let renameat2 {
            if renameat2(atCurrentDirectory, source.path, atCurrentDirectory, destination.path, renameNoReplace) == 0 { return }
            if errno == EEXIST { throw FileWriteError("put in place", destination, errno: EEXIST, kind: .destinationExists) }
            if errno != EINVAL && errno != ENOSYS { throw FileWriteError("put in place", destination, errno: errno) }
        }
        // A file system without RENAME_NOREPLACE: checked, then renamed.
        var info = stat()
        if lstat(destination.path, &info) == 0 { throw FileWriteError("put in place", destination, errno: EEXIST, kind: .destinationExists) }
        guard rename(source.path, destination.path) == 0 else { throw FileWriteError("put in place", destination, errno: errno) }
    }

    /// Swaps two existing paths in one step where the kernel allows it; returns false if it cannot.
    public static func exchange(_ first: URL, _ second: URL) -> Bool {
        guard let renameat2 else { return false }
        return renameat2(atCurrentDirectory, first.path, atCurrentDirectory, second.path, renameExchange) == 0
    }
}

/// Why a file could not be written or put in place: what was being done, where, and the system's reason.
public struct FileWriteError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// Something is at the destination and the write was told not to replace it.
        case destinationExists
        case io
    }

    public let kind: Kind
    /// What was being done ("create", "write", "put in place").
    public let operation: String
    public let path: String
    public let errno: Int32

    init(_ operation: String, _ url: URL, errno: Int32, kind: Kind = .io) {
        self.kind = kind
        self.operation = operation
        self.path = url.path
        self.errno = errno
    }

    /// The system's words for `errno`.
    public var reason: String { String(cString: strerror(errno)) }

    public var description: String { "cannot \(operation) '\(path)': \(reason)" }
}
