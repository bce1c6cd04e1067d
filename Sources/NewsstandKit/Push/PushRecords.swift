import Foundation
import GRDB

/// A breaking-news alert delivered by a push (`{"aps":{"alert":"…"}}`), kept in the library
/// so the shelf can show it on its status line.
public struct PushAlert: Codable, Sendable, Equatable, Identifiable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "pushAlert"
    public var id: Int64?
    public var publicationId: Int64?
    /// Already cleaned of control characters.
    public var text: String
    public var receivedAt: Date
    /// Sent through `notify-send` (the shelf was not open).
    public var notified: Bool
    /// When a shelf put it on its status line.
    public var shownAt: Date?

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// Why an automatic download did not run, and when the next one may.
public struct PushThrottle: Sendable, Equatable {
    public var issueName: String?
    public var reason: String
    public var at: Date
    public var nextAllowed: Date
}

/// A publication's push channel and automatic-download bookkeeping.
public struct PushState: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "pushState"
    public var publicationId: Int64
    /// The event stream's `Last-Event-ID`, sent when reconnecting (also after a restart).
    public var lastEventID: String?
    public var lastPushAt: Date?
    public var throttledIssue: String?
    public var throttleReason: String?
    public var throttledAt: Date?
    public var nextAutoDownloadAt: Date?
    /// The IDs of the last events delivered, oldest first, one per line: a server that
    /// ignores `Last-Event-ID` and sends its recent events again on every connection
    /// must not deliver an alert twice.
    public var recentEventIDs: String?

    /// How many delivered event IDs are remembered per publication.
    public static let rememberedEventIDs = 64

    public init(publicationId: Int64) { self.publicationId = publicationId }

    /// True when an event with this ID was already delivered.
    public func delivered(eventID: String) -> Bool {
        recentEventIDs?.split(separator: "\n", omittingEmptySubsequences: true).contains(Substring(eventID)) ?? false
    }

    /// The last throttled push, while it still holds at `now`.
    public func throttle(at now: Date) -> PushThrottle? {
        guard let throttleReason, let throttledAt, let nextAutoDownloadAt, nextAutoDownloadAt > now else { return nil }
        return PushThrottle(issueName: throttledIssue, reason: throttleReason, at: throttledAt, nextAllowed: nextAutoDownloadAt)
    }
}

extension LibraryStore {
    /// "v2-push": push channel state and alerts. Registered after v1 (other v2 migrations
    /// are independent of it).
    static func registerPushMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v2-push: push channel state and alerts") { db in
            try db.create(table: "pushState") { t in
                t.primaryKey("publicationId", .integer).references("publication", onDelete: .cascade)
                t.column("lastEventID", .text)
                t.column("lastPushAt", .datetime)
                t.column("throttledIssue", .text)
                t.column("throttleReason", .text)
                t.column("throttledAt", .datetime)
                t.column("nextAutoDownloadAt", .datetime)
            }
            try db.create(table: "pushAlert") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("publicationId", .integer).references("publication", onDelete: .setNull)
                t.column("text", .text).notNull()
                t.column("receivedAt", .datetime).notNull()
                t.column("notified", .boolean).notNull().defaults(to: false)
                t.column("shownAt", .datetime)
            }
        }
        migrator.registerMigration("v3-push: delivered event ids") { db in
            try db.alter(table: "pushState") { t in t.add(column: "recentEventIDs", .text) }
        }
    }
}
