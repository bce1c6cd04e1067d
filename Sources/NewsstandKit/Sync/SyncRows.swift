import Foundation
import GRDB

/// A server the user added to keep places on (`newsstand sync add`). Its password is never
/// here: it is kept with the catalog sign-ins (`CredentialStore`, under `credentialKey`).
public struct SyncTarget: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable { case kosync, calibre }

    public var id: Int64
    public var name: String
    public var url: URL
    public var kind: Kind
    public var user: String?
    /// How a document is named on a kosync server (KOReader's setting of the same name).
    public var identity: KOSyncWire.DocumentIdentity
    /// What the server is told this reader is called, and its id.
    public var device: String
    public var deviceID: String
    /// When the server refused the user name or password (said once; `sync add` again clears it).
    public var refusedAt: Date?
    public var lastSyncedAt: Date?
    /// Why the last sync did not reach the server, if it did not.
    public var lastError: String?

    /// Where its password is kept in the credential store.
    public var credentialKey: String { "sync:\(name)" }
}

/// A place from another reader that would move this one far: offered, not taken.
public struct PlaceOffer: Sendable, Equatable {
    public var locator: Locator
    /// Which server and device it came from ("Kobo").
    public var source: String
    /// When the other reader was there.
    public var at: Date

    public init(locator: Locator, source: String, at: Date) { (self.locator, self.source, self.at) = (locator, source, at) }
}

/// A place this reader left when another replaced it.
public struct ReplacedPlace: Sendable, Equatable {
    public var locator: Locator
    public var replacedAt: Date
    /// What replaced it: a sync server and device, or "place --set".
    public var replacedBy: String

    public init(locator: Locator, replacedAt: Date, replacedBy: String) {
        (self.locator, self.replacedAt, self.replacedBy) = (locator, replacedAt, replacedBy)
    }
}

/// One issue's standing with one target: its document id there, whether our place waits
/// to be sent (and when to try again), and the server's time of the place last seen.
struct SyncPlaceRow: Sendable, Equatable {
    var targetID: Int64
    var issueID: Int64
    var document: String?
    var pending: Bool
    var attempts: Int
    var retryAt: Date?
    var seenTimestamp: Int64?
    /// Whether the place seen at `seenTimestamp` was this reader's own, sent: a place from
    /// another reader at the same stamp came after it (servers stamp to the second).
    var seenOwn = false
}

extension LibraryStore {
    /// Places kept per issue when replaced: the newest this many.
    static let placeHistoryLength = 10

