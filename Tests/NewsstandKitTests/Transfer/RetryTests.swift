import Foundation
import Testing
@testable import NewsstandKit

@Suite("Retry policy and TransferRunner")
struct RetryTests {
    let retryable = TransferError(message: "network", isRetryable: true)

    @Test("backoff doubles from the base delay, is capped, and gives up after maxAttempts")
    func backoff() {
        let policy = RetryPolicy(maxAttempts: 6, baseDelay: 0.5, maxDelay: 3)
        #expect((1...5).map { policy.delay(afterAttempt: $0, error: retryable) } == [0.5, 1, 2, 3, 3])
        #expect(policy.delay(afterAttempt: 6, error: retryable) == nil)
    }

    @Test("errors that are not retryable, and cancellation, are never retried")
    func notRetryable() {
        let policy = RetryPolicy.standard
        #expect(policy.delay(afterAttempt: 1, error: TransferError(message: "404", isRetryable: false, httpStatus: 404)) == nil)
        #expect(policy.delay(afterAttempt: 1, error: .cancelled) == nil)
    }

    @Test("Retry-After is honoured, and one longer than maxRetryAfter gives up")
    func retryAfter() {
        let policy = RetryPolicy(maxAttempts: 5, baseDelay: 1, maxDelay: 10, maxRetryAfter: 120)
        #expect(policy.delay(afterAttempt: 1, error: TransferError(message: "503", isRetryable: true, retryAfter: 42, httpStatus: 503)) == 42)
        #expect(policy.delay(afterAttempt: 1, error: TransferError(message: "503", isRetryable: true, retryAfter: 3600, httpStatus: 503)) == nil)
    }

    @Test("jitter only shortens the delay, within its fraction")
    func jitter() {
        let policy = RetryPolicy(maxAttempts: 5, baseDelay: 4, maxDelay: 60, jitter: 0.25)
        for _ in 0..<200 {
            let delay = policy.delay(afterAttempt: 2, error: retryable) ?? -1
            #expect(delay > 6 && delay <= 8)
        }
    }

    @Test("the standard policy retries a handful of times, boundedly")
    func standard() {
        let policy = RetryPolicy.standard
        #expect(policy.maxAttempts >= 3 && policy.maxAttempts <= 10)
        let total = (1..<policy.maxAttempts).compactMap { policy.delay(afterAttempt: $0, error: retryable) }.reduce(0, +)
        #expect(total > 5 && total < 300)
    }

    @Test("503 with Retry-After is waited out and then succeeds")
    func runnerWaitsOutRetryAfter() throws {
        let server = try TestHTTPServer.shared()
        let scratch = try Scratch()
        let key = TestHTTPServer.uniqueKey("runner503")
        let transfer = makeTransfer(server.url("/file/\(key)?size=5000&fail=503&fail_times=2&retry_after=2"), part: scratch.partFile)
        var sleeps: [TimeInterval] = []
        let result = try TransferRunner.run(transfer, validator: nil, policy: RetryPolicy(maxAttempts: 4, baseDelay: 0.01, maxDelay: 1), sleep: { sleeps.append($0) }, progress: { _ in })
        #expect(result.bytes == 5000)
        #expect(sleeps == [2, 2])
        #expect(server.requests(for: key, atLeast: 3).map(\.status) == [503, 503, 200])
    }

    @Test("500 every time gives up after maxAttempts with exponential waits")
    func runnerGivesUp() throws {
        let server = try TestHTTPServer.shared()
        let scratch = try Scratch()
        let key = TestHTTPServer.uniqueKey("runner500")
        let transfer = makeTransfer(server.url("/file/\(key)?size=10&fail=500"), part: scratch.partFile)
        var sleeps: [TimeInterval] = []
        let error = transferError {
            _ = try TransferRunner.run(transfer, validator: nil, policy: RetryPolicy(maxAttempts: 3, baseDelay: 0.25, maxDelay: 10), sleep: { sleeps.append($0) }, progress: { _ in })
        }
        #expect(error?.httpStatus == 500)
        #expect(error?.message.contains("after 3 attempts") == true)
        #expect(sleeps == [0.25, 0.5])
        #expect(server.requests(for: key, atLeast: 3).count == 3)
    }

