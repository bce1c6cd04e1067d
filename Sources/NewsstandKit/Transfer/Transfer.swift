import Foundation
import IssueArchive

/// One asset URL → one `.part` file, streamed with progress and resumable.
///
/// `run` is synchronous: the agent calls it on its own worker threads. `cancel()` may be
/// called from any thread and makes a running `run` throw a `TransferError` whose
/// `isCancelled` is true, leaving the `.part` file for a later resume.
///
/// http goes through `SocketHTTPClient` (our own HTTP/1.1 over POSIX sockets: faster than
/// curl thanks to splice(2), exact control of Range and framing); https through
/// libcurl (`CurlHTTPClient`, loaded on first use); file:// is copied in 256 KiB chunks so progress is real.
///
/// Crash safety: bytes reach the `.part` file as they arrive (nothing is held back in
/// memory), and a response's validator is handed to `onValidator` after the file was
/// truncated for it and before its first byte is written. So after a `kill -9` at any
/// moment, the `.part` is a prefix of the version named by the last validator the caller
/// stored — or, if the caller had not stored it yet, the stored (older) validator makes
/// the server answer 200 and the transfer starts over. Nothing already on disk is fetched
/// again when the validator still holds.
///
/// One `Transfer` runs one `run` at a time; use one per asset.
// @unchecked: set once at init but for `clientOverride`, `credentialsLookup` and `authorizationCache` (set before `run`, by its creator); `cancel()` goes through `Cancellation`'s lock.
public final class Transfer: @unchecked Sendable {
    public let request: TransferRequest
    public let partFile: URL
    public let expectedLength: Int64?
    public let expectedSHA256: String?
    public let credentials: Credentials?
    public let timeout: TimeInterval
    /// Where the `.part` file's bytes are written (tests pass a small disk that fills up).
    public let storage: Storage

    /// Redirects followed before giving up.
    public static let maxRedirects = 10
    /// The most bytes accepted when nothing else bounds the body (no length in the feed):
    /// an endless body is cut off here and its bytes deleted. Nil: no cap.
    public let maximumLength: Int64?
    /// A body that trickles (fewer than `minimumBytes` within `window` seconds) counts as
    /// stalled, so a server sending one byte just inside every timeout cannot hold a
    /// transfer for ever. The error is retryable; the retry policy bounds the attempts.
    public struct LowSpeedLimit: Sendable, Equatable {
        public var minimumBytes: Int64
        public var window: TimeInterval
        public init(minimumBytes: Int64, window: TimeInterval) {
            self.minimumBytes = minimumBytes
            self.window = window
        }
        public static let standard = LowSpeedLimit(minimumBytes: 1024, window: 60)
    }
    public let lowSpeedLimit: LowSpeedLimit
    static let chunkSize = 256 * 1024

    private let cancellation = Cancellation()
    /// Tests swap the http(s) client (e.g. libcurl for http) to run one suite on both.
    var clientOverride: HTTPFetching?
    /// Where credentials come from when `credentials` is nil: asked at the first 401 only
    /// (a keyring lookup runs a process). Set before `run`, by its creator (`HTTPAccess`).
    var credentialsLookup: (@Sendable (URL) throws -> Credentials?)?
    /// Answers that worked for an origin, sent at once (shared by an `HTTPAccess`'s transfers).
    var authorizationCache: HTTPAuthorizationCache?

    public init(request: TransferRequest, partFile: URL, expectedLength: Int64? = nil, expectedSHA256: String? = nil, credentials: Credentials? = nil, timeout: TimeInterval = 30,
                storage: Storage = SystemStorage(), maximumLength: Int64? = nil, lowSpeedLimit: LowSpeedLimit = .standard) {
        self.storage = storage
        self.maximumLength = maximumLength
        self.lowSpeedLimit = lowSpeedLimit
        self.request = request
        self.partFile = partFile
        self.expectedLength = expectedLength
        self.expectedSHA256 = expectedSHA256?.lowercased()
        self.credentials = credentials
        self.timeout = timeout
    }

    /// Stops a running `run` (from any thread); later runs throw at once.
    public func cancel() { cancellation.cancel() }

    public var isCancelled: Bool { cancellation.isCancelled }

    /// Waits `seconds`, or less if the transfer is cancelled meanwhile.
    public func pause(for seconds: TimeInterval) { cancellation.wait(seconds) }

