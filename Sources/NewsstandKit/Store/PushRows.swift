import Foundation
import GRDB

/// The push repository: each publication's push channel state and the alerts pushes
/// brought (the automatic download's claim is in the publications repository).
extension LibraryStore {
    public func pushState(publicationID: Int64) throws -> PushState? {
        try read { db in try PushState.fetchOne(db, key: publicationID) }
    }

    /// Every publication's push state, by publication id.
    public func pushStates() throws -> [Int64: PushState] {
        let all = try read { db in try PushState.fetchAll(db) }
        return Dictionary(all.map { ($0.publicationId, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Changes one publication's push state in one transaction.
    func updatePushState(publicationID: Int64, _ change: (inout PushState) -> Void) throws {
        try write { db in
            var state = try PushState.fetchOne(db, key: publicationID) ?? PushState(publicationId: publicationID)
            change(&state)
            try state.save(db)
        }
    }

    /// Records a delivered event: `lastEventID` for reconnecting, and the event's own ID
    /// (if it gave one) among the recently delivered ones.
    func recordDeliveredEvent(lastEventID: String, ownID: String?, publicationID: Int64) throws {
        try updatePushState(publicationID: publicationID) { state in
            if !lastEventID.isEmpty { state.lastEventID = lastEventID }
            guard let ownID, !ownID.isEmpty, !ownID.contains("\n") else { return }
            var ids = (state.recentEventIDs ?? "").split(separator: "\n").map(String.init).filter { $0 != ownID }
            ids.append(ownID)
            state.recentEventIDs = ids.suffix(PushState.rememberedEventIDs).joined(separator: "\n")
        }
    }

    /// Alerts, newest first.
    public func pushAlerts(limit: Int = 20) throws -> [PushAlert] {
        try read { db in try PushAlert.order(Column("receivedAt").desc, Column("id").desc).limit(limit).fetchAll(db) }
    }

    /// Keeps an alert; returns it with its id.
    func insert(_ alert: PushAlert) throws -> PushAlert {
        try write { db in
            var alert = alert
            try alert.insert(db)
            return alert
        }
    }
}
