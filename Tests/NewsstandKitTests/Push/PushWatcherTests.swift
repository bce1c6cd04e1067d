import Foundation
import TestSupport
import Testing
@testable import NewsstandKit

@Suite struct PushWatcherTests {
    @Test func aPushOnTheFeedsChannelDownloadsTheNewIssueAndResumesAfterReconnecting() throws {
        let server = try FeedTestServer()
        defer { server.stop() }
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        // The feed announces its channel; each connection carries one event, then closes.
        try server.put("channel.sse", "")
        try server.put("pushed.xml", atomFeed(title: "Pushed Daily", issues: ["pd-1"], push: "/channel.sse?per_connection=1"))
        let (publication, _) = try library.subscriptions.subscribe(feedURL: server.url("pushed.xml"), autoDownload: true)
        #expect(publication.pushURL == server.url("channel.sse?per_connection=1").absoluteString)
        // A second publication has no channel.
        try server.put("polled.xml", atomFeed(title: "Polled Monthly", issues: ["pm-1"]))
        let (polled, _) = try library.subscriptions.subscribe(feedURL: server.url("polled.xml"))

        var options = EventStreamClient.Options()
        options.reconnectionTime = 0.05
        let clock = TestClock(Date().addingTimeInterval(2 * 3600))  // the subscriptions' refreshes are an hour old
        let delivery = PushDelivery(library: library, config: Config(), now: clock.function, isShelfOpen: { true })
        let watcher = PushWatcher(delivery: delivery, pollInterval: 3600, streamOptions: options, now: clock.function)
        watcher.start()
        defer { watcher.stop() }

        // Polled at once (its last refresh is older than the interval), conditionally: 304.
        #expect(waitUntil { server.requests(path: "polled.xml").count >= 2 })
        #expect(server.requests(path: "polled.xml", atLeast: 2).last?.status == 304)
        // So is the feed with a channel: a channel that is down must not leave it stale.
        #expect(waitUntil { server.requests(path: "pushed.xml").count >= 2 })
        #expect(server.requests(path: "pushed.xml", atLeast: 2).last?.status == 304)
        #expect(waitUntil { watcher.openChannels[publication.id ?? -1] != nil })

        // A new issue is published and announced: refreshed and queued.
        try server.put("pushed.xml", atomFeed(title: "Pushed Daily", issues: ["pd-1", "pd-2"], push: "/channel.sse?per_connection=1"))
        try server.appendEvent("channel.sse", "id: 41\ndata: {\"aps\":{\"content-available\":1}}")
        #expect(try waitUntil { try library.store.issue(named: "pd-2")?.status == .downloading })
        #expect(try waitUntil { try library.store.pushState(publicationID: publication.id ?? -1)?.lastEventID == "41" })

        // The server closed after that event: the client came back with Last-Event-ID 41
        // and receives the alert sent next, exactly once.
        try server.appendEvent("channel.sse", "id: 42\ndata: {\"aps\":{\"alert\":\"Harbour closed\"}}")
        #expect(try waitUntil { try library.store.pushAlerts().count == 1 })
        let streams = server.requests(path: "channel.sse", atLeast: 2)
        #expect(streams.count >= 2)
        #expect(streams.dropFirst().first?.last_event_id == "41")
        // Closed after 42 too: back with Last-Event-ID 42, and still the one alert.
        #expect(waitUntil { server.requests(path: "channel.sse").contains { $0.last_event_id == "42" } })
        #expect(try library.store.pushAlerts().map(\.text) == ["Harbour closed"])
        #expect(polled.pushURL == nil)

        // Unsubscribing closes the channel.
        try library.subscriptions.removePublication(try reloaded(publication, in: library), removeIssues: false)
        #expect(waitUntil { watcher.openChannels.isEmpty })
    }
}

