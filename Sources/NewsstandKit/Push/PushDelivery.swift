import Foundation

/// What one push did.
public struct PushReport: Sendable, Equatable {
    public enum AutoDownload: Sendable, Equatable {
        /// The issue's download was queued.
        case queued(String)
        /// The issue is already downloaded or on its way.
        case alreadyThere(String)
        case throttled(PushThrottle)
        /// The subscription does not download by itself.
        case off
        case failed(String)
    }

    /// The refresh the content-available push caused (nil for an alert alone).
    public var refresh: Library.SyncResult?
    public var refreshError: String?
    public var autoDownload: AutoDownload?
    public var alert: PushAlert?

    /// One line per thing that happened, for people.
    public var lines: [String] {
        var lines: [String] = []
        if let refresh {
            lines.append(refresh.unchanged ? "feed unchanged" : "feed refreshed: \(refresh.added.count) new issue(s)")
        }
        if let refreshError { lines.append("refresh failed: \(refreshError)") }
        switch autoDownload {
        case .queued(let name)?: lines.append("downloading \(name)")
        case .alreadyThere(let name)?: lines.append("\(name) is already downloaded or queued")
        case .throttled(let throttle)?: lines.append("throttled: \(throttle.reason); next automatic download after \(PushReport.time(throttle.nextAllowed))")
        case .off?: lines.append("automatic download is off (subscribe --auto-download turns it on)")
        case .failed(let reason)?: lines.append("automatic download failed: \(reason)")
        case nil: break
        }
        if let alert { lines.append("alert: \(alert.text)" + (alert.notified ? " (sent to the desktop)" : "")) }
        return lines
    }

    static func time(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}

/// Delivers pushes to the library: the one code path for pushes from an event stream,
/// from polling and from `newsstand push`.
///
/// A content-available push refreshes the publication and, when the subscription has
/// automatic download on, queues its newest issue (or the one the push names). As with
/// Newsstand, automatic downloads are limited to one per publication per 24 hours unless
/// `dont_throttle_newsstand_content_notifications = true`; a throttled push is recorded
/// with its reason and when the next may run. An alert is stored, and sent to the desktop
/// when no shelf is open to show it.
// @unchecked: every property is a `let` set at init; the closures (`now`, `isShelfOpen`) only read.
public final class PushDelivery: @unchecked Sendable {
    public static let throttleInterval: TimeInterval = 24 * 60 * 60

    /// The push state, alerts, publications and issues it reads and changes.
    let store: LibraryStore
    let services: Services
    let config: Config
    let now: () -> Date
    let notifier: DesktopNotifier
    let isShelfOpen: () -> Bool

    /// What a push asks of the library's services beyond the store, as `Library` wires them.
    struct Services: Sendable {
        /// Brings a publication's issues up to date (its feed, folder or catalog).
        let refresh: @Sendable (Publication) throws -> Library.SyncResult
        /// Queues an issue's content for download (nothing when it is there or queued).
        let enqueue: @Sendable (Issue) throws -> Void
        /// Polls publications a few at a time and at most two from one server, as
        /// `newsstand refresh` does (`Subscriptions.alongside`); `done` is told of each as it ends.
        var pollAlongside: @Sendable ([Publication], @escaping @Sendable (Publication) -> PushReport,
                                      @escaping @Sendable (Int, PushReport) -> Void) -> Void = { publications, poll, done in
            for (index, publication) in publications.enumerated() { done(index, poll(publication)) }
        }
    }


    init(store: LibraryStore, services: Services, paths: Paths, config: Config, now: @escaping () -> Date = Date.init,
         notifier: DesktopNotifier = DesktopNotifier(), isShelfOpen: (() -> Bool)? = nil) {
        self.store = store
        self.services = services
        self.config = config
        self.now = now
        self.notifier = notifier
        self.isShelfOpen = isShelfOpen ?? { ShelfPresence.isShelfOpen(paths: paths) }
    }

