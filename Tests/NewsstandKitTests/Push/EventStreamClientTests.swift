import Foundation
import TestSupport
import Testing
@testable import NewsstandKit

/// Events collected from the client's thread.
// @unchecked: `events` is read and written only under `lock`.
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [ServerSentEvent] = []
    var all: [ServerSentEvent] { lock.withLock { events } }
    func add(_ event: ServerSentEvent) { lock.withLock { events.append(event) } }

    func waitFor(count: Int, timeout: TimeInterval = 30) -> [ServerSentEvent] {
        waitUntil(timeout: timeout) { all.count >= count }
        return all
    }
}

@Suite struct EventStreamClientTests {
    @Test func reconnectsWithLastEventIDAndMissesNothing() throws {
        let server = try FeedTestServer()
        defer { server.stop() }
        // `retry: 50` makes the client come back quickly; each connection carries one event.
        for n in 1...3 { try server.appendEvent("push.sse", "retry: 50\nid: e\(n)\ndata: {\"n\":\(n)}") }
        let log = EventLog()
        var options = EventStreamClient.Options()
        options.reconnectionTime = 0.05
        let client = EventStreamClient(url: server.url("push.sse?per_connection=1"), options: options, onEvent: log.add)
        Thread.detachNewThread { client.run() }
        defer { client.stop() }

        let got = log.waitFor(count: 3)
        #expect(got.map(\.data) == [#"{"n":1}"#, #"{"n":2}"#, #"{"n":3}"#])
        #expect(got.map(\.lastEventID) == ["e1", "e2", "e3"])
        let requests = server.requests(path: "push.sse", atLeast: 4)
        #expect(requests.prefix(4).map(\.last_event_id) == [nil, "e1", "e2", "e3"])
        #expect(requests.allSatisfy { $0.accept == "text/event-stream" })

        // An event appended later arrives on the open connection, once.
        try server.appendEvent("push.sse", "id: e4\ndata: {\"n\":4}")
        #expect(log.waitFor(count: 4).last?.lastEventID == "e4")
        // That connection closed after it too: once the client is back with e4, still four.
        #expect(!server.requests(where: { $0.path == "/push.sse" && $0.last_event_id == "e4" }, atLeast: 1).isEmpty)
        #expect(log.all.count == 4)
        #expect(client.lastEventID == "e4")
    }

    @Test func startsFromAStoredLastEventID() throws {
        let server = try FeedTestServer()
        defer { server.stop() }
        for n in 1...3 { try server.appendEvent("stored.sse", "id: \(n)\ndata: \(n)") }
        let log = EventLog()
        let client = EventStreamClient(url: server.url("stored.sse"), lastEventID: "2", onEvent: log.add)
        Thread.detachNewThread { client.run() }
        defer { client.stop() }
        #expect(log.waitFor(count: 1).map(\.data) == ["3"])
        #expect(server.requests(path: "stored.sse", atLeast: 1).first?.last_event_id == "2")
    }

    @Test func failuresBackOffAndAStreamThatDeliversResetsTheWait() {
        var options = EventStreamClient.Options()
        options.reconnectionTime = 2
        options.maximumDelay = 60
        let client = EventStreamClient(url: URL(string: "http://127.0.0.1:9/")!, options: options, onEvent: { _ in })
        #expect(client.delay(afterFailuresInARow: 0) == 2)
        #expect(client.delay(afterFailuresInARow: 1) == 2)
        #expect(client.delay(afterFailuresInARow: 2) == 4)
        #expect(client.delay(afterFailuresInARow: 4) == 16)
        #expect(client.delay(afterFailuresInARow: 40) == 60)
    }

    @Test func aRefusedConnectionIsRetriedUntilStopped() throws {
        let server = try FeedTestServer()
        defer { server.stop() }
        let problems = EventLog()
        var options = EventStreamClient.Options()
        options.reconnectionTime = 0.02
        options.maximumDelay = 0.05
        let client = EventStreamClient(url: server.url("status/503"), options: options, onEvent: { _ in },
                                       onProblem: { problems.add(ServerSentEvent(data: $0)) })
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread { client.run(); done.signal() }
        #expect(problems.waitFor(count: 3).count >= 3)
        client.stop()
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(problems.all.first?.data.contains("503") == true)
        #expect(client.connections >= 3)
    }

    @Test func theServerEnds204AndTheClientStops() throws {
        let server = try FeedTestServer()
        defer { server.stop() }
        let client = EventStreamClient(url: server.url("status/204"), onEvent: { _ in })
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread { client.run(); done.signal() }
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(client.connections == 1)
    }
}
