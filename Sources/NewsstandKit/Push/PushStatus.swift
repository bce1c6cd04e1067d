import Foundation

/// What `newsstand push` (without a publication) prints: each publication's channel,
/// automatic download and throttle, then the latest alerts.
public enum PushStatus {
    public static func lines(library: Library, now: Date, alerts: Int = 5) throws -> [String] {
        let states = try library.store.pushStates()
        var lines: [String] = []
        for publication in try library.store.publications() {
            let state = publication.id.flatMap { states[$0] }
            var line = "\(publication.title): " + (publication.pushURL.map { "push channel \($0)" } ?? "polled")
            line += publication.autoDownload ? ", automatic download on" : ", automatic download off"
            if let last = publication.lastAutoDownload { line += " (last \(PushReport.time(last)))" }
            lines.append(line)
            if let throttle = state?.throttle(at: now) {
                lines.append("  throttled\(throttle.issueName.map { " \($0)" } ?? ""): \(throttle.reason); next automatic download after \(PushReport.time(throttle.nextAllowed))")
            }
        }
        let recent = try library.store.pushAlerts(limit: alerts)
        if !recent.isEmpty {
            let titles = try library.store.publicationTitles()
            lines.append("Alerts:")
            for alert in recent {
                lines.append("  \(PushReport.time(alert.receivedAt)) \(alert.publicationId.flatMap { titles[$0] } ?? "—"): \(alert.text)")
            }
        }
        return lines
    }

    /// The throttle that concerns one issue, for the store tile and `issues`.
    public static func throttle(for issue: Issue, states: [Int64: PushState], now: Date) -> PushThrottle? {
        guard let id = issue.publicationId, let throttle = states[id]?.throttle(at: now),
              throttle.issueName == issue.name, issue.status == .none else { return nil }
        return throttle
    }
}