    /// Resumes from `partFile` if it exists (Range + If-Range with the saved validator);
    /// 200 or a changed validator starts over; 206 must carry a matching Content-Range.
    /// Calls progress at most ~10×/s. Throws TransferError.
    public func run(validator: TransferValidator?, progress: @escaping @Sendable (TransferProgress) -> Void) throws -> TransferResult {
        try run(validator: validator, onValidator: { _ in }, progress: progress)
    }

    /// As `run(validator:progress:)`, and gives the response's validator to `onValidator`
    /// as soon as the response headers arrive, before any byte is written, so the caller
    /// can persist it and resume correctly after a crash.
    public func run(validator: TransferValidator?, onValidator: (TransferValidator) -> Void, progress: @escaping @Sendable (TransferProgress) -> Void) throws -> TransferResult {
        try cancellation.check()
        switch request.url.scheme?.lowercased() {
        case "file":
            return try copyFile(validator: validator, onValidator: onValidator, progress: progress)
        case "http", "https":
            // The http clients hold the callbacks only while `fetch` runs.
            return try withoutActuallyEscaping(onValidator) { onValidator in
                try download(validator: validator, onValidator: onValidator, progress: progress)
            }
        default:
            throw TransferError.fatal("cannot download \(request.url.absoluteString): only http, https and file URLs are supported")
        }
    }

    // MARK: - http and https

    /// Why an attempt must begin again from byte 0 (the server's answer does not fit the
    /// bytes on disk).
    private struct StartOver: Error { var reason: String }

    private enum Outcome {
        case body(total: Int64?, validator: TransferValidator, resumedFrom: Int64)
        case redirect(URL)
        case unauthorized(HTTPResponseHead, body: Data?)
        case rangeNotSatisfiable(HTTPResponseHead)
    }

    private func client(for url: URL) -> HTTPFetching {
        clientOverride ?? httpClient(for: url)
    }

    private func download(validator: TransferValidator?, onValidator: @escaping (TransferValidator) -> Void, progress: @escaping @Sendable (TransferProgress) -> Void) throws -> TransferResult {
        let part = try PartFile(url: partFile, wantsDigest: expectedSHA256 != nil, storage: storage)
        defer { part.close() }
        let throttle = ProgressThrottle(report: progress)

        var offset = part.length
        var saved = validator ?? TransferValidator()
        if let expectedLength, offset > expectedLength { offset = 0 }
        // Without a validator, only a checksum can prove that old bytes and new bytes
        // belong to the same file.
        if offset > 0 && saved.ifRangeValue == nil && expectedSHA256 == nil { offset = 0 }
        // A complete .part (say the process died before installing it) needs no request.
        if offset > 0, offset == expectedLength, let expectedSHA256 {
            if try SHA256Digest.hexOfFile(at: partFile) == expectedSHA256 {
                throttle.update(TransferProgress(bytesWritten: offset, bytesExpected: offset), force: true)
                return TransferResult(file: partFile, bytes: offset, validator: saved, resumedFrom: offset)
            }
            offset = 0
        }
        try part.keep(upTo: offset)

        var restarted = false
        var firstResumedFrom: Int64?
        while true {
            do {
                let (total, validatorNow, resumedFrom) = try fetchOnce(part: part, offset: offset, saved: saved, onValidator: onValidator, throttle: throttle)
                firstResumedFrom = min(firstResumedFrom ?? resumedFrom, resumedFrom)
                saved = validatorNow
                // A 206 may carry less than the rest of the file: ask for what is missing.
                if let total, part.length < total, part.length > offset {
                    offset = part.length
                    continue
                }
                if let total, part.length != total {
                    throw TransferError.network("\(request.url.absoluteString) stopped after \(part.length) of \(total) bytes")
                }
                throttle.update(TransferProgress(bytesWritten: part.length, bytesExpected: total ?? part.length), force: true)
                return try verified(part, validator: saved, resumedFrom: firstResumedFrom ?? 0)
            } catch let startOver as StartOver {
                guard !restarted else {
                    throw TransferError.fatal("\(request.url.absoluteString): \(startOver.reason), even after starting over")
                }
                restarted = true
                offset = 0
                firstResumedFrom = nil
                try part.keep(upTo: 0)
            }
        }
    }

