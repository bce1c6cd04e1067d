import Foundation
import GRDB

extension Publication {
    /// The publications subscribed to: every one but those the user unsubscribed from.
    static var subscribed: QueryInterfaceRequest<Publication> { filter(Column("unsubscribedAt") == nil) }
}

/// The publications repository: the columns a refresh, the full-text switch and the
/// automatic downloads change one at a time (never a whole stale row written back).
extension LibraryStore {
    /// The publications subscribed to (not those unsubscribed), in the order they were added.
    static func publications(_ db: Database) throws -> [Publication] {
        try Publication.subscribed.order(Column("addedAt"), Column("id")).fetchAll(db)
    }

    public func publications() throws -> [Publication] { try read { db in try Self.publications(db) } }

    /// Every publication, those unsubscribed from too, in the order they were added.
    func publicationsIncludingUnsubscribed() throws -> [Publication] {
        try read { db in try Publication.order(Column("addedAt"), Column("id")).fetchAll(db) }
    }

    static func publication(_ db: Database, id: Int64) throws -> Publication? { try Publication.fetchOne(db, key: id) }

    public func publication(id: Int64) throws -> Publication? { try read { db in try Self.publication(db, id: id) } }

    static func publication(_ db: Database, feedURL: String) throws -> Publication? {
        try Publication.filter(Column("feedURL") == feedURL).fetchOne(db)
    }

    func publication(feedURL: String) throws -> Publication? { try read { db in try Self.publication(db, feedURL: feedURL) } }

    /// Finds a publication by id, exact title (case-insensitive) or feed URL; among those
    /// unsubscribed from too when `includingUnsubscribed`.
    public func publication(matching text: String, includingUnsubscribed: Bool = false) throws -> Publication {
        let all = includingUnsubscribed ? try publicationsIncludingUnsubscribed() : try publications()
        if let id = Int64(text), let match = all.first(where: { $0.id == id }) { return match }
        if let match = all.first(where: { $0.feedURL == text || $0.title.caseInsensitiveCompare(text) == .orderedSame }) {
            return match
        }
        let partial = all.filter { $0.title.range(of: text, options: .caseInsensitive) != nil }
        if partial.count == 1 { return partial[0] }
        throw LibraryError.noSuchPublication(text)
    }

    /// Every publication's title by id, unsubscribed ones too: what `issues` and `cache`
    /// name an issue's publication by.
    public func publicationTitles() throws -> [Int64: String] {
        try read { db in
            Dictionary(try Row.fetchAll(db, sql: "SELECT id, title FROM publication").map { ($0["id"], $0["title"]) },
                       uniquingKeysWith: { first, _ in first })
        }
    }

    /// Hides a publication and stops its refreshes; its issues stay its own.
    func markUnsubscribed(publicationID: Int64, at now: Date) throws {
        try write { db in
            try db.execute(sql: "UPDATE publication SET unsubscribedAt = ? WHERE id = ?", arguments: [now, publicationID])
        }
    }

    /// Deletes a publication once its issues are gone (one an issue still names stays,
    /// marked unsubscribed: no issue may belong to no publication).
    func deletePublicationWithoutIssues(id: Int64, at now: Date) throws {
        try write { db in
            if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM issue WHERE publicationId = ?)", arguments: [id]) == true {
                try db.execute(sql: "UPDATE publication SET unsubscribedAt = ? WHERE id = ?", arguments: [now, id])
            } else {
                _ = try Publication.deleteOne(db, key: id)
            }
        }
    }

    /// Inserts or updates the whole row; returns it with its id.
    @discardableResult
    public func save(_ publication: Publication) throws -> Publication {
        try write { db in
            var copy = publication
            try copy.save(db)
            return copy
        }
    }

    /// A refresh that found the feed unchanged (304): only its time and a cleared error.
    func markRefreshed(publicationID: Int64?, at now: Date) throws {
        try write { db in
            try db.execute(sql: "UPDATE publication SET lastRefresh = ?, lastError = NULL WHERE id = ?", arguments: [now, publicationID])
        }
    }

    /// Whether the publication's editions read each summary-only article from its web page
    /// (`subscribe --full-text`).
    public func fullText(publicationID: Int64?) throws -> Bool {
        try read { db in try Bool.fetchOne(db, sql: "SELECT fullText FROM publication WHERE id = ?", arguments: [publicationID]) ?? false }
    }

    public func setFullText(_ on: Bool, for publication: Publication) throws {
        guard let publicationID = publication.id else { throw LibraryError.noSuchPublication(publication.title) }
        try write { db in try db.execute(sql: "UPDATE publication SET fullText = ? WHERE id = ?", arguments: [on, publicationID]) }
    }

    /// Claims the publication's automatic download at `time` in one transaction, so two
    /// processes delivering pushes at once cannot both take it: the previous claim's time,
    /// or the throttle that holds `issueName` back (recorded in its push state).
    func claimAutomaticDownload(publicationID: Int64, issueName: String, at time: Date,
                                throttle: TimeInterval?) throws -> Result<Date?, PushThrottle> {
        try write { db in
            let previous = try Date.fetchOne(db, sql: "SELECT lastAutoDownload FROM publication WHERE id = ?", arguments: [publicationID])
            if let throttle, let previous, time < previous.addingTimeInterval(throttle) {
                let held = PushThrottle(issueName: issueName,
                                        reason: "one automatic download per publication per 24 hours (the last began \(PushReport.time(previous)))",
                                        at: time, nextAllowed: previous.addingTimeInterval(throttle))
                var state = try PushState.fetchOne(db, key: publicationID) ?? PushState(publicationId: publicationID)
                state.throttledIssue = held.issueName
                state.throttleReason = held.reason
                state.throttledAt = held.at
                state.nextAutoDownloadAt = held.nextAllowed
                try state.save(db)
                return .failure(held)
            }
            try db.execute(sql: "UPDATE publication SET lastAutoDownload = ? WHERE id = ?", arguments: [time, publicationID])
            try db.execute(sql: """
                UPDATE pushState SET throttledIssue = NULL, throttleReason = NULL, throttledAt = NULL, nextAutoDownloadAt = NULL
                WHERE publicationId = ?
                """, arguments: [publicationID])
            return .success(previous)
        }
    }

    /// Nothing was queued after all: the claim goes back to what it was.
    func giveBackAutomaticDownload(publicationID: Int64, previous: Date?) throws {
        try write { db in
            try db.execute(sql: "UPDATE publication SET lastAutoDownload = ? WHERE id = ?", arguments: [previous, publicationID])
        }
    }

    /// The newest alert no shelf has shown yet, and every unshown one marked shown.
    public func takeUnshownAlert(now: Date = Date()) throws -> PushAlert? {
        try write { db -> PushAlert? in
            guard let newest = try PushAlert.filter(Column("shownAt") == nil).order(Column("id").desc).fetchOne(db) else { return nil }
            try db.execute(sql: "UPDATE pushAlert SET shownAt = ? WHERE shownAt IS NULL", arguments: [now])
            return newest
        }
    }
}
