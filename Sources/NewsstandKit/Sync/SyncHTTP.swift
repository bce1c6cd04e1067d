import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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
}

/// How sync reaches its servers; a server that cannot be reached throws `SyncError.unreachable`.
protocol SyncTransport: Sendable {
    func send(_ request: SyncRequest) throws -> SyncResponse
}

extension HTTPAccess {
    /// The transport sync uses beside this access: one URLSession whose connections are
    /// kept alive between requests (a thousand places to one server are a thousand requests).
    static func syncTransport(timeout: TimeInterval = 15) -> any SyncTransport { URLSessionSyncTransport(timeout: timeout) }
}

/// Requests through one ephemeral URLSession, waited for: sync runs off any key's path
/// (an effect, a command, the agent), so blocking its own thread is what it wants.
final class URLSessionSyncTransport: SyncTransport {
    private let session: URLSession
    private let timeout: TimeInterval

    init(timeout: TimeInterval) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpMaximumConnectionsPerHost = 8
        session = URLSession(configuration: configuration)
        self.timeout = timeout
    }

    deinit { session.invalidateAndCancel() }

    func send(_ request: SyncRequest) throws -> SyncResponse {
        var urlRequest = URLRequest(url: request.url, cachePolicy: .reloadIgnoringLocalAndRemoteCacheData, timeoutInterval: timeout)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body
        let done = DispatchSemaphore(value: 0)
        let result = Box()
        let task = session.dataTask(with: urlRequest) { data, response, error in
            result.set(data: data, response: response as? HTTPURLResponse, error: error)
            done.signal()
        }
        task.resume()
        done.wait()
        let (data, response, error) = result.get()
        guard let response else {
            throw SyncError.unreachable(server: request.url.host ?? request.url.absoluteString,
                                        reason: error?.localizedDescription ?? "no answer")
        }
        return SyncResponse(status: response.statusCode, body: data ?? Data())
    }

    // @unchecked: written once by the task's handler before `done` is signalled, read after.
    private final class Box: @unchecked Sendable {
        private var value: (Data?, HTTPURLResponse?, Error?) = (nil, nil, nil)
        func set(data: Data?, response: HTTPURLResponse?, error: Error?) { value = (data, response, error) }
        func get() -> (Data?, HTTPURLResponse?, Error?) { value }
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
