import Foundation
import GRDB

extension Library {
    /// Stops an issue's download: its queued and running assets and their `.part` files go,
    /// and the issue is back to not downloaded (an agent holding one stops when it finds it gone).
    public func cancelDownload(_ issue: Issue) throws {
        guard let issueID = issue.id else { throw LibraryError.noSuchIssue(issue.name) }
        let pending = try downloads(issueID: issueID).filter { $0.state == .queued || $0.state == .active }
        try write { db in
            try db.execute(sql: "DELETE FROM assetDownload WHERE issueId = ? AND state IN ('queued', 'active')", arguments: [issueID])
            try db.execute(sql: "UPDATE issue SET status = 'none' WHERE id = ? AND status = 'downloading'", arguments: [issueID])
        }
        for asset in pending { try? FileManager.default.removeItem(at: partialFile(for: asset)) }
    }
}
