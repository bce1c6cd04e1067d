import Foundation
import Logging
import Synchronization

/// The agent's sync step: while places wait for a server, every few minutes one sync of
/// the places that are due runs beside the transfers (never two at once).
final class PlaceSyncSchedule: Sendable {
    /// How often the agent looks for places waiting to be sent.
    static let interval: TimeInterval = 180
    private let sync: PlaceSync
    private let state = Mutex<(running: Bool, lastLook: Date)>((false, .distantPast))

    init(sync: PlaceSync) { self.sync = sync }

    /// Starts a sync on `group` when one is due and places wait; returns at once.
    func requestIfDue(group: DispatchGroup, logger: Logger = Logger(label: "newsstand.agent")) {
        let now = Date()
        let start = state.withLock { state in
            guard !state.running, now.timeIntervalSince(state.lastLook) >= Self.interval else { return false }
            state.lastLook = now
            state.running = true
            return true
        }
        guard start else { return }
        guard ((try? sync.store.pendingPlaceCount()) ?? 0) > 0 || sync.catalogs.hasDuePlaces() else {
            state.withLock { $0.running = false }
            return
        }
        DispatchQueue.global(qos: .utility).async(group: group) { [self] in
            let report = sync.sync(onlyDue: true)
            if report.sent + report.received + report.offered > 0 {
                logger.info("places synced: \(report.sent) sent, \(report.received) taken, \(report.offered) offered")
            }
            for problem in report.problems { logger.warning("\(problem)") }
            state.withLock { $0.running = false }
        }
    }
}
