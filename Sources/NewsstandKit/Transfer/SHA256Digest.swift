import Foundation

/// Incremental SHA-256 through libcrypto (`LibcryptoDigest`), so checksums cost about as
/// much as `sha256sum` and nothing has to be compiled from source.
final class SHA256Digest {
    private let digest: LibcryptoDigest

    init() throws {
        do {
            digest = try LibcryptoDigest(.sha256)
        } catch {
            throw TransferError.fatal(error.description)
        }
    }

    func update(_ bytes: UnsafeRawBufferPointer) { digest.update(bytes) }

    func update(_ data: Data) {
        data.withUnsafeBytes { update($0) }
    }

    /// The digest as 64 lower-case hex digits. Ends the digest.
    func finalHex() -> String {
        digest.finalHex()
    }

    /// SHA-256 of a whole file, read in chunks.
    static func hexOfFile(at url: URL, upTo limit: Int64? = nil) throws -> String {
        let digest = try SHA256Digest()
        try forEachChunk(of: url, upTo: limit) { digest.update($0) }
        return digest.finalHex()
    }

    /// SHA-256 of some bytes.
    static func hex(of data: Data) throws -> String {
        let digest = try SHA256Digest()
        digest.update(data)
        return digest.finalHex()
    }
}

/// Reads `url` from the start in 256 KiB chunks, up to `limit` bytes when given.
func forEachChunk(of url: URL, upTo limit: Int64? = nil, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
    let fd = open(url.path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw TransferError.fatal("cannot read \(url.path): \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    let size = 256 * 1024
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
    defer { buffer.deallocate() }
    var remaining = limit ?? Int64.max
    while remaining > 0 {
        let want = Int(min(Int64(size), remaining))
        let got = read(fd, buffer.baseAddress, want)
        if got < 0 {
            if errno == EINTR { continue }
            throw TransferError.fatal("cannot read \(url.path): \(String(cString: strerror(errno)))")
        }
        if got == 0 { break }
        try body(UnsafeRawBufferPointer(rebasing: buffer[0..<got]))
        remaining -= Int64(got)
    }
}

/// SHA-256 computed on a helper thread, so that hashing overlaps receiving and writing
/// (a checksummed download then costs about as much as one without). At most
/// `maxPending` chunks wait in memory (2 MiB with 256 KiB chunks).
// @unchecked: `pending`, `closed` and `workerDone` are read and written only under `condition`; `digest` only by the worker until it is done.
final class BackgroundDigest: @unchecked Sendable {
    private let digest: SHA256Digest
    private let condition = NSCondition()
    private var pending: [Data] = []
    private var closed = false
    private var workerDone = false
    private let maxPending = 8

    init() throws {
        digest = try SHA256Digest()
        let thread = Thread { [self] in work() }
        thread.name = "newsstand.sha256"
        thread.start()
    }

    func update(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0 else { return }
        let copy = Data(bytes)
        condition.withLock {
            while pending.count >= maxPending && !closed { condition.wait() }
            guard !closed else { return }
            pending.append(copy)
            condition.broadcast()
        }
    }

    /// Waits for every queued chunk to be hashed and returns the digest.
    func finalHex() -> String {
        finish(discarding: false)
        return digest.finalHex()
    }

    /// Stops the helper thread without hashing what is left (the result is not needed).
    func abandon() { finish(discarding: true) }

    private func finish(discarding: Bool) {
        condition.withLock {
            if discarding { pending.removeAll() }
            closed = true
            condition.broadcast()
            while !workerDone { condition.wait() }
        }
    }

    private func work() {
        while true {
            let next: Data? = condition.withLock {
                while pending.isEmpty && !closed { condition.wait() }
                guard !pending.isEmpty else {
                    workerDone = true
                    condition.broadcast()
                    return nil
                }
                let chunk = pending.removeFirst()
                condition.broadcast()
                return chunk
            }
            guard let next else { return }
            digest.update(next)
        }
    }
}
