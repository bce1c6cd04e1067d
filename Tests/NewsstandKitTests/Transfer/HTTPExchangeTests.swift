import Foundation
import Testing
import TestSupport
@testable import NewsstandKit

/// What sync asks of the clients beside streamed GETs: a PUT or POST with a body, its whole
/// small answer, and (over http) one connection kept for the next request.
@Suite("HTTP exchanges: PUT and POST with a body through both clients")
struct HTTPExchangeTests {
    struct Echo: Decodable {
        var method: String
        var path: String
        var body: String
        var content_type: String?
        var port: Int
    }

    private func echo(_ client: any HTTPExchanging, _ method: String, _ url: URL, body: String) throws -> (status: Int, echo: Echo) {
        let answer = try client.exchange(method: method, url: url, headers: [("Content-Type", "application/json")],
                                         body: Data(body.utf8), timeout: 10, limit: 4096)
        return (answer.head.status, try JSONDecoder().decode(Echo.self, from: answer.body))
    }

    @Test("http: PUT and POST reach a 127.0.0.1 server with their bodies, on one kept connection")
    func socketsSendBodies() throws {
        let server = try TestHTTPServer.shared()
        let client = SocketHTTPClient(connections: SocketConnections())
        let put = try echo(client, "PUT", server.url("/syncs/progress"), body: #"{"document":"abc","percentage":0.5}"#)
        #expect(put.status == 200)
        #expect(put.echo.method == "PUT")
        #expect(put.echo.path == "/syncs/progress")
        #expect(put.echo.body == #"{"document":"abc","percentage":0.5}"#)
        #expect(put.echo.content_type == "application/json")
        let post = try echo(client, "POST", server.url("/users/create"), body: "é")
        #expect(post.status == 201)
        #expect(post.echo.method == "POST")
        #expect(post.echo.body == "é")
        #expect(post.echo.port == put.echo.port, "the second request reuses the first one's connection")

        // Without kept connections every request has its own.
        let closing = SocketHTTPClient()
        let first = try echo(closing, "PUT", server.url("/a"), body: "1")
        let second = try echo(closing, "PUT", server.url("/a"), body: "2")
        #expect(first.echo.port != second.echo.port)
        #expect(second.echo.body == "2")
    }

    @Test("a kept connection whose server takes the request and never answers is not asked again: one wait, one PUT")
    func aSilentKeptConnectionIsNotRetried() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-stall-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Servers/stalling_server.py")
        let server = try ChildServer(python: script.path, [directory.path], name: "stalling")
        defer { server.stop() }
        let client = SocketHTTPClient(connections: SocketConnections())
        let url = URL(string: "http://127.0.0.1:\(server.port)/syncs/progress")!
        let first = try client.exchange(method: "PUT", url: url, headers: [], body: Data("1".utf8), timeout: 10, limit: 100)
        #expect(first.head.status == 200)
        let started = Date()
        #expect(throws: TransferError.self) {
            try client.exchange(method: "PUT", url: url, headers: [], body: Data("2".utf8), timeout: 1, limit: 100)
        }
        #expect(Date().timeIntervalSince(started) < 1.9, "one timeout's wait, not two")
        let requests = { (try? String(contentsOf: directory.appendingPathComponent("requests.txt"), encoding: .utf8)) ?? "" }
        #expect(requests() == "2", "the second PUT was sent once: \(requests())")
    }

    @Test("an answer longer than the limit is refused")
    func limit() throws {
        let server = try TestHTTPServer.shared()
        #expect(throws: TransferError.self) {
            _ = try SocketHTTPClient().exchange(method: "PUT", url: server.url("/long"), headers: [], body: Data(repeating: 65, count: 100),
                                                timeout: 10, limit: 50)
        }
    }

    @Test("https: PUT and POST go through libcurl to the TLS test server with their bodies")
    func curlSendsBodies() throws {
        let scratch = try Scratch()
        let tls = try TestHTTPServer.startTLS()
        defer { tls.stop() }
        let client = try tls.trustingCurl(in: scratch)
        let put = try echo(client, "PUT", URL(string: "https://127.0.0.1:\(tls.port)/syncs/progress")!, body: #"{"progress":"/body/DocFragment[3]"}"#)
        #expect(put.status == 200)
        #expect(put.echo.method == "PUT")
        #expect(put.echo.body == #"{"progress":"/body/DocFragment[3]"}"#)
        #expect(put.echo.content_type == "application/json")
        let post = try echo(client, "POST", URL(string: "https://127.0.0.1:\(tls.port)/users/create")!, body: "")
        #expect(post.status == 201)
        #expect(post.echo.method == "POST")
        #expect(post.echo.body == "")
    }
}
