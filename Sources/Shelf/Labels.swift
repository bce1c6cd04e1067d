import Foundation
import NewsstandKit

/// The one label a store tile shows for an issue, in the words of iOS Newsstand.
enum IssueLabel: Equatable {
    case download
    case waiting
    case progress(fraction: Double?, bytes: Int64, bytesPerSecond: Double?)
    case read(unread: Bool, progress: Double?)
    case failed(String)
    case removedToSaveSpace
    /// A push's automatic download was held back (one a day): when the next may run.
    case throttled(next: Date)

    init(_ tile: IssueTile) {
        let issue = tile.issue
        switch issue.status {
        case .available:
            self = .read(unread: issue.unread, progress: issue.readingProgress)
        case .downloading:
            if let download = tile.download, download.state == .active || download.bytesWritten > 0 {
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

enum Format {
    static func bytes(_ count: Int64) -> String {
        let value = Double(count)
        if value < 1024 { return "\(count) B" }
        if value < 1024 * 1024 { return String(format: "%.0f KB", value / 1024) }
        if value < 1024 * 1024 * 1024 { return String(format: "%.1f MB", value / 1024 / 1024) }
        return String(format: "%.2f GB", value / 1024 / 1024 / 1024)
    }

    static func speed(_ bytesPerSecond: Double?) -> String {
        guard let bytesPerSecond, bytesPerSecond > 0 else { return "" }
        return bytes(Int64(bytesPerSecond)) + "/s"
    }

    static let day = utc("d MMM yyyy")
    static let dayAndTime = utc("d MMM HH:mm 'UTC'")

    private static func utc(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = format
        return formatter
    }
}
