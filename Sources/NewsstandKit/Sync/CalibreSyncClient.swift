import Feeds
import Foundation
import Synchronization

/// A book on calibre's content server: its library, its id there and the format read.
/// Kept in `syncPlace.document` as `library/id/FORMAT`.
struct CalibreBook: Sendable, Equatable {
    var library: String
    var id: Int
    /// Upper case, as calibre keeps formats ("EPUB").
    var format: String

    var document: String { "\(library)/\(id)/\(format)" }

    init(library: String, id: Int, format: String) {
        (self.library, self.id, self.format) = (library, id, format.uppercased())
    }

    init?(document: String) {
        let parts = document.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, !parts[0].isEmpty, let id = Int(parts[1]), !parts[2].isEmpty else { return nil }
        self.init(library: parts[0], id: id, format: parts[2])
    }

    /// The book an acquisition link of `server`'s catalog fetches: calibre's OPDS links each
    /// format as `/get/{fmt}/{book_id}/{library_id}` (after the server's URL prefix, if any).
    /// Nil for a link of another server or of another shape.
    init?(acquisition link: URL, on server: URL) {
        guard link.host?.lowercased() == server.host?.lowercased(), link.port == server.port,
              link.scheme?.lowercased() == server.scheme?.lowercased() else { return nil }
        let parts = URLComponents(url: link, resolvingAgainstBaseURL: false)?.percentEncodedPath.split(separator: "/").map(String.init) ?? []
        guard let get = parts.lastIndex(of: "get"), parts.count >= get + 4,
              let id = Int(parts[get + 2]), !["cover", "thumb", "opf", "json"].contains(parts[get + 1].lowercased()) else { return nil }
        self.init(library: parts[get + 3], id: id, format: parts[get + 1])
    }
}

/// calibre's content server on the wire, as its viewer speaks it (src/calibre/srv/books.py):
/// the places each reader left (`last_read_positions`) and the annotations (`annotations_map`)
/// read together, a place set, annotations merged. Signed in with HTTP Digest (or Basic) as
/// the server asks; a user name and password the server refuses are `SyncError.refused`.
final class CalibreContentServer: Sendable {
    let server: URL
    /// The target's name, for messages.
    let name: String
    let transport: any SyncTransport
    /// Digest as calibre asks it, answered once for all the workers of one sync.
    private let signIn: SyncSignIn

    init(server: URL, user: String?, password: String?, name: String, transport: any SyncTransport) {
        (self.server, self.name, self.transport) = (server, name, transport)
        signIn = SyncSignIn(credentials: user.flatMap { user in password.map { .basic(user: user, password: $0) } }, sendFirst: false)
    }

    /// One reader's last place in a book: calibre's `device`, an EPUB CFI, the share of the
    /// book read, and when (seconds since 1970, the server's clock).
    struct Position: Codable, Sendable, Equatable {
        var device: String
        var cfi: String?
        var epoch: Double
        var pos_frac: Double
    }

    /// A highlight as calibre's viewer keeps one (`annotations_map["highlight"]`): its CFIs
    /// inside the spine item (from the document node: `/2`, the root element, first), the
    /// item, the words, the note, when it was last changed (ISO 8601 UTC) and its style; a
    /// deleted one is kept with `removed` and no words.
    struct Highlight: Codable, Sendable, Equatable {
        var type = "highlight"
        var uuid: String
        var timestamp: String
        var start_cfi: String?
        var end_cfi: String?
        var spine_index: Int?
        var spine_name: String?
        var highlighted_text: String?
        var notes: String?
        var style: [String: String]?
        var toc_family_titles: [String]?
        var removed: Bool?
    }

    struct Annotations: Sendable {
        var positions: [Position]
        var highlights: [Highlight]
    }

    /// Checks the user name and password (`/ajax/library-info` asks for them when the server does).
    func authorize() throws {
        let response = try send("GET", "/ajax/library-info")
        guard response.status == 200 else { throw failure(response) }
    }

    /// The places and highlights the server keeps for `book` and this user.
    func annotations(of book: CalibreBook) throws -> Annotations {
        try annotations(of: [book])[book.document] ?? Annotations(positions: [], highlights: [])
    }

