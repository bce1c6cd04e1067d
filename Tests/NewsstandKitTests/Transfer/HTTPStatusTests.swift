import Foundation
import Testing
@testable import NewsstandKit

@Suite("Transfer over HTTP: statuses, credentials, redirects, lengths and checksums")
struct HTTPStatusTests {
    let server: TestHTTPServer

    init() throws { server = try TestHTTPServer.shared() }

    private func run(_ pathAndQuery: String, client: HTTPClientKind = .sockets, expectedLength: Int64? = nil, expectedSHA256: String? = nil, credentials: Credentials? = nil, scratch: Scratch) -> (TransferResult?, TransferError?) {
        let transfer = makeTransfer(server.url(pathAndQuery), part: scratch.partFile, client: client, expectedLength: expectedLength, expectedSHA256: expectedSHA256, credentials: credentials)
        var result: TransferResult?
        let error = transferError { result = try transfer.run(validator: nil) { _ in } }
        return (result, error)
    }

    @Test("404 fails for good, 500 and 503 may be retried, 408 and 429 too, with Retry-After", arguments: HTTPClientKind.allCases)
    func statuses(client: HTTPClientKind) throws {
        let scratch = try Scratch()
        let cases: [(query: String, status: Int, retryable: Bool, retryAfter: TimeInterval?)] = [
            ("fail=404", 404, false, nil),
            ("fail=403", 403, false, nil),
            ("fail=500", 500, true, nil),
            ("fail=503&retry_after=7", 503, true, 7),
            ("fail=429&retry_after=3", 429, true, 3),
            ("fail=408", 408, true, nil),
        ]
        for item in cases {
            let key = TestHTTPServer.uniqueKey("status")
            let (result, error) = run("/file/\(key)?size=10&\(item.query)", client: client, scratch: scratch)
            #expect(result == nil)
            let failure = try #require(error, "\(item.query)")
            #expect(failure.httpStatus == item.status, "\(item.query)")
            #expect(failure.isRetryable == item.retryable, "\(item.query)")
            #expect(failure.retryAfter == item.retryAfter, "\(item.query)")
            #expect(failure.message.contains("\(item.status)"), "\(item.query)")
        }
    }

    @Test("Retry-After given as an HTTP-date becomes seconds from now")
    func retryAfterDate() throws {
        let scratch = try Scratch()
        let key = TestHTTPServer.uniqueKey("date")
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let when = formatter.string(from: Date().addingTimeInterval(120))
        let encoded = when.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let (_, error) = run("/file/\(key)?fail=503&retry_after=\(encoded)", scratch: scratch)
        let retryAfter = try #require(error?.retryAfter)
        #expect(retryAfter > 100 && retryAfter <= 120)
    }

    @Test("401 is answered once with Basic or Bearer credentials", arguments: HTTPClientKind.allCases)
    func credentialsAnswerA401(client: HTTPClientKind) throws {
        let scratch = try Scratch()
        let basicKey = TestHTTPServer.uniqueKey("basic")
        let (basic, basicError) = run("/file/\(basicKey)?size=1000&auth=basic&user=ann&pass=s3cret", client: client, credentials: .basic(user: "ann", password: "s3cret"), scratch: scratch)
        #expect(basicError == nil)
        #expect(basic?.bytes == 1000)
        let requests = server.requests(for: basicKey, atLeast: 2)
        #expect(requests.map(\.status) == [401, 200])
        #expect(requests.first?.authorization == nil)
        #expect(requests.last?.authorization == "Basic " + Data("ann:s3cret".utf8).base64EncodedString())

        let bearerKey = TestHTTPServer.uniqueKey("bearer")
        let (bearer, bearerError) = run("/file/\(bearerKey)?size=1000&auth=bearer&token=tok123", client: client, credentials: .bearer("tok123"), scratch: scratch)
        #expect(bearerError == nil)
        #expect(bearer?.bytes == 1000)
        #expect(server.requests(for: bearerKey, atLeast: 2).last?.authorization == "Bearer tok123")
    }

