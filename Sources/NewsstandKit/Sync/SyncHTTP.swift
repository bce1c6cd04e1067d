import Foundation
import Synchronization

/// One request to a sync server and its whole answer: sync servers are asked with PUT and
/// POST and answer small JSON bodies, which `HTTPAccess`'s streamed GETs do not cover.
struct SyncRequest: Sendable {
    var method: String
    var url: URL
    var headers: [String: String]
    var body: Data?
}

struct SyncResponse: Sendable {
    var status: Int
    var body: Data
    /// The answer's fields, names in lower case (a 401's `www-authenticate`).
    var headers: [String: String] = [:]
}

/// How sync reaches its servers; a server that cannot be reached throws `SyncError.unreachable`.
protocol SyncTransport: Sendable {
    func send(_ request: SyncRequest) throws -> SyncResponse
}

extension HTTPAccess {
    /// The transport sync uses beside this access: the project's own clients (sockets for
    /// http, with its connections kept alive between requests, since a thousand places to one
    /// server are two thousand requests; libcurl for https).
    static func syncTransport(timeout: TimeInterval = 15) -> any SyncTransport { ClientSyncTransport(timeout: timeout) }
}

/// Requests through `SocketHTTPClient` or `CurlHTTPClient` by scheme, waited for: sync runs
/// off any key's path (an effect, a command, the agent), so blocking its own thread is what it wants.
struct ClientSyncTransport: SyncTransport {
    /// A sync server's answers are small JSON documents.
    static let answerLimit = 1 << 20
    let timeout: TimeInterval
    private let sockets = SocketHTTPClient(connections: SocketConnections())

    init(timeout: TimeInterval) { self.timeout = timeout }

    func send(_ request: SyncRequest) throws -> SyncResponse {
        let client: any HTTPExchanging = request.url.scheme?.lowercased() == "https" ? CurlHTTPClient() : sockets
        do {
            let answer = try client.exchange(method: request.method, url: request.url, headers: request.headers.sorted { $0.key < $1.key },
                                             body: request.body, timeout: timeout, limit: Self.answerLimit)
            return SyncResponse(status: answer.head.status, body: answer.body, headers: answer.head.headers)
        } catch let error as TransferError {
            throw SyncError.unreachable(server: request.url.host ?? request.url.absoluteString, reason: error.message)
        }
    }
}

/// A server's sign-in, kept across the requests of one sync (its workers share it, so one
/// challenge answered signs them all in): Basic or Bearer sent with the first request when
/// `sendFirst` (a catalog lets anyone in and keeps a place apart for a request without it),
/// Digest (or Basic) answered when the server challenges, a stale nonce renewed. The answer
/// is the server's: a 401 still when it refused the credentials, or there were none.
final class SyncSignIn: Sendable {
    private let credentials: Credentials?
    /// The field's maker, and whether it answers this server's challenge.
    private let state: Mutex<(authorization: HTTPAuthorization?, answered: Bool)>

    init(credentials: Credentials?, sendFirst: Bool) {
        self.credentials = credentials
        let first = sendFirst ? credentials.flatMap { HTTPAuthorization(credentials: $0, challenges: []) } : nil
        state = Mutex((first, false))
    }

    func send(_ request: SyncRequest, through transport: any SyncTransport) throws -> SyncResponse {
        let target = HTTPAuthorization.requestTarget(of: request.url)
        var response = SyncResponse(status: 401, body: Data())
        for _ in 0..<3 {
            var signed = request
            let (field, answered) = state.withLock { state -> (String?, Bool) in
                guard var authorization = state.authorization else { return (nil, state.answered) }
                let field = authorization.header(method: request.method, uri: target)
                state.authorization = authorization  // its nonce count moved on
                return (field, state.answered)
            }
            if let field { signed.headers["Authorization"] = field }
            response = try transport.send(signed)
            guard response.status == 401, let credentials else { return response }
            let challenges = HTTPChallenge.parse(response.headers["www-authenticate"] ?? "")
            let stale = challenges.compactMap(DigestChallenge.init).contains { $0.stale }
            // The password answered the server's own challenge and was refused, not merely an old nonce.
            if field != nil && answered && !stale { return response }
            guard let fresh = HTTPAuthorization(credentials: credentials, challenges: challenges) else { return response }
            state.withLock { $0 = (fresh, true) }
        }
        return response
    }
}

/// Why a sync did not happen, as one sentence.
public enum SyncError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The server did not answer: the change waits in the queue.
    case unreachable(server: String, reason: String)
    /// The server refused the user name or password: said once, until they change.
    case refused(target: String)
    /// The server answered something else.
    case server(target: String, status: Int, message: String)
    /// No sync target of that name.
    case noSuchTarget(String)
    case invalid(String)

    public var description: String {
        switch self {
        case .unreachable(let server, let reason): "the sync server \(server) could not be reached (\(reason)); places wait and are sent when it answers"
        case .refused(let target): "the sync server \(target) refused the user name or password; add it again with the right ones (newsstand sync add)"
        case .server(let target, let status, let message): "the sync server \(target) answered \(status): \(message)"
        case .noSuchTarget(let name): "no sync server is named \(name) (newsstand sync list shows them)"
        case .invalid(let message): message
        }
    }
}
