import Foundation

/// A small HTTP/1.1 client over POSIX sockets for `http://` URLs: one request per
/// connection (`Connection: close`) unless given `connections` to keep them in, framing by Content-Length, chunked encoding, or end
/// of connection. Once connected, the socket blocks with `SO_RCVTIMEO`/`SO_SNDTIMEO` as
/// the inactivity timeout (one system call per read), and `cancel()` shuts it down to wake
/// it. A Content-Length body that needs no checksum is moved from the socket to the file
/// with splice(2), without passing through user space; otherwise it is read into one
/// 256 KiB buffer and handed to the caller. Memory stays flat either way.
struct SocketHTTPClient: HTTPFetching {
    static let bufferSize = 256 * 1024
    static let maxHeaderBytes = 64 * 1024

    /// Where finished connections wait for the next request to the same server (keep-alive);
    /// nil: one request per connection (`Connection: close`), as transfers want.
    var connections: SocketConnections?

    func fetch(
        url: URL,
        headers: [(String, String)],
        timeout: TimeInterval,
        cancellation: Cancellation,
        splice: SpliceTarget?,
        onHead: @escaping (HTTPResponseHead) throws -> BodyDecision,
        onBody: @escaping (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        try perform(method: "GET", url: url, headers: headers, body: nil, timeout: timeout, cancellation: cancellation,
                    splice: splice, onHead: onHead, onBody: onBody)
    }

    private func perform(
        method: String,
        url: URL,
        headers: [(String, String)],
        body: Data?,
        timeout: TimeInterval,
        cancellation: Cancellation,
        splice: SpliceTarget?,
        onHead: (HTTPResponseHead) throws -> BodyDecision,
        onBody: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
              let rawHost = components.host, !rawHost.isEmpty else {
            throw TransferError.fatal("\(url.absoluteString) has no host")
        }
        let host = rawHost.hasPrefix("[") ? String(rawHost.dropFirst().dropLast()) : rawHost
        let port = components.port ?? 80

        var path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { path += "?" + query }
        let hostHeader = host.contains(":") ? "[\(host)]" : host
        var request = "\(method) \(path) HTTP/1.1\r\nHost: \(hostHeader)\(components.port.map { ":\($0)" } ?? "")\r\n"
        for (name, value) in headers {
            guard !name.contains(where: { $0 == "\r" || $0 == "\n" || $0 == ":" }),
                  !value.contains(where: { $0 == "\r" || $0 == "\n" }) else {
                throw TransferError.fatal("request header \(name.debugDescription) contains a line break")
            }
            request += "\(name): \(value)\r\n"
        }
        if let body { request += "Content-Length: \(body.count)\r\n" }
        request += connections == nil ? "Connection: close\r\n\r\n" : "\r\n"
        var bytes = Array(request.utf8)
        if let body { bytes += body }

        let server = "\(host):\(port)"
        // A kept connection the server has closed meanwhile takes no request, or ends with no
        // byte of an answer: the request goes again once, on a new connection. Not after a
        // timeout or anything the server said: a slow server would cost twice the wait, and
        // a PUT would be sent twice.
        if let kept = connections?.take(server) {
            kept.setTimeout(timeout)  // it was set for the request that opened it
            do {
                return try exchange(bytes, on: kept, kept: true, server: server, timeout: timeout, cancellation: cancellation,
                                    splice: splice, onHead: onHead, onBody: onBody)
            } catch is ClosedUnanswered {}
        }
        let socket = try Socket.connect(host: host, port: port, timeout: timeout, cancellation: cancellation)
        try exchange(bytes, on: socket, kept: false, server: server, timeout: timeout, cancellation: cancellation, splice: splice,
                     onHead: onHead, onBody: onBody)
    }

    /// One request and its response on `socket`, which is closed after, or kept in
    /// `connections` when its response was read to its framed end and the server keeps it open.
    /// On a `kept` socket, a server that closed it unanswered throws `ClosedUnanswered`.
    private func exchange(
        _ request: [UInt8], on socket: Socket, kept: Bool, server: String, timeout: TimeInterval, cancellation: Cancellation, splice: SpliceTarget?,
        onHead: (HTTPResponseHead) throws -> BodyDecision, onBody: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        var reusable = false
        defer { if reusable, let connections { connections.keep(socket, for: server) } else { socket.close() } }
        try cancellation.whileBlocked(onCancel: { socket.interrupt() }) {
            do { try socket.send(request, cancellation: cancellation) } catch let error as TransferError where kept && !error.isCancelled {
                throw ClosedUnanswered(error: error)
            }
            let reader = ResponseReader(socket: socket, timeout: timeout, cancellation: cancellation)
            defer { reader.deallocate() }
            var head: HTTPResponseHead
            do { head = try reader.readHead() } catch let error as TransferError where kept && reader.closedBeforeAnyByte && !error.isCancelled {
                throw ClosedUnanswered(error: error)
            }
            while (100..<200).contains(head.status) && head.status != 101 {
                head = try reader.readHead()  // interim responses (100 Continue, 103 Early Hints)
            }
            guard try onHead(head) == .read else { return }
            // Only a success's body may go straight to the file (a 401's document may not).
            try reader.readBody(of: head, splice: (200..<300).contains(head.status) ? splice : nil, onBody)
            let framed = head.header("content-length") != nil || head.header("transfer-encoding")?.lowercased().contains("chunked") == true
            reusable = framed && reader.start == reader.end && head.header("connection")?.lowercased().contains("close") != true
        }
    }
}

extension SocketHTTPClient: HTTPExchanging {
    func request(method: String, url: URL, headers: [(String, String)], body: Data?, timeout: TimeInterval, cancellation: Cancellation,
                 onHead: @escaping (HTTPResponseHead) throws -> BodyDecision, onBody: @escaping (UnsafeRawBufferPointer) throws -> Void) throws {
        try perform(method: method, url: url, headers: headers, body: body, timeout: timeout, cancellation: cancellation,
                    splice: nil, onHead: onHead, onBody: onBody)
    }
}

/// Idle connections to the servers one client talks to, up to `perServer` kept for each:
/// a thousand places sent by a few workers to one sync server reuse a few connections.
// @unchecked: `idle` is read and written only under `lock`.
final class SocketConnections: @unchecked Sendable {
    private let lock = NSLock()
    private var idle: [String: [Socket]] = [:]
    let perServer: Int

