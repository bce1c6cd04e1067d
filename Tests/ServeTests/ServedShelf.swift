import Foundation
import IssueArchive
import NewsstandKit
import TestSupport

/// A library of its own under a temporary NEWSSTAND_HOME, with issues installed from the
/// sample feed's real EPUB and CBZ files, served by the real `newsstand serve` on 127.0.0.1
/// at a free port. The server runs in a process of its own, as users run it: in this one,
/// other suites' blocking tests hold Swift's cooperative threads (two on two cores) for
/// minutes at a time, and a server sharing them would answer nothing meanwhile.
final class ServedShelf: Sendable {
    let home: URL
    let library: Library
    let port: UInt16
    /// The server's log, one line per request ("GET /opds 200 …").
    let lines = LogLines()
    let process: Process

    static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let epub = checkout.appendingPathComponent("sample-feed/tidewater-monthly/issues/tidewater-2026-11.epub")
    static let cbz = checkout.appendingPathComponent("sample-feed/rocket-badger/issues/rocket-badger-003.cbz")

    /// The `newsstand` built beside this test binary.
    static var binary: URL {
        let me = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
        return me.deletingLastPathComponent().appendingPathComponent("newsstand")
    }

    /// `user` and `password`: devices must sign in (Digest; Basic too when `insecure`).
    /// `clientTimeout`: seconds a client may send nothing before it is cut off.
    /// `before`: done to the library's home before the server starts.
    init(user: String? = nil, password: String = "", insecure: Bool = false, maxHeaderBytes: Int = 16 << 10,
         clientTimeout: Double? = nil, before: (URL) throws -> Void = { _ in }) throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("serve-tests-\(UUID().uuidString)")
        library = try Library(paths: Paths(environment: ["NEWSSTAND_HOME": home.path]))
        try before(home)
        let process = Process()
        process.executableURL = Self.binary
        var arguments = ["serve", "--listen", "127.0.0.1:0", "--max-header-bytes", "\(maxHeaderBytes)"]
        if let user { arguments += ["--user", user, "--password-stdin"] + (insecure ? ["--insecure"] : []) }
        if let clientTimeout { arguments += ["--client-timeout", String(clientTimeout)] }
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["NEWSSTAND_HOME"] = home.path
        environment["NEWSSTAND_KEYRING"] = "off"
        process.environment = environment
        let input = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        self.process = process
        try input.fileHandleForWriting.write(contentsOf: Data((password + "\n").utf8))
        try input.fileHandleForWriting.close()

        // The server says where it listens on its first line, then logs a line per request.
        let announced = Announced()
        let lines = self.lines
        let reader = errors.fileHandleForReading
        Thread.detachNewThread {
            var pending = Data()
            while case let chunk = reader.availableData, !chunk.isEmpty {
                pending.append(chunk)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[..<newline], as: UTF8.self)
                    pending.removeSubrange(...newline)
                    if let port = Self.port(announcedIn: line) { announced.set(port) } else { lines.append(line) }
                }
            }
            announced.set(nil)
        }
        guard let port = announced.wait(seconds: 120) else {
            process.terminate()
            process.waitUntilExit()
            throw ServeStartFailure(log: lines.all)
        }
        self.port = port
    }

    /// "newsstand: serving the shelf at http://127.0.0.1:PORT/opds …" → PORT.
    static func port(announcedIn line: String) -> UInt16? {
        guard line.hasPrefix("newsstand: serving the shelf at http://"), let colon = line.dropFirst(39).firstIndex(of: ":") else { return nil }
        return UInt16(line[line.index(after: colon)...].prefix { $0.isNumber })
    }

    /// A shelf for `body`, stopped and removed afterwards whether it passed or not.
    static func with(user: String? = nil, password: String = "", insecure: Bool = false, maxHeaderBytes: Int = 16 << 10,
                     clientTimeout: Double? = nil, before: (URL) throws -> Void = { _ in },
                     _ body: @escaping @Sendable (ServedShelf) throws -> Void) async throws {
        let shelf = try ServedShelf(user: user, password: password, insecure: insecure, maxHeaderBytes: maxHeaderBytes,
                                    clientTimeout: clientTimeout, before: before)
        defer { shelf.stop() }
        try await onItsOwnThread { try body(shelf) }
    }

    /// Runs `body` on a thread of its own, off Swift's cooperative threads (which other suites' blocking tests hold).
    static func onItsOwnThread(_ body: @escaping @Sendable () throws -> Void) async throws {
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
            Thread.detachNewThread { done.resume(with: Result { try body() }) }
        }
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: home)
    }

    func publication(_ title: String) throws -> Publication {
        try library.store.save(Publication(feedURL: "https://example.invalid/\(UUID().uuidString)", title: title))
    }

    /// An issue whose content `file` is installed as the agent installs it.
    @discardableResult
    func installed(_ file: URL, in publication: Publication, title: String, summary: String? = nil, date: Date = Date(),
                   unread: Bool = true) throws -> Issue {
        var issue = try library.store.addIssue(name: "issue-\(UUID().uuidString.prefix(8))", date: date, publicationID: publication.id, title: title)
        let content = try IssueInstaller.install(download: file, into: library.paths.contentDirectory(for: issue))
        issue.contentCover = content.coverImage
        issue.summary = summary
        issue.status = .available
        issue.unread = unread
        issue.downloadedAt = Date()
        return try library.store.save(issue)
    }

    /// Sends `request` as written (nothing normalised) and reads the answer until the server closes.
    func raw(_ request: String) throws -> HTTPAnswer {
        try RawHTTP.exchange(port: port, Data(request.utf8))
    }

    func get(_ target: String, headers: [String: String] = [:]) throws -> HTTPAnswer {
        let lines = ["GET \(target) HTTP/1.1", "Host: 127.0.0.1:\(port)", "Connection: close"] + headers.map { "\($0.key): \($0.value)" }
        return try raw(lines.joined(separator: "\r\n") + "\r\n\r\n")
    }
}