extension PushWatcherTests {
    @Test func eventsAServerSendsAgainAreNotDeliveredAgainEvenAfterARestart() throws {
        let server = try FeedTestServer()
        defer { server.stop() }
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        // A server that ignores Last-Event-ID: every connection gets every event again,
        // then is closed, so the client keeps reconnecting and hearing them.
        let channel = "/replay.sse?per_connection=3&ignore_last_event_id=1"
        try server.put("replay.sse", "")
        try server.put("replayed.xml", atomFeed(title: "Replayed Weekly", issues: ["rw-1"], push: channel))
        let (publication, _) = try library.subscriptions.subscribe(feedURL: server.url("replayed.xml"))
        try server.appendEvent("replay.sse", "id: a1\ndata: {\"aps\":{\"alert\":\"Ferry cancelled\"}}")
        try server.appendEvent("replay.sse", "id: a2\ndata: {\"aps\":{\"alert\":\"Bridge open\"}}")
        // No id of its own: delivered each time it comes (nothing tells it from a new one).
        try server.appendEvent("replay.sse", "data: {\"aps\":{\"alert\":\"No id\"}}")

        var options = EventStreamClient.Options()
        options.reconnectionTime = 0.05
        func watch(connections: Int) {
            let delivery = PushDelivery(library: library, config: Config(), now: { Date() }, isShelfOpen: { true })
            let watcher = PushWatcher(delivery: delivery, pollInterval: 3600, streamOptions: options)
            let before = server.requests(path: "replay.sse").count
            watcher.start()
            #expect(waitUntil { server.requests(path: "replay.sse").count >= before + connections })
            watcher.stop()
        }
        watch(connections: 4)
        let first = try library.store.pushAlerts().map(\.text)
        #expect(first.filter { $0 == "Ferry cancelled" }.count == 1)
        #expect(first.filter { $0 == "Bridge open" }.count == 1)
        #expect(first.filter { $0 == "No id" }.count >= 3)
        // Both remembered (a replayed one moves to the end, so the order depends on timing).
        let remembered = try library.store.pushState(publicationID: publication.id ?? -1)?.recentEventIDs ?? ""
        #expect(Set(remembered.split(separator: "\n")) == ["a1", "a2"], "remembered: \(remembered)")
        // A new watcher (an agent started again) remembers them from the library.
        watch(connections: 2)
        let second = try library.store.pushAlerts(limit: 100).map(\.text)
        #expect(second.filter { $0 == "Ferry cancelled" }.count == 1)
        #expect(second.filter { $0 == "Bridge open" }.count == 1)
    }

    @Test func onlyTheLastDeliveredEventIDsAreKept() throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let feed = FileManager.default.temporaryDirectory.appendingPathComponent("kept-\(UUID().uuidString).xml")
        try Data(atomFeed(title: "Kept", issues: ["k-1"]).utf8).write(to: feed)
        defer { try? FileManager.default.removeItem(at: feed) }
        let (publication, _) = try library.subscriptions.subscribe(feedURL: feed)
        let id = publication.id ?? -1
        for index in 0..<(PushState.rememberedEventIDs + 10) {
            try library.store.recordDeliveredEvent(lastEventID: "e\(index)", ownID: "e\(index)", publicationID: id)
        }
        try library.store.recordDeliveredEvent(lastEventID: "e70", ownID: nil, publicationID: id)
        let state = try #require(try library.store.pushState(publicationID: id))
        #expect(state.lastEventID == "e70")
        #expect(!state.delivered(eventID: "e9"))
        #expect(state.delivered(eventID: "e10") && state.delivered(eventID: "e73"))
        #expect(state.recentEventIDs?.split(separator: "\n").count == PushState.rememberedEventIDs)
    }
}

