import Foundation
import Logging

/// What `newsstand agent --watch` does besides downloading: holds an event stream open
/// for each publication with a push channel, and refreshes every feed not refreshed for
/// `pollInterval` — those with a channel too, so a channel that is down or lost an event
/// costs at most one interval (a 304 when nothing changed). Every push and poll goes
/// through `PushDelivery`.
// @unchecked: channels, lastPollAttempt and thread change only under `lock`; the rest is set once at init.
public final class PushWatcher: @unchecked Sendable {
    /// The publications and push states it watches: the delivery's store.
    var store: LibraryStore { delivery.store }
    let delivery: PushDelivery
    let pollInterval: TimeInterval
    let streamOptions: EventStreamClient.Options
    let logger: Logger
    let now: () -> Date
    private let cancellation = Cancellation()
    private let lock = NSLock()
    private var channels: [Int64: EventStreamClient] = [:]
    private var lastPollAttempt: [Int64: Date] = [:]
    private var thread: Thread?

    public init(delivery: PushDelivery, pollInterval: TimeInterval,
                streamOptions: EventStreamClient.Options = EventStreamClient.Options(),
                logger: Logger = Logger(label: "newsstand.push"), now: @escaping () -> Date = Date.init) {
        self.delivery = delivery
        self.pollInterval = pollInterval
        self.streamOptions = streamOptions
        self.logger = logger
        self.now = now
    }

    /// Starts watching on a thread of its own.
    public func start() {
        let thread = Thread { [self] in
            while !cancellation.isCancelled {
                tick()
                cancellation.wait(1)
            }
        }
        thread.name = "newsstand.push"
        lock.withLock { self.thread = thread }
        thread.start()
    }

    /// Closes every stream and stops polling.
    public func stop() {
        cancellation.cancel()
        let open = lock.withLock { () -> [EventStreamClient] in
            defer { channels = [:] }
            return Array(channels.values)
        }
        open.forEach { $0.stop() }
    }

    /// The publications whose event streams are open, by id.
    public var openChannels: [Int64: URL] { lock.withLock { channels.mapValues(\.url) } }

    /// One round: streams in step with the subscriptions, due feeds polled.
    func tick() {
        // Every round (a cheap query): `PRAGMA data_version` would miss this process's own changes.
        guard let publications = try? store.publications() else { return }
        synchronizeChannels(publications)
        let time = now()
        let due = publications.filter { publication in
            guard let id = publication.id, !cancellation.isCancelled else { return false }
            let last = max(publication.lastRefresh ?? .distantPast, lock.withLock { lastPollAttempt[id] } ?? .distantPast)
            guard time.timeIntervalSince(last) >= pollInterval else { return false }
            lock.withLock { lastPollAttempt[id] = time }
            return true
        }
        // A few at a time, as `newsstand refresh` does.
        delivery.services.pollAlongside(due, { [self] publication in
            cancellation.isCancelled ? PushReport() : delivery.poll(publication)
        }, { [self] index, report in log(report, for: due[index], source: "poll") })
    }

    private func synchronizeChannels(_ publications: [Publication]) {
        let wanted = Dictionary(publications.compactMap { p -> (Int64, URL)? in
            guard let id = p.id, let text = p.pushURL, let url = URL(string: text) else { return nil }
            return (id, url)
        }, uniquingKeysWith: { first, _ in first })
        let states = (try? store.pushStates()) ?? [:]
        var toStart: [EventStreamClient] = []
        var toStop: [EventStreamClient] = []
        lock.withLock {
            for (id, client) in channels where wanted[id] != client.url || client.isStopped {
                toStop.append(client)
                channels[id] = nil
            }
            guard !cancellation.isCancelled else { return }
            for (id, url) in wanted where channels[id] == nil {
                let client = EventStreamClient(url: url, lastEventID: states[id]?.lastEventID, options: streamOptions,
                                               onEvent: { [weak self] event in self?.received(event, publicationID: id) },
                                               onProblem: { [logger] problem in logger.warning("push channel: \(problem)") })
                channels[id] = client
                toStart.append(client)
            }
        }
        toStop.forEach { $0.stop() }
        for client in toStart {
            logger.info("listening for pushes at \(client.url.absoluteString)")
            Thread.detachNewThread { client.run() }
        }
    }

    private func received(_ event: ServerSentEvent, publicationID: Int64) {
        guard let publication = try? store.publication(id: publicationID) else { return }
        // Recorded after delivery: an agent killed in between gets the event again rather
        // than never.
        defer {
            try? store.recordDeliveredEvent(lastEventID: event.lastEventID, ownID: event.id, publicationID: publicationID)
        }
        if let id = event.id, !id.isEmpty, (try? store.pushState(publicationID: publicationID))??.delivered(eventID: id) == true {
            logger.info("push \(publication.title): event \(id) was already delivered; the server sent it again")
            return
        }
        let payload: PushPayload
        do { payload = try PushPayload.parse(event.data) } catch {
            logger.warning("push for \(publication.title) ignored: \(error)")
            return
        }
        log(delivery.deliver(payload, to: publication), for: publication, source: "push")
    }

    private func log(_ report: PushReport, for publication: Publication, source: String) {
        for line in report.lines { logger.info("\(source) \(publication.title): \(line)") }
    }
}