    init(perServer: Int = 8) { self.perServer = perServer }

    deinit { for socket in idle.values.joined() { socket.close() } }

    func take(_ server: String) -> Socket? { lock.withLock { idle[server]?.popLast() } }

    func keep(_ socket: Socket, for server: String) {
        let kept: Bool = lock.withLock {
            guard idle[server, default: []].count < perServer else { return false }
            idle[server, default: []].append(socket)
            return true
        }
        if !kept { socket.close() }
    }
}

/// Buffered reading of a response from a socket.
/// The server closed the connection before it answered a byte (a kept connection it had
/// closed meanwhile): the request may go again on a new one (`perform`), else this is `error`.
private struct ClosedUnanswered: Error { let error: TransferError }

private final class ResponseReader {
    let socket: Socket
    let timeout: TimeInterval
    let cancellation: Cancellation
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: SocketHTTPClient.bufferSize, alignment: 16)
    /// Unconsumed bytes are buffer[start..<end].
    var start = 0
    var end = 0
    /// Bytes read so far, and whether the connection ended before the first of them.
    private var received = 0
    private(set) var closedBeforeAnyByte = false

    init(socket: Socket, timeout: TimeInterval, cancellation: Cancellation) {
        self.socket = socket
        self.timeout = timeout
        self.cancellation = cancellation
    }

    func deallocate() { buffer.deallocate() }

