import Foundation
import Testing
@testable import NewsstandKit

/// libcrypto is loaded the first time a digest is made (a download's SHA-256, sync's and HTTP
/// Digest's MD5), never at start: its relocations were a millisecond of every command's (#31).
@Suite("libcrypto is loaded on first use")
struct LibcryptoLoadingTests {
    @Test("a process loads libcrypto at its first digest, not at start")
    func loadedOnFirstDigest() async throws {
        // In a process of its own: other tests of this process may already have made digests.
        // Which check failed, by exit status: 10 at start, 11 after the digest (+20 mapped, +40 loaded); 2 a wrong digest.
        await #expect(processExitsWith: .success) {
            func check(_ loaded: Bool, _ when: Int32) {
                let maps = String(decoding: FileHandle(forReadingAtPath: "/proc/self/maps")?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
                guard !maps.isEmpty else { exit(3) }
                let mapped = maps.contains("libcrypto")
                let isLoaded = LibcryptoDigest.isLoaded
                guard isLoaded == loaded, mapped == loaded else { exit(when + (mapped ? 20 : 0) + (isLoaded ? 40 : 0)) }
            }
            check(false, 10)
            guard LibcryptoDigest.hex(of: "abc", .md5) == "900150983cd24fb0d6963f7d28e17f72" else { exit(2) }
            check(true, 11)
            guard LibcryptoDigest.hex(of: "abc", .sha256) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" else { exit(2) }
        }
    }
}
