import Foundation
import Testing
@testable import NewsstandKit

/// `benchmarks/reliability/badserver.py` on 127.0.0.1, for as long as the test holds it.
final class BadServer {
    let port: Int
    private let process = Process()
    private let input = Pipe()

    static var script: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("benchmarks/reliability/badserver.py")
    }

    init() throws {
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", BadServer.script.path]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        guard let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw TransferError.fatal("badserver.py did not start: \(line)")
        }
        self.port = port
    }

    deinit {
        try? input.fileHandleForWriting.close()  // the server exits when its input closes
        process.waitUntilExit()
    }

    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)") ?? URL(fileURLWithPath: "/")
    }
}

/// Servers that misbehave on purpose: every case ends in bounded time with one clear,
/// retryable-or-not error, and leaves no bytes behind when it is refused for good.
@Suite("Transfer against misbehaving servers")
struct MisbehavingServerTests {
    let server: BadServer

    init() throws { server = try BadServer() }

    /// The error `path` ends in. Each test tells which limit ended it by the error's words
    /// ("no answer", "the server is stalling", "sent more than"), not by the time it took:
    /// a limit that did not work would end otherwise, or not at all.
    private func fail(_ path: String, timeout: TimeInterval = 10, maximumLength: Int64? = nil,
                      lowSpeed: Transfer.LowSpeedLimit = .standard, client: HTTPClientKind = .sockets, scratch: Scratch) -> TransferError? {
        let transfer = Transfer(request: TransferRequest(url: server.url(path), headers: [:]), partFile: scratch.partFile,
                                timeout: timeout, maximumLength: maximumLength, lowSpeedLimit: lowSpeed)
        transfer.clientOverride = client.client
        return transferError { _ = try transfer.run(validator: nil) { _ in } }
    }

    @Test("an endless body (close-delimited or chunked) stops at the size cap and its bytes are deleted",
          arguments: ["/endless", "/endless-chunked", "/endless-feed"])
    func endlessBody(path: String) throws {
        let scratch = try Scratch()
        let error = fail(path, maximumLength: 2 << 20, scratch: scratch)
        let failure = try #require(error)
        #expect(failure.message.contains("sent more than 2 MiB"), "\(failure.message)")
        #expect(!failure.isRetryable)
        #expect(!FileManager.default.fileExists(atPath: scratch.partFile.path) || fileSize(scratch.partFile) == 0)
    }

    @Test("a declared length beyond the cap is refused before any byte is kept")
    func hugeDeclaredLength() throws {
        let scratch = try Scratch()
        let error = fail("/huge-length", maximumLength: 64 << 20, scratch: scratch)
        let failure = try #require(error)
        #expect(failure.message.contains("more than the 64 MiB accepted"), "\(failure.message)")
        #expect(fileSize(scratch.partFile) <= 0)
    }

    @Test("headers dripped a byte at a time end at the timeout, not never")
    func drippedHeaders() throws {
        let scratch = try Scratch()
        // A byte every 0.3 s keeps a 1 s inactivity timeout from ever firing.
        let error = fail("/drip-headers?interval=0.3", timeout: 1, scratch: scratch)
        let failure = try #require(error)
        #expect(failure.message.contains("to send its response headers"), "\(failure.message)")
        #expect(failure.isRetryable)
    }

    @Test("a body trickling under the low-speed limit counts as stalled")
    func trickledBody() throws {
        let scratch = try Scratch()
        let error = fail("/drip-body?interval=0.2", timeout: 1,
                         lowSpeed: Transfer.LowSpeedLimit(minimumBytes: 1024, window: 1.5), scratch: scratch)
        let failure = try #require(error)
        #expect(failure.message.contains("the server is stalling"), "\(failure.message)")
        #expect(failure.isRetryable)
    }

    @Test("a server that never answers, or stops mid-body, times out", arguments: ["/stall", "/stall-body"], HTTPClientKind.allCases)
    func stalled(path: String, client: HTTPClientKind) throws {
        let scratch = try Scratch()
        let error = fail(path, timeout: 1, client: client, scratch: scratch)
        let failure = try #require(error)
        #expect(failure.message.contains("no answer"), "\(failure.message)")
    }

    @Test("huge or countless headers, redirect loops and long chains are refused",
          arguments: [("/huge-headers", "bytes of headers"), ("/many-headers", "bytes of headers"),
                      ("/loop", "redirects in a loop"), ("/ping", "redirects in a loop"), ("/chain/12", "more than 10 times")])
    func refused(path: String, reason: String) throws {
        let scratch = try Scratch()
        let error = fail(path, scratch: scratch)
        let failure = try #require(error)
        #expect(failure.message.contains(reason), "\(failure.message)")
        #expect(!failure.isRetryable)
    }

    @Test("a cap leaves a legitimate body alone")
    func capAllowsSmallerBodies() throws {
        let scratch = try Scratch()
        let transfer = Transfer(request: TransferRequest(url: server.url("/feed"), headers: [:]), partFile: scratch.partFile,
                                maximumLength: 1 << 20)
        let result = try transfer.run(validator: nil) { _ in }
        #expect(result.bytes > 500)
        #expect(try String(contentsOf: scratch.partFile, encoding: .utf8).contains("Bad Server Gazette"))
    }
}
