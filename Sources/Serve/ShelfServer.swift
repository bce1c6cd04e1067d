import FlyingFox
import FlyingSocks
import Foundation
import NewsstandKit

/// `newsstand serve`: the shelf's catalogs (OPDS 1.2 under `/opds`, OPDS 2.0 under
/// `/opds2`), its issues' files (`/issues/ID.epub|cbz|pdf`) and covers (`/covers/ID`), over
/// FlyingFox. Every request's path is matched against those shapes, ids as numbers, before
/// anything is read; the rest is 404. One log line per request.
public final class ShelfServer: Sendable {
    public struct Options: Sendable {
        public var address: ListenAddress
        public var access: ServeAccess
        /// Downloads at once per client address.
        public var downloadsPerClient = 3
        /// The most a request's headers may hold, names and values together.
        public var maxHeaderBytes = 16 << 10
        /// How long a request may take to be answered (not to be sent: a file streams as the client reads).
        public var timeout: TimeInterval = 30
        /// How long a client may send nothing while a request is awaited, or take nothing of an
        /// answer, before its connection is closed (`ClientDeadline`); a request has twice that
        /// to arrive whole (`RequestWatch`).
        public var clientTimeout: TimeInterval = 30
        public var log: @Sendable (String) -> Void

        public init(address: ListenAddress, access: ServeAccess = .open, log: @escaping @Sendable (String) -> Void) {
            self.address = address
            self.access = access
            self.log = log
        }
    }

    let server: HTTPServer
    let options: Options
    let sections: ShelfSections
    let files: ServedFiles
    let pages: ServedPages
    let slots: DownloadSlots
    let sync: ServedSync
    let catalogs = CatalogCache()
    let watch: RequestWatch
    let pool: ClientDeadline

    public init(library: Library, options: Options) throws {
        self.options = options
        sections = ShelfSections(library: library)
        files = ServedFiles(library: library)
        pages = ServedPages(library: library, files: files)
        slots = DownloadSlots(perClient: options.downloadsPerClient)
        sync = ServedSync(library: library, files: files, access: options.access)
        // A request's line (2 KB at most), its headers, their line ends and a sync body.
        watch = RequestWatch(time: .milliseconds(Int(options.clientTimeout * 2000)),
                             bytes: 4096 + options.maxHeaderBytes * 2 + ServedSync.maxBodyBytes)
        pool = ClientDeadline(pool: HTTPServer.defaultPool(), idle: .milliseconds(Int(options.clientTimeout * 1000)), watch: watch)
        // Bodies above 64 KB are not kept in memory: nothing here takes one, and such a request is refused unread.
        let config = HTTPServer.Configuration(address: try sockaddr_in.inet(ip4: options.address.host, port: options.address.port),
                                              timeout: options.timeout, sharedRequestBufferSize: 4096,
                                              sharedRequestReplaySize: 64 << 10,
                                              pool: pool,
                                              logger: .disabled)
        let handler = Handler(options: options, sections: sections, files: files, pages: pages, slots: slots, sync: sync, catalogs: catalogs,
                              watch: watch, pool: pool)
        server = HTTPServer(config: config, handler: handler)
    }

    /// Serves until cancelled or stopped.
    public func run() async throws {
        // A file goes to its client by sendfile(2), which has no MSG_NOSIGNAL: a client gone
        // mid-download must be an EPIPE, not the end of the server.
        signal(SIGPIPE, SIG_IGN)
        async let served: Void = server.run()
        if let port = try? await listeningPort() { Self.sendWithoutDelay(listeningOn: port) }
        try await served
    }

    /// FlyingFox writes a response's headers and its body in two writes: with Nagle's algorithm
    /// the body waits for the client's delayed ACK (~40 ms an answer). It offers no hook on its
    /// sockets, so TCP_NODELAY is set on the listening socket (found by its port among this
    /// process's descriptors), which the connections it accepts inherit on Linux.
    static func sendWithoutDelay(listeningOn port: UInt16) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return }
        for fd in names.compactMap(Int32.init) {
            var address = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let named = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            guard named == 0, address.sin_family == sa_family_t(AF_INET), UInt16(bigEndian: address.sin_port) == port,
                  ClientDeadline.isListening(fd) else { continue }
            var on: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        }
    }

    /// The port it listens on, once it does.
    public func listeningPort() async throws -> UInt16 {
        try await server.waitUntilListening()
        guard case .ip4(_, let port)? = await server.listeningAddress else { throw SocketError.unsupportedAddress }
        return port
    }

    public func stop() async { await server.stop() }
}

