import Foundation
import IssueArchive

/// The `.part` file a transfer streams into: bytes are appended as they arrive, the
/// SHA-256 is computed on the way (when a checksum is expected) and progress is reported
/// at most ten times a second.
final class PartFile {
    let url: URL
    private var fd: Int32
    private(set) var length: Int64
    private var digest: BackgroundDigest?
    private let wantsDigest: Bool
    private let storage: Storage

    /// Opens (creating if needed) the file and its directory; `length` is what is on disk.
    init(url: URL, wantsDigest: Bool, storage: Storage = SystemStorage()) throws {
        self.url = url
        self.wantsDigest = wantsDigest
        self.storage = storage
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let fd = open(url.path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw PartFile.ioError("cannot open", url) }
        self.fd = fd
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            Glibc.close(fd)
            throw PartFile.ioError("cannot read the size of", url)
        }
        length = Int64(info.st_size)
    }

    deinit { close() }

    /// Keeps the first `offset` bytes (hashing them when a checksum is expected) and puts
    /// the write position after them. `offset` 0 starts over.
    func keep(upTo offset: Int64) throws {
        guard offset <= length else { throw TransferError.fatal("internal error: cannot keep \(offset) bytes of a \(length)-byte .part file") }
        if ftruncate(fd, off_t(offset)) != 0 { throw PartFile.ioError("cannot truncate", url) }
        if lseek(fd, off_t(offset), SEEK_SET) < 0 { throw PartFile.ioError("cannot seek in", url) }
        length = offset
        digest?.abandon()
        digest = wantsDigest ? try BackgroundDigest() : nil
        if let digest, offset > 0 {
            try forEachChunk(of: url, upTo: offset) { digest.update($0) }
        }
    }

    /// Appends bytes; a full disk or an I/O error ends this attempt. The file is cut back
    /// to the bytes whole before it, so it stays a valid prefix for a later resume.
    func append(_ bytes: UnsafeRawBufferPointer) throws {
        guard let pointer = bytes.baseAddress else { return }
        let failure = storage.writeAll(fd, pointer, bytes.count)
        if failure != 0 {
            _ = ftruncate(fd, off_t(length))
            _ = lseek(fd, off_t(length), SEEK_SET)
            throw TransferError.writeFailed(url.path, code: failure)
        }
        digest?.update(bytes)
        length += Int64(bytes.count)
    }

    /// The descriptor bytes may be spliced into, when nothing needs to see them (no
    /// checksum); report each splice with `didSplice`.
    var spliceDescriptor: Int32? { wantsDigest || fd < 0 || !storage.permitsSplice ? nil : fd }

    func didSplice(_ count: Int) { length += Int64(count) }

    /// The hex SHA-256 of everything written since `keep(upTo:)`, or nil when not hashing.
    func finishDigest() -> String? {
        defer { digest = nil }
        return digest?.finalHex()
    }

    func close() {
        digest?.abandon()
        digest = nil
        if fd >= 0 { _ = Glibc.close(fd) }
        fd = -1
    }

    /// Deletes the file: its bytes failed verification and must never be installed.
    func discard() {
        close()
        try? FileManager.default.removeItem(at: url)
    }

    private static func ioError(_ what: String, _ url: URL) -> TransferError {
        TransferError.fatal("\(what) \(url.path): \(String(cString: strerror(errno)))")
    }
}

/// Calls `report` at most every `interval` seconds, plus whenever `force` is set.
final class ProgressThrottle {
    private let report: @Sendable (TransferProgress) -> Void
    private let interval: UInt64
    private var last: UInt64 = 0

    init(interval: TimeInterval = 0.1, report: @escaping @Sendable (TransferProgress) -> Void) {
        self.report = report
        self.interval = UInt64(interval * 1e9)
    }

    func update(_ progress: TransferProgress, force: Bool = false) {
        let now = DispatchTime.now().uptimeNanoseconds
        guard force || now &- last >= interval else { return }
        last = now
        report(progress)
    }
}
