import Foundation
import Testing
@testable import NewsstandKit

@Suite("Transfer over HTTP: streaming and resuming")
struct HTTPTransferTests {
    let server: TestHTTPServer

    init() throws { server = try TestHTTPServer.shared() }

    @Test("a plain download is byte-identical, reports progress and the validator", arguments: HTTPClientKind.allCases)
    func plainDownload(client: HTTPClientKind) throws {
        let scratch = try Scratch()
        let key = TestHTTPServer.uniqueKey("plain")
        let size = 3_000_000
        let expected = try TestHTTPServer.expectedContent(size: size, seed: 7)
        let log = ProgressLog()
        var seen: [TransferValidator] = []
        let transfer = makeTransfer(server.url("/file/\(key)?size=\(size)&seed=7"), part: scratch.partFile, client: client)
        let result = try transfer.run(validator: nil, onValidator: { seen.append($0) }, progress: log.callback)

        #expect(result.bytes == Int64(size))
        #expect(result.resumedFrom == 0)
        #expect(result.file == scratch.partFile)
        #expect(try sha256(of: scratch.partFile) == sha256(of: expected))
        #expect(result.validator.etag?.hasPrefix("\"") == true)
        #expect(result.validator.lastModified?.hasSuffix("GMT") == true)
        #expect(seen == [result.validator])
        let reports = log.all
        #expect(reports.last == TransferProgress(bytesWritten: Int64(size), bytesExpected: Int64(size)))
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.bytesWritten <= $1.bytesWritten })
        let requests = server.requests(for: key)
        #expect(requests.count == 1)
        #expect(requests.first?.range == nil)
        #expect(requests.first?.user_agent == "Newsstand/1.0")
    }

    @Test("chunked and close-delimited bodies are read to the end", arguments: ["chunked=1&chunk=7777", "no_length=1"])
    func otherFraming(query: String) throws {
        let scratch = try Scratch()
        let key = TestHTTPServer.uniqueKey("framing")
        let expected = try TestHTTPServer.expectedContent(size: 100_000, seed: 3)
        let transfer = makeTransfer(server.url("/file/\(key)?size=100000&seed=3&\(query)"), part: scratch.partFile)
        let result = try transfer.run(validator: nil) { _ in }
        #expect(result.bytes == 100_000)
        #expect(try Data(contentsOf: scratch.partFile) == expected)
    }

    @Test("custom request headers reach the server")
    func customHeaders() throws {
        let scratch = try Scratch()
        let key = TestHTTPServer.uniqueKey("headers")
        let transfer = makeTransfer(server.url("/file/\(key)?size=10"), part: scratch.partFile, headers: ["X-Test": "hello", "User-Agent": "Custom/2"])
        _ = try transfer.run(validator: nil) { _ in }
        let request = try #require(server.requests(for: key).first)
        #expect(request.x_test == "hello")
        #expect(request.user_agent == "Custom/2")
    }

    @Test("a connection dropped mid-body resumes with Range and If-Range and re-fetches nothing on disk",
          arguments: HTTPClientKind.allCases, ["both", "lastmod"])
    func resumeAfterDrop(client: HTTPClientKind, validators: String) throws {
        let scratch = try Scratch()
        let key = TestHTTPServer.uniqueKey("drop")
        let size = 2_000_000
        let dropAfter = 700_000
        let expected = try TestHTTPServer.expectedContent(size: size, seed: 11)
        let url = server.url("/file/\(key)?size=\(size)&seed=11&drop_after=\(dropAfter)&validators=\(validators)")

        var saved: TransferValidator?
        let first = transferError {
            _ = try makeTransfer(url, part: scratch.partFile, client: client).run(validator: nil, onValidator: { saved = $0 }, progress: { _ in })
        }
        let error = try #require(first)
        #expect(error.isRetryable)
        #expect(fileSize(scratch.partFile) == Int64(dropAfter))
        let validator = try #require(saved)

        let log = ProgressLog()
        let result = try makeTransfer(url, part: scratch.partFile, client: client).run(validator: validator, progress: log.callback)
        #expect(result.resumedFrom == Int64(dropAfter))
        #expect(result.bytes == Int64(size))
        #expect(try sha256(of: scratch.partFile) == sha256(of: expected))
        #expect(log.all.first?.bytesWritten == Int64(dropAfter))

        let requests = server.requests(for: key, atLeast: 2)
        #expect(requests.count == 2)
        let resumed = try #require(requests.last)
        #expect(resumed.status == 206)
        #expect(resumed.range == "bytes=\(dropAfter)-")
        #expect(resumed.if_range == (validators == "both" ? validator.etag : validator.lastModified))
        // Nothing already on disk was sent twice.
        #expect(requests.compactMap(\.sent).reduce(0, +) == size)
    }

    @Test("a reset connection (RST) is a retryable error that keeps the bytes received")
    func resetConnection() throws {
        let scratch = try Scratch()
        let key = TestHTTPServer.uniqueKey("reset")
        let url = server.url("/file/\(key)?size=500000&drop_after=200000&drop_mode=reset")
        let error = try #require(transferError { _ = try makeTransfer(url, part: scratch.partFile).run(validator: nil) { _ in } })
        #expect(error.isRetryable)
        #expect(fileSize(scratch.partFile) <= 200_000)
        let result = try makeTransfer(url, part: scratch.partFile).run(validator: nil) { _ in }
        #expect(result.bytes == 500_000)
        #expect(try Data(contentsOf: scratch.partFile) == TestHTTPServer.expectedContent(size: 500_000, seed: 1))
    }

    @Test("a changed file on the server starts over and the result is the new file", arguments: HTTPClientKind.allCases)
    func changedValidatorStartsOver(client: HTTPClientKind) throws {
        let scratch = try Scratch()
        let key = TestHTTPServer.uniqueKey("changed")
        let url = server.url("/file/\(key)?size=400000&seed=5&drop_after=100000&change_after=1")
        var saved: TransferValidator?
        _ = transferError { _ = try makeTransfer(url, part: scratch.partFile, client: client).run(validator: nil, onValidator: { saved = $0 }, progress: { _ in }) }
        let old = try #require(saved)
        var fresh: TransferValidator?
        let result = try makeTransfer(url, part: scratch.partFile, client: client).run(validator: old, onValidator: { fresh = $0 }, progress: { _ in })
        #expect(result.resumedFrom == 0)
        #expect(fresh != old)
        #expect(result.validator == fresh)
        #expect(try Data(contentsOf: scratch.partFile) == TestHTTPServer.expectedContent(size: 400_000, seed: 1005))
        let requests = server.requests(for: key, atLeast: 2)
        #expect(requests.last?.status == 200)
        #expect(requests.last?.if_range == old.etag)
    }

    @Test("a 200 that ignores Range starts over")
    func serverIgnoringRange() throws {
        let scratch = try Scratch()
        let key = TestHTTPServer.uniqueKey("ignore")
        let url = server.url("/file/\(key)?size=300000&seed=9&drop_after=120000&ignore_range=1")
        var saved: TransferValidator?
        _ = transferError { _ = try makeTransfer(url, part: scratch.partFile).run(validator: nil, onValidator: { saved = $0 }, progress: { _ in }) }
        #expect(fileSize(scratch.partFile) == 120_000)
        let result = try makeTransfer(url, part: scratch.partFile).run(validator: saved) { _ in }
        #expect(result.resumedFrom == 0)
        #expect(try Data(contentsOf: scratch.partFile) == TestHTTPServer.expectedContent(size: 300_000, seed: 9))
        let requests = server.requests(for: key, atLeast: 2)
        #expect(requests.last?.range == "bytes=120000-")
        #expect(requests.last?.status == 200)
    }

    @Test("a 206 whose Content-Range does not start at the offset asked for starts over")
    func wrongContentRange() throws {
        let scratch = try Scratch()
        let key = TestHTTPServer.uniqueKey("badrange")
        let url = server.url("/file/\(key)?size=300000&seed=4&drop_after=50000&bad_range=7")
        var saved: TransferValidator?
        _ = transferError { _ = try makeTransfer(url, part: scratch.partFile).run(validator: nil, onValidator: { saved = $0 }, progress: { _ in }) }
        let result = try makeTransfer(url, part: scratch.partFile).run(validator: saved) { _ in }
        #expect(result.resumedFrom == 0)
        #expect(try Data(contentsOf: scratch.partFile) == TestHTTPServer.expectedContent(size: 300_000, seed: 4))
        let requests = server.requests(for: key, atLeast: 3)
        #expect(requests.map(\.range) == [nil, "bytes=50000-", nil])
    }

    @Test("a 206 carrying less than the rest is continued with further ranges")
    func shortRanges() throws {
        let scratch = try Scratch()
        let key = TestHTTPServer.uniqueKey("short")
        let url = server.url("/file/\(key)?size=100000&seed=6&drop_after=10000&short_range=40000")
        var saved: TransferValidator?
        _ = transferError { _ = try makeTransfer(url, part: scratch.partFile).run(validator: nil, onValidator: { saved = $0 }, progress: { _ in }) }
        let result = try makeTransfer(url, part: scratch.partFile).run(validator: saved) { _ in }
        #expect(result.resumedFrom == 10_000)
        #expect(try Data(contentsOf: scratch.partFile) == TestHTTPServer.expectedContent(size: 100_000, seed: 6))
        let requests = server.requests(for: key, atLeast: 4)
        #expect(requests.map(\.range) == [nil, "bytes=10000-", "bytes=50000-", "bytes=90000-"])
    }

    @Test("a .part that is already complete is confirmed by a 416 and not fetched again")
    func alreadyComplete() throws {
        let scratch = try Scratch()
        let key = TestHTTPServer.uniqueKey("complete")
        let url = server.url("/file/\(key)?size=50000&seed=2")
        let first = try makeTransfer(url, part: scratch.partFile).run(validator: nil) { _ in }
        let second = try makeTransfer(url, part: scratch.partFile).run(validator: first.validator) { _ in }
        #expect(second.bytes == 50_000)
        #expect(second.resumedFrom == 50_000)
        #expect(try Data(contentsOf: scratch.partFile) == TestHTTPServer.expectedContent(size: 50_000, seed: 2))
        #expect(server.requests(for: key, atLeast: 2).map(\.status) == [200, 416])
    }

    @Test("a complete .part with the feed's length and checksum needs no request; a corrupt one is fetched again")
    func completePartWithChecksum() throws {
        let scratch = try Scratch()
        let key = TestHTTPServer.uniqueKey("verified")
        let content = try TestHTTPServer.expectedContent(size: 60000, seed: 13)
        let url = server.url("/file/\(key)?size=60000&seed=13")
        let sha = try sha256(of: content)
        let first = try makeTransfer(url, part: scratch.partFile, expectedLength: 60000, expectedSHA256: sha).run(validator: nil) { _ in }
        let again = try makeTransfer(url, part: scratch.partFile, expectedLength: 60000, expectedSHA256: sha).run(validator: first.validator) { _ in }
        #expect(again.resumedFrom == 60000)
        #expect(server.requests(for: key).count == 1)

        var corrupt = content
        corrupt[100] ^= 0xFF
        try corrupt.write(to: scratch.partFile)
        let repaired = try makeTransfer(url, part: scratch.partFile, expectedLength: 60000, expectedSHA256: sha).run(validator: first.validator) { _ in }
        #expect(repaired.resumedFrom == 0)
        #expect(try Data(contentsOf: scratch.partFile) == content)
        let requests = server.requests(for: key, atLeast: 2)
        #expect(requests.count == 2)
        #expect(requests.last?.range == nil)
    }

    @Test("without a validator fit for If-Range (weak ETag only) the transfer starts over")
    func weakValidatorStartsOver() throws {
        let scratch = try Scratch()
        let key = TestHTTPServer.uniqueKey("weak")
        let url = server.url("/file/\(key)?size=80000&seed=8&drop_after=30000&validators=weak")
        var saved: TransferValidator?
        _ = transferError { _ = try makeTransfer(url, part: scratch.partFile).run(validator: nil, onValidator: { saved = $0 }, progress: { _ in }) }
        #expect(saved?.etag?.hasPrefix("W/") == true)
        let result = try makeTransfer(url, part: scratch.partFile).run(validator: saved) { _ in }
        #expect(result.resumedFrom == 0)
        #expect(server.requests(for: key, atLeast: 2).last?.range == nil)
    }

    @Test("with a checksum, bytes on disk are resumed even without a validator")
    func checksumAllowsResumeWithoutValidator() throws {
        let scratch = try Scratch()
        let key = TestHTTPServer.uniqueKey("novalidator")
        let content = try TestHTTPServer.expectedContent(size: 90000, seed: 12)
        let url = server.url("/file/\(key)?size=90000&seed=12&drop_after=40000&validators=none")
        _ = transferError { _ = try makeTransfer(url, part: scratch.partFile).run(validator: nil) { _ in } }
        let result = try makeTransfer(url, part: scratch.partFile, expectedSHA256: sha256(of: content)).run(validator: nil) { _ in }
        #expect(result.resumedFrom == 40_000)
        #expect(try Data(contentsOf: scratch.partFile) == content)
    }

    @Test("a slow body reports progress at most about ten times a second, and cancel stops it", arguments: HTTPClientKind.allCases)
    func slowBodyProgressAndCancel(client: HTTPClientKind) throws {
        let scratch = try Scratch()
        let key = TestHTTPServer.uniqueKey("slow")
        // 5 s of body at least; cancelled at the fifth report, on what came rather than at a time.
        let url = server.url("/file/\(key)?size=1000000&chunk=1000&delay_ms=5")
        let transfer = makeTransfer(url, part: scratch.partFile, client: client)
        let log = ProgressLog()
        let started = Date()
        let error = try #require(transferError {
            _ = try transfer.run(validator: nil) { progress in
                log.record(progress)
                if log.all.count == 5 { transfer.cancel() }
            }
        })
        // However loaded the machine, a longer run only allows more reports.
        let elapsed = Date().timeIntervalSince(started)
        #expect(error.isCancelled)
        #expect(!error.isRetryable)
        let reports = log.all
        #expect(reports.count >= 5)
        #expect(Double(reports.count) <= elapsed * 10 + 3)
        let written = fileSize(scratch.partFile)
        #expect(written > 0 && written < 1_000_000)
        #expect(reports.last.map { $0.bytesWritten <= written } == true)
        // Cancelled stays cancelled.
        #expect(transferError { _ = try transfer.run(validator: nil) { _ in } }?.isCancelled == true)
    }

    @Test("a cancelled transfer resumes where its .part ends and the result is byte-identical", arguments: HTTPClientKind.allCases)
    func cancelThenResume(client: HTTPClientKind) throws {
        let scratch = try Scratch()
        let key = TestHTTPServer.uniqueKey("cancelresume")
        let size = 1_200_000
        let content = try TestHTTPServer.expectedContent(size: size, seed: 51)
        // 1.5 s of body at least, cancelled once a sixth of it is in (on what came, not at a time).
        let url = server.url("/file/\(key)?size=\(size)&seed=51&chunk=8000&delay_ms=10")
        let transfer = makeTransfer(url, part: scratch.partFile, client: client)
        var saved: TransferValidator?
        let error = transferError {
            _ = try transfer.run(validator: nil, onValidator: { saved = $0 }, progress: { if $0.bytesWritten >= 200_000 { transfer.cancel() } })
        }
        #expect(error?.isCancelled == true)
        let kept = fileSize(scratch.partFile)
        #expect(kept > 0 && kept < Int64(size))

        let result = try makeTransfer(server.url("/file/\(key)?size=\(size)&seed=51"), part: scratch.partFile, client: client).run(validator: saved) { _ in }
        #expect(result.resumedFrom == kept)
        #expect(try sha256(of: scratch.partFile) == sha256(of: content))
        // (The cancelled request is logged when the server notices, maybe after this one.)
        #expect(server.requests(for: key, atLeast: 2).contains { $0.range == "bytes=\(kept)-" && $0.status == 206 })
    }

    @Test("the validator is handed over before any byte of the response is written")
    func validatorBeforeBytes() throws {
        let scratch = try Scratch()
        let part = scratch.partFile
        let url = server.url("/file/\(TestHTTPServer.uniqueKey("order"))?size=400000&drop_after=150000")
        // Fresh: the .part is empty when the validator arrives.
        var validator: TransferValidator?
        var sizeAtFirst: Int64 = -1
        _ = transferError { _ = try makeTransfer(url, part: part).run(validator: nil, onValidator: { validator = $0; sizeAtFirst = fileSize(part) }, progress: { _ in }) }
        #expect(sizeAtFirst == 0)
        #expect(fileSize(part) == 150_000)
        // Resumed: the .part holds exactly the kept bytes when the validator arrives.
        var resumedValidator: TransferValidator?
        var sizeAtResume: Int64 = -1
        _ = try makeTransfer(url, part: part).run(validator: validator, onValidator: { resumedValidator = $0; sizeAtResume = fileSize(part) }, progress: { _ in })
        #expect(sizeAtResume == 150_000)
        #expect(resumedValidator == validator)
    }

    @Test("a stalled server times out with a retryable error", arguments: HTTPClientKind.allCases)
    func stalledServerTimesOut(client: HTTPClientKind) throws {
        let scratch = try Scratch()
        let key = TestHTTPServer.uniqueKey("stall")
        let url = server.url("/file/\(key)?size=100000&stall_after=20000&stall_ms=8000")
        let error = try #require(transferError { _ = try makeTransfer(url, part: scratch.partFile, client: client, timeout: 1.5).run(validator: nil) { _ in } })
        #expect(error.isRetryable)
        // The timeout's words: waiting out the stall would end in a connection closed early instead.
        #expect(error.message.contains("no answer"))
        #expect(fileSize(scratch.partFile) == 20_000)
    }

    @Test("the timeout is for silence, not for the whole transfer: a slow, steady body completes", arguments: HTTPClientKind.allCases)
    func slowSteadyBodyIsNotATimeout(client: HTTPClientKind) throws {
        let scratch = try Scratch()
        let key = TestHTTPServer.uniqueKey("steady")
        // About 3 s of body, a piece every 30 ms, against a 1 s timeout.
        let url = server.url("/file/\(key)?size=100000&chunk=1000&delay_ms=30")
        let result = try makeTransfer(url, part: scratch.partFile, client: client, timeout: 1).run(validator: nil) { _ in }
        #expect(result.bytes == 100_000)
        #expect(try Data(contentsOf: scratch.partFile) == TestHTTPServer.expectedContent(size: 100_000, seed: 1))
    }

    @Test("nothing listening is a retryable network error")
    func connectionRefused() throws {
        let scratch = try Scratch()
        // A port that was just free: bind, read it, close.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        let port = UInt16(bigEndian: address.sin_port)
        close(fd)
        let url = URL(string: "http://127.0.0.1:\(port)/nothing")!
        let error = try #require(transferError { _ = try makeTransfer(url, part: scratch.partFile).run(validator: nil) { _ in } })
        #expect(error.isRetryable)
        #expect(error.message.contains("cannot connect"))
    }
}