    /// Pushes delivered to `library`: its store, its subscriptions' refresh and its download
    /// queue (the closures hold those services, not the `Library`).
    public convenience init(library: Library, config: Config, now: @escaping () -> Date = Date.init,
                            notifier: DesktopNotifier = DesktopNotifier(), isShelfOpen: (() -> Bool)? = nil) {
        let services = Services(subscriptions: library.subscriptions, downloads: library.downloads)
        self.init(store: library.store, services: services, paths: library.paths, config: config, now: now, notifier: notifier,
                  isShelfOpen: isShelfOpen)
    }

    @discardableResult
    public func deliver(_ payload: PushPayload, to stale: Publication) -> PushReport {
        var report = PushReport()
        guard let publicationID = stale.id, let publication = try? store.publication(id: publicationID) else { return report }
        let time = now()
        try? store.updatePushState(publicationID: publicationID) { $0.lastPushAt = time }
        if let text = payload.alert { report.alert = storeAlert(text, publication: publication, at: time) }
        if payload.contentAvailable {
            do { report.refresh = try services.refresh(publication) } catch { report.refreshError = "\(error)" }
            let current = (try? store.publication(id: publicationID)) ?? publication
            report.autoDownload = autoDownload(for: current, issueName: payload.issueName, at: time)
        }
        return report
    }

    /// Polling a feed: a refresh, and an automatic download when
    /// it brought a new issue.
    @discardableResult
    public func poll(_ stale: Publication) -> PushReport {
        var report = PushReport()
        guard let publication = stale.id.flatMap({ try? store.publication(id: $0) }) else { return report }
        do { report.refresh = try services.refresh(publication) } catch {
            report.refreshError = "\(error)"
            return report
        }
        if let refresh = report.refresh, !refresh.added.isEmpty, publication.autoDownload, let id = publication.id {
            report.autoDownload = autoDownload(for: (try? store.publication(id: id)) ?? publication, issueName: nil, at: now())
        }
        return report
    }

    private func storeAlert(_ text: String, publication: Publication, at time: Date) -> PushAlert? {
        var alert = PushAlert(id: nil, publicationId: publication.id, text: text, receivedAt: time, notified: false, shownAt: nil)
        if !isShelfOpen() {
            alert.notified = notifier.notify(title: publication.title, body: text)
        }
        return (try? store.insert(alert)) ?? alert
    }

    private func autoDownload(for publication: Publication, issueName: String?, at time: Date) -> PushReport.AutoDownload {
        guard publication.autoDownload else { return .off }
        guard let publicationID = publication.id else { return .failed("the publication is not in the library") }
        let issues = (try? store.issues(publicationID: publicationID)) ?? []
        let target: Issue
        if let issueName {
            guard let named = issues.first(where: { $0.name == issueName }) else {
                return .failed("the push names issue '\(issueName)', which the feed does not list")
            }
            target = named
        } else {
            guard let newest = issues.first(where: { $0.contentURL != nil }) ?? issues.first else { return .failed("the feed lists no issue") }
            target = newest
        }
        if target.status != .none { return .alreadyThere(target.name) }

        // Claim the day's automatic download in one transaction, so two processes
        // delivering pushes at once cannot both take it.
        let throttle = config.dontThrottleContentNotifications ? nil : Self.throttleInterval
        let claim: Result<Date?, PushThrottle>
        do {
            claim = try store.claimAutomaticDownload(publicationID: publicationID, issueName: target.name, at: time, throttle: throttle)
        } catch {
            return .failed("\(error)")
        }
        switch claim {
        case .failure(let held):
            return .throttled(held)
        case .success(let previous):
            do {
                try services.enqueue(target)
                return .queued(target.name)
            } catch {
                // Nothing was queued: give the day's download back.
                try? store.giveBackAutomaticDownload(publicationID: publicationID, previous: previous)
                return .failed("\(error)")
            }
        }
    }
}

extension PushThrottle: Error {}

extension PushDelivery.Services {
    /// A push's refresh and download queue from the library's services themselves: the
    /// closures hold those values, never the `Library`; polls go `Subscriptions.alongside`.
    init(subscriptions: Subscriptions, downloads: DownloadQueue) {
        self.init(refresh: { try subscriptions.refresh($0) }, enqueue: { _ = try downloads.enqueue($0) },
                  pollAlongside: { Subscriptions.alongside($0, $1, done: $2) })
    }
}