    /// Final checks on a complete body; a mismatch deletes the `.part` file.
    private func verified(_ part: PartFile, validator: TransferValidator, resumedFrom: Int64) throws -> TransferResult {
        let length = part.length
        if let expectedLength, length != expectedLength {
            part.discard()
            throw TransferError.fatal("\(request.url.absoluteString) is \(length) bytes long but the feed says \(expectedLength); the download was discarded")
        }
        if let expectedSHA256 {
            let actual = part.finishDigest() ?? ""
            if actual != expectedSHA256 {
                part.discard()
                // After a resume, fresh bytes may still match; a full download that does not
                // match never will.
                throw TransferError(message: "the SHA-256 of \(request.url.absoluteString) is \(actual) but the feed says \(expectedSHA256); the download was discarded", isRetryable: resumedFrom > 0)
            }
        }
        return TransferResult(file: partFile, bytes: length, validator: validator, resumedFrom: resumedFrom)
    }

    /// One request, following redirects and answering one 401, that streams a body into
    /// `part` from `offset`. Returns the total size when known, the validator of the bytes
    /// now on disk and how many bytes were kept from before.
    private func fetchOnce(part: PartFile, offset: Int64, saved: TransferValidator, onValidator: @escaping (TransferValidator) -> Void, throttle: ProgressThrottle) throws -> (Int64?, TransferValidator, Int64) {
        var url = request.url
        var visited: Set<String> = [url.absoluteString]
        // The answer to the last 401 and the origin it is for; a Digest answer is written
        // afresh for each request (its URI and nonce count).
        var authorization: (answer: HTTPAuthorization, origin: String)?
        var renewedStaleNonce = false
        // True while the request carries an answer from `authorizationCache`.
        var sentCachedAnswer = false
        var redirects = 0
        while true {
            try cancellation.check()
            var headers = requestHeaders(for: url)
            headers.append(("Accept-Encoding", "identity"))
            if offset > 0 {
                headers.append(("Range", "bytes=\(offset)-"))
                if let ifRange = saved.ifRangeValue { headers.append(("If-Range", ifRange)) }
            }
            sentCachedAnswer = false
            if var answer = authorization, answer.origin == Transfer.origin(of: url) {
                headers.removeAll { $0.0.lowercased() == "authorization" }
                headers.append(("Authorization", answer.answer.header(uri: HTTPAuthorization.requestTarget(of: url))))
                authorization = answer
            } else if !headers.contains(where: { $0.0.lowercased() == "authorization" }),
                      let cached = authorizationCache?.header(origin: Transfer.origin(of: url), uri: HTTPAuthorization.requestTarget(of: url)) {
                headers.append(("Authorization", cached))
                sentCachedAnswer = true
            }

            var outcome: Outcome?
            var total: Int64?
            // A 401's OPDS Authentication Document, read into memory (never into the part file).
            var authenticationBody: Data?
            let limit = expectedLength
            var window = (start: Date(), bytes: part.length)
            // After each piece of body written: no more than announced (or than the cap),
            // not too slowly, and progress.
            let advanced = { [maximumLength, lowSpeedLimit] in
                if let bound = total ?? limit, part.length > bound {
                    part.discard()
                    throw TransferError.fatal("\(url.absoluteString) sent more than the \(bound) bytes it announced")
                }
                if total == nil, limit == nil, let maximumLength, part.length > maximumLength {
                    part.discard()
                    throw TransferError.fatal("\(url.absoluteString) sent more than \(ByteSize.format(maximumLength)), the most accepted here; the download was discarded")
                }
                let now = Date()
                if now.timeIntervalSince(window.start) >= lowSpeedLimit.window {
                    if part.length - window.bytes < lowSpeedLimit.minimumBytes {
                        throw TransferError.network("\(url.absoluteString) sent only \(part.length - window.bytes) bytes in \(Int(now.timeIntervalSince(window.start))) s; the server is stalling", summary: "the server is stalling")
                    }
                    window = (now, part.length)
                }
                throttle.update(TransferProgress(bytesWritten: part.length, bytesExpected: total ?? limit))
            }
            let splice = part.spliceDescriptor.map { fd in
                SpliceTarget(fd: fd, didWrite: { count in
                    part.didSplice(count)
                    try advanced()
                })
            }
            NetworkWaits.shared.waiting(self, on: url)
            defer { NetworkWaits.shared.attemptEnded(self) }
            try client(for: url).fetch(url: url, headers: headers, timeout: timeout, cancellation: cancellation, splice: splice, onHead: { head in
                NetworkWaits.shared.heard(self, status: head.status)
                switch head.status {
                case 301, 302, 303, 307, 308:
                    guard let location = head.header("location"), let target = URL(string: location, relativeTo: url)?.absoluteURL else {
                        throw TransferError.fatal("\(url.absoluteString) redirects (\(head.status)) without a usable Location")
                    }
                    outcome = .redirect(target)
                    return .skip
                case 401:
                    outcome = .unauthorized(head, body: nil)
                    let type = head.header("content-type")?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
                    guard type == OPDSAuthenticationDocument.mediaType,
                          (head.contentLength ?? 0) <= Int64(OPDSAuthenticationDocument.maximumSize) else { return .skip }
                    authenticationBody = Data()
                    return .read
                case 416 where offset > 0:
                    outcome = .rangeNotSatisfiable(head)
                    return .skip
                case 200:
                    total = head.contentLength
                    try self.checkDeclaredLength(total, part: part)
                    if offset > 0 || part.length > 0 { try part.keep(upTo: 0) }
                    let validator = head.validator
                    onValidator(validator)
                    outcome = .body(total: total, validator: validator, resumedFrom: 0)
                    throttle.update(TransferProgress(bytesWritten: 0, bytesExpected: total ?? limit), force: true)
                    return .read
                case 206:
                    guard let range = ContentRange(head.header("content-range")), let first = range.first else {
                        throw StartOver(reason: "the server answered 206 without a usable Content-Range")
                    }
                    guard first == offset else {
                        throw StartOver(reason: "the server sent bytes from \(first) when asked for bytes from \(offset)")
                    }
                    let fresh = head.validator
                    if offset > 0 && saved.differs(from: fresh) {
                        throw StartOver(reason: "the file changed on the server")
                    }
                    total = range.total
                    try self.checkDeclaredLength(total, part: part)
                    let validator = TransferValidator(etag: fresh.etag ?? saved.etag, lastModified: fresh.lastModified ?? saved.lastModified)
                    onValidator(validator)
                    outcome = .body(total: total, validator: validator, resumedFrom: offset)
                    throttle.update(TransferProgress(bytesWritten: offset, bytesExpected: total ?? limit), force: true)
                    return .read
                default:
                    throw Transfer.statusError(head, url: url)
                }
            }, onBody: { bytes in
                if let body = authenticationBody {
                    // Beyond the limit the document is dropped (the 401 stands without it).
                    authenticationBody = body.count + bytes.count <= OPDSAuthenticationDocument.maximumSize ? body + Data(bytes) : Data()
                    return
                }
                try part.append(bytes)
                try advanced()
            })

            switch outcome {
            case let .body(total, validator, resumedFrom)?:
                if let authorization, authorization.origin == Transfer.origin(of: url) {
                    authorizationCache?.remember(authorization.answer, origin: authorization.origin)
                }
                return (total, validator, resumedFrom)
            case let .redirect(target)?:
                guard ["http", "https"].contains(target.scheme?.lowercased() ?? "") else {
                    throw TransferError.fatal("\(url.absoluteString) redirects to \(target.absoluteString), which is not http or https")
                }
                redirects += 1
                if !visited.insert(target.absoluteString).inserted {
                    throw TransferError.fatal("\(request.url.absoluteString) redirects in a loop (through \(target.absoluteString))")
                }
                if redirects > Transfer.maxRedirects {
                    throw TransferError.fatal("\(request.url.absoluteString) redirects more than \(Transfer.maxRedirects) times")
                }
                url = target
            case let .unauthorized(head, _)?:
                if sentCachedAnswer {
                    // An old answer (expired nonce, changed password): answer this challenge afresh.
                    authorizationCache?.forget(origin: Transfer.origin(of: url))
                }
                authorization = try answer(head, document: authenticationBody, url: url, previous: authorization, renewedStaleNonce: &renewedStaleNonce)
            case let .rangeNotSatisfiable(head)?:
                // With If-Range the server only answers 416 when our validator still holds:
                // if it says the file is exactly as long as our part, we already have it all.
                if let range = ContentRange(head.header("content-range")), range.first == nil, range.total == offset {
                    return (offset, saved, offset)
                }
                throw StartOver(reason: "the server cannot send bytes from \(offset) (416)")
            case nil:
                throw TransferError.fatal("internal error: no response for \(url.absoluteString)")
            }
        }
    }

