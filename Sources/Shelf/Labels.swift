import Foundation
import NewsstandKit

/// "1 issue", "3 issues": a count with its noun, singular for one.
func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

/// The one label a store tile shows for an issue, in the words of iOS Newsstand.
enum IssueLabel: Equatable {
    case download
    case waiting
    case progress(fraction: Double?, bytes: Int64, bytesPerSecond: Double?)
    case read(unread: Bool, progress: Double?)
    case failed(String)
    /// The download failed and is being tried again: the library's words for why.
    case retrying(String)
    case removedToSaveSpace
    /// The disk is full: the download waits (its bytes kept) and goes on when there is room.
    case pausedForSpace(String)
    /// A push's automatic download was held back (one a day): when the next may run.
    case throttled(next: Date)

    init(_ tile: IssueTile) {
        let issue = tile.issue
        switch issue.status {
        case .available:
            self = .read(unread: issue.unread, progress: issue.locator?.totalProgression)
        case .downloading:
            if let download = tile.download, download.waitingForSpace != nil {
                self = .pausedForSpace(download.lastError ?? "paused: the disk is full")
            } else if let download = tile.download, let why = download.retryingBecause {
                self = .retrying(why)
            } else if let download = tile.download, download.state == .active || download.bytesWritten > 0 {
                self = .progress(fraction: download.fraction, bytes: download.bytesWritten, bytesPerSecond: download.bytesPerSecond)
            } else {
                self = .waiting
            }
        case .none:
            if let error = issue.lastError ?? (tile.download?.state == .failed ? tile.download?.lastError : nil) {
                self = .failed(error)
            } else if let throttle = tile.throttle {
                self = .throttled(next: throttle.nextAllowed)
            } else if issue.evicted {
                self = .removedToSaveSpace
            } else {
                self = .download
            }
        }
    }
}

extension AssetDownload {
    /// While the agent waits to try a download again: "retrying (2 of 6) — connection
    /// refused", as the library words it (nil once bytes flow again).
    var retryingBecause: String? {
        guard state == .active || state == .queued else { return nil }
        return retry?.description
    }
}

/// What a tile says beside the issue's date: its authors (a book's), that it is pinned
/// (never removed to save space).
enum TileMark {
    static func dateLine(_ issue: Issue) -> String {
        Format.day(issue.date) + (issue.authors.isEmpty ? "" : "  · " + authors(issue)) + (issue.pinned ? "  · PINNED" : "")
    }

    static func authors(_ issue: Issue) -> String { issue.authors.joined(separator: ", ") }
}

enum Format {
    static func speed(_ bytesPerSecond: Double?) -> String {
        guard let bytesPerSecond, bytesPerSecond > 0 else { return "" }
        return ByteSize.format(Int64(bytesPerSecond)) + "/s"
    }

    /// "20 Nov 2026" in UTC. By hand: the first DateFormatter costs ~10 ms (ICU), on the
    /// key press that opens the first store.
    static func day(_ date: Date) -> String {
        // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
        let days = Int((date.timeIntervalSince1970 / 86_400).rounded(.down)) + 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return "\(day) \(monthNames[month - 1]) \(year)"
    }

    /// "20 Nov 2026 14:05 UTC".
    static func dayAndTime(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let minutes = ((seconds % 86_400) + 86_400) % 86_400 / 60
        let clock = String(format: "%02d:%02d", minutes / 60, minutes % 60)
        return day(date) + " " + clock + " UTC"
    }

    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}
