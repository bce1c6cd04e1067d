import Foundation
import GRDB

/// The places repository: where the reader is in each issue (its `Locator`), which issue
/// is being read, and the reader's own preferences, kept as settings.
extension LibraryStore {
    /// Keeps the reader's place; its total progression is the store's reading bar.
    public func saveLocator(_ locator: Locator, for issue: Issue) throws {
        guard let issueID = issue.id else { return }
        try write { db in
            try db.execute(sql: "UPDATE issue SET locator = ? WHERE id = ?", arguments: [locator, issueID])
        }
    }

    /// The issue being read, if it is still in the library.
    public func currentlyReadingIssue() -> Issue? {
        guard let name = try? setting(.currentlyReading) else { return nil }
        return try? issue(named: name)
    }

    func setting(_ key: Setting) throws -> String? { try read { db in try Setting.value(db, key) } }
    func setSetting(_ key: Setting, _ value: String?) throws { try write { db in try Setting.set(db, key, value) } }

    /// The reader's text column as the user last chose it with + and -: a preference of the
    /// reader's, not part of any issue's place.
    public var readerTextWidth: Int? { (try? setting(.readerTextWidth)).flatMap { Int($0) } }
    public func setReaderTextWidth(_ width: Int) throws { try setSetting(.readerTextWidth, String(width)) }
}

/// Small key/value rows: which issue is being read, and the like.
enum Setting: String {
    case currentlyReading = "currentlyReadingIssue"
    case sampleSubscribed = "sampleFeedSubscribed"
    case readerTextWidth = "readerTextWidth"
    case storesShownAsList = "storesShownAsList"
    case pictureAdviceGiven = "pictureAdviceGiven"

    static func value(_ db: Database, _ key: Setting) throws -> String? {
        try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = ?", arguments: [key.rawValue])
    }

    static func set(_ db: Database, _ key: Setting, _ value: String?) throws {
        if let value {
            try db.execute(sql: "INSERT INTO setting(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                           arguments: [key.rawValue, value])
        } else {
            try db.execute(sql: "DELETE FROM setting WHERE key = ?", arguments: [key.rawValue])
        }
    }
}