    /// How to answer the 401 `head` from `url`: with the credentials for its host, or, after
    /// Digest's `stale=true`, with the same ones and the fresh nonce (once). Throws
    /// `HTTPAuthenticationRequired` when there are none that fit, or they were refused.
    private func answer(_ head: HTTPResponseHead, document body: Data?, url: URL, previous: (answer: HTTPAuthorization, origin: String)?,
                        renewedStaleNonce: inout Bool) throws -> (answer: HTTPAuthorization, origin: String) {
        let challenges = HTTPChallenge.parse(head.header("www-authenticate") ?? "")
        let origin = Transfer.origin(of: url)
        func required(sent: Bool) -> HTTPAuthenticationRequired {
            let realm = challenges.compactMap(\.realm).first
            return HTTPAuthenticationRequired(url: url, host: HTTPAuthenticationRequired.host(of: url), schemes: challenges.map(\.scheme),
                                              realm: realm, credentialsSent: sent,
                                              document: body.flatMap { OPDSAuthenticationDocument.parse($0, url: url) })
        }
        if var previous, previous.origin == origin {
            if !renewedStaleNonce, previous.answer.digest != nil,
               let fresh = challenges.compactMap(DigestChallenge.init).first(where: \.stale) {
                renewedStaleNonce = true
                previous.answer.renew(fresh)
                return previous
            }
            throw required(sent: true)
        }
        guard let found = try credentials ?? credentialsLookup?(url),
              let answer = HTTPAuthorization(credentials: found, challenges: challenges) else { throw required(sent: false) }
        return (answer, origin)
    }

