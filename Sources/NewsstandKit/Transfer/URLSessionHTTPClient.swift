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
        onHead: (HTTPResponseHead) throws -> BodyDecision,
        onBody: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        try cancellation.check()
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalAndRemoteCacheData, timeoutInterval: timeout)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil

        // The callbacks are non-escaping; the delegate only runs them while this call waits.
        try withoutActuallyEscaping(onHead) { onHead in
            try withoutActuallyEscaping(onBody) { onBody in
                let delegate = StreamingDelegate(onHead: onHead, onBody: onBody)
                let queue = OperationQueue()
                queue.maxConcurrentOperationCount = 1
                let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
                defer { session.invalidateAndCancel() }
                let task = session.dataTask(with: request)
                cancellation.whileBlocked(onCancel: { task.cancel() }) {
                    task.resume()
                    delegate.done.wait()
                }
                try cancellation.check()
                if let error = delegate.failure { throw error }
            }
        }
    }
}

private final class StreamingDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    let onHead: (HTTPResponseHead) throws -> BodyDecision
    let onBody: (UnsafeRawBufferPointer) throws -> Void
    let done = DispatchSemaphore(value: 0)
    /// Written and read on the delegate queue, read by the caller after `done`.
    var failure: TransferError?
    private var expected: Int64?
    private var received: Int64 = 0
    private var skipped = false

    init(onHead: @escaping (HTTPResponseHead) throws -> BodyDecision, onBody: @escaping (UnsafeRawBufferPointer) throws -> Void) {
        self.onHead = onHead
        self.onBody = onBody
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void) {
        completionHandler(nil)  // deliver the 3xx; the transfer decides
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse, completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
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
            let decision = try onHead(head)
            skipped = decision == .skip
            completionHandler(skipped ? .cancel : .allow)
        } catch {
            failure = error as? TransferError ?? .fatal("\(error)")
            completionHandler(.cancel)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard failure == nil, !skipped else { return }
        do {
            try data.withUnsafeBytes { try onBody($0) }
            received += Int64(data.count)
        } catch {
            failure = error as? TransferError ?? .fatal("\(error)")
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        if failure == nil, !skipped {
            if let error {
                failure = .network("the connection failed: \(error.localizedDescription)")
            } else if let expected, received < expected {
                failure = .network("the server closed the connection after \(received) of \(expected) bytes of the body")
            }
        }
        done.signal()
    }
}
