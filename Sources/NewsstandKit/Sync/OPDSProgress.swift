import Feeds
import Foundation
import Synchronization

/// The place a catalog keeps for a book, as OPDS servers keep it without being added with
/// `sync add`: an OPDS 2 progression link (Cantook's API, which Codex and Komga serve: a
/// Readium locator read with GET and written with PUT, `application/vnd.readium.progression+json`),
/// and OPDS-PSE 1.2, whose `pse:lastRead` a server moves from the pages asked for (Codex's
/// stream links carry `bookmark=1` for that), so asking for the page read is how it is told.
/// Requests go through sync's `SyncTransport`, with the catalog's sign-in (`SyncSignIn`: Basic
/// or a token sent at once, Digest answered) when the user signed in to it.
public struct OPDSProgress: Sendable {
    /// A place on the server: a Readium locator's locations and when it was set.
    public struct Place: Sendable, Equatable {
        /// The page, from 1 (`locations.position`; Codex keeps a comic's page so).
        public var position: Int?
        /// How far through the whole book, 0 to 1 (`locations.totalProgression`).
        public var totalProgression: Double?
        /// When the place was set, as the server says (`modified`).
        public var modified: Date?
        /// The device that set it, when the server names one.
        public var device: String?

        public init(position: Int? = nil, totalProgression: Double? = nil, modified: Date? = nil, device: String? = nil) {
            (self.position, self.totalProgression, self.modified, self.device) = (position, totalProgression, modified, device)
        }
    }

    /// What a write came to.
    public enum Written: Sendable, Equatable {
        case written
        /// The server keeps a newer place (409): the newest by its time wins, so ours is not pushed.
        case serverIsNewer
    }

    static let mediaType = "application/vnd.readium.progression+json"

    let transport: any SyncTransport
    let credentials: @Sendable (URL) -> Credentials?
    private let signIns = SignIns()

    init(transport: any SyncTransport, credentials: @escaping @Sendable (URL) -> Credentials?) {
        (self.transport, self.credentials) = (transport, credentials)
    }

    /// Over the library's transport and the catalogs' sign-ins (the credential store, by host).
    public init(paths: Paths) {
        let store = CredentialStore(paths: paths)
        self.init(transport: HTTPAccess.syncTransport(), credentials: { try? store.credentials(for: $0) })
    }

    // MARK: OPDS 2 progression

    /// The place kept at a progression link; nil when none was set (204, or 404).
    public func read(_ url: URL) throws -> Place? {
        let answer = try send(SyncRequest(method: "GET", url: url, headers: ["Accept": "\(Self.mediaType), application/json"], body: nil))
        switch answer.status {
        case 204, 404: return nil
        case 200..<300: return try Self.decode(answer.body, from: url)
        default: throw Self.failure(answer, url)
        }
    }

    /// Sends our place to a progression link, dated `modified` (the server refuses it, 409,
    /// when it keeps a newer one).
    @discardableResult
    public func write(_ place: Place, to url: URL, device: (id: String, name: String)) throws -> Written {
        let answer = try send(SyncRequest(method: "PUT", url: url,
                                          headers: ["Content-Type": Self.mediaType, "Accept": "\(Self.mediaType), application/json"],
                                          body: Self.encode(place, device: device)))
        switch answer.status {
        case 200..<300: return .written
        case 409: return .serverIsNewer
        default: throw Self.failure(answer, url)
        }
    }

    // MARK: OPDS-PSE

    /// Tells a PSE server that `page` (from 0) is the one read, by asking for it at the
    /// stream's address, as the server's own reader does; a template without a way to be
    /// told (most servers) is asked nothing. The answer (the page's picture) is dropped.
    public func tell(_ stream: PageStream, page: Int, maxWidth: Int = 1) throws {
        guard Self.streamKeepsPlace(stream), let url = stream.url(page: page, maxWidth: maxWidth) else { return }
        let answer = try send(SyncRequest(method: "GET", url: url, headers: ["Accept": stream.type ?? "image/*"], body: nil))
        guard (200..<300).contains(answer.status) else { throw Self.failure(answer, url) }
    }

    /// Whether asking for a page moves the server's `lastRead`: Codex's stream template
    /// says so with `bookmark=1` (a truthy `bookmark` query item).
    public static func streamKeepsPlace(_ stream: PageStream) -> Bool {
        let query = stream.template.split(separator: "?", maxSplits: 1).dropFirst().first ?? ""
        return query.split(separator: "&").contains { item in
            let pair = item.split(separator: "=", maxSplits: 1)
            guard pair.first?.lowercased() == "bookmark" else { return false }
            return !["", "0", "false", "no"].contains(pair.count > 1 ? pair[1].lowercased() : "")
        }
    }

    // MARK: Wire

    private func send(_ request: SyncRequest) throws -> SyncResponse {
        try signIns.signIn(for: request.url, credentials: credentials).send(request, through: transport)
    }

    /// Each catalog server's sign-in, kept for this value's requests. The sign-in goes with
    /// every request, not only after a 401: Codex lets anyone in and keeps a place apart for a
    /// request without it; a server that asks for Digest is answered.
    final class SignIns: Sendable {
        private let byServer = Mutex<[String: SyncSignIn]>([:])

        func signIn(for url: URL, credentials: (URL) -> Credentials?) -> SyncSignIn {
            let server = "\(url.scheme?.lowercased() ?? "")://\(url.host?.lowercased() ?? ""):\(url.port ?? -1)"
            if let known = byServer.withLock({ $0[server] }) { return known }
            let made = SyncSignIn(credentials: credentials(url), sendFirst: true)
            return byServer.withLock { known in
                if let first = known[server] { return first }  // made meanwhile by another worker
                known[server] = made
                return made
            }
        }
    }

    static func failure(_ answer: SyncResponse, _ url: URL) -> SyncError {
        let server = url.host ?? url.absoluteString
        if answer.status == 401 || answer.status == 403 { return .refused(target: server) }
        let message = String(decoding: answer.body.prefix(200), as: UTF8.self)
        return .server(target: server, status: answer.status, message: FeedText.line(message) ?? "")
    }

    static func decode(_ body: Data, from url: URL) throws -> Place {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            throw SyncError.server(target: url.host ?? url.absoluteString, status: 200, message: "the progression is not a JSON object")
        }
        let locator = object["locator"] as? [String: Any] ?? [:]
        let locations = locator["locations"] as? [String: Any] ?? [:]
        // Readium spells it totalProgression; Codex (a camel-case renderer over snake_case) too.
        let total = (locations["totalProgression"] ?? locations["total_progression"] ?? locations["progression"]) as? NSNumber
        let device = (object["device"] as? [String: Any])?["name"] as? String
        return Place(position: (locations["position"] as? NSNumber)?.intValue,
                     totalProgression: total.map { min(1, max(0, $0.doubleValue)) },
                     modified: (object["modified"] as? String).flatMap(ISOTime.date),
                     device: FeedText.line(device))
    }

    static func encode(_ place: Place, device: (id: String, name: String)) -> Data {
        var locations: [String: Any] = [:]
        if let position = place.position { locations["position"] = max(1, position) }
        if let total = place.totalProgression {
            locations["totalProgression"] = min(1, max(0, total))
            locations["progression"] = min(1, max(0, total))
        }
        var object: [String: Any] = ["device": ["id": device.id, "name": device.name], "locator": ["locations": locations]]
        if let modified = place.modified { object["modified"] = ISOTime.string(modified) }
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
    }
}