/// Answers every request: the checks every request passes, then the route.
struct Handler: HTTPHandler {
    let options: ShelfServer.Options
    let sections: ShelfSections
    let files: ServedFiles
    let pages: ServedPages
    let slots: DownloadSlots
    let sync: ServedSync
    let catalogs: CatalogCache
    let watch: RequestWatch
    let pool: ClientDeadline

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        let start = ContinuousClock.now
        // The request is in: the connection's clock starts again with the wait for the next one.
        if let peer = request.remoteAddress.flatMap(RequestWatch.key) { watch.answering(peer) }
        let response = ServedSync.owns(request.target.path()) ? await syncAnswer(request) : answer(request)
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
        let bytes = response.headers[.contentLength] ?? { if case .httpBody(let body) = response.payload { body.count.map(String.init) } else { nil } }() ?? "0"
        options.log("\(request.method.rawValue) \(Self.printable(request.target.rawValue)) \(response.statusCode.code) \(bytes) B "
                    + String(format: "%.1f ms", milliseconds))
        return response
    }

    func answer(_ request: HTTPRequest) -> HTTPResponse {
        if let tooLarge = headersTooLarge(request) { return tooLarge }
        guard request.method == .GET || request.method == .HEAD else { return closing(.methodNotAllowed) }
        if let length = request.headers[.contentLength], length != "0" { return closing(.payloadTooLarge) }
        if request.headers[.transferEncoding] != nil { return closing(.payloadTooLarge) }
        guard options.access.admits(authorization: request.headers[.authorization], method: request.method.rawValue,
                                    uri: request.target.rawValue) else {
            var headers = HTTPHeaders()
            for challenge in options.access.challenges() { headers.addValue(challenge, for: HTTPHeader("WWW-Authenticate")) }
            headers[.contentType] = "text/plain; charset=utf-8"
            return HTTPResponse(statusCode: .unauthorized, headers: headers, body: Data("Sign in to read this shelf.\n".utf8))
        }
        do {
            return try route(request) ?? text(.notFound, "Not found.\n")
        } catch {
            return text(.internalServerError, "The shelf could not be read.\n")
        }
    }

    /// 431 for a request whose headers or target are longer than allowed.
    func headersTooLarge(_ request: HTTPRequest) -> HTTPResponse? {
        let headerBytes = request.headers.reduce(0) { $0 + $1.key.rawValue.utf8.count + $1.value.utf8.count + 4 }
        guard headerBytes > options.maxHeaderBytes || request.target.rawValue.utf8.count > 2048 else { return nil }
        return closing(.requestHeaderFieldsTooLarge)
    }

    /// A KOReader sync request (`/users/…`, `/syncs/…`): signed with its own headers, not
    /// Digest, and with a small JSON body, read only when its length is said and small.
    func syncAnswer(_ request: HTTPRequest) async -> HTTPResponse {
        if let tooLarge = headersTooLarge(request) { return tooLarge }
        if request.headers[.transferEncoding] != nil { return closing(.payloadTooLarge) }
        let length = request.headers[.contentLength].map { Int($0) ?? .max } ?? 0
        guard length <= ServedSync.maxBodyBytes else { return closing(.payloadTooLarge) }
        let body = length > 0 ? ((try? await request.bodyData) ?? Data()) : Data()
        guard let answer = sync.answer(method: request.method.rawValue, path: request.target.path(),
                                       user: request.headers[HTTPHeader(KOSyncWire.userHeader)],
                                       key: request.headers[HTTPHeader(KOSyncWire.keyHeader)], body: body) else {
            return text(.notFound, "Not found.\n")
        }
        return HTTPResponse(statusCode: HTTPStatusCode(answer.status, phrase: ServedSync.phrase(answer.status)), headers: [.contentType: "application/json"], body: answer.body)
    }

    /// The response for a path of one of the served shapes; nil for any other path.
    func route(_ request: HTTPRequest) throws -> HTTPResponse? {
        // The raw target, never FlyingFox's cleaned path: `/issues/../x` must not become `/x`.
        let path = request.target.path()
        guard path.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "/.-_".contains($0)) }), !path.contains("..") else { return nil }
        let parts = path.split(separator: "/", maxSplits: 1).map(String.init)
        guard let top = parts.first else { return nil }
        let rest = parts.count > 1 ? parts[1] : ""
        let query = Dictionary(request.query.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a })
        let page = query["page"].flatMap(Int.init) ?? 1
        switch top {
        case "opds", "opds2":
            // Decided on the change token alone: a device that holds this state of the shelf gets a 304 before anything is read.
            let token = sections.library.changeToken()
            let tag = catalogs.tag(token)
            let terms = query["q"] ?? query["query"]
            let key = "\(top)/\(rest)?page=\(page)" + (terms.map { "&q=" + $0 } ?? "")
            if Self.matches(request.headers[.ifNoneMatch], tag), catalogs.holds(key, token: token) {
                return conditional(request, Data(), type: "", updated: nil, tag: tag)
            }
            guard let document = try catalogs.document(key, token: token, build: { try catalog(top: top, rest: rest, terms: terms, page: page) })
            else { return nil }
            return conditional(request, document.body, type: document.type, updated: document.updated, tag: tag)
        case "issues":
            let name = rest.split(separator: ".")
            guard name.count == 2, let id = Int64(name[0]), let kind = ServedFiles.Kind(rawValue: String(name[1])),
                  let file = try files.file(issueID: id, kind: kind) else { return nil }
            return try download(request, file.url, type: kind.mediaType)
        case "covers":
            guard let id = Int64(rest) else { return nil }
            if let cover = try files.cover(issueID: id) {
                return try download(request, cover, type: ServedFiles.imageType(of: cover) ?? "application/octet-stream", counted: false)
            }
            guard try files.kind(issueID: id) == .pdf,
                  let page = try pages.page(issueID: id, index: 0, maxWidth: query["thumbnail"] == nil ? 800 : 240) else { return nil }
            return conditional(request, page.data, type: page.type, updated: nil)
        case "pages":
            let name = rest.split(separator: "/")
            guard name.count == 2, let id = Int64(name[0]), let index = Int(name[1]), index >= 0,
                  let page = try pages.page(issueID: id, index: index, maxWidth: query["maxWidth"].flatMap(Int.init)) else { return nil }
            return conditional(request, page.data, type: page.type, updated: nil)
        default:
            return nil
        }
    }

    /// A catalog document of `/opds` or `/opds2` as built from the library; nil for a path that names none.
    func catalog(top: String, rest: String, terms: String?, page: Int) throws -> CatalogCache.Document? {
        let entries = CatalogEntries(root: "/" + top, files: files, pages: pages)
        if top == "opds", rest == "opensearch.xml" {
            return CatalogCache.Document(body: Data(OPDSAtomFeed(entries: entries).openSearch().utf8), type: "application/opensearchdescription+xml", updated: nil)
        }
        if rest.isEmpty {
            let updated = try sections.listing(.newest, page: 1)?.updated ?? .distantPast
            let body = top == "opds" ? Data(OPDSAtomFeed(entries: entries).root(updated: updated).utf8)
                                     : try OPDSJSONFeed(entries: entries).root(updated: updated)
            return CatalogCache.Document(body: body, type: top == "opds" ? OPDSAtomFeed.navigationType : OPDSJSONFeed.type, updated: updated)
        }
        guard let section = ShelfSection(path: rest, query: terms), let listing = try sections.listing(section, page: page) else { return nil }
        if top == "opds" {
            let type = section == .publications ? OPDSAtomFeed.navigationType : OPDSAtomFeed.acquisitionType
            return CatalogCache.Document(body: Data(OPDSAtomFeed(entries: entries).feed(listing, section: section).utf8), type: type, updated: listing.updated)
        }
        return CatalogCache.Document(body: try OPDSJSONFeed(entries: entries).feed(listing, section: section), type: OPDSJSONFeed.type, updated: listing.updated)
    }

    /// A catalog document with its `ETag` (of its bytes) and `Last-Modified`; 304 when the device has it already.
    func conditional(_ request: HTTPRequest, _ body: Data, type: String, updated: Date?, tag given: String? = nil) -> HTTPResponse {
        let tag = given ?? "\"" + String(Self.fnv1a(body), radix: 16) + "\""
        let charset = type.hasPrefix("image/") || type.contains("charset") ? "" : "; charset=utf-8"
        var headers: HTTPHeaders = [.eTag: tag, HTTPHeader("Cache-Control"): "no-cache"]
        if !type.isEmpty { headers[.contentType] = type + charset }
        if let updated, updated > .distantPast { headers[.lastModified] = HTTPDate.format(updated) }
        if Self.matches(request.headers[.ifNoneMatch], tag) || (request.headers[.ifNoneMatch] == nil && Self.unchanged(since: request.headers[.ifModifiedSince], updated)) {
            return HTTPResponse(statusCode: .notModified, headers: headers)
        }
        return HTTPResponse(statusCode: .ok, headers: headers, body: request.method == .HEAD ? Data() : body)
    }

    /// A file of the library, whole or the one byte range asked for, sent as the client reads it.
    func download(_ request: HTTPRequest, _ url: URL, type: String, counted: Bool = true) throws -> HTTPResponse {
        var info = stat()
        guard lstat(url.path, &info) == 0 else { return text(.notFound, "Not found.\n") }
        let size = Int(info.st_size)
        let tag = "\"\(info.st_ino)-\(size)-\(info.st_mtim.tv_sec)\""
        let modified = Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec))
        var headers: HTTPHeaders = [.contentType: type, .acceptRanges: "bytes", .eTag: tag, .lastModified: HTTPDate.format(modified)]
        if Self.matches(request.headers[.ifNoneMatch], tag) || (request.headers[.ifNoneMatch] == nil && Self.unchanged(since: request.headers[.ifModifiedSince], modified)) {
            return HTTPResponse(statusCode: .notModified, headers: headers)
        }
        var range = 0..<size
        var status = HTTPStatusCode.ok
        if let asked = request.headers[.range], request.headers[HTTPHeader("If-Range")].map({ $0 == tag }) ?? true {
            guard let wanted = ByteRange.parse(asked, size: size) else {
                headers[.contentRange] = "bytes */\(size)"
                return HTTPResponse(statusCode: .rangeNotSatisfiable, headers: headers)
            }
            range = wanted
            status = .partialContent
            headers[.contentRange] = "bytes \(wanted.lowerBound)-\(wanted.upperBound - 1)/\(size)"
        }
        if request.method == .HEAD {
            headers[.contentLength] = String(range.count)
            return HTTPResponse(statusCode: status, headers: headers)
        }
        let client = Self.client(request)
        var slot: DownloadSlots.Slot?
        if counted {
            guard let taken = slots.take(for: client) else {
                headers = [.contentType: "text/plain; charset=utf-8", HTTPHeader("Retry-After"): "5"]
                return HTTPResponse(statusCode: .tooManyRequests, headers: headers,
                                    body: Data("\(slots.perClient) downloads at once at most: wait for one to finish.\n".utf8))
            }
            slot = taken
        }
        let handle = try FileHandle(forReadingFrom: url)
        let socket = request.remoteAddress.flatMap(RequestWatch.key).flatMap(watch.descriptor(of:)).map { Socket(file: .init(rawValue: $0)) }
        let body = FileBody(handle: handle, range: range, slot: slot, to: socket.map { ($0, pool) })
        headers[.contentLength] = String(range.count)
        return HTTPResponse(statusCode: status, headers: headers,
                            body: HTTPBodySequence(from: body, count: range.count, suggestedBufferSize: 64 << 10))
    }

    func text(_ status: HTTPStatusCode, _ message: String) -> HTTPResponse {
        HTTPResponse(statusCode: status, headers: [.contentType: "text/plain; charset=utf-8"], body: Data(message.utf8))
    }

    /// A refusal after which the connection is closed: what the client sent beyond the headers is not read.
    func closing(_ status: HTTPStatusCode) -> HTTPResponse {
        HTTPResponse(statusCode: status, headers: [.contentType: "text/plain; charset=utf-8", .connection: "close"],
                     body: Data("\(status.phrase).\n".utf8))
    }

    /// The peer's address (never a header it sends about itself).
    static func client(_ request: HTTPRequest) -> String {
        switch request.remoteAddress {
        case .ip4(let host, _), .ip6(let host, _): host
        case .unix(let path): path
        case nil: "unknown"
        }
    }

    static func matches(_ ifNoneMatch: String?, _ tag: String) -> Bool {
        guard let ifNoneMatch else { return false }
        return ifNoneMatch.split(separator: ",").contains { let t = $0.trimmingCharacters(in: .whitespaces); return t == tag || t == "*" || t == "W/" + tag }
    }

    static func unchanged(since header: String?, _ updated: Date?) -> Bool {
        guard let header, let since = HTTPDate.parse(header), let updated, updated > .distantPast else { return false }
        return updated.timeIntervalSince1970.rounded(.down) <= since.timeIntervalSince1970
    }

    /// The request target as a log shows it: printable ASCII, at most 200 characters.
    static func printable(_ text: String) -> String {
        String(String(text.unicodeScalars.map { $0.isASCII && $0.value >= 0x21 && $0.value < 0x7F ? Character($0) : "?" }).prefix(200))
    }

    static func fnv1a(_ data: Data) -> UInt64 {
        data.reduce(0xcbf2_9ce4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
    }
}

/// One byte range of a `Range` header (`bytes=A-B`, `bytes=A-`, `bytes=-N`); several ranges are not served.
enum ByteRange {
    static func parse(_ header: String, size: Int) -> Range<Int>? {
        guard header.hasPrefix("bytes="), !header.contains(","), size > 0 else { return nil }
        let spec = header.dropFirst(6).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard spec.count == 2 else { return nil }
        let first = spec[0].trimmingCharacters(in: .whitespaces), last = spec[1].trimmingCharacters(in: .whitespaces)
        if first.isEmpty {
            guard let suffix = Int(last), suffix > 0 else { return nil }
            return max(0, size - suffix)..<size
        }
        guard let start = Int(first), start >= 0, start < size else { return nil }
        if last.isEmpty { return start..<size }
        guard let end = Int(last), end >= start else { return nil }
        return start..<min(end + 1, size)
    }
}
