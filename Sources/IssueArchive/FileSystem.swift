import FileWrites
import Foundation

/// The few file-system operations extraction and installation need, done with system calls so
/// that "exclusively", "no symlinks" and "atomically" mean exactly that.
enum FileSystem {
    static func exists(_ url: URL) -> Bool {
        var info = stat()
        return lstat(url.path, &info) == 0
    }

    static func isDirectory(_ url: URL) -> Bool {
        var info = stat()
        return lstat(url.path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// A new, empty, hidden directory beside `target` (same file system, so a rename can finish the job).
    static func makeStagingDirectory(beside target: URL, purpose: String) throws -> URL {
        let parent = target.deletingLastPathComponent()
        if !isDirectory(parent) {
            throw ArchiveError(.io, "cannot write into '\(parent.path)': it is not a directory")
        }
        for _ in 0..<16 {
            let suffix = String(UInt64.random(in: 0..<UInt64.max), radix: 36)
            let url = parent.appendingPathComponent(".\(target.lastPathComponent).\(purpose)-\(suffix)")
            if mkdir(url.path, 0o755) == 0 { return url }
            if errno != EEXIST { throw ArchiveError.io("create a folder in", parent.path, errno: errno) }
        }
        throw ArchiveError(.io, "cannot create a temporary folder in '\(parent.path)'")
    }

    /// A fresh path beside `target` that nothing occupies (reserved by creating and removing a
    /// directory with a random name), for `SafeExtractor.extract` to fill.
    static func unusedPath(beside target: URL, purpose: String) throws -> URL {
        let url = try makeStagingDirectory(beside: target, purpose: purpose)
        rmdir(url.path)
        return url
    }

    /// Removes a tree we created; never follows symbolic links out of it.
    static func removeTree(_ url: URL) {
        var info = stat()
        guard lstat(url.path, &info) == 0 else { return }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            if let names = try? FileManager.default.contentsOfDirectory(atPath: url.path) {
                for name in names { removeTree(url.appendingPathComponent(name)) }
            }
            rmdir(url.path)
        } else {
            unlink(url.path)
        }
    }

    /// Renames `source` to `destination`, failing if `destination` exists.
    static func renameNoReplace(_ source: URL, to destination: URL) throws {
        do { try FileRename.noReplace(source, to: destination) } catch let error as FileWriteError {
            if error.kind == .destinationExists { throw destinationExists(destination) }
            throw ArchiveError.io("move the extracted issue to", destination.path, errno: error.errno)
        }
    }

    /// Swaps two existing paths in one step where the kernel allows it; returns false if it cannot.
    static func exchange(_ first: URL, _ second: URL) -> Bool { FileRename.exchange(first, second) }

    /// Puts the regular file `file` at `destination` (which must not exist): a hard link
    /// where the file system allows one (no bytes written), else a copy through `storage`.
    static func place(_ file: URL, at destination: URL, storage: Storage) throws {
        var info = stat()
        guard lstat(file.path, &info) == 0 else { throw ArchiveError.io("read", file.path, errno: errno) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw ArchiveError(.invalidContent, "'\(file.path)' is not a regular file")
        }
        if link(file.path, destination.path) == 0 { return }
        // Another file system, or one without hard links: copy.
        guard [EXDEV, EPERM, EMLINK, EOPNOTSUPP].contains(errno) else {
            throw ArchiveError.io("place the issue at", destination.path, errno: errno)
        }
        try copy(file, to: destination, storage: storage)
    }

    /// Copies `file` to a new file `destination`, every byte through `storage`.
    static func copy(_ file: URL, to destination: URL, storage: Storage) throws {
        let source = open(file.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard source >= 0 else { throw ArchiveError.io("read", file.path, errno: errno) }
        defer { close(source) }
        let target = open(destination.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard target >= 0 else { throw ArchiveError.io("create", destination.path, errno: errno) }
        defer { close(target) }
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        try buffer.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            while true {
                let got = read(source, base, buffer.count)
                if got < 0 {
                    if errno == EINTR { continue }
                    throw ArchiveError.io("read", file.path, errno: errno)
                }
                if got == 0 { return }
                let failure = storage.writeAll(target, base, got)
                if failure != 0 { throw ArchiveError.io("write", destination.lastPathComponent, errno: failure) }
            }
        }
    }

    /// A plain name for a file at the top of an issue: not hidden (the files would
    /// not show it), no folders, nothing a reader could take for a link.
    static func isPlainFileName(_ name: String) -> Bool {
        !name.isEmpty && !name.hasPrefix(".") && !name.contains("/") && !name.contains("\\")
            && !name.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } && !ContentTree.isIgnored(name)
    }

    static func destinationExists(_ url: URL) -> ArchiveError {
        ArchiveError(.destinationExists, "'\(url.path)' already exists; extraction needs a new destination")
    }
}
