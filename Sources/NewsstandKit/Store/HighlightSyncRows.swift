import Foundation
import GRDB

extension LibraryStore {
    /// An issue's highlights with their tombstones: what sync compares with a server's.
    func highlightsWithTombstones(issueID: Int64) throws -> [Highlight] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM highlight WHERE issueId = ? ORDER BY id", arguments: [issueID]).compactMap(Self.highlight)
        }
    }
}
