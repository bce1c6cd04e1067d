import Foundation
import Testing
@testable import NewsstandKit

/// A loopback port nobody listens on: connections to it are refused at once.
func closedLoopbackPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #expect(fd >= 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
    }
    #expect(bound)
    return Int(UInt16(bigEndian: address.sin_port))
}

/// Issue #21, item 13: while a download retries, its record says so.
@Suite struct RetryStatusTests {
    @Test func theRunnerTellsEachRetryWithTheLastErrorInPlainWords() throws {
        let scratch = try Scratch()
        let port = try closedLoopbackPort()
        let transfer = makeTransfer(URL(string: "http://127.0.0.1:\(port)/issue.zip")!, part: scratch.partFile)
        var retries: [TransferRetry] = []
        var sleeps: [TimeInterval] = []
        let error = transferError {
            _ = try TransferRunner.run(transfer, validator: nil, policy: RetryPolicy(maxAttempts: 3, baseDelay: 5, maxDelay: 60),
                                       sleep: { sleeps.append($0) }, onRetry: { retries.append($0) }, progress: { _ in })
        }
        #expect(error?.inPlainWords == "connection refused")
        #expect(sleeps == [5, 10])
        #expect(retries.map(\.attempt) == [2, 3])
        #expect(retries.map(\.attempts) == [3, 3])
        #expect(retries.map(\.reason) == ["connection refused", "connection refused"])
        #expect(retries.first?.description == "retrying (2 of 3) — connection refused")
    }

    @Test func httpStatusesAreSaidPlainly() {
        let error = TransferError(message: "the server answered 503 Service Unavailable for http://x/y", isRetryable: true, httpStatus: 503)
        #expect(error.inPlainWords == "the server answered 503")
        #expect(TransferError(message: "something odd", isRetryable: true).inPlainWords == "something odd")
    }

    @Test func theDownloadsRecordSaysItIsRetryingAndCanBeCancelledMeanwhile() throws {
        let temp = try TemporaryLibrary()
        let port = try closedLoopbackPort()
        let (_, issue) = try temp.publicationWithIssue(content: URL(string: "http://127.0.0.1:\(port)/issue.zip")!)
        let asset = try #require(try temp.library.downloads.enqueue(issue))
        #expect(try temp.library.downloads.download(identifier: asset.identifier)?.retry == nil)
        // The standard attempts, with a wait long enough that the test sees it and never sits it out.
        let policy = RetryPolicy(maxAttempts: 6, baseDelay: 600, maxDelay: 600)
        let running = BackgroundAgent(try CancelDownloadTests.agent(for: temp.library, policy: policy))

        #expect(try CacheLibrary.wait { try temp.library.downloads.download(identifier: asset.identifier)?.retry != nil })
        let retry = try #require(try temp.library.downloads.download(identifier: asset.identifier)?.retry)
        #expect(retry == TransferRetry(attempt: 2, attempts: 6, reason: "connection refused"))
        #expect(retry.description == "retrying (2 of 6) — connection refused")
        #expect(try temp.library.store.issue(named: issue.name)?.status == .downloading)

        // The wait between attempts ends at a cancel.
        #expect(try temp.library.downloads.cancelDownload(issue))
        #expect(running.finished())   // within 60 s, not the 600 s wait
        let download = try #require(try temp.library.downloads.download(identifier: asset.identifier))
        #expect(download.state == .cancelled && download.retry == nil)
        #expect(try temp.library.store.issue(named: issue.name)?.lastError == nil)
    }

    @Test func aDownloadThatRunsOutOfAttemptsFailsAndNoLongerSaysRetrying() throws {
        let temp = try TemporaryLibrary()
        let port = try closedLoopbackPort()
        let (_, issue) = try temp.publicationWithIssue(content: URL(string: "http://127.0.0.1:\(port)/issue.zip")!)
        let asset = try #require(try temp.library.downloads.enqueue(issue))
        let policy = RetryPolicy(maxAttempts: 3, baseDelay: 0.01, maxDelay: 0.02)
        #expect(try CancelDownloadTests.agent(for: temp.library, policy: policy).run() == .finished)
        let download = try #require(try temp.library.downloads.download(identifier: asset.identifier))
        #expect(download.state == .failed)
        #expect(download.retry == nil)
        #expect(download.attempts >= 1)
        #expect(try temp.library.store.issue(named: issue.name)?.lastError?.contains("after 3 attempts") == true)
    }
}
