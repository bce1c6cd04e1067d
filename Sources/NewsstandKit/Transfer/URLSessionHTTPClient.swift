import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `https://` through URLSession (FoundationNetworking brings TLS), bridged to the same
/// streaming interface as `SocketHTTPClient`: a data task whose delegate hands each piece
/// of the body to the transfer as it arrives. Redirects are not followed here (the
/// transfer follows them itself, so the rules are the same for http and https).
struct URLSessionHTTPClient: HTTPFetching {
    func fetch(
        url: URL,
        headers: [(String, String)],
        timeout: TimeInterval,
        cancellation: Cancellation,
        splice: SpliceTarget?,
        onHead: @escaping (HTTPResponseHead) throws -> BodyDecision,
        onBody: @escaping (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        try cancellation.check()
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalAndRemoteCacheData, timeoutInterval: timeout)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil

        let delegate = StreamingDelegate(timeout: timeout, onHead: onHead, onBody: onBody)
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
        defer { session.invalidateAndCancel() }
        let task = session.dataTask(with: request)
        cancellation.whileBlocked(onCancel: { task.cancel() }) {
            task.resume()
            // A watchdog: should FoundationNetworking stop calling back, give up after
            // `timeout` without any sign of life rather than wait forever.
            var lastActivity = delegate.activity
            var quiet: TimeInterval = 0
            while delegate.done.wait(timeout: .now() + 1) == .timedOut {
                let activity = delegate.activity
                quiet = activity == lastActivity ? quiet + 1 : 0
                lastActivity = activity
                if quiet > timeout + 1 {
                    delegate.stall(after: timeout)
                    task.cancel()
                }
            }
        }
        delegate.release()
        try cancellation.check()
        if let error = delegate.failure { throw error }
    }
}

// @unchecked: its state is touched only on the session's serial delegate queue, and by the caller after `done` is signalled.
private final class StreamingDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // The session keeps its delegate until it is invalidated, later; the transfer's
    // callbacks are dropped as soon as the task is over (`release()`).
    private var onHead: ((HTTPResponseHead) throws -> BodyDecision)?
    private var onBody: ((UnsafeRawBufferPointer) throws -> Void)?
    let done = DispatchSemaphore(value: 0)
    /// Written and read on the delegate queue, read by the caller after `done`.
    var failure: TransferError?
    private var expected: Int64?
    private var received: Int64 = 0
    private var skipped = false
    /// A 401 whose body was asked for: its end (cancelled by FoundationNetworking) is no failure.
    private var unauthorized = false

    private let timeout: TimeInterval

    init(timeout: TimeInterval, onHead: @escaping (HTTPResponseHead) throws -> BodyDecision, onBody: @escaping (UnsafeRawBufferPointer) throws -> Void) {
        self.timeout = timeout
        self.onHead = onHead
        self.onBody = onBody
    }

    private let activityLock = NSLock()
    private var events = 0
    private var stalled: TimeInterval?

    /// Counts callbacks, so the waiting thread can tell a slow transfer from a stuck one.
    var activity: Int { activityLock.withLock { events } }

    private func touch() { activityLock.withLock { events += 1 } }

    func stall(after timeout: TimeInterval) { activityLock.withLock { stalled = timeout } }

    func urlSession(_ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge, completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void) {
        touch()
        // 401s are answered by the transfer itself (one retry with the credentials), and
        // TLS trust is left to the system. (FoundationNetworking then cancels the 401's body:
        // an OPDS Authentication Document does not arrive over https.)
        #if canImport(FoundationNetworking)
        completionHandler(.rejectProtectionSpace, nil)
        #else
        if challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust {
            completionHandler(.performDefaultHandling, nil)
        } else {
            completionHandler(.rejectProtectionSpace, nil)
        }
        #endif
    }

    /// Called by the waiting thread once `done` was signalled: no callback runs any more.
    func release() {
        onHead = nil
        onBody = nil
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        touch()
        completionHandler(nil)  // deliver the 3xx; the transfer decides
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse, completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        touch()
        guard let http = response as? HTTPURLResponse else {
            failure = .fatal("the server's answer is not HTTP")
            completionHandler(.cancel)
            return
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            headers[String(describing: name).lowercased()] = String(describing: value)
        }
        let head = HTTPResponseHead(status: http.statusCode, headers: headers)
        if head.header("content-encoding") == nil { expected = head.contentLength }
        do {
            let decision = try onHead?(head) ?? .skip
            skipped = decision == .skip
            unauthorized = head.status == 401
            completionHandler(skipped ? .cancel : .allow)
        } catch {
            failure = error as? TransferError ?? .fatal("\(error)")
            completionHandler(.cancel)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        touch()
        guard failure == nil, !skipped else { return }
        do {
            try data.withUnsafeBytes { try onBody?($0) }
            received += Int64(data.count)
        } catch {
            failure = error as? TransferError ?? .fatal("\(error)")
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        if failure == nil, !skipped, !unauthorized {
            if let timeout = activityLock.withLock({ stalled }) {
                failure = .network("no answer from the server for \(Int(timeout.rounded(.up))) s", summary: "no answer from the server")
            } else if let error, (error as NSError).code == NSURLErrorTimedOut {
                failure = .network("no answer from the server for \(Int(timeout.rounded(.up))) s (after \(received) bytes of the body)", summary: "no answer from the server")
            } else if let expected, received < expected {
                failure = .network("the server closed the connection after \(received) of \(expected) bytes of the body", summary: "the connection dropped")
            } else if let error {
                let description = error.localizedDescription
                let code = (error as NSError).code
                if (-1206 ... -1200).contains(code) || description.localizedCaseInsensitiveContains("certificate") {
                    // Trying again will not make a certificate trusted.
                    failure = .fatal("the TLS connection to \(task.originalRequest?.url?.host ?? "the server") failed: \(description)")
                } else {
                    failure = .network("the connection failed: \(description)", summary: Self.summary(ofErrorCode: code))
                }
            }
        }
        done.signal()
    }

    /// The few URL errors a retrying download names in plain words.
    static func summary(ofErrorCode code: Int) -> String? {
        switch code {
        case NSURLErrorCannotFindHost, NSURLErrorDNSLookupFailed: return "cannot resolve host"
        case NSURLErrorCannotConnectToHost: return "cannot connect to the server"
        case NSURLErrorNetworkConnectionLost: return "the connection dropped"
        case NSURLErrorNotConnectedToInternet: return "not connected to the internet"
        default: return nil
        }
    }
}
