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

    public init(publicationId: Int64) { self.publicationId = publicationId }

    /// The last throttled push, while it still holds at `now`.
    public func throttle(at now: Date) -> PushThrottle? {
        guard let throttleReason, let throttledAt, let nextAutoDownloadAt, nextAutoDownloadAt > now else { return nil }
        return PushThrottle(issueName: throttledIssue, reason: throttleReason, at: throttledAt, nextAllowed: nextAutoDownloadAt)
    }
}

extension Library {
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
    }

    public func pushState(publicationID: Int64) throws -> PushState? {
        try db.read { db in try PushState.fetchOne(db, key: publicationID) }
    }

    /// Every publication's push state, by publication id.
    public func pushStates() throws -> [Int64: PushState] {
        let all = try db.read { db in try PushState.fetchAll(db) }
        return Dictionary(all.map { ($0.publicationId, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Changes one publication's push state in one transaction.
    func updatePushState(publicationID: Int64, _ change: (inout PushState) -> Void) throws {
        try db.write { db in
            var state = try PushState.fetchOne(db, key: publicationID) ?? PushState(publicationId: publicationID)
            change(&state)
            try state.save(db)
        }
    }

    public func recordLastEventID(_ id: String, publicationID: Int64) throws {
        try updatePushState(publicationID: publicationID) { $0.lastEventID = id }
    }

    /// Alerts, newest first.
    public func pushAlerts(limit: Int = 20) throws -> [PushAlert] {
        try db.read { db in try PushAlert.order(Column("receivedAt").desc, Column("id").desc).limit(limit).fetchAll(db) }
    }

    /// The newest alert no shelf has shown yet, marked shown (older unshown ones too: the
    /// status line has room for one).
    public func takeUnshownAlert(now: Date = Date()) -> PushAlert? {
        try? db.write { db -> PushAlert? in
            guard let newest = try PushAlert.filter(Column("shownAt") == nil).order(Column("id").desc).fetchOne(db) else { return nil }
            try db.execute(sql: "UPDATE pushAlert SET shownAt = ? WHERE shownAt IS NULL", arguments: [now])
            return newest
        }
    }
}