    /// The places and highlights of several books of one library in one request (calibre
    /// takes `id-FMT_id-FMT…`), by `CalibreBook.document`; a book the server does not let
    /// this user see is left out.
    func annotations(of books: [CalibreBook]) throws -> [String: Annotations] {
        guard let library = books.first?.library else { return [:] }
        let which = books.map { "\($0.id)-\($0.format)" }.joined(separator: "_")
        let response = try send("GET", "/book-get-annotations/\(library)/\(which)")
        guard response.status == 200 else { throw failure(response) }
        let whole = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:]
        var found: [String: Annotations] = [:]
        for book in books {
            guard let entry = whole["\(book.id):\(book.format)"] as? [String: Any] else { continue }
            found[book.document] = Annotations(positions: Self.decoded(entry["last_read_positions"] as? [Any]),
                                               highlights: Self.decoded((entry["annotations_map"] as? [String: Any])?["highlight"] as? [Any]))
        }
        return found
    }

    /// Keeps `cfi` and `fraction` as `device`'s place in `book` (calibre dates it itself; it
    /// forgets the place when the CFI is empty, so there always is one).
    func setPosition(of book: CalibreBook, device: String, cfi: String, fraction: Double) throws {
        let body = try JSONSerialization.data(withJSONObject: ["device": device, "cfi": cfi, "pos_frac": fraction] as [String: Any])
        let response = try send("POST", "/book-set-last-read-position/\(book.library)/\(book.id)/\(book.format)", body: body)
        guard response.status == 200 else { throw failure(response) }
    }

    /// Merges `highlights` (calibre's shape) into the book's: calibre keeps, per `uuid`, the
    /// one with the newer `timestamp`, and a `removed` one stays removed.
    func updateAnnotations(of book: CalibreBook, highlights: [Highlight]) throws {
        let body = try JSONEncoder().encode(["highlight": highlights])
        let response = try send("POST", "/book-update-annotations/\(book.library)/\(book.id)/\(book.format)", body: body)
        guard response.status == 200 else { throw failure(response) }
    }

    /// A book of the server's library as its `/ajax/books` tells it: calibre's id and uuid,
    /// its identifiers (`isbn` → value) and its formats (upper case).
    struct Entry: Sendable, Equatable {
        var id: Int
        var uuid: String?
        var identifiers: [String: String]
        var formats: [String]
    }

    /// The libraries the server serves, its default first (`/ajax/library-info`).
    func libraries() throws -> [String] {
        let response = try send("GET", "/ajax/library-info")
        guard response.status == 200 else { throw failure(response) }
        let info = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:]
        let all = ((info["library_map"] as? [String: Any]) ?? [:]).keys.sorted()
        let main = info["default_library"] as? String
        return (main.map { [$0] } ?? []) + all.filter { $0 != main }
    }

    /// The books of `library` with these calibre uuids (calibre looks each up, `id_is_uuid`);
    /// a uuid it does not know is left out.
    func books(uuids: [String], in library: String) throws -> [Entry] {
        guard !uuids.isEmpty else { return [] }
        return try books(query: "ids=\(uuids.joined(separator: ",").percentEncodedUnreserved)&id_is_uuid=true", in: library)
    }

    /// The books of `library` with these ids.
    func books(ids: [Int], in library: String) throws -> [Entry] {
        guard !ids.isEmpty else { return [] }
        return try books(query: "ids=\(ids.map(String.init).joined(separator: ","))", in: library)
    }

    /// The ids of the books of `library` that calibre's search language finds (`/ajax/search`).
    func search(_ query: String, in library: String, limit: Int) throws -> [Int] {
        let response = try send("GET", "/ajax/search/\(library.percentEncodedUnreserved)?num=\(limit)&query=\(query.percentEncodedUnreserved)")
        guard response.status == 200 else { throw failure(response) }
        let found = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:]
        return (found["book_ids"] as? [Any] ?? []).compactMap { ($0 as? NSNumber)?.intValue }
    }

    private func books(query: String, in library: String) throws -> [Entry] {
        let response = try send("GET", "/ajax/books/\(library.percentEncodedUnreserved)?\(query)&category_urls=false")
        guard response.status == 200 else { throw failure(response) }
        let found = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:]
        return found.compactMap { key, value -> Entry? in
            // A book this user may not see is null.
            guard let id = Int(key), let book = value as? [String: Any] else { return nil }
            let identifiers = (book["identifiers"] as? [String: Any] ?? [:]).compactMapValues { $0 as? String }
            return Entry(id: id, uuid: book["uuid"] as? String, identifiers: identifiers,
                         formats: (book["formats"] as? [String] ?? []).map { $0.uppercased() })
        }.sorted { $0.id < $1.id }
    }

    /// The items of a list that read as `T`; calibre's other kinds and shapes are left out.
    private static func decoded<T: Decodable>(_ items: [Any]?) -> [T] {
        (items ?? []).compactMap { item in
            (try? JSONSerialization.data(withJSONObject: item)).flatMap { try? JSONDecoder().decode(T.self, from: $0) }
        }
    }

    private func send(_ method: String, _ path: String, body: Data? = nil) throws -> SyncResponse {
        let url = URL(string: server.absoluteString.trimmingSuffix("/") + path) ?? server
        var headers = ["Accept": "application/json"]
        if body != nil { headers["Content-Type"] = "application/json" }
        let response = try signIn.send(SyncRequest(method: method, url: url, headers: headers, body: body), through: transport)
        // Refused, said once (a password sent and refused, not merely an old nonce).
        if response.status == 401 { throw SyncError.refused(target: name) }
        return response
    }

    private func failure(_ response: SyncResponse) -> SyncError {
        if response.status == 401 { return .refused(target: name) }
        return .server(target: name, status: response.status, message: FeedText.line(String(decoding: response.body.prefix(200), as: UTF8.self)) ?? "")
    }
}