    /// The caller's headers, minus credentials when a redirect has left the original origin.
    private func requestHeaders(for url: URL) -> [(String, String)] {
        var headers = request.headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        headers.removeAll { ["range", "if-range", "accept-encoding", "connection", "host"].contains($0.0.lowercased()) }
        if Transfer.origin(of: url) != Transfer.origin(of: request.url) {
            headers.removeAll { ["authorization", "cookie"].contains($0.0.lowercased()) }
        }
        if !headers.contains(where: { $0.0.lowercased() == "user-agent" }) {
            headers.append(("User-Agent", "Newsstand/1.0"))
        }
        return headers
    }

    private func checkDeclaredLength(_ total: Int64?, part: PartFile) throws {
        if let total, expectedLength == nil, let maximumLength, total > maximumLength {
            part.discard()
            throw TransferError.fatal("\(request.url.absoluteString) is \(ByteSize.format(total)) long, more than the \(ByteSize.format(maximumLength)) accepted here; nothing was kept")
        }
        guard let total, let expectedLength, total != expectedLength else { return }
        part.discard()
        throw TransferError.fatal("\(request.url.absoluteString) is \(total) bytes long on the server but the feed says \(expectedLength); nothing was kept")
    }

    static func origin(of url: URL) -> String {
        "\(url.scheme?.lowercased() ?? "")://\(url.host?.lowercased() ?? ""):\(url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80))"
    }

    static func statusError(_ head: HTTPResponseHead, url: URL) -> TransferError {
        let status = head.status
        let reason = HTTPResponseHead.reason(forStatus: status)
        let retryAfter = RetryAfter.seconds(head.header("retry-after"))
        let retryable = status == 408 || status == 429 || (500...599).contains(status)
        var message = "the server answered \(status) \(reason) for \(url.absoluteString)"
        if let retryAfter, retryable { message += " (retry after \(Int(retryAfter.rounded(.up))) s)" }
        return TransferError(message: message, isRetryable: retryable, retryAfter: retryable ? retryAfter : nil, httpStatus: status)
    }

    // MARK: - file://

