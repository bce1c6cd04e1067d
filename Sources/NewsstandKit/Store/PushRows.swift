import Foundation
import GRDB

/// The push repository: each publication's push channel state and the alerts pushes
/// brought (the automatic download's claim is in the publications repository).
extension LibraryStore {
    func pushState(publicationID: Int64) throws -> PushState? {
        try read { db in try PushState.fetchOne(db, key: publicationID) }
    }

    func pushStates() throws -> [PushState] { try read { db in try PushState.fetchAll(db) } }

    /// Changes one publication's push state in one transaction.
    func updatePushState(publicationID: Int64, _ change: (inout PushState) -> Void) throws {
        try write { db in
            var state = try PushState.fetchOne(db, key: publicationID) ?? PushState(publicationId: publicationID)
            change(&state)
            try state.save(db)
        }
    }

    /// Alerts, newest first.
    func pushAlerts(limit: Int) throws -> [PushAlert] {
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
