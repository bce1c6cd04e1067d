import Foundation
import GRDB

/// What the user's own files say of themselves beyond a title: the day they give (it
/// replaces the file's modification time) and the series and number a folder is ordered by.
extension LibraryStore {
    func recordFileDetails(day: Date?, series: String?, number: String?, issueID: Int64?) throws {
        try write { db in
            if let day {
                try db.execute(sql: "UPDATE issue SET date = ? WHERE id = ?", arguments: [DatabaseDate.value(day), issueID])
            }
            try db.execute(sql: "UPDATE issue SET contentSeries = ?, contentNumber = ? WHERE id = ?", arguments: [series, number, issueID])
        }
    }

    /// The series and number of a publication's issues that name them, by issue id.
    static func seriesAndNumbers(_ db: Database, publicationID: Int64) throws -> [Int64: (series: String?, number: String?)] {
        let rows = try Row.fetchAll(db, sql: """
            SELECT id, contentSeries, contentNumber FROM issue
            WHERE publicationId = ? AND (contentSeries IS NOT NULL OR contentNumber IS NOT NULL)
            """, arguments: [publicationID])
        return Dictionary(rows.map { ($0["id"], (series: $0["contentSeries"], number: $0["contentNumber"])) }, uniquingKeysWith: { first, _ in first })
    }
}