    private func copyFile(validator: TransferValidator?, onValidator: (TransferValidator) -> Void, progress: @escaping @Sendable (TransferProgress) -> Void) throws -> TransferResult {
        let source = request.url.standardizedFileURL.path
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else {
            throw TransferError.fatal("cannot read \(source): \(String(cString: strerror(errno)))")
        }
        defer { close(input) }
        var info = stat()
        guard fstat(input, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw TransferError.fatal("\(source) is not a regular file")
        }
        let size = Int64(info.st_size)
        // The file's identity and modification time play the part of an ETag.
        let current = TransferValidator(etag: "\"\(info.st_dev)-\(info.st_ino)-\(size)-\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)\"", lastModified: nil)

        let part = try PartFile(url: partFile, wantsDigest: expectedSHA256 != nil, storage: storage)
        defer { part.close() }
        if let expectedLength, size != expectedLength {
            part.discard()
            throw TransferError.fatal("\(source) is \(size) bytes long but the feed says \(expectedLength); nothing was copied")
        }
        var offset = part.length
        if validator != current || offset > size { offset = 0 }
        try part.keep(upTo: offset)
        onValidator(current)
        guard lseek(input, off_t(offset), SEEK_SET) >= 0 else {
            throw TransferError.fatal("cannot seek in \(source): \(String(cString: strerror(errno)))")
        }

        let throttle = ProgressThrottle(report: progress)
        throttle.update(TransferProgress(bytesWritten: offset, bytesExpected: size), force: true)
        let pause = Transfer.fileChunkPause(environment: ProcessInfo.processInfo.environment)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Transfer.chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            try cancellation.check()
            // Throttled (end-to-end tests only): small chunks so even a small issue shows progress.
            let got = read(input, buffer.baseAddress, pause > 0 ? 4096 : buffer.count)
            if got < 0 {
                if errno == EINTR { continue }
                throw TransferError.network("cannot read \(source): \(String(cString: strerror(errno)))")
            }
            if got == 0 { break }
            try part.append(UnsafeRawBufferPointer(rebasing: buffer[0..<got]))
            throttle.update(TransferProgress(bytesWritten: part.length, bytesExpected: size))
            if pause > 0 { Thread.sleep(forTimeInterval: pause) }
        }
        guard part.length == size else {
            throw TransferError.network("\(source) changed while it was copied (\(part.length) bytes instead of \(size))")
        }
        throttle.update(TransferProgress(bytesWritten: size, bytesExpected: size), force: true)
        return try verified(part, validator: current, resumedFrom: offset)
    }

    /// The pause after each 256 KiB chunk of a file:// copy: `NEWSSTAND_FILE_THROTTLE_MS`,
    /// set only by end-to-end tests so that progress is visible on screen.
    static func fileChunkPause(environment: [String: String]) -> TimeInterval {
        guard let value = environment["NEWSSTAND_FILE_THROTTLE_MS"].flatMap(Double.init), value > 0 else { return 0 }
        return min(value, 10_000) / 1000
    }
}

/// `Content-Range: bytes FIRST-LAST/TOTAL` (or `bytes */TOTAL` in a 416).
struct ContentRange: Equatable {
    var first: Int64?
    var last: Int64?
    var total: Int64?

    init(first: Int64?, last: Int64?, total: Int64?) {
        self.first = first
        self.last = last
        self.total = total
    }

    init?(_ value: String?) {
        guard let value = value?.trimmingCharacters(in: .whitespaces), value.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = value.dropFirst(6).trimmingCharacters(in: .whitespaces)
        let halves = spec.split(separator: "/", maxSplits: 1)
        guard halves.count == 2 else { return nil }
        if halves[1] == "*" {
            total = nil
        } else {
            guard let total = Int64(halves[1]), total >= 0 else { return nil }
            self.total = total
        }
        if halves[0] == "*" {
            guard total != nil else { return nil }
            return
        }
        let bounds = halves[0].split(separator: "-", maxSplits: 1)
        guard bounds.count == 2, let first = Int64(bounds[0]), let last = Int64(bounds[1]), first >= 0, last >= first else { return nil }
        if let total, last >= total { return nil }
        self.first = first
        self.last = last
    }
}

/// `Retry-After`: delay-seconds or an HTTP-date.
enum RetryAfter {
    static func seconds(_ value: String?, now: Date = Date()) -> TimeInterval? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value) { return TimeInterval(max(0, seconds)) }
        guard let date = HTTPDate.parse(value) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}
