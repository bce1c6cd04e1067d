import CCurl
import Foundation

/// `https://` through libcurl (TLS checked against the system's CAs, proxies from the
/// environment as curl reads them), loaded the first time it is used (`CCurl`): a command
/// that reaches no https server loads neither libcurl nor the libraries behind it. The same
/// streaming interface as `SocketHTTPClient`: each piece of the body reaches the transfer as
/// it arrives. Redirects are not followed and 401s not answered here: the transfer does
/// both itself, so the rules are the same for http and https.
struct CurlHTTPClient: HTTPFetching {
    /// True once this process has loaded libcurl (for the tests of loading on first use).
    static var isLoaded: Bool { ccurl_is_loaded() != 0 }

    /// A PEM file of the authorities to trust instead of the system's: the tests' own
    /// certificate, for an https server on 127.0.0.1. Nil everywhere else.
    var certificateAuthorities: String?

    func fetch(
        url: URL,
        headers: [(String, String)],
        timeout: TimeInterval,
        cancellation: Cancellation,
        splice: SpliceTarget?,
        onHead: @escaping (HTTPResponseHead) throws -> BodyDecision,
        onBody: @escaping (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        try request(method: "GET", url: url, headers: headers, body: nil, timeout: timeout, cancellation: cancellation, onHead: onHead, onBody: onBody)
    }

    func request(method: String, url: URL, headers: [(String, String)], body: Data?, timeout: TimeInterval, cancellation: Cancellation,
                 onHead: @escaping (HTTPResponseHead) throws -> BodyDecision, onBody: @escaping (UnsafeRawBufferPointer) throws -> Void) throws {
        try cancellation.check()
        if let failure = ccurl_load() { throw TransferError.fatal(String(cString: failure)) }
        var lines: [String] = []
        for (name, value) in headers {
            guard !(name + value).contains(where: { $0 == "\r" || $0 == "\n" }) else {
                throw TransferError.fatal("request header \(name.debugDescription) contains a line break")
            }
            lines.append(value.isEmpty ? "\(name);" : "\(name): \(value)")
        }
        let exchange = CurlExchange(url: url, timeout: timeout, onHead: onHead, onBody: onBody)
        // A body goes at once, without waiting for a 100 Continue.
        if body != nil { lines.append("Expect:") }
        try exchange.run(method: method, body: body, headerLines: lines, certificateAuthorities: certificateAuthorities, cancellation: cancellation)
    }
}

extension CurlHTTPClient: HTTPExchanging {}

/// One request's handles and the state its callbacks share. Callbacks run on the thread
/// that called `run`; only `wake` is touched from another (the canceller's).
private final class CurlExchange {
    let url: URL
    let timeout: TimeInterval
    private var onHead: (HTTPResponseHead) throws -> BodyDecision
    private var onBody: (UnsafeRawBufferPointer) throws -> Void

    private var headers: [String: String] = [:]
    private var lastHeader: String?
    private var head: HTTPResponseHead?
    private var expected: Int64?
    private var received: Int64 = 0
    private var skipped = false
    /// What a callback threw; libcurl is told to stop and this is thrown instead of its error.
    private var failure: Error?
    private var easy: UnsafeMutableRawPointer?
    /// When a header line or a piece of the body last arrived (or the request started).
    private var lastActivity = DispatchTime.now().uptimeNanoseconds

    init(url: URL, timeout: TimeInterval, onHead: @escaping (HTTPResponseHead) throws -> BodyDecision,
         onBody: @escaping (UnsafeRawBufferPointer) throws -> Void) {
        self.url = url
        self.timeout = timeout
        self.onHead = onHead
        self.onBody = onBody
    }

