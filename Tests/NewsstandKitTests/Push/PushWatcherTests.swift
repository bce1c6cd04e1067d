import Foundation
import Testing
@testable import NewsstandKit

@Suite struct PushWatcherTests {
    private func waitUntil(timeout: TimeInterval = 10, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return try condition()
    }

    @Test func aPushOnTheFeedsChannelDownloadsTheNewIssueAndResumesAfterReconnecting() throws {
        let server = try FeedTestServer()
        defer { server.stop() }
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        // The feed announces its channel; each connection carries one event, then closes.
        try server.put("channel.sse", "")
        try server.put("pushed.xml", atomFeed(title: "Pushed Daily", issues: ["pd-1"], push: "/channel.sse?per_connection=1"))
        let (publication, _) = try library.subscribe(feedURL: server.url("pushed.xml"), autoDownload: true)
        #expect(publication.pushURL == server.url("channel.sse?per_connection=1").absoluteString)
        // A second publication has no channel: it is polled.
        try server.put("polled.xml", atomFeed(title: "Polled Monthly", issues: ["pm-1"]))
        let (polled, _) = try library.subscribe(feedURL: server.url("polled.xml"))

        var options = EventStreamClient.Options()
        options.reconnectionTime = 0.05
        let clock = TestClock(Date().addingTimeInterval(2 * 3600))  // the subscriptions' refreshes are an hour old
        let delivery = PushDelivery(library: library, config: Config(), now: clock.function, isShelfOpen: { true })
        let watcher = PushWatcher(library: library, delivery: delivery, pollInterval: 3600, streamOptions: options, now: clock.function)
        watcher.start()
        defer { watcher.stop() }

        // Polled at once (its last refresh is older than the interval), conditionally: 304.
        #expect(waitUntil { server.requests(path: "polled.xml").count >= 2 })
        #expect(server.requests(path: "polled.xml", atLeast: 2).last?.status == 304)
        #expect(waitUntil { watcher.openChannels[publication.id ?? -1] != nil })

        // A new issue is published and announced: refreshed and queued.
        try server.put("pushed.xml", atomFeed(title: "Pushed Daily", issues: ["pd-1", "pd-2"], push: "/channel.sse?per_connection=1"))
        try server.appendEvent("channel.sse", "id: 41\ndata: {\"aps\":{\"content-available\":1}}")
        #expect(try waitUntil { try library.issue(named: "pd-2")?.status == .downloading })
        #expect(try waitUntil { try library.pushState(publicationID: publication.id ?? -1)?.lastEventID == "41" })

        // The server closed after that event: the client came back with Last-Event-ID 41
        // and receives the alert sent next, exactly once.
        try server.appendEvent("channel.sse", "id: 42\ndata: {\"aps\":{\"alert\":\"Harbour closed\"}}")
        #expect(try waitUntil { try library.pushAlerts().count == 1 })
        let streams = server.requests(path: "channel.sse", atLeast: 2)
        #expect(streams.count >= 2)
        #expect(streams.dropFirst().first?.last_event_id == "41")
        Thread.sleep(forTimeInterval: 0.3)
        #expect(try library.pushAlerts().map(\.text) == ["Harbour closed"])
        #expect(polled.pushURL == nil)

        // Unsubscribing closes the channel.
        try library.removePublication(try reloaded(publication, in: library), removeIssues: false)
        #expect(waitUntil(timeout: 5) { watcher.openChannels.isEmpty })
    }
}