struct NotInTheLog: Error, CustomStringConvertible {
    var wanted: String
    var log: [String]
    var description: String { "the server's log never showed \(wanted): \(log.suffix(8).joined(separator: "\n"))" }
}

struct ServeStartFailure: Error, CustomStringConvertible {
    var log: [String]
    var description: String { "newsstand serve did not say where it listens: \(log.joined(separator: "\n"))" }
}

/// The port the server announced, or nil when it ended without one; waited for once.
final class Announced: @unchecked Sendable {  // guarded by `condition`
    private let condition = NSCondition()
    private var port: UInt16?
    private var done = false
    func set(_ port: UInt16?) { condition.withLock { if !done { self.port = port; done = true; condition.broadcast() } } }
    func wait(seconds: TimeInterval) -> UInt16? {
        condition.withLock {
            let deadline = Date(timeIntervalSinceNow: seconds)
            while !done, condition.wait(until: deadline) {}
            return port
        }
    }
}

final class LogLines: @unchecked Sendable {  // guarded by `lock`
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}

struct HTTPAnswer {
    var status: Int
    var headers: [String: String]
    var body: Data
    var text: String { String(decoding: body, as: UTF8.self) }
    func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// HTTP/1.1 over a plain socket, so a test sends exactly the bytes it means (`../`, `%2e`, huge headers).
extension ServedShelf {
    /// `newsstand ARGUMENTS` run in the library's `home`, as a person types it; its status.
    static func run(_ arguments: [String], in home: URL) throws -> Int32 {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = ["NEWSSTAND_HOME": home.path, "NEWSSTAND_KEYRING": "off", "PATH": "/usr/bin:/bin"]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Three downloads of `issue` (each holds one of the client's slots) asked on connections
    /// that read nothing, returned once the server has answered all three: asked sooner,
    /// another request could take a slot for a moment and leave one of the three refused.
    func downloadsNobodyReads(of issue: Issue) throws -> [Int32] {
        var held: [Int32] = []
        for _ in 0..<3 {
            let fd = try RawHTTP.connect(port: port)
            RawHTTP.send(fd, Data("GET /issues/\(issue.id!).cbz HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            held.append(fd)
        }
        let answered = poll(timeout: 20) { lines.all.filter { $0.hasPrefix("GET /issues/\(issue.id!).cbz 200 ") }.count == 3 ? true : nil }
        guard answered == true else {
            held.forEach { close($0) }
            throw NotInTheLog(wanted: "three downloads answered", log: lines.all)
        }
        return held
    }

    /// A comic with a large incompressible page (24 MB), installed and packed for serving: its
    /// body cannot all wait in the sockets' buffers.
    func bigIssue() throws -> Issue {
        let folder = home.appendingPathComponent("big")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let pages = home.appendingPathComponent("pages")
        _ = try SafeExtractor.extract(archive: ServedShelf.cbz, to: pages, limits: .standard, storage: SystemStorage())
        for name in try FileManager.default.contentsOfDirectory(atPath: pages.path) {
            try FileManager.default.copyItem(at: pages.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        let noise = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/dev/urandom"))
        try noise.readData(ofLength: 24 << 20).write(to: folder.appendingPathComponent("zz-extra.png"))
        let archive = home.appendingPathComponent("big.cbz")
        try FolderZip.write(folder: folder, to: archive)
        let issue = try installed(archive, in: try publication("Badger"), title: "Big")
        _ = try get("/issues/\(issue.id!).cbz", headers: ["Range": "bytes=0-0"])  // packs it once
        return issue
    }
}

enum RawHTTP {
    static func connect(port: UInt16) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { close(fd); throw POSIXError(.ECONNREFUSED) }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    static func send(_ fd: Int32, _ data: Data) {
        var sent = 0
        while sent < data.count {
            let count = data.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL)) }
            if count <= 0 { return }
            sent += count
        }
    }

    static func exchange(port: UInt16, _ request: Data) throws -> HTTPAnswer {
        let fd = try connect(port: port)
        defer { close(fd) }
        send(fd, request)
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received.append(contentsOf: buffer[0..<count])
        }
        return try parse(received)
    }

    static func parse(_ data: Data) throws -> HTTPAnswer {
        guard let end = data.range(of: Data("\r\n\r\n".utf8)) else { throw POSIXError(.EBADMSG) }
        let head = String(decoding: data[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let status = Int(head[0].split(separator: " ")[1]) ?? 0
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = headers[name].map { $0 + "\n" + value } ?? value
        }
        return HTTPAnswer(status: status, headers: headers, body: Data(data[end.upperBound...]))
    }
}