    @Test("wrong credentials are tried once; no credentials is a clear error")
    func refusedCredentials() throws {
        let scratch = try Scratch()
        let key = TestHTTPServer.uniqueKey("refused")
        let transfer = makeTransfer(server.url("/file/\(key)?size=10&auth=basic&user=ann&pass=right"), part: scratch.partFile,
                                    credentials: .basic(user: "ann", password: "wrong"))
        let wrong = #expect(throws: HTTPAuthenticationRequired.self) { try transfer.run(validator: nil) { _ in } }
        #expect(wrong?.credentialsSent == true)
        #expect(wrong?.schemes == ["Basic"])
        #expect(wrong?.realm == "newsstand")
        #expect(wrong?.description.contains("refused the user name or password") == true)
        #expect(server.requests(for: key, atLeast: 2).count == 2)

        let bareKey = TestHTTPServer.uniqueKey("bare")
        let bare = makeTransfer(server.url("/file/\(bareKey)?size=10&auth=bearer&token=t"), part: scratch.partFile)
        let missing = #expect(throws: HTTPAuthenticationRequired.self) { try bare.run(validator: nil) { _ in } }
        #expect(missing?.credentialsSent == false)
        #expect(missing?.host == "127.0.0.1:\(server.port)")
        #expect(missing?.description.contains("asks for a token") == true)
        #expect(server.requests(for: bareKey).count == 1)
    }

    @Test("Digest with MD5 and SHA-256, qop=auth or none, a stale nonce renewed once", arguments: HTTPClientKind.allCases)
    func digest(client: HTTPClientKind) throws {
        let scratch = try Scratch()
        let user = Credentials.basic(user: "ann", password: "s3cret")
        for query in ["algorithm=MD5", "algorithm=SHA-256", "algorithm=MD5&qop=none", "algorithm=SHA-256&stale_first=1&also_basic=1"] {
            let key = TestHTTPServer.uniqueKey("digest")
            try? FileManager.default.removeItem(at: scratch.partFile)
            let (result, error) = run("/file/\(key)?size=3000&seed=4&auth=digest&user=ann&pass=s3cret&\(query)", client: client, credentials: user, scratch: scratch)
            #expect(error == nil, "\(query): \(String(describing: error))")
            #expect(result?.bytes == 3000, "\(query)")
            #expect(try Data(contentsOf: scratch.partFile) == TestHTTPServer.expectedContent(size: 3000, seed: 4), "\(query)")
            let requests = server.requests(for: key, atLeast: query.contains("stale") ? 3 : 2)
            #expect(requests.map(\.status) == (query.contains("stale") ? [401, 401, 200] : [401, 200]), "\(query)")
            #expect(requests.last?.authorization?.hasPrefix("Digest username=\"ann\"") == true, "\(query)")
            // The password is in the test URL (so in Digest's uri="…"), never elsewhere in the field.
            #expect(requests.allSatisfy { ($0.authorization ?? "").replacingOccurrences(of: $0.path, with: "").contains("s3cret") == false })
        }
    }

