import Foundation

/// A KOReader sync server, asked as KOReader asks it (`KOSyncWire`): sign up or sign in,
/// send a place, read the place kept for a document.
struct KOSyncClient: Sendable {
    var server: URL
    var user: String
    /// The MD5 of the password (`KOSyncWire.userKey`).
    var key: String
    /// The target's name, for messages.
    var name: String
    var transport: any SyncTransport

    /// Signs up `user`; an account already there is signed in to instead, so adding a
    /// server one already uses from KOReader works the same as a new one.
    func register() throws {
        let body = try JSONEncoder().encode(KOSyncWire.CreateUser(username: user, password: key))
        let response = try send("POST", KOSyncWire.Path.createUser, body: body, signed: false)
        switch response.status {
        case 201: return
        case 402: try authorize()
        default: throw failure(response)
        }
    }

    /// Checks the user name and key.
    func authorize() throws {
        let response = try send("GET", KOSyncWire.Path.auth)
        guard response.status == 200 else { throw failure(response) }
    }

    /// Sends a place; answers the server's time for it (seconds since 1970).
    @discardableResult
    func push(_ progress: KOSyncWire.Progress) throws -> Int64? {
        let response = try send("PUT", KOSyncWire.Path.progress, body: try JSONEncoder().encode(progress))
        guard response.status == 200 else { throw failure(response) }
        return (try? JSONDecoder().decode(KOSyncWire.Updated.self, from: response.body))?.timestamp
    }

    /// The place kept for `document`, or nil when the server keeps none.
    func pull(document: String) throws -> KOSyncWire.Progress? {
        let response = try send("GET", KOSyncWire.Path.progress(of: document))
        guard response.status == 200 else { throw failure(response) }
        guard let progress = try? JSONDecoder().decode(KOSyncWire.Progress.self, from: response.body), !progress.isEmpty else { return nil }
        return progress
    }

    private func send(_ method: String, _ path: String, body: Data? = nil, signed: Bool = true) throws -> SyncResponse {
        var headers = ["Accept": KOSyncWire.accept]
        if body != nil { headers["Content-Type"] = "application/json" }
        if signed { headers[KOSyncWire.userHeader] = user; headers[KOSyncWire.keyHeader] = key }
        let url = URL(string: server.absoluteString.trimmingSuffix("/") + path) ?? server
        return try transport.send(SyncRequest(method: method, url: url, headers: headers, body: body))
    }

    private func failure(_ response: SyncResponse) -> SyncError {
        if response.status == 401 { return .refused(target: name) }
        let message = (try? JSONDecoder().decode(KOSyncWire.Failure.self, from: response.body))?.message
            ?? String(decoding: response.body.prefix(200), as: UTF8.self)
        return .server(target: name, status: response.status, message: message)
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        var text = self
        while text.hasSuffix(suffix) { text.removeLast(suffix.count) }
        return text
    }
}
