import Foundation

/// A small HTTP/1.1 client over POSIX sockets for `http://` URLs: one request per
/// connection (`Connection: close`), bodies read straight into one 256 KiB buffer and
/// handed to the caller, so a download costs a `recv` and a `write` per buffer and memory
/// stays flat. Framing by Content-Length, chunked encoding, or end of connection.
struct SocketHTTPClient: HTTPFetching {
    static let bufferSize = 256 * 1024
    static let maxHeaderBytes = 64 * 1024

    func fetch(
        url: URL,
        headers: [(String, String)],
        timeout: TimeInterval,
        cancellation: Cancellation,
        onHead: @escaping (HTTPResponseHead) throws -> BodyDecision,
        onBody: @escaping (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
              let rawHost = components.host, !rawHost.isEmpty else {
            throw TransferError.fatal("\(url.absoluteString) has no host")
        }
        let host = rawHost.hasPrefix("[") ? String(rawHost.dropFirst().dropLast()) : rawHost
        let port = components.port ?? 80
        let socket = try Socket.connect(host: host, port: port, timeout: timeout, cancellation: cancellation)
        defer { socket.close() }

        var path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { path += "?" + query }
        let hostHeader = host.contains(":") ? "[\(host)]" : host
        var request = "GET \(path) HTTP/1.1\r\nHost: \(hostHeader)\(components.port.map { ":\($0)" } ?? "")\r\n"
        for (name, value) in headers {
            guard !name.contains(where: { $0 == "\r" || $0 == "\n" || $0 == ":" }),
                  !value.contains(where: { $0 == "\r" || $0 == "\n" }) else {
                throw TransferError.fatal("request header \(name.debugDescription) contains a line break")
            }
            request += "\(name): \(value)\r\n"
        }
        request += "Connection: close\r\n\r\n"
        try socket.send(Array(request.utf8), timeout: timeout, cancellation: cancellation)

        let reader = ResponseReader(socket: socket, timeout: timeout, cancellation: cancellation)
        defer { reader.deallocate() }
        var head = try reader.readHead()
        while (100..<200).contains(head.status) && head.status != 101 {
            head = try reader.readHead()  // interim responses (100 Continue, 103 Early Hints)
        }
        guard try onHead(head) == .read else { return }
        try reader.readBody(of: head, onBody)
    }
}

/// Buffered reading of a response from a socket.
private final class ResponseReader {
    let socket: Socket
    let timeout: TimeInterval
    let cancellation: Cancellation
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: SocketHTTPClient.bufferSize, alignment: 16)
    /// Unconsumed bytes are buffer[start..<end].
    var start = 0
    var end = 0

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
        return got > 0
    }

    /// Reads one line ending in CRLF (or LF), without the line ending.
    func readLine(limit: Int, what: String) throws -> String {
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
            if end - start >= limit { throw TransferError.fatal("the server sent a \(what) longer than \(limit) bytes") }
            let before = start
            guard try fill() else { throw TransferError.network("the server closed the connection in the middle of the \(what)") }
            scanned -= before - start  // fill() may have moved the unconsumed bytes to the front
        }
    }

    func readHead() throws -> HTTPResponseHead {
        var budget = SocketHTTPClient.maxHeaderBytes
        let statusLine = try readLine(limit: budget, what: "response header")
        budget -= statusLine.utf8.count
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]), (100...999).contains(status) else {
            throw TransferError.fatal("the server did not answer in HTTP/1.x (first line: \(statusLine.prefix(80).debugDescription))")
        }
        var headers: [String: String] = [:]
        var lastName: String?
        while true {
            let line = try readLine(limit: max(budget, 1), what: "response header")
            budget -= line.utf8.count + 2
            if budget <= 0 { throw TransferError.fatal("the server sent more than \(SocketHTTPClient.maxHeaderBytes) bytes of headers") }
            if line.isEmpty { break }
            if line.first == " " || line.first == "\t", let name = lastName {
                headers[name, default: ""] += " " + line.trimmingCharacters(in: .whitespaces)  // obsolete folding
                continue
            }
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if let existing = headers[name] { headers[name] = existing + ", " + value } else { headers[name] = value }
            lastName = name
        }
        return HTTPResponseHead(status: status, headers: headers)
    }

    func readBody(of head: HTTPResponseHead, _ onBody: (UnsafeRawBufferPointer) throws -> Void) throws {
        if let encoding = head.header("transfer-encoding")?.lowercased(), encoding.contains("chunked") {
            try readChunked(onBody)
        } else if head.header("content-length") != nil {
            guard let length = head.contentLength else {
                throw TransferError.fatal("the server sent an invalid Content-Length (\(head.header("content-length") ?? ""))")
            }
            try readExactly(length, what: "body", onBody)
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

    private func readExactly(_ length: Int64, what: String, _ onBody: (UnsafeRawBufferPointer) throws -> Void) throws {
        var remaining = length
        while remaining > 0 {
            if start == end, try !fill() {
                throw TransferError.network("the server closed the connection after \(length - remaining) of \(length) bytes of the \(what)")
            }
            let take = Int(min(Int64(end - start), remaining))
            try onBody(UnsafeRawBufferPointer(rebasing: buffer[start..<(start + take)]))
            start += take
            remaining -= Int64(take)
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

/// A connected, non-blocking TCP socket whose waits honour a timeout and cancellation.
final class Socket {
    private let lock = NSLock()
    private var fd: Int32

    private init(fd: Int32) { self.fd = fd }

    static func connect(host: String, port: Int, timeout: TimeInterval, cancellation: Cancellation) throws -> Socket {
        try cancellation.check()
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_ADDRCONFIG
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw TransferError.network("cannot resolve \(host): \(String(cString: gai_strerror(status)))")
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
                    try socket.wait(for: Int16(POLLOUT), timeout: timeout, cancellation: cancellation, what: "connecting to \(host):\(port)")
                    var error: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
                    if error == 0 {
                        var one: Int32 = 1
                        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
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
        throw TransferError.network("cannot connect to \(host):\(port): \(lastError)")
    }

    func close() {
        lock.withLock {
            if fd >= 0 { _ = Glibc.close(fd) }
            fd = -1
        }
    }

    /// Wakes a blocked `poll` from another thread (used by cancellation).
    private func interrupt() {
        lock.withLock { if fd >= 0 { _ = shutdown(fd, Int32(SHUT_RDWR)) } }
    }

    private func wait(for events: Int16, timeout: TimeInterval, cancellation: Cancellation, what: String) throws {
        try cancellation.whileBlocked(onCancel: { [self] in interrupt() }) {
            var entry = pollfd(fd: fd, events: events, revents: 0)
            while true {
                try cancellation.check()
                let ready = poll(&entry, 1, Int32(min(timeout * 1000, Double(Int32.max))))
                if ready > 0 { break }
                if ready == 0 { throw TransferError.network("no answer from the server for \(Int(timeout)) s while \(what)") }
                if errno != EINTR { throw TransferError.network("\(what): \(String(cString: strerror(errno)))") }
            }
            try cancellation.check()
        }
    }

    func send(_ bytes: [UInt8], timeout: TimeInterval, cancellation: Cancellation) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n >= 0 { sent += n; continue }
            if errno == EINTR { continue }
            guard errno == EAGAIN || errno == EWOULDBLOCK else {
                throw TransferError.network("cannot send the request: \(String(cString: strerror(errno)))")
            }
            try wait(for: Int16(POLLOUT), timeout: timeout, cancellation: cancellation, what: "sending the request")
        }
    }

    /// Receives into `buffer`; 0 means the server closed the connection.
    func receive(into buffer: UnsafeMutableRawBufferPointer, timeout: TimeInterval, cancellation: Cancellation) throws -> Int {
        while true {
            try cancellation.check()
            let n = recv(fd, buffer.baseAddress, buffer.count, 0)
            if n > 0 { return n }
            if n == 0 {
                try cancellation.check()  // a cancelled socket reads as closed
                return 0
            }
            if errno == EINTR { continue }
            guard errno == EAGAIN || errno == EWOULDBLOCK else {
                try cancellation.check()
                throw TransferError.network("the connection failed: \(String(cString: strerror(errno)))")
            }
            try wait(for: Int16(POLLIN), timeout: timeout, cancellation: cancellation, what: "waiting for data")
        }
    }
}
