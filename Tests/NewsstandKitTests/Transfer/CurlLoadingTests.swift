import Foundation
import Testing
@testable import NewsstandKit

/// libcurl (and the TLS, Kerberos, LDAP and SSH libraries behind it) is loaded the first time
/// an https request is made, never at start and never for http.
@Suite("libcurl is loaded on first use")
struct CurlLoadingTests {
    @Test("a process loads libcurl at its first https request, not at start nor for http")
    func loadedOnFirstHTTPSRequest() async throws {
        // In a process of its own: other tests of this process may already have made https requests.
        // Which check failed, by exit status: 10 at start, 11 after http, 12 after https, 2 a request that did not fail as expected.
        await #expect(processExitsWith: .success) {
            func check(_ loaded: Bool, _ when: Int32) {
                let maps = String(decoding: FileHandle(forReadingAtPath: "/proc/self/maps")?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
                guard !maps.isEmpty else { exit(3) }
                let mapped = maps.contains("libcurl")
                guard CurlHTTPClient.isLoaded == loaded, mapped == loaded else { exit(when + (mapped ? 20 : 0) + (CurlHTTPClient.isLoaded ? 40 : 0)) }
            }
            let part = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-curl-\(UUID().uuidString).part")
            defer { try? FileManager.default.removeItem(at: part) }
            check(false, 10)
            // Nothing listens on port 1: each request fails at once, after choosing its client.
            let http = transferError { _ = try Transfer(request: TransferRequest(url: URL(string: "http://127.0.0.1:1/x")!), partFile: part, timeout: 2).run(validator: nil) { _ in } }
            guard http != nil else { exit(2) }
            check(false, 11)
            let https = transferError { _ = try Transfer(request: TransferRequest(url: URL(string: "https://127.0.0.1:1/x")!), partFile: part, timeout: 2).run(validator: nil) { _ in } }
            guard let https, https.isRetryable, https.message.contains("cannot connect") else { exit(2) }
            check(true, 12)
        }
    }
}