    /// Reads more bytes after the unconsumed ones; returns false at end of stream.
    func fill() throws -> Bool {
        if start == end {
            start = 0
            end = 0
        } else if end == buffer.count {
            buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: end - start)
            end -= start
            start = 0
        }
        let got = try socket.receive(into: UnsafeMutableRawBufferPointer(rebasing: buffer[end...]), timeout: timeout, cancellation: cancellation)
        end += got
        if got == 0, received == 0 { closedBeforeAnyByte = true }
        received += got
        return got > 0
    }

    /// Reads one line ending in CRLF (or LF), without the line ending; a line longer than
    /// `limit` is the error `tooLong` (or a generic one).
    /// `deadline` bounds the whole line, so headers dripped a byte at a time (each inside
    /// the inactivity timeout) cannot hold the connection for ever.
    func readLine(limit: Int, what: String, tooLong: TransferError? = nil, deadline: Date? = nil) throws -> String {
        var scanned = start
        while true {
            if let newline = (scanned..<end).first(where: { buffer[$0] == 0x0A }) {
                var lineEnd = newline
                if lineEnd > start && buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                let line = String(decoding: UnsafeRawBufferPointer(rebasing: buffer[start..<lineEnd]), as: UTF8.self)
                start = newline + 1
                return line
            }
            scanned = end
            if end - start >= limit { throw tooLong ?? TransferError.fatal("the server sent a \(what) longer than \(limit) bytes") }
            if let deadline, Date() > deadline {
                throw TransferError.network("the server took more than \(Int(timeout.rounded(.up))) s to send its \(what)s", summary: "no answer from the server")
            }
            let before = start
            guard try fill() else { throw TransferError.network("the server closed the connection in the middle of the \(what)", summary: "the connection dropped") }
            scanned -= before - start  // fill() may have moved the unconsumed bytes to the front
        }
    }

    func readHead() throws -> HTTPResponseHead {
        var budget = SocketHTTPClient.maxHeaderBytes
        let tooLong = TransferError.fatal("the server sent more than \(SocketHTTPClient.maxHeaderBytes) bytes of headers")
        let deadline = Date().addingTimeInterval(timeout)
        let statusLine = try readLine(limit: budget, what: "response header", tooLong: tooLong, deadline: deadline)
        budget -= statusLine.utf8.count
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]), (100...999).contains(status) else {
            throw TransferError.fatal("the server did not answer in HTTP/1.x (first line: \(statusLine.prefix(80).debugDescription))")
        }
        var headers: [String: String] = [:]
        var lastName: String?
        while true {
            let line = try readLine(limit: max(budget, 1), what: "response header", tooLong: tooLong, deadline: deadline)
            budget -= line.utf8.count + 2
            if budget <= 0 { throw tooLong }
            if line.isEmpty { break }
            if line.first == " " || line.first == "\t", let name = lastName {
                headers[name, default: ""] += " " + line.trimmingOptionalWhitespace  // obsolete folding
                continue
            }
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingOptionalWhitespace.lowercased()
            let value = line[line.index(after: colon)...].trimmingOptionalWhitespace
            if let existing = headers[name] { headers[name] = existing + ", " + value } else { headers[name] = value }
            lastName = name
        }
        return HTTPResponseHead(status: status, headers: headers)
    }

    func readBody(of head: HTTPResponseHead, splice: SpliceTarget?, _ onBody: (UnsafeRawBufferPointer) throws -> Void) throws {
        if let encoding = head.header("transfer-encoding")?.lowercased(), encoding.contains("chunked") {
            try readChunked(onBody)
        } else if head.header("content-length") != nil {
            guard let length = head.contentLength else {
                throw TransferError.fatal("the server sent an invalid Content-Length (\(head.header("content-length") ?? ""))")
            }
            if let splice, let move = Splice.function {
                try spliceExactly(length, into: splice, using: move, onBody)
            } else {
                try readExactly(length, what: "body", onBody)
            }
        } else {
            while true {
                if start < end {
                    try onBody(UnsafeRawBufferPointer(rebasing: buffer[start..<end]))
                    start = end
                }
                guard try fill() else { return }
            }
        }
    }

    private func shortRead(_ received: Int64, of length: Int64, what: String) -> TransferError {
        .network("the server closed the connection after \(received) of \(length) bytes of the \(what)", summary: "the connection dropped")
    }

    private func readExactly(_ length: Int64, what: String, _ onBody: (UnsafeRawBufferPointer) throws -> Void) throws {
        var remaining = length
        while remaining > 0 {
            if start == end, try !fill() { throw shortRead(length - remaining, of: length, what: what) }
            let take = Int(min(Int64(end - start), remaining))
            try onBody(UnsafeRawBufferPointer(rebasing: buffer[start..<(start + take)]))
            start += take
            remaining -= Int64(take)
        }
    }

    /// Socket → pipe → file inside the kernel, after handing over what is already buffered.
    private func spliceExactly(_ length: Int64, into target: SpliceTarget, using move: Splice.Function, _ onBody: (UnsafeRawBufferPointer) throws -> Void) throws {
        var remaining = length
        if start < end {
            let take = Int(min(Int64(end - start), remaining))
            try onBody(UnsafeRawBufferPointer(rebasing: buffer[start..<(start + take)]))
            start += take
            remaining -= Int64(take)
        }
        guard remaining > 0 else { return }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            return try readExactly(remaining, what: "body", onBody)
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        defer { close(ends[0]); close(ends[1]) }
        let pipeSize = max(Int(fcntl(ends[1], Splice.setPipeSize, Int32(1 << 20))), 64 * 1024)
        while remaining > 0 {
            let moved = move(socket.descriptor, nil, ends[1], nil, Int(min(Int64(pipeSize), remaining)), Splice.moveFlag)
            if moved == 0 {
                try cancellation.check()
                throw shortRead(length - remaining, of: length, what: "body")
            }
            if moved < 0 {
                if errno == EINTR { continue }
                try cancellation.check()
                throw socket.receiveError(errno, timeout: timeout)
            }
            var left = moved
            while left > 0 {
                let written = move(ends[0], nil, target.fd, nil, left, Splice.moveFlag)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else {
                    let code = errno
                    throw TransferError.writeFailed("the download", code: code)
                }
                left -= written
            }
            try target.didWrite(moved)
            remaining -= Int64(moved)
        }
    }

    private func readChunked(_ onBody: (UnsafeRawBufferPointer) throws -> Void) throws {
        while true {
            let line = try readLine(limit: 4096, what: "chunk size line")
            let digits = line.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            guard let size = Int64(digits, radix: 16), size >= 0 else {
                throw TransferError.fatal("the server sent an invalid chunk size (\(line.prefix(40).debugDescription))")
            }
            if size == 0 {
                // Trailer fields, then an empty line.
                while try !readLine(limit: 8192, what: "chunked trailer").isEmpty {}
                return
            }
            try readExactly(size, what: "chunk", onBody)
            guard try readLine(limit: 2, what: "chunk ending").isEmpty else {
                throw TransferError.fatal("the server sent a chunk longer than its declared size")
            }
        }
    }
}

