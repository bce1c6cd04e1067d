import Foundation

/// A read-only file descriptor with positioned reads; the archive is never read through a
/// shared file position, so scanning and extraction cannot disturb each other.
final class ArchiveFile {
    let path: String
    let size: UInt64
    private let descriptor: Int32

    init(url: URL) throws {
        path = url.path
        descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ArchiveError.io("open", url.path, errno: errno) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            throw ArchiveError.io("read", url.path, errno: code)
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw ArchiveError(.notAZip, "'\(url.path)' is not a regular file")
        }
        size = UInt64(info.st_size)
    }

    deinit { close(descriptor) }

    /// Reads up to `count` bytes at `offset` into `buffer`; returns how many were read (0 at the end).
    func read(into buffer: UnsafeMutableRawPointer, count: Int, at offset: UInt64) throws -> Int {
        while true {
            let got = pread(descriptor, buffer, count, off_t(offset))
            if got >= 0 { return got }
            if errno == EINTR { continue }
            throw ArchiveError.io("read", path, errno: errno)
        }
    }

    /// Exactly `count` bytes at `offset`, or a truncation error naming `what` was being read.
    func bytes(at offset: UInt64, count: Int, what: String) throws -> [UInt8] {
        guard count > 0 else { return [] }
        guard offset <= size, UInt64(count) <= size - offset else {
            throw ArchiveError(.truncated, "archive is truncated: \(what) lies past the end of the file")
        }
        var result = [UInt8](repeating: 0, count: count)
        var filled = 0
        try result.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return }
            while filled < count {
                let got = try read(into: base + filled, count: count - filled, at: offset + UInt64(filled))
                if got == 0 { break }
                filled += got
            }
        }
        guard filled == count else {
            throw ArchiveError(.truncated, "archive is truncated: \(what) lies past the end of the file")
        }
        return result
    }
}

/// Little-endian fields out of a byte array, bounds-checked.
struct ByteReader {
    let bytes: [UInt8]
    var offset: Int

    init(_ bytes: [UInt8], at offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    var remaining: Int { bytes.count - offset }

    func u16(_ at: Int) -> UInt16 {
        guard at >= 0, at + 2 <= bytes.count else { return 0 }
        return UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
    }

    func u32(_ at: Int) -> UInt32 {
        guard at >= 0, at + 4 <= bytes.count else { return 0 }
        return UInt32(u16(at)) | UInt32(u16(at + 2)) << 16
    }

    func u64(_ at: Int) -> UInt64 {
        guard at >= 0, at + 8 <= bytes.count else { return 0 }
        return UInt64(u32(at)) | UInt64(u32(at + 4)) << 32
    }

    func slice(_ at: Int, _ count: Int) -> [UInt8] {
        guard at >= 0, count >= 0, at + count <= bytes.count else { return [] }
        return Array(bytes[at..<(at + count)])
    }
}
