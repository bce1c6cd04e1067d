#if canImport(Glibc)
import Glibc
#endif

/// Whole frames over the worker's socket, from either end; interrupted calls are retried.
package enum WorkerSocket {
    /// Fills `count` bytes from `descriptor`, or throws when it closes first.
    package static func readExactly(_ count: Int, from descriptor: Int32) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, count - filled) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { throw PDFError(.workerUnavailable, "the connection closed") }
            filled += got
        }
        return bytes
    }

    /// Sends all of `bytes`; false when the other end is gone (no SIGPIPE).
    package static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = send(descriptor, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return false }
                offset += written
            }
            return true
        }
    }
}