/// splice(2), looked up at run time: Swift's Glibc module does not declare it. Where it
/// is missing, bodies are copied through user space instead.
enum Splice {
    typealias Function = @convention(c) (Int32, UnsafeMutablePointer<Int64>?, Int32, UnsafeMutablePointer<Int64>?, Int, UInt32) -> Int
    static let moveFlag: UInt32 = 1  // SPLICE_F_MOVE
    static let setPipeSize: Int32 = 1031  // F_SETPIPE_SZ

    static let function: Function? = {
        #if os(Linux)
        guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "splice") else { return nil }
        return unsafeBitCast(symbol, to: Function.self)
        #else
        return nil
        #endif
    }()
}

/// A connected TCP socket. Connecting is non-blocking (to honour the timeout); after
/// that it blocks, with the timeout as `SO_RCVTIMEO`/`SO_SNDTIMEO`.
final class Socket {
    private let lock = NSLock()
    private var fd: Int32

    private init(fd: Int32) { self.fd = fd }

    var descriptor: Int32 { fd }

    static func connect(host: String, port: Int, timeout: TimeInterval, cancellation: Cancellation) throws -> Socket {
        try cancellation.check()
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_ADDRCONFIG
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw TransferError.network("cannot resolve \(host): \(String(cString: gai_strerror(status)))", summary: "cannot resolve host")
        }
        defer { freeaddrinfo(first) }
        var lastError = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            entry = info.pointee.ai_next
            let fd = Glibc.socket(info.pointee.ai_family, info.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), info.pointee.ai_protocol)
            guard fd >= 0 else { lastError = String(cString: strerror(errno)); continue }
            let socket = Socket(fd: fd)
            if Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 || errno == EINPROGRESS {
                do {
                    try socket.waitUntilWritable(timeout: timeout, cancellation: cancellation, host: host, port: port)
                    var error: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
                    if error == 0 {
                        socket.configureConnected(timeout: timeout)
                        return socket
                    }
                    lastError = String(cString: strerror(error))
                } catch let error as TransferError where error.isCancelled {
                    socket.close()
                    throw error
                } catch {
                    lastError = "\(error)"
                }
            } else {
                lastError = String(cString: strerror(errno))
            }
            socket.close()
        }
        let refused = lastError == String(cString: strerror(ECONNREFUSED))
        throw TransferError.network("cannot connect to \(host):\(port): \(lastError)", summary: refused ? "connection refused" : "cannot connect to the server")
    }

    private func configureConnected(timeout: TimeInterval) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        setTimeout(timeout)
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// How long a send or a receive may block: each request's own, also on a kept connection.
    func setTimeout(_ timeout: TimeInterval) {
        let whole = max(timeout, 0.001)
        var interval = timeval(tv_sec: Int(whole), tv_usec: Int((whole - Double(Int(whole))) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
    }

    func close() {
        lock.withLock {
            if fd >= 0 { _ = Glibc.close(fd) }
            fd = -1
        }
    }

    /// Wakes a blocked read or write from another thread (used by cancellation).
    func interrupt() {
        lock.withLock { if fd >= 0 { _ = shutdown(fd, Int32(SHUT_RDWR)) } }
    }

    private func waitUntilWritable(timeout: TimeInterval, cancellation: Cancellation, host: String, port: Int) throws {
        try cancellation.whileBlocked(onCancel: { [self] in interrupt() }) {
            var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            let deadline = Date().addingTimeInterval(timeout)
            while true {
                try cancellation.check()
                let left = deadline.timeIntervalSinceNow
                if left <= 0 { throw TransferError.network("no answer from \(host):\(port) for \(Int(timeout)) s while connecting", summary: "no answer from the server") }
                let ready = poll(&entry, 1, Int32(min(left * 1000 + 1, Double(Int32.max))))
                if ready > 0 { break }
                if ready < 0 && errno != EINTR { throw TransferError.network("cannot connect to \(host):\(port): \(String(cString: strerror(errno)))") }
            }
            try cancellation.check()
        }
    }

    func receiveError(_ code: Int32, timeout: TimeInterval) -> TransferError {
        if code == EAGAIN || code == EWOULDBLOCK {
            return .network("no answer from the server for \(Int(timeout.rounded(.up))) s while waiting for data")
        }
        return .network("the connection failed: \(String(cString: strerror(code)))")
    }

    func send(_ bytes: [UInt8], cancellation: Cancellation) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n >= 0 { sent += n; continue }
            if errno == EINTR { continue }
            let code = errno
            try cancellation.check()
            throw TransferError.network("cannot send the request: \(String(cString: strerror(code)))")
        }
    }

    /// Receives into `buffer`; 0 means the server closed the connection.
    func receive(into buffer: UnsafeMutableRawBufferPointer, timeout: TimeInterval, cancellation: Cancellation) throws -> Int {
        while true {
            let n = recv(fd, buffer.baseAddress, buffer.count, 0)
            if n > 0 { return n }
            let code = errno
            try cancellation.check()  // a cancelled socket reads as closed
            if n == 0 { return 0 }
            if code == EINTR { continue }
            throw receiveError(code, timeout: timeout)
        }
    }
}

extension StringProtocol {
    /// Without the spaces and tabs around it, HTTP's optional whitespace (RFC 9110, 5.6.3).
    /// Foundation's `trimmingCharacters(in:)` went through NSString: a sixth of a sync's CPU.
    var trimmingOptionalWhitespace: String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else { return "" }
        return String(self[first...last])
    }
}
