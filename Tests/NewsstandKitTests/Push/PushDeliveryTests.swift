import Foundation
import Synchronization
import Testing
@testable import NewsstandKit

/// A clock the test moves by hand.
// @unchecked: `current` is read and written only under `lock`.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date
    init(_ start: Date) { current = start }
    var now: Date { lock.withLock { current } }
    func advance(hours: Double) { lock.withLock { current = current.addingTimeInterval(hours * 3600) } }
    var function: () -> Date { { [self] in now } }
}

/// A library with one publication whose Atom feed is a local file the test rewrites.
final class PushFixture {
    let temporary: TemporaryLibrary
    let feed: URL
    var publication: Publication

    init(issues: [String], autoDownload: Bool = true) throws {
        temporary = try TemporaryLibrary(inMemory: true)
        feed = temporary.root.appendingPathComponent("feed.xml")
        try FileManager.default.createDirectory(at: temporary.root, withIntermediateDirectories: true)
        try atomFeed(title: "Push Weekly", issues: issues).write(to: feed, atomically: true, encoding: .utf8)
        (publication, _) = try temporary.library.subscriptions.subscribe(feedURL: feed, autoDownload: autoDownload)
    }

    var library: Library { temporary.library }

    func publish(_ issues: [String]) throws {
        try atomFeed(title: "Push Weekly", issues: issues).write(to: feed, atomically: true, encoding: .utf8)
    }

    func status(of name: String) throws -> NewsstandKit.Issue.Status? { try library.store.issue(named: name)?.status }
}

@Suite struct PushThrottleTests {
    @Test func oneAutomaticDownloadPerPublicationPer24Hours() throws {
        let fixture = try PushFixture(issues: ["pw-1"])
        let clock = TestClock(Date(timeIntervalSince1970: 1_790_000_000))
        let delivery = PushDelivery(library: fixture.library, config: Config(), now: clock.function, isShelfOpen: { true })

        // First push: the newest issue is queued.
        try fixture.publish(["pw-1", "pw-2"])
        let first = delivery.deliver(.newContent, to: fixture.publication)
        #expect(first.refresh?.added == ["pw-2"])
        #expect(first.autoDownload == .queued("pw-2"))
        #expect(try fixture.status(of: "pw-2") == .downloading)

        // Five hours later a new issue: refreshed, but its download is throttled and recorded.
        clock.advance(hours: 5)
        try fixture.publish(["pw-1", "pw-2", "pw-3"])
        let second = delivery.deliver(.newContent, to: fixture.publication)
        #expect(second.refresh?.added == ["pw-3"])
        guard case let .throttled(throttle)? = second.autoDownload else {
            Issue.record("expected a throttled download, got \(String(describing: second.autoDownload))")
            return
        }
        #expect(throttle.issueName == "pw-3")
        #expect(throttle.nextAllowed == clock.now.addingTimeInterval(19 * 3600))
        #expect(throttle.reason.contains("24 hours"))
        #expect(try fixture.status(of: "pw-3") == NewsstandKit.Issue.Status.none)
        let state = try #require(try fixture.library.store.pushState(publicationID: fixture.publication.id ?? -1))
        #expect(state.throttle(at: clock.now) == throttle)
        #expect(second.lines.contains { $0.hasPrefix("throttled:") })

        // 24 hours after the first: allowed again, and the throttle record is cleared.
        clock.advance(hours: 19)
        let third = delivery.deliver(PushPayload(contentAvailable: true, issueName: "pw-3"), to: fixture.publication)
        #expect(third.autoDownload == .queued("pw-3"))
        #expect(try fixture.library.store.pushState(publicationID: fixture.publication.id ?? -1)?.throttle(at: clock.now) == nil)
    }

    @Test func theConfigCanLiftTheLimit() throws {
        let fixture = try PushFixture(issues: ["np-1"])
        let clock = TestClock(Date(timeIntervalSince1970: 1_790_000_000))
        let config = try Config.parse("dont_throttle_newsstand_content_notifications = true", file: "config.toml")
        let delivery = PushDelivery(library: fixture.library, config: config, now: clock.function, isShelfOpen: { true })
        #expect(delivery.deliver(.newContent, to: fixture.publication).autoDownload == .queued("np-1"))
        clock.advance(hours: 1)
        try fixture.publish(["np-1", "np-2"])
        #expect(delivery.deliver(.newContent, to: fixture.publication).autoDownload == .queued("np-2"))
    }

    @Test func withoutAutomaticDownloadAPushOnlyRefreshes() throws {
        let fixture = try PushFixture(issues: ["off-1"], autoDownload: false)
        let delivery = PushDelivery(library: fixture.library, config: Config(), isShelfOpen: { true })
        try fixture.publish(["off-1", "off-2"])
        let report = delivery.deliver(.newContent, to: fixture.publication)
        #expect(report.refresh?.added == ["off-2"])
        #expect(report.autoDownload == .off)
        #expect(try fixture.status(of: "off-2") == NewsstandKit.Issue.Status.none)
    }

    @Test func anAlreadyDownloadedIssueUsesNoAllowance() throws {
        let fixture = try PushFixture(issues: ["ad-1"])
        let clock = TestClock(Date(timeIntervalSince1970: 1_790_000_000))
        let delivery = PushDelivery(library: fixture.library, config: Config(), now: clock.function, isShelfOpen: { true })
        #expect(delivery.deliver(.newContent, to: fixture.publication).autoDownload == .queued("ad-1"))
        clock.advance(hours: 1)
        #expect(delivery.deliver(.newContent, to: fixture.publication).autoDownload == .alreadyThere("ad-1"))
        let unknown = delivery.deliver(PushPayload(contentAvailable: true, issueName: "nowhere"), to: fixture.publication)
        #expect(unknown.autoDownload == .failed("the push names issue 'nowhere', which the feed does not list"))
    }