@Suite struct WatchingAgentTests {
    @Test func theWatchingAgentInstallsTheIssueAPushAnnounces() throws {
        let server = try FeedTestServer()
        defer { server.stop() }
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        try FileManager.default.createDirectory(at: server.root.appendingPathComponent("content"), withIntermediateDirectories: true)
        _ = try AgentTests.makeIssueArchive(in: server.root.appendingPathComponent("content"), name: "ar-2.zip",
                                            article: "Pushed to the doorstep.")
        try server.put("agent.sse", "")
        try server.put("agent.xml", atomFeed(title: "Agent Review", issues: ["ar-1"], push: "/agent.sse"))
        _ = try library.subscriptions.subscribe(feedURL: server.url("agent.xml"), autoDownload: true)

        var options = Agent.Options()
        options.watch = true
        let agent = Agent(library: try Library(paths: library.paths), options: options)
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? agent.run()
            finished.signal()
        }
        var exited = false
        defer {
            agent.stop()
            if !exited { _ = finished.wait(timeout: .now() + 30) }
        }
        // Once the agent listens, a new issue is published and announced.
        #expect(waitUntil { !server.requests(path: "agent.sse").isEmpty }, "the agent never opened the channel")
        try server.put("agent.xml", atomFeed(title: "Agent Review", issues: ["ar-1", "ar-2"], push: "/agent.sse"))
        try server.appendEvent("agent.sse", "id: 1\ndata: {\"aps\":{\"content-available\":1}}")

        var installed: NewsstandKit.Issue?
        _ = try waitUntil(timeout: 60) {
            installed = try library.store.issue(named: "ar-2").flatMap { $0.status == .available ? $0 : nil }
            return installed != nil
        }
        let issue = try #require(installed)
        let article = library.downloads.contentDirectory(for: issue).appendingPathComponent("a.html")
        #expect(try String(contentsOf: article, encoding: .utf8).contains("Pushed to the doorstep."))
        #expect(try library.store.issue(named: "ar-1")?.status == NewsstandKit.Issue.Status.none)
        agent.stop()
        exited = finished.wait(timeout: .now() + 30) == .success
        #expect(exited, "the agent did not stop")
    }
}

extension PushWatcherTests {
    /// Issue 30, item 6: the agent polls due feeds as `newsstand refresh` does, a few at a
    /// time and at most two from one server, not one after another.
    @Test func dueFeedsArePolledAFewAtATimeAtMostTwoAServer() throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let feeds = try FeedTestServer()
        defer { feeds.stop() }
        for number in 1...9 {
            try feeds.put("feed-\(number).xml", atomFeed(title: "Feed \(number)", issues: ["f\(number)-1"]))
            try library.subscriptions.subscribe(feedURL: feeds.url("feed-\(number).xml"))
        }
        // Three feeds on each of three servers that accept and never answer.
        let servers = try (0..<3).map { _ in try SilentServer() }
        for (index, publication) in try library.store.publications().enumerated() {
            let server = servers[index % 3]
            try library.store.write { db in
                try db.execute(sql: "UPDATE publication SET feedURL = ?, etag = NULL, lastModified = NULL WHERE id = ?",
                               arguments: ["http://127.0.0.1:\(server.port)/feed-\(index).xml", publication.id])
            }
        }
        let clock = TestClock(Date().addingTimeInterval(2 * 3600))  // every refresh is an hour old
        let delivery = PushDelivery(library: library, config: Config(), now: clock.function, isShelfOpen: { true })
        let watcher = PushWatcher(delivery: delivery, pollInterval: 3600, now: clock.function)
        let ticked = DispatchSemaphore(value: 0)
        Thread.detachNewThread { watcher.tick(); ticked.signal() }

        #expect(waitUntil(timeout: 10) { servers.allSatisfy { $0.connections == 2 } },
                "connections: \(servers.map(\.connections))")
        #expect(servers.allSatisfy { $0.most <= 2 }, "most at once: \(servers.map(\.most))")
        // The servers go away: every poll fails, and the round ends.
        servers.forEach { $0.stop() }
        #expect(ticked.wait(timeout: .now() + 60) == .success)
    }
}
