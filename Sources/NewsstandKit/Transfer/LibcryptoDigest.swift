import CSystemCrypto
import Foundation

/// MD5 or SHA-256 through OpenSSL's libcrypto (EVP API; no CryptoKit on Linux), which
/// CSystemCrypto loads on the first digest: no command pays for libcrypto's start unless it
/// makes one. MD5 only names things as others do (KOReader, HTTP Digest), never for security.
public final class LibcryptoDigest {
    public enum Algorithm: Sendable {
        case md5, sha256

        var c: csystemcrypto_algorithm { self == .md5 ? CSYSTEMCRYPTO_MD5 : CSYSTEMCRYPTO_SHA256 }
        var name: String { self == .md5 ? "MD5" : "SHA-256" }
    }

    private let context: UnsafeMutableRawPointer

    /// Fails, saying why, when libcrypto cannot be loaded, is out of memory or lacks `algorithm`.
    public init(_ algorithm: Algorithm) throws(LibcryptoUnavailable) {
        guard let context = csystemcrypto_digest_new(algorithm.c) else {
            let why = csystemcrypto_load().map { String(cString: $0) } ?? "libcrypto has no \(algorithm.name) or is out of memory"
            throw LibcryptoUnavailable(description: "could not start a\(algorithm == .md5 ? "n" : "") \(algorithm.name) digest (\(why))")
        }
        self.context = context
    }

    deinit { csystemcrypto_digest_free(context) }

    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        csystemcrypto_digest_update(context, base, bytes.count)
    }

    /// The digest as lower-case hex digits. Ends the digest.
    public func finalHex() -> String {
        var digest = [UInt8](repeating: 0, count: Int(CSYSTEMCRYPTO_MAX_DIGEST))
        let length = csystemcrypto_digest_final(context, &digest)
        return digest.prefix(Int(length)).lowercaseHex
    }

    /// Whether this process has loaded libcrypto (made a digest) yet.
    static var isLoaded: Bool { csystemcrypto_is_loaded() == 1 }

    /// The digest of `text`'s UTF-8 bytes as hex; empty when libcrypto cannot make it.
    public static func hex(of text: String, _ algorithm: Algorithm) -> String {
        guard let digest = try? LibcryptoDigest(algorithm) else { return "" }
        Array(text.utf8).withUnsafeBytes { digest.update($0) }
        return digest.finalHex()
    }
}

/// Why no digest could be made, in a sentence.
public struct LibcryptoUnavailable: Error, CustomStringConvertible, Sendable {
    public var description: String
}

extension Sequence<UInt8> {
    /// Two lower-case hex digits a byte (`String(format:)` cost more than the digest itself).
    var lowercaseHex: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