    @Test("an answer that worked is sent at once on the next request to that server, the nonce counted on", arguments: HTTPClientKind.allCases)
    func answersAreReused(client: HTTPClientKind) throws {
        let scratch = try Scratch()
        let access = HTTPAccess(client: client.client) { _ in .basic(user: "ann", password: "s3cret") }
        var statuses: [[Int]] = []
        var fields: [String] = []
        for _ in 0..<2 {
            let key = TestHTTPServer.uniqueKey("reuse")
            try? FileManager.default.removeItem(at: scratch.partFile)
            let transfer = access.transfer(server.url("/file/\(key)?size=100&auth=digest&user=ann&pass=s3cret&algorithm=SHA-256"),
                                           into: scratch.partFile, timeout: 10, maximumLength: nil, lowSpeedLimit: .standard)
            #expect(try transfer.run(validator: nil) { _ in }.bytes == 100)
            let requests = server.requests(for: key, atLeast: statuses.isEmpty ? 2 : 1)
            statuses.append(requests.map(\.status))
            fields.append(requests.last?.authorization ?? "")
        }
        #expect(statuses == [[401, 200], [200]])
        #expect(fields[0].contains("nc=00000001") && fields[1].contains("nc=00000002"))

        // A server that no longer takes it (the password changed) gets a fresh answer to its challenge.
        let key = TestHTTPServer.uniqueKey("reuse-stale")
        try? FileManager.default.removeItem(at: scratch.partFile)
        let old = access.transfer(server.url("/file/\(key)?size=100&auth=digest&user=ann&pass=new&algorithm=SHA-256"),
                                  into: scratch.partFile, timeout: 10, maximumLength: nil, lowSpeedLimit: .standard)
        old.credentialsLookup = { _ in .basic(user: "ann", password: "new") }
        #expect(try old.run(validator: nil) { _ in }.bytes == 100)
        let requests = server.requests(for: key, atLeast: 2)
        #expect(requests.map(\.status) == [401, 200])
        #expect(requests.first?.authorization?.contains("nc=00000003") == true)   // the remembered answer, refused
        #expect(requests.last?.authorization?.contains("nc=00000001") == true)    // the fresh one
    }

    @Test("a wrong password to Digest fails after one answer, with the server's OPDS Authentication Document", arguments: HTTPClientKind.allCases)
    func digestRefusedWithAuthenticationDocument(client: HTTPClientKind) throws {
        let scratch = try Scratch()
        let key = TestHTTPServer.uniqueKey("digest-wrong")
        let transfer = makeTransfer(server.url("/file/\(key)?size=10&auth=digest&user=ann&pass=right&auth_doc=1&also_basic=1"), part: scratch.partFile,
                                    client: client, credentials: .basic(user: "ann", password: "wrong"))
        let error = #expect(throws: HTTPAuthenticationRequired.self) { try transfer.run(validator: nil) { _ in } }
        let refused = try #require(error)
        #expect(refused.credentialsSent)
        #expect(refused.schemes == ["Digest", "Basic"])
        #expect(refused.realm == #"Newsstand "digest", test"#)
        #expect(server.requests(for: key, atLeast: 2).map(\.status) == [401, 401])
        let document = try #require(refused.document)
        #expect(document.title == "Test Library")
        #expect(document.basic?.loginLabel == "Card number")
        #expect(document.basic?.passwordLabel == "PIN")
        #expect(document.logo == server.url("/logo.png"))
        #expect(document.register == URL(string: "https://example.org/join"))
        #expect(refused.serverName == "Test Library")
        // The document never reaches the part file.
        #expect(((try? Data(contentsOf: scratch.partFile)) ?? Data()).isEmpty)
    }

    @Test("a redirect chain is followed, a loop and more than 10 hops are refused", arguments: HTTPClientKind.allCases)
    func redirects(client: HTTPClientKind) throws {
        let scratch = try Scratch()
        let key = TestHTTPServer.uniqueKey("chain")
        let (result, error) = run("/redirect/5/\(key)?size=20000&seed=21", client: client, scratch: scratch)
        #expect(error == nil)
        #expect(result?.bytes == 20000)
        #expect(try Data(contentsOf: scratch.partFile) == TestHTTPServer.expectedContent(size: 20000, seed: 21))
        #expect(server.requests(for: key, atLeast: 7).map(\.status) == [302, 302, 302, 302, 302, 302, 200])

        let longKey = TestHTTPServer.uniqueKey("long")
        let (_, tooMany) = run("/redirect/10/\(longKey)?size=10", client: client, scratch: scratch)
        #expect(tooMany?.message.contains("more than 10") == true)
        #expect(tooMany?.isRetryable == false)
        #expect(server.requests(for: longKey, atLeast: 11).count == 11)

        let loopKey = TestHTTPServer.uniqueKey("loop")
        let (_, loop) = run("/loop/\(loopKey)?size=10", client: client, scratch: scratch)
        #expect(loop?.message.contains("loop") == true)
        #expect(loop?.isRetryable == false)
    }