    func run(method: String, body: Data?, headerLines: [String], certificateAuthorities: String?, cancellation: Cancellation) throws {
        guard let easy = ccurl_easy_init(), let multi = ccurl_multi_init() else {
            throw TransferError.fatal("libcurl could not start a request")
        }
        self.easy = easy
        var list: UnsafeMutablePointer<curl_slist>?
        for line in headerLines { list = ccurl_slist_append(list, line) }
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        let wake = CurlWake(multi: multi)
        defer {
            wake.close()
            ccurl_multi_remove_handle(multi, easy)
            ccurl_easy_cleanup(easy)
            ccurl_multi_cleanup(multi)
            ccurl_slist_free_all(list)
        }
        let seconds = max(1, Int(timeout.rounded(.up)))
        lastActivity = DispatchTime.now().uptimeNanoseconds
        let context = Unmanaged.passUnretained(self).toOpaque()
        try errorBuffer.withUnsafeMutableBufferPointer { buffer in
            var problems: [CURLcode] = []
            func set(_ option: CURLoption, _ value: Int) { problems.append(ccurl_setopt_long(easy, option, value)) }
            func set(_ option: CURLoption, _ value: UnsafeMutableRawPointer?) { problems.append(ccurl_setopt_pointer(easy, option, value)) }
            problems.append(url.absoluteString.withCString { ccurl_setopt_pointer(easy, CURLOPT_URL, UnsafeMutableRawPointer(mutating: $0)) })
            problems.append("http,https".withCString { ccurl_setopt_pointer(easy, CURLOPT_PROTOCOLS_STR, UnsafeMutableRawPointer(mutating: $0)) })
            if let certificateAuthorities {
                problems.append(certificateAuthorities.withCString { ccurl_setopt_pointer(easy, CURLOPT_CAINFO, UnsafeMutableRawPointer(mutating: $0)) })
            }
            if method != "GET" {
                problems.append(method.withCString { ccurl_setopt_pointer(easy, CURLOPT_CUSTOMREQUEST, UnsafeMutableRawPointer(mutating: $0)) })
            }
            if let body {
                // The size first: COPYPOSTFIELDS copies that many bytes.
                set(CURLOPT_POSTFIELDSIZE, body.count)
                problems.append((body + [0]).withUnsafeBytes { ccurl_setopt_pointer(easy, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: $0.baseAddress!)) })
            }
            set(CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(list))
            set(CURLOPT_ERRORBUFFER, UnsafeMutableRawPointer(buffer.baseAddress))
            set(CURLOPT_NOSIGNAL, 1)
            set(CURLOPT_FOLLOWLOCATION, 0)
            set(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
            set(CURLOPT_CONNECTTIMEOUT, seconds)
            set(CURLOPT_HEADERDATA, context)
            set(CURLOPT_WRITEDATA, context)
            problems.append(ccurl_setopt_data_function(easy, CURLOPT_HEADERFUNCTION, { bytes, size, count, context in
                Unmanaged<CurlExchange>.fromOpaque(context!).takeUnretainedValue().header(bytes, size * count)
            }))
            problems.append(ccurl_setopt_data_function(easy, CURLOPT_WRITEFUNCTION, { bytes, size, count, context in
                Unmanaged<CurlExchange>.fromOpaque(context!).takeUnretainedValue().body(bytes, size * count)
            }))
            if let problem = problems.first(where: { $0 != CURLE_OK }) {
                throw TransferError.fatal("libcurl refused a setting: \(String(cString: ccurl_easy_strerror(problem)))")
            }
            ccurl_multi_add_handle(multi, easy)
            var result = CURLE_OK
            try cancellation.whileBlocked(onCancel: { wake.cancel() }) {
                while !wake.isCancelled {
                    var running: Int32 = 0
                    let code = ccurl_multi_perform(multi, &running)
                    guard code == CURLM_OK else {
                        throw TransferError.fatal("libcurl failed: \(String(cString: ccurl_multi_strerror(code)))")
                    }
                    if running == 0 {
                        _ = ccurl_multi_done(multi, &result)
                        break
                    }
                    // No byte for `timeout` seconds, waiting for the head or in the body: no answer.
                    let quiet = Double(DispatchTime.now().uptimeNanoseconds - lastActivity) / 1e9
                    if quiet >= timeout {
                        result = CURLE_OPERATION_TIMEDOUT
                        break
                    }
                    _ = ccurl_multi_poll(multi, Int32(min(1000, ((timeout - quiet) * 1000).rounded(.up))))
                }
            }
            try cancellation.check()
            if let failure { throw failure }
            if skipped { return }
            if let error = error(for: result, detail: String(cString: buffer.baseAddress!)) { throw error }
        }
    }

