import Foundation
import Testing
@testable import NewsstandKit

@Suite("Transfer of file:// URLs")
struct FileTransferTests {
    private func makeSource(_ scratch: Scratch, size: Int) throws -> (URL, Data) {
        var generator = SystemRandomNumberGenerator()
        let data = Data((0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let url = scratch.file("source.epub")
        try data.write(to: url)
        return (url, data)
    }

    @Test("a file is copied in chunks with progress and a validator")
    func copy() throws {
        let scratch = try Scratch()
        let (source, data) = try makeSource(scratch, size: 1_100_000)
        let log = ProgressLog()
        var seen: TransferValidator?
        let transfer = Transfer(request: TransferRequest(url: source), partFile: scratch.partFile, expectedLength: Int64(data.count), expectedSHA256: try sha256(of: data))
        let result = try transfer.run(validator: nil, onValidator: { seen = $0 }, progress: log.callback)
        #expect(result.bytes == Int64(data.count))
        #expect(result.resumedFrom == 0)
        #expect(try Data(contentsOf: scratch.partFile) == data)
        #expect(seen == result.validator)
        #expect(result.validator.etag != nil)
        #expect(log.all.first == TransferProgress(bytesWritten: 0, bytesExpected: Int64(data.count)))
        #expect(log.all.last == TransferProgress(bytesWritten: Int64(data.count), bytesExpected: Int64(data.count)))
    }

    @Test("a partial copy resumes when the source is unchanged and starts over when it changed")
    func resume() throws {
        let scratch = try Scratch()
        let (source, data) = try makeSource(scratch, size: 600_000)
        let first = try Transfer(request: TransferRequest(url: source), partFile: scratch.partFile).run(validator: nil) { _ in }
        // Pretend the copy stopped after 200 000 bytes.
        let handle = try FileHandle(forWritingTo: scratch.partFile)
        try handle.truncate(atOffset: 200_000)
        try handle.close()
        let resumed = try Transfer(request: TransferRequest(url: source), partFile: scratch.partFile).run(validator: first.validator) { _ in }
        #expect(resumed.resumedFrom == 200_000)
        #expect(try Data(contentsOf: scratch.partFile) == data)

        let other = TransferValidator(etag: "\"something else\"")
        let restarted = try Transfer(request: TransferRequest(url: source), partFile: scratch.partFile).run(validator: other) { _ in }
        #expect(restarted.resumedFrom == 0)
        #expect(try Data(contentsOf: scratch.partFile) == data)
    }

    @Test("a missing file, a wrong length and a wrong checksum are errors")
    func errors() throws {
        let scratch = try Scratch()
        let missing = transferError { _ = try Transfer(request: TransferRequest(url: scratch.file("nope.epub")), partFile: scratch.partFile).run(validator: nil) { _ in } }
        #expect(missing?.message.contains("nope.epub") == true)
        #expect(missing?.isRetryable == false)

        let (source, data) = try makeSource(scratch, size: 1000)
        let length = transferError { _ = try Transfer(request: TransferRequest(url: source), partFile: scratch.partFile, expectedLength: 999).run(validator: nil) { _ in } }
        #expect(length?.message.contains("feed says 999") == true)

        let checksum = transferError { _ = try Transfer(request: TransferRequest(url: source), partFile: scratch.partFile, expectedSHA256: String(repeating: "0", count: 64)).run(validator: nil) { _ in } }
        #expect(checksum?.message.contains(try sha256(of: data)) == true)
        #expect(!FileManager.default.fileExists(atPath: scratch.partFile.path))
    }

    @Test("NEWSSTAND_FILE_THROTTLE_MS slows each chunk (read from the environment given)")
    func throttleSetting() {
        #expect(Transfer.fileChunkPause(environment: ["NEWSSTAND_FILE_THROTTLE_MS": "40"]) == 0.04)
        #expect(Transfer.fileChunkPause(environment: [:]) == 0)
        #expect(Transfer.fileChunkPause(environment: ["NEWSSTAND_FILE_THROTTLE_MS": "fast"]) == 0)
        #expect(Transfer.fileChunkPause(environment: ["NEWSSTAND_FILE_THROTTLE_MS": "-5"]) == 0)
    }

    @Test("cancel stops a copy")
    func cancel() throws {
        let scratch = try Scratch()
        let (source, _) = try makeSource(scratch, size: 300_000)
        let transfer = Transfer(request: TransferRequest(url: source), partFile: scratch.partFile)
        transfer.cancel()
        #expect(transferError { _ = try transfer.run(validator: nil) { _ in } }?.isCancelled == true)
    }
}