    @Test("a redirect to a file:// URL is refused")
    func redirectToFile() throws {
        let scratch = try Scratch()
        let location = "file:///etc/passwd".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let (result, error) = run("/to/\(TestHTTPServer.uniqueKey("tofile"))?location=\(location)", scratch: scratch)
        #expect(result == nil)
        #expect(error?.message.contains("not http or https") == true)
        #expect(fileSize(scratch.partFile) <= 0)
    }

    @Test("response headers larger than 64 KiB are refused, not buffered without end")
    func hugeHeaders() throws {
        let scratch = try Scratch()
        let (result, error) = run("/file/\(TestHTTPServer.uniqueKey("huge"))?size=10&huge_header=200000", scratch: scratch)
        #expect(result == nil)
        #expect(error?.message.contains("65536 bytes") == true)
        #expect(error?.isRetryable == false)
    }

    @Test("a Content-Length longer than the body is a retryable short read", arguments: HTTPClientKind.allCases)
    func contentLengthTooLong(client: HTTPClientKind) throws {
        let scratch = try Scratch()
        let key = TestHTTPServer.uniqueKey("long-cl")
        let (result, error) = run("/file/\(key)?size=50000&length_delta=5000", client: client, scratch: scratch)
        #expect(result == nil)
        #expect(error?.isRetryable == true)
        #expect(error?.message.contains("50000 of 55000") == true)
    }

    @Test("a Content-Length shorter than the feed's length is an error and the .part is deleted")
    func contentLengthTooShort() throws {
        let scratch = try Scratch()
        let key = TestHTTPServer.uniqueKey("short-cl")
        let (result, error) = run("/file/\(key)?size=50000&length_delta=-100", expectedLength: 50000, scratch: scratch)
        #expect(result == nil)
        #expect(error?.isRetryable == false)
        #expect(error?.message.contains("feed says 50000") == true)
        #expect(!FileManager.default.fileExists(atPath: scratch.partFile.path))
    }

    @Test("a body longer than the feed's length (no Content-Length) is cut off and deleted")
    func bodyLongerThanFeedSays() throws {
        let scratch = try Scratch()
        let key = TestHTTPServer.uniqueKey("endless")
        let (result, error) = run("/file/\(key)?size=300000&no_length=1", expectedLength: 1000, scratch: scratch)
        #expect(result == nil)
        #expect(error?.message.contains("more than the 1000 bytes") == true)
        #expect(!FileManager.default.fileExists(atPath: scratch.partFile.path))
        let again = run("/file/\(TestHTTPServer.uniqueKey("shorter"))?size=800&no_length=1", expectedLength: 900, scratch: scratch)
        #expect(again.1?.message.contains("is 800 bytes long but the feed says 900") == true)
        #expect(!FileManager.default.fileExists(atPath: scratch.partFile.path))
    }

    @Test("a SHA-256 that matches is accepted; one that does not deletes the bytes", arguments: HTTPClientKind.allCases)
    func checksum(client: HTTPClientKind) throws {
        let scratch = try Scratch()
        let content = try TestHTTPServer.expectedContent(size: 70000, seed: 31)
        let good = run("/file/\(TestHTTPServer.uniqueKey("sha"))?size=70000&seed=31", client: client, expectedLength: 70000, expectedSHA256: try sha256(of: content).uppercased(), scratch: scratch)
        #expect(good.1 == nil)
        #expect(good.0?.bytes == 70000)

        try FileManager.default.removeItem(at: scratch.partFile)
        let bad = run("/file/\(TestHTTPServer.uniqueKey("sha"))?size=70000&seed=32", client: client, expectedSHA256: try sha256(of: content), scratch: scratch)
        #expect(bad.0 == nil)
        #expect(bad.1?.message.contains("SHA-256") == true)
        #expect(bad.1?.isRetryable == false)
        #expect(!FileManager.default.fileExists(atPath: scratch.partFile.path))
    }