    /// One header line; the head is complete at the empty line after the last one.
    private func header(_ bytes: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
        guard let bytes, failure == nil else { return 0 }
        lastActivity = DispatchTime.now().uptimeNanoseconds
        let raw = UnsafeRawBufferPointer(start: bytes, count: count)
        let line = String(decoding: raw, as: UTF8.self)
        let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
        if line.hasPrefix("HTTP/") {
            headers = [:]  // a new response (after a 100 Continue, say)
            lastHeader = nil
        } else if trimmed.isEmpty {
            var status = 0
            ccurl_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
            if (100...199).contains(status) { return count }
            let head = HTTPResponseHead(status: status, headers: headers)
            self.head = head
            if head.header("content-encoding") == nil { expected = head.contentLength }
            do {
                skipped = try onHead(head) == .skip
            } catch {
                failure = error
                return 0
            }
            return skipped ? 0 : count
        } else if line.first == " " || line.first == "\t", let name = lastHeader {
            headers[name, default: ""] += " " + trimmed  // obsolete folding
        } else if let colon = trimmed.firstIndex(of: ":") {
            let name = trimmed[..<colon].lowercased()
            let value = trimmed[trimmed.index(after: colon)...].trimmingOptionalWhitespace
            if let existing = headers[name] { headers[name] = existing + ", " + value } else { headers[name] = value }
            lastHeader = name
        }
        return count
    }

    private func body(_ bytes: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
        guard failure == nil, !skipped else { return 0 }
        lastActivity = DispatchTime.now().uptimeNanoseconds
        do {
            try onBody(UnsafeRawBufferPointer(start: bytes, count: count))
            received += Int64(count)
            return count
        } catch {
            failure = error
            return 0
        }
    }

    /// libcurl's result in the transfer's words: what may be retried and what may not.
    private func error(for result: CURLcode, detail: String) -> TransferError? {
        let host = url.host ?? "the server"
        let why = detail.isEmpty ? String(cString: ccurl_easy_strerror(result)) : detail
        if let expected, received < expected, result == CURLE_OK || result == CURLE_PARTIAL_FILE || result == CURLE_RECV_ERROR {
            return .network("the server closed the connection after \(received) of \(expected) bytes of the body", summary: "the connection dropped")
        }
        switch result {
        case CURLE_OK:
            return nil
        case CURLE_OPERATION_TIMEDOUT:
            let during = head == nil ? "" : " (after \(received) bytes of the body)"
            return .network("no answer from the server for \(Int(timeout.rounded(.up))) s\(during)", summary: "no answer from the server")
        case CURLE_COULDNT_RESOLVE_HOST:
            return .network("cannot resolve \(host): \(why)", summary: "cannot resolve host")
        case CURLE_COULDNT_RESOLVE_PROXY:
            return .network("cannot resolve the proxy: \(why)", summary: "cannot resolve the proxy")
        case CURLE_COULDNT_CONNECT:
            return .network("cannot connect to \(host): \(why)",
                            summary: why.localizedCaseInsensitiveContains("refused") ? "connection refused" : "cannot connect to the server")
        case CURLE_PARTIAL_FILE, CURLE_GOT_NOTHING, CURLE_SEND_ERROR, CURLE_RECV_ERROR:
            return .network("the connection failed: \(why)", summary: "the connection dropped")
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE,
             CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS:
            // Trying again will not make a certificate trusted.
            return .fatal("the TLS connection to \(host) failed: \(why)")
        case CURLE_SSL_CONNECT_ERROR where why.localizedCaseInsensitiveContains("certificate"):
            return .fatal("the TLS connection to \(host) failed: \(why)")
        case CURLE_SSL_CONNECT_ERROR:
            return .network("the TLS connection to \(host) failed: \(why)")
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT, CURLE_WEIRD_SERVER_REPLY:
            return .fatal("\(url.absoluteString): \(why)")
        default:
            return .network("the connection failed: \(why)")
        }
    }
}

/// What a canceller on another thread may touch: wakes the multi handle's wait, until the
/// request is over and the handle about to be freed.
private final class CurlWake: @unchecked Sendable {
    // @unchecked: `multi` and `cancelled` are read and written only under `lock`.
    private let lock = NSLock()
    private var multi: UnsafeMutableRawPointer?
    private var cancelled = false

    init(multi: UnsafeMutableRawPointer) { self.multi = multi }

    var isCancelled: Bool { lock.withLock { cancelled } }

    func cancel() {
        lock.withLock {
            cancelled = true
            if let multi { _ = ccurl_multi_wakeup(multi) }
        }
    }

    func close() { lock.withLock { multi = nil } }
}
