import Foundation

/// The library's side of its own kosync server (`newsstand serve`): a device that syncs with
/// the shelf sends places here and reads the shelf's. A place that arrives is weighed by the
/// same rules as one read from a sync server (`PlaceSync`): taken when it moves the reader
/// forward a little, offered when it would move it back or far, kept in the history when it
/// replaces one; so the shelf shows it like any synced place, and it then waits to be sent to
/// the servers the user added.
extension PlaceSync {
    /// What became of a place a device sent.
    public enum Arrival: Sendable, Equatable { case taken, offered, unchanged, older }

    /// Weighs the place `progress` a device sent for `issue` (`device` names it, as
    /// "serve: Kobo"), stamped `at` by the server.
    @discardableResult
    public func arrive(_ progress: KOSyncWire.Progress, for issue: Issue, from device: String, at stamp: Int64) throws -> Arrival {
        var stamped = progress
        stamped.timestamp = stamp
        guard let their = Self.locator(from: stamped) else { return .unchanged }
        // The server stamps in whole seconds: a place set on the shelf earlier in the same second is not newer.
        if let local = issue.locator, stamp < Int64(local.updated.timeIntervalSince1970.rounded(.down)) { return .older }
        switch try Self.weigh(their, over: issue.locator, of: issue, from: "newsstand serve: \(device)", in: store, at: clock.now()) {
        case .received: return .taken
        case .offered: return .offered
        default: return .unchanged
        }
    }

    /// The shelf's place for `document` as a device reads it from this library's server.
    public static func servedProgress(of locator: Locator, document: String) -> KOSyncWire.Progress {
        let target = SyncTarget(id: 0, name: "", url: URL(fileURLWithPath: "/"), kind: .kosync, user: nil, identity: .binary,
                                device: deviceName, deviceID: KOSyncWire.fileNameMD5(deviceName).uppercased())
        var progress = progress(of: locator, document: document, target: target)
        progress.timestamp = Int64(locator.updated.timeIntervalSince1970)
        return progress
    }
}

extension LibraryStore {
    /// Every issue whose content is on disk, in the order they were added.
    public func installedIssues() throws -> [Issue] { try availableIssues() }
}