    @Test("a feed length that the server contradicts is refused before any byte is kept")
    func declaredLengthMismatch() throws {
        let scratch = try Scratch()
        let (_, error) = run("/file/\(TestHTTPServer.uniqueKey("declared"))?size=5000", expectedLength: 4000, scratch: scratch)
        #expect(error?.message.contains("feed says 4000") == true)
        #expect(!FileManager.default.fileExists(atPath: scratch.partFile.path))
    }

    @Test("https goes through TLS, and an untrusted certificate fails for good with the reason")
    func httpsUntrustedCertificate() throws {
        let scratch = try Scratch()
        let tls = try TestHTTPServer.startTLS()
        defer { tls.stop() }
        let key = TestHTTPServer.uniqueKey("tls")
        // The default client for https (no override): libcurl.
        let transfer = Transfer(request: TransferRequest(url: URL(string: "https://127.0.0.1:\(tls.port)/file/\(key)?size=100")!), partFile: scratch.partFile, timeout: 10)
        let error = try #require(transferError { _ = try transfer.run(validator: nil) { _ in } })
        #expect(!error.isRetryable)
        #expect(error.message.contains("TLS"))
        #expect(error.message.localizedCaseInsensitiveContains("certificate"))
        #expect(fileSize(scratch.partFile) == 0)
        // Plain http to the TLS port is not HTTP either: a clear error, no crash.
        let plain = transferError { _ = try makeTransfer(URL(string: "http://127.0.0.1:\(tls.port)/file/\(key)?size=100")!, part: scratch.partFile, timeout: 2).run(validator: nil) { _ in } }
        #expect(plain != nil)
    }

    @Test("https with a trusted certificate: a dropped body resumes with Range over TLS, byte-identical")
    func httpsResumesOverTLS() throws {
        let scratch = try Scratch()
        let tls = try TestHTTPServer.startTLS()
        defer { tls.stop() }
        let client = try tls.trustingCurl(in: scratch)
        let key = TestHTTPServer.uniqueKey("tls-drop")
        let size = 500_000
        let dropAfter = 200_000
        let expected = try TestHTTPServer.expectedContent(size: size, seed: 5)
        let url = URL(string: "https://127.0.0.1:\(tls.port)/file/\(key)?size=\(size)&seed=5&drop_after=\(dropAfter)")!
        func transfer() -> Transfer {
            let transfer = Transfer(request: TransferRequest(url: url), partFile: scratch.partFile, timeout: 10)
            transfer.clientOverride = client
            return transfer
        }
        var saved: TransferValidator?
        let error = try #require(transferError { _ = try transfer().run(validator: nil, onValidator: { saved = $0 }, progress: { _ in }) })
        #expect(error.isRetryable, "\(error.message)")
        #expect(fileSize(scratch.partFile) == Int64(dropAfter))
        let result = try transfer().run(validator: try #require(saved)) { _ in }
        #expect(result.resumedFrom == Int64(dropAfter))
        #expect(try sha256(of: scratch.partFile) == sha256(of: expected))
        let requests = tls.requests(for: key, atLeast: 2)
        #expect(requests.map(\.status) == [200, 206])
        #expect(requests.last?.range == "bytes=\(dropAfter)-")
    }

    @Test("unsupported schemes are refused with a message")
    func unsupportedScheme() throws {
        let scratch = try Scratch()
        let transfer = Transfer(request: TransferRequest(url: URL(string: "ftp://127.0.0.1/x")!), partFile: scratch.partFile)
        let error = transferError { _ = try transfer.run(validator: nil) { _ in } }
        #expect(error?.message.contains("only http, https and file") == true)
    }
}