    @Test func configKeysAreReadAndCheckedByItsRules() throws {
        let config = try Config.parse("poll_interval = 600\ndont_throttle_newsstand_content_notifications = false", file: "c.toml")
        #expect(config.pollInterval == 600)
        #expect(!config.dontThrottleContentNotifications)
        #expect(Config().pollInterval == 3600)
        #expect(throws: ConfigError.self) { try Config.parse("poll_interval = 5", file: "c.toml") }
        #expect(throws: ConfigError.self) { try Config.parse("dont_throttle_newsstand_content_notifications = 1", file: "c.toml") }
    }
}

@Suite struct PushAlertTests {
    /// A stand-in `notify-send` (a script in a PATH of its own) that records its arguments.
    private func fakeNotifySend(in directory: URL) throws -> (DesktopNotifier, URL) {
        let bin = directory.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let record = directory.appendingPathComponent("notified.txt")
        let script = bin.appendingPathComponent("notify-send")
        try "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > '\(record.path)'\n".write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        return (DesktopNotifier(environment: ["PATH": bin.path]), record)
    }

    @Test func anAlertIsStoredAndSentToTheDesktopWhenNoShelfIsOpen() throws {
        let fixture = try PushFixture(issues: ["al-1"])
        let (notifier, record) = try fakeNotifySend(in: fixture.temporary.root)
        #expect(notifier.executable != nil)
        let delivery = PushDelivery(library: fixture.library, config: Config(), notifier: notifier)
        #expect(!ShelfPresence.isShelfOpen(paths: fixture.library.paths))

        let payload = try PushPayload.parse(#"{"aps":{"alert":"-v Storm \u001b[2J warning"}}"#)
        let report = delivery.deliver(payload, to: fixture.publication)
        #expect(report.alert?.notified == true)
        #expect(report.autoDownload == nil && report.refresh == nil)
        let arguments = try String(contentsOf: record, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(arguments == ["--app-name=Newsstand", "--", "Push Weekly", "-v Storm warning"])

        let stored = try fixture.library.store.pushAlerts()
        #expect(stored.map(\.text) == ["-v Storm warning"])
        #expect(stored.first?.publicationId == fixture.publication.id)

        // The shelf takes it once for its status line.
        #expect(try fixture.library.store.takeUnshownAlert()?.text == "-v Storm warning")
        #expect(try fixture.library.store.takeUnshownAlert() == nil)
    }

    @Test func withAShelfOpenTheDesktopIsLeftAlone() throws {
        let fixture = try PushFixture(issues: ["al-2"])
        let (notifier, record) = try fakeNotifySend(in: fixture.temporary.root)
        let presence = try #require(ShelfPresence(paths: fixture.library.paths))
        #expect(ShelfPresence.isShelfOpen(paths: fixture.library.paths))
        let delivery = PushDelivery(library: fixture.library, config: Config(), notifier: notifier)
        let report = delivery.deliver(PushPayload(alert: "Quiet"), to: fixture.publication)
        #expect(report.alert?.notified == false)
        #expect(!FileManager.default.fileExists(atPath: record.path))
        #expect(try fixture.library.store.pushAlerts().count == 1)
        withExtendedLifetime(presence) {}
    }

    @Test func withoutNotifySendNothingRuns() {
        let notifier = DesktopNotifier(environment: ["PATH": "/nonexistent"])
        #expect(notifier.executable == nil)
        #expect(!notifier.notify(title: "t", body: "b"))
    }
}

@Suite struct PushDeliveryOverAStoreTests {
    /// No `Library`: a store in memory, and the refresh and download queue it is given.
    @Test func aPushRefreshesAndQueuesThroughTheServicesItIsGiven() throws {
        let store = try LibraryStore.inMemory()
        let publication = try store.save(Publication(feedURL: "https://example.org/feed.xml", title: "Given", autoDownload: true))
        let refreshed = Mutex<[Int64?]>([])
        let queued = Mutex<[String]>([])
        let services = PushDelivery.Services(
            refresh: { publication in
                refreshed.withLock { $0.append(publication.id) }
                let issue = try store.insert(NewsstandKit.Issue(publicationId: publication.id, name: "given-1",
                                                                date: Date(timeIntervalSince1970: 1_790_000_000), title: "One"))
                return Library.SyncResult(added: [issue.name], updated: 0)
            },
            enqueue: { issue in queued.withLock { $0.append(issue.name) } })
        let delivery = PushDelivery(store: store, services: services, paths: Paths(environment: ["NEWSSTAND_HOME": "/nonexistent"]),
                                    config: Config(), now: { Date(timeIntervalSince1970: 1_790_000_100) }, isShelfOpen: { true })

        let report = delivery.deliver(PushPayload(contentAvailable: true, alert: "Out now"), to: publication)
        #expect(report.refresh?.added == ["given-1"])
        #expect(report.autoDownload == .queued("given-1"))
        #expect(refreshed.withLock { $0 } == [publication.id])
        #expect(queued.withLock { $0 } == ["given-1"])
        #expect(try store.pushAlerts(limit: 5).map(\.text) == ["Out now"])
        #expect(try store.pushState(publicationID: publication.id ?? -1)?.lastPushAt == Date(timeIntervalSince1970: 1_790_000_100))
    }
}