    /// Whether the stamp seen was this reader's own push (`SyncPlaceRow.seenOwn`).
    static func registerSeenOwnMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v20-seenown: whether the place seen was this reader's own") { db in
            try db.execute(sql: "ALTER TABLE syncPlace ADD COLUMN seenOwn BOOLEAN NOT NULL DEFAULT 0")
        }
    }

    /// A highlight made, changed or deleted (a tombstone is a change) waits to be sent to the
    /// calibre servers like a place (kosync keeps no highlights): the agent's sync of waiting
    /// places takes it there; before, a highlight that moved no place went only at `sync now`
    /// or when its issue was opened. The sync's own merge of calibre's highlights marks its
    /// issue too, and the same sync then clears the mark (`saveSyncPlace`).
    static func registerHighlightSyncMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v20-hlsync: a highlight's change waits to be sent to calibre servers") { db in
            for event in ["INSERT", "UPDATE"] {
                try db.execute(sql: """
                    CREATE TRIGGER highlight_sync_\(event.lowercased()) AFTER \(event) ON highlight BEGIN
                        INSERT INTO syncPlace (targetId, issueId) SELECT id, NEW.issueId FROM syncTarget WHERE kind = 'calibre'
                        ON CONFLICT (targetId, issueId) DO UPDATE SET pending = 1, attempts = 0, retryAt = NULL;
                    END
                    """)
            }
        }
    }

    static func registerSyncMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v19d-sync: servers places are synced with, the places waiting for them, places replaced and offered") { db in
            try db.execute(sql: """
                CREATE TABLE syncTarget (
                    id INTEGER PRIMARY KEY,
                    name TEXT NOT NULL UNIQUE,
                    url TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    user TEXT,
                    identity TEXT NOT NULL DEFAULT 'binary',
                    device TEXT NOT NULL,
                    deviceID TEXT NOT NULL,
                    addedAt DATETIME NOT NULL,
                    refusedAt DATETIME,
                    lastSyncedAt DATETIME,
                    lastError TEXT);
                CREATE TABLE syncPlace (
                    targetId INTEGER NOT NULL REFERENCES syncTarget(id) ON DELETE CASCADE,
                    issueId INTEGER NOT NULL REFERENCES issue(id) ON DELETE CASCADE,
                    document TEXT,
                    pending BOOLEAN NOT NULL DEFAULT 1,
                    attempts INTEGER NOT NULL DEFAULT 0,
                    retryAt DATETIME,
                    seenTimestamp INTEGER,
                    PRIMARY KEY (targetId, issueId));
                CREATE INDEX syncPlace_pending ON syncPlace(pending, targetId);
                CREATE TRIGGER sync_place_changed AFTER UPDATE OF locator ON issue
                WHEN NEW.locator IS NOT NULL AND NEW.locator IS NOT OLD.locator BEGIN
                    INSERT INTO syncPlace (targetId, issueId) SELECT id, NEW.id FROM syncTarget WHERE true
                    ON CONFLICT (targetId, issueId) DO UPDATE SET pending = 1, attempts = 0, retryAt = NULL;
                END;
                CREATE TABLE placeHistory (
                    id INTEGER PRIMARY KEY,
                    issueId INTEGER NOT NULL REFERENCES issue(id) ON DELETE CASCADE,
                    locator TEXT NOT NULL,
                    replacedAt DATETIME NOT NULL,
                    replacedBy TEXT NOT NULL);
                CREATE INDEX placeHistory_by_issue ON placeHistory(issueId, id);
                CREATE TABLE placeOffer (
                    issueId INTEGER PRIMARY KEY REFERENCES issue(id) ON DELETE CASCADE,
                    locator TEXT NOT NULL,
                    source TEXT NOT NULL,
                    at DATETIME NOT NULL);
                """)
        }
    }

    // MARK: Targets

    func syncTargets() throws -> [SyncTarget] {
        try read { db in try Row.fetchAll(db, sql: "SELECT * FROM syncTarget ORDER BY name").compactMap(Self.target) }
    }

    func syncTarget(named name: String) throws -> SyncTarget? {
        try read { db in try Row.fetchOne(db, sql: "SELECT * FROM syncTarget WHERE name = ?", arguments: [name]).flatMap(Self.target) }
    }

    /// Adds the target, or replaces the one of that name (its places are then all sent again).
    func saveSyncTarget(name: String, url: URL, kind: SyncTarget.Kind, user: String?, identity: KOSyncWire.DocumentIdentity,
                        device: String, deviceID: String, at now: Date) throws {
        try write { db in
            try db.execute(sql: "DELETE FROM syncTarget WHERE name = ?", arguments: [name])
            try db.execute(sql: """
                INSERT INTO syncTarget (name, url, kind, user, identity, device, deviceID, addedAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [name, url.absoluteString, kind.rawValue, user, identity.rawValue, device, deviceID, now])
            // Every place we have goes to the new server.
            try db.execute(sql: """
                INSERT INTO syncPlace (targetId, issueId) SELECT (SELECT id FROM syncTarget WHERE name = ?), id FROM issue WHERE locator IS NOT NULL
                """, arguments: [name])
        }
    }

    @discardableResult
    func removeSyncTarget(named name: String) throws -> Bool {
        try write { db in
            try db.execute(sql: "DELETE FROM syncTarget WHERE name = ?", arguments: [name])
            return db.changesCount > 0
        }
    }

    func noteSync(of target: SyncTarget, refused: Bool? = nil, error: String?, at now: Date) throws {
        try write { db in
            if let refused {
                try db.execute(sql: "UPDATE syncTarget SET refusedAt = ? WHERE id = ?", arguments: [refused ? now : nil, target.id])
            }
            try db.execute(sql: "UPDATE syncTarget SET lastError = ?, lastSyncedAt = CASE WHEN ? IS NULL THEN ? ELSE lastSyncedAt END WHERE id = ?",
                           arguments: [error, error, now, target.id])
        }
    }

    private static func target(_ row: Row) -> SyncTarget? {
        guard let url = URL(string: row["url"]), let kind = SyncTarget.Kind(rawValue: row["kind"]) else { return nil }
        return SyncTarget(id: row["id"], name: row["name"], url: url, kind: kind, user: row["user"],
                          identity: KOSyncWire.DocumentIdentity(rawValue: row["identity"]) ?? .binary,
                          device: row["device"], deviceID: row["deviceID"], refusedAt: row["refusedAt"],
                          lastSyncedAt: row["lastSyncedAt"], lastError: row["lastError"])
    }

    // MARK: Places to sync

    /// The issues with a place or content (all, or those of `issues`: the open reader's one),
    /// and each one's row for `target` (made when missing).
    func syncPlaces(for target: SyncTarget, onlyDue: Date?, issues: Set<Int64>? = nil) throws -> [(Issue, SyncPlaceRow)] {
        try read { db in
            var arguments: StatementArguments = [target.id]
            var conditions = "(issue.locator IS NOT NULL OR issue.status = 'available')"
            if let onlyDue {
                conditions += " AND p.pending = 1 AND (p.retryAt IS NULL OR p.retryAt <= ?)"
                arguments += [onlyDue]
            }
            if let issues {
                conditions += " AND issue.id IN (SELECT value FROM json_each(?))"
                arguments += [String(decoding: try JSONEncoder().encode(issues.sorted()), as: UTF8.self)]
            }
            let rows = try Row.fetchAll(db, sql: """
                SELECT issue.*, p.document AS syncDocument, p.pending AS syncPending, p.attempts AS syncAttempts,
                       p.retryAt AS syncRetryAt, p.seenTimestamp AS syncSeen, p.seenOwn AS syncSeenOwn, p.targetId AS syncTarget
                FROM issue LEFT JOIN syncPlace p ON p.issueId = issue.id AND p.targetId = ?
                WHERE \(conditions)
                ORDER BY issue.id
                """, arguments: arguments)
            return try rows.map { row in
                let issue = try Issue(row: row)
                let known = (row["syncTarget"] as Int64?) != nil
                return (issue, SyncPlaceRow(targetID: target.id, issueID: issue.id ?? 0, document: row["syncDocument"],
                                            pending: known ? row["syncPending"] : issue.locator != nil,
                                            attempts: row["syncAttempts"] ?? 0, retryAt: row["syncRetryAt"], seenTimestamp: row["syncSeen"],
                                            seenOwn: row["syncSeenOwn"] ?? false))
            }
        }
    }

    func saveSyncPlace(_ place: SyncPlaceRow) throws {
        try write { db in try Self.saveSyncPlace(db, place) }
    }

    static func saveSyncPlace(_ db: Database, _ place: SyncPlaceRow) throws {
        try db.execute(sql: """
            INSERT INTO syncPlace (targetId, issueId, document, pending, attempts, retryAt, seenTimestamp, seenOwn) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (targetId, issueId) DO UPDATE SET document = excluded.document, pending = excluded.pending,
                attempts = excluded.attempts, retryAt = excluded.retryAt, seenTimestamp = excluded.seenTimestamp, seenOwn = excluded.seenOwn
            """, arguments: [place.targetID, place.issueID, place.document, place.pending, place.attempts, place.retryAt, place.seenTimestamp,
                             place.seenOwn])
    }

    /// Places that wait for a server (any target).
    public func pendingPlaceCount() throws -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM syncPlace WHERE pending = 1") ?? 0 }
    }

    // MARK: Replacing a place

    /// Puts `locator` in the issue's place, keeping the place it replaces in its history (the
    /// newest `placeHistoryLength`), and drops any offer. With `sentTo` the place came from
    /// that row's server: it does not wait to be sent back there.
    func replacePlace(of issue: Issue, with locator: Locator, by source: String, at now: Date, from place: SyncPlaceRow? = nil) throws {
        guard let issueID = issue.id else { return }
        try write { db in
            if let old = try Locator.fetchOne(db, sql: "SELECT locator FROM issue WHERE id = ?", arguments: [issueID]) {
                try db.execute(sql: "INSERT INTO placeHistory (issueId, locator, replacedAt, replacedBy) VALUES (?, ?, ?, ?)",
                               arguments: [issueID, old, now, source])
                try db.execute(sql: """
                    DELETE FROM placeHistory WHERE issueId = ? AND id NOT IN
                        (SELECT id FROM placeHistory WHERE issueId = ? ORDER BY id DESC LIMIT ?)
                    """, arguments: [issueID, issueID, Self.placeHistoryLength])
            }
            try db.execute(sql: "UPDATE issue SET locator = ? WHERE id = ?", arguments: [locator, issueID])
            try db.execute(sql: "DELETE FROM placeOffer WHERE issueId = ?", arguments: [issueID])
            if let place { try Self.saveSyncPlace(db, place) }
        }
    }

    public func placeHistory(of issue: Issue) throws -> [ReplacedPlace] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM placeHistory WHERE issueId = ? ORDER BY id DESC", arguments: [issue.id]).compactMap { row in
                guard let locator = Locator.fromDatabaseValue(row["locator"]) else { return nil }
                return ReplacedPlace(locator: locator, replacedAt: row["replacedAt"], replacedBy: row["replacedBy"])
            }
        }
    }

    // MARK: Offers

    /// A place another reader offers for `issue` (one waits at a time), with the sync server's
    /// row that brought it, when one did (a catalog's or a device's of the shelf's own server did not).
    func offerPlace(_ offer: PlaceOffer, for issue: Issue, place: SyncPlaceRow? = nil) throws {
        try write { db in
            try db.execute(sql: """
                INSERT INTO placeOffer (issueId, locator, source, at) VALUES (?, ?, ?, ?)
                ON CONFLICT (issueId) DO UPDATE SET locator = excluded.locator, source = excluded.source, at = excluded.at
                """, arguments: [issue.id, offer.locator, offer.source, offer.at])
            if let place { try Self.saveSyncPlace(db, place) }
        }
    }

    /// The place another reader offers for this issue, if one waits.
    public func placeOffer(for issue: Issue) throws -> PlaceOffer? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM placeOffer WHERE issueId = ?", arguments: [issue.id]).flatMap { row in
                Locator.fromDatabaseValue(row["locator"]).map { PlaceOffer(locator: $0, source: row["source"], at: row["at"]) }
            }
        }
    }

    /// Declines the offer (Esc): the reader stays where it is.
    public func declinePlaceOffer(for issue: Issue) throws {
        try write { db in try db.execute(sql: "DELETE FROM placeOffer WHERE issueId = ?", arguments: [issue.id]) }
    }
}
