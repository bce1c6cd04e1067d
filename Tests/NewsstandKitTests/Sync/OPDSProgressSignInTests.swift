import Foundation
import Testing
@testable import NewsstandKit

/// A progression link on a catalog that asks for HTTP Digest: the sign-in answers its
/// challenge once and signs the requests after it; a wrong password is refused, said once.
@Suite struct OPDSProgressSignInTests {
    @Test func aPlaceIsWrittenAndReadBehindDigestOneChallengeAnsweredForBoth() throws {
        let server = try TestHTTPServer.shared()
        let key = TestHTTPServer.uniqueKey("progression")
        let link = server.url("/progression/\(key)?auth=digest&user=ann&pass=pa55")
        let progress = OPDSProgress(transport: HTTPAccess.syncTransport(timeout: 10)) { _ in .basic(user: "ann", password: "pa55") }
        let place = OPDSProgress.Place(position: 12, totalProgression: 0.4, modified: Date(timeIntervalSince1970: 1_790_000_000))

        #expect(try progress.write(place, to: link, device: (id: "d1", name: "laptop")) == .written)
        let read = try #require(try progress.read(link))
        #expect(read.position == 12 && read.totalProgression == 0.4, "\(read)")
        // Basic went first (as to every catalog); Digest was asked for and answered once.
        let requests = server.requests(for: key, atLeast: 3)
        #expect(requests.map(\.status) == [401, 200, 200], "\(requests.map(\.status))")
        #expect(requests[0].authorization?.hasPrefix("Basic ") == true)
        #expect(requests[1...].allSatisfy { $0.authorization?.hasPrefix("Digest ") == true })
    }

    @Test func aWrongPasswordIsRefusedWithoutAsking() throws {
        let server = try TestHTTPServer.shared()
        let key = TestHTTPServer.uniqueKey("progression-refused")
        let link = server.url("/progression/\(key)?auth=digest&user=ann&pass=pa55")
        let progress = OPDSProgress(transport: HTTPAccess.syncTransport(timeout: 10)) { _ in .basic(user: "ann", password: "wrong") }
        #expect(throws: SyncError.refused(target: "127.0.0.1")) { try progress.read(link) }
        // The Basic sent first, then the one Digest answer: no third try.
        #expect(server.requests(for: key, atLeast: 2).map(\.status) == [401, 401])
    }
}
