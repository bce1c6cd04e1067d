import Foundation
import Testing
@testable import NewsstandKit

/// Which http client a test drives: our sockets (the default for http) or libcurl
/// (the https path, exercised here over plain http against the local server).
enum HTTPClientKind: String, CaseIterable, CustomStringConvertible, Sendable {
    case sockets
    case curl

    var description: String { rawValue }

    var client: HTTPFetching {
        switch self {
        case .sockets: return SocketHTTPClient()
        case .curl: return CurlHTTPClient()
        }
    }
}

/// Progress reports collected from any thread.
// @unchecked: `reports` and `times` are read and written only under `lock`.
final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var reports: [TransferProgress] = []
    private var times: [Date] = []

    var all: [TransferProgress] { lock.withLock { reports } }
    var timestamps: [Date] { lock.withLock { times } }

    func record(_ progress: TransferProgress) {
        lock.withLock {
            reports.append(progress)
            times.append(Date())
        }
    }

    var callback: @Sendable (TransferProgress) -> Void { { [self] in record($0) } }
}

/// A directory of its own for one test, removed when the value is released.
final class Scratch {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-transfer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    var partFile: URL { directory.appendingPathComponent("asset.part") }

    func file(_ name: String) -> URL { directory.appendingPathComponent(name) }
}

func makeTransfer(
    _ url: URL,
    part: URL,
    client: HTTPClientKind = .sockets,
    headers: [String: String] = [:],
    expectedLength: Int64? = nil,
    expectedSHA256: String? = nil,
    credentials: Credentials? = nil,
    timeout: TimeInterval = 30
) -> Transfer {
    let transfer = Transfer(request: TransferRequest(url: url, headers: headers), partFile: part, expectedLength: expectedLength, expectedSHA256: expectedSHA256, credentials: credentials, timeout: timeout)
    transfer.clientOverride = client.client
    return transfer
}

func sha256(of data: Data) throws -> String { try SHA256Digest.hex(of: data) }

func sha256(of file: URL) throws -> String { try SHA256Digest.hexOfFile(at: file) }

func fileSize(_ url: URL) -> Int64 {
    ((try? FileManager.default.attributesOfItem(atPath: url.path)[.size]) as? NSNumber)?.int64Value ?? -1
}

/// Runs `body` and returns the TransferError it throws (nil when it does not throw one).
func transferError(_ body: () throws -> Void) -> TransferError? {
    do {
        try body()
        return nil
    } catch let error as TransferError {
        return error
    } catch {
        return TransferError(message: "unexpected error type: \(error)", isRetryable: false)
    }
}

/// What `body` returned on a thread of its own, once it has; nil when it had not within
/// `seconds`. For a test that a cancel ends a wait that would otherwise last far longer (a
/// server's five-minute Retry-After): it waits for that state with a deadline far beyond a
/// loaded machine's slowness, never timing it, and a failure does not sit the wait out.
func returned<T>(within seconds: TimeInterval = 60, _ body: @escaping @Sendable () -> T) -> T? {
    let box = Returned<T>()
    Thread.detachNewThread {
        let value = body()
        box.lock.withLock { box.value = value }
        box.done.signal()
    }
    guard box.done.wait(timeout: .now() + seconds) == .success else { return nil }
    return box.lock.withLock { box.value }
}

// @unchecked: `value` is written once by the thread, read after `done`, both under `lock`.
private final class Returned<T>: @unchecked Sendable {
    let lock = NSLock()
    let done = DispatchSemaphore(value: 0)
    var value: T?
}

extension TestHTTPServer {
    /// libcurl told to trust this https server's own certificate (written into `scratch`).
    func trustingCurl(in scratch: Scratch) throws -> CurlHTTPClient {
        let authorities = scratch.file("ca.pem")
        try #require(certificate).write(to: authorities)
        return CurlHTTPClient(certificateAuthorities: authorities.path)
    }
}