    @Test("404 is not retried")
    func runnerDoesNotRetry404() throws {
        let server = try TestHTTPServer.shared()
        let scratch = try Scratch()
        let key = TestHTTPServer.uniqueKey("runner404")
        let transfer = makeTransfer(server.url("/file/\(key)?size=10&fail=404"), part: scratch.partFile)
        var sleeps: [TimeInterval] = []
        let error = transferError {
            _ = try TransferRunner.run(transfer, validator: nil, policy: .standard, sleep: { sleeps.append($0) }, progress: { _ in })
        }
        #expect(error?.httpStatus == 404)
        #expect(sleeps.isEmpty)
        #expect(server.requests(for: key).count == 1)
    }

    @Test("repeated drops are resumed with the newest validator until the file is whole")
    func runnerResumesDrops() throws {
        let server = try TestHTTPServer.shared()
        let scratch = try Scratch()
        let key = TestHTTPServer.uniqueKey("runnerdrops")
        let size = 1_500_000
        let content = try TestHTTPServer.expectedContent(size: size, seed: 44)
        // Every one of the first 4 responses breaks after 300 000 bytes of its body.
        let transfer = makeTransfer(server.url("/file/\(key)?size=\(size)&seed=44&drop_after=300000&drops=4"), part: scratch.partFile, expectedLength: Int64(size), expectedSHA256: try sha256(of: content))
        var validators: [TransferValidator] = []
        var sleeps: [TimeInterval] = []
        let result = try TransferRunner.run(transfer, validator: nil, policy: RetryPolicy(maxAttempts: 2, baseDelay: 0.01, maxDelay: 0.1), sleep: { sleeps.append($0) }, onValidator: { validators.append($0) }, progress: { _ in })
        #expect(result.bytes == Int64(size))
        #expect(try sha256(of: scratch.partFile) == sha256(of: content))
        // Progress made each time, so two attempts per run of failures was enough.
        #expect(sleeps.count == 4)
        #expect(validators.count == 5)
        let requests = server.requests(for: key, atLeast: 5)
        #expect(requests.map(\.range) == [nil, "bytes=300000-", "bytes=600000-", "bytes=900000-", "bytes=1200000-"])
        #expect(requests.compactMap(\.sent).reduce(0, +) == size)
    }

    @Test("without an injected sleep, cancel ends the wait between attempts at once")
    func runnerDefaultWaitIsCancellable() throws {
        let server = try TestHTTPServer.shared()
        let scratch = try Scratch()
        let key = TestHTTPServer.uniqueKey("runnerwait")
        // The server asks for 300 s between attempts (the policy takes up to 600): only a cancel ends that wait.
        let transfer = makeTransfer(server.url("/file/\(key)?size=10&fail=503&retry_after=300"), part: scratch.partFile)
        DispatchQueue.global().async {
            _ = server.requests(for: key, atLeast: 1)   // answered 503: the runner waits, or is about to
            transfer.cancel()
        }
        let error = returned {
            transferError { _ = try TransferRunner.run(transfer, validator: nil, policy: .standard, progress: { _ in }) }
        }
        #expect(error != nil, "the cancel did not end the 300 s wait")
        #expect(error??.isCancelled == true)
        #expect(server.requests(for: key).count == 1)
    }

    @Test("cancel during the wait between attempts stops the runner")
    func runnerCancelledWhileWaiting() throws {
        let server = try TestHTTPServer.shared()
        let scratch = try Scratch()
        let transfer = makeTransfer(server.url("/file/\(TestHTTPServer.uniqueKey("runnercancel"))?size=10&fail=500"), part: scratch.partFile)
        let error = transferError {
            _ = try TransferRunner.run(transfer, validator: nil, policy: .standard, sleep: { _ in transfer.cancel() }, progress: { _ in })
        }
        #expect(error?.isCancelled == true)
    }
}
