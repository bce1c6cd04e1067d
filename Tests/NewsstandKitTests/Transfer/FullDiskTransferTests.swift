import Foundation
import Testing
@testable import NewsstandKit

@Suite("Transfer onto a full disk")
struct FullDiskTransferTests {
    let server: TestHTTPServer

    init() throws { server = try TestHTTPServer.shared() }

    @Test("a full disk stops the transfer at once, keeps a true prefix, and the next run resumes from it",
          arguments: HTTPClientKind.allCases)
    func fullDiskThenResume(client: HTTPClientKind) throws {
        let scratch = try Scratch()
        let key = TestHTTPServer.uniqueKey("full")
        let size = 3_000_000
        let expected = try TestHTTPServer.expectedContent(size: size, seed: 11)
        let disk = SmallDisk(root: scratch.directory, capacity: 1_000_000)
        let transfer = Transfer(request: TransferRequest(url: server.url("/file/\(key)?size=\(size)&seed=11")),
                                partFile: scratch.partFile, timeout: 10, storage: disk)
        transfer.clientOverride = client.client
        var validator: TransferValidator?
        let error = transferError {
            _ = try TransferRunner.run(transfer, validator: nil, policy: RetryPolicy(maxAttempts: 4, baseDelay: 0.01, maxDelay: 0.01),
                                       onValidator: { validator = $0 }, progress: { _ in })
        }
        #expect(error?.isOutOfSpace == true)
        #expect(error?.message.contains("No space left on device") == true)
        #expect(server.requests(for: key).count == 1)           // not retried against a full disk
        let kept = fileSize(scratch.partFile)
        #expect(kept > 0 && kept <= 1_000_000)
        #expect(try Data(contentsOf: scratch.partFile) == expected.prefix(Int(kept)))

        disk.capacity = 10_000_000
        let again = Transfer(request: transfer.request, partFile: scratch.partFile, timeout: 10, storage: disk)
        again.clientOverride = client.client
        let result = try again.run(validator: validator) { _ in }
        #expect(result.resumedFrom == kept)
        #expect(try Data(contentsOf: scratch.partFile) == expected)
        #expect(server.requests(for: key, atLeast: 2).last?.range == "bytes=\(kept)-")
    }
}
