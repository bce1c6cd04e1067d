import Foundation
import Synchronization

/// The in-memory driver of the HTTP seam: answers from a table of URLs and keeps every
/// request, so a unit test of a service sees what was sent without a socket.
final class MemoryHTTPClient: HTTPFetching {
    struct Response: Sendable {
        var status: Int
        var headers: [String: String]
        var body: Data
        /// When set, a request without exactly this `Authorization` is answered 401.
        var requiredCredentials: Credentials?
    }

    struct Request: Sendable {
        var url: URL
        var headers: [(String, String)]
        func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
    }

    private let state = Mutex<(responses: [String: Response], requests: [Request])>(([:], []))

    init() {}

    func serve(_ url: URL, status: Int = 200, headers: [String: String] = [:], body: Data, requiring credentials: Credentials? = nil) {
        state.withLock { $0.responses[url.absoluteString] = Response(status: status, headers: headers, body: body, requiredCredentials: credentials) }
    }

    /// Every request so far, oldest first.
    var requests: [Request] { state.withLock { $0.requests } }

    func fetch(url: URL, headers: [(String, String)], timeout: TimeInterval, cancellation: Cancellation, splice: SpliceTarget?,
               onHead: @escaping (HTTPResponseHead) throws -> BodyDecision,
               onBody: @escaping (UnsafeRawBufferPointer) throws -> Void) throws {
        try cancellation.check()
        let request = Request(url: url, headers: headers)
        let found = state.withLock { state -> Response? in
            state.requests.append(request)
            return state.responses[url.absoluteString]
        }
        var response = found ?? Response(status: 404, headers: [:], body: Data())
        if let required = response.requiredCredentials, request.header("Authorization") != required.authorizationHeader {
            response = Response(status: 401, headers: ["www-authenticate": "Basic realm=\"memory\""], body: Data())
        }
        var head = response.headers.reduce(into: [String: String]()) { $0[$1.key.lowercased()] = $1.value }
        head["content-length"] = "\(response.body.count)"
        guard try onHead(HTTPResponseHead(status: response.status, headers: head)) == .read else { return }
        try response.body.withUnsafeBytes { try onBody($0) }
    }
}
