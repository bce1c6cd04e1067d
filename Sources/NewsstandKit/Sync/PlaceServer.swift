import Foundation

/// A place as a sync server keeps it for one book: where, dated by its reader, and whose.
struct ServerPlace: Sendable {
    var locator: Locator
    /// The server's mark of this place: a different mark is a different place (kosync's
    /// seconds, calibre's epoch in milliseconds).
    var stamp: Int64
    /// The reader that left it, as the server names it.
    var device: String?
    /// Left by this library (sent from here), so never taken back from the server.
    var fromThisReader: Bool
}

/// One kind of sync server as `PlaceSync` asks it: what it calls an issue, the place kept
/// there, and ours sent. The rules (newest wins, far moves offered) are `PlaceSync`'s.
protocol PlaceServer: Sendable {
    /// The issue's name on the server; nil when this server cannot know it.
    func document(of issue: Issue) -> String?
    /// The place the server keeps for `document` (the newest, when it keeps one per reader).
    func pull(document: String) throws -> ServerPlace?
    /// Sends our place; answers the server's mark for it when it gives one.
    func push(_ locator: Locator, of issue: Issue, document: String) throws -> Int64?
    /// Reads ahead, in few requests, the places `pull` will be asked for, where the server
    /// can answer many books at once.
    func prepare(_ issues: [(Issue, SyncPlaceRow)], parallel: Int) throws
}

extension PlaceServer {
    func prepare(_ issues: [(Issue, SyncPlaceRow)], parallel: Int) throws {}
}

extension PlaceSync {
    /// Asks calibre's content server for its libraries as `user`, so that a password it
    /// refuses is said before anything is kept. Without a user there is nothing to sync:
    /// calibre keeps an anonymous reader's place under one name and reads it under another
    /// (`_` and `*`, src/calibre/srv/books.py), so a place sent is never found again.
    func checkCalibre(url: URL, user: String?, password: String?, name: String) throws {
        guard user != nil else { throw Self.calibreNeedsAUser() }
        if password == nil { throw SyncError.invalid("calibre's content server needs the password of --user (--password-stdin)") }
        try CalibreContentServer(server: url, user: user, password: password, name: name, transport: transport).authorize()
    }

    /// Why calibre is not synced with without a user: said when one is added so, and at each
    /// sync of one an earlier build kept (`kept`, its name).
    static func calibreNeedsAUser(_ kept: String? = nil) -> SyncError {
        let why = "calibre's content server keeps reading places only for a user who signs in"
        guard let kept else { return .invalid("\(why): add it with --user NAME --password-stdin (calibre-server --manage-users makes one)") }
        return .invalid("\(kept): \(why): newsstand sync remove \(kept), then add it again with --user NAME --password-stdin")
    }

    /// The server `target` names, signed in with the password kept for it. A calibre server
    /// added without a user (as earlier builds let one) is refused, saying why: calibre
    /// would take its places and never give them back.
    func placeServer(for target: SyncTarget) throws -> any PlaceServer {
        let kept = try credentials().credentials(forHost: target.credentialKey)
        if target.kind == .calibre, target.user == nil { throw Self.calibreNeedsAUser(target.name) }
        // Either kind signs in as its user with the password kept for it.
        guard case .basic(_, let password)? = kept, let user = target.user else {
            throw SyncError.invalid("the password for \(target.name) is not kept; add it again (newsstand sync add)")
        }
        switch target.kind {
        case .kosync:
            let client = KOSyncClient(server: target.url, user: user, key: KOSyncWire.userKey(password: password), name: target.name, transport: transport)
            return KOSyncPlaces(client: client, target: target, sync: self)
        case .calibre:
            let server = CalibreContentServer(server: target.url, user: user, password: password, name: target.name, transport: transport)
            return CalibrePlaces(server: server, target: target, contentDirectory: { paths.contentDirectory(for: $0) },
                                 highlights: CalibreHighlights(store: store, server: server))
        }
    }
}

/// A kosync server's places: documents named by their file (KOReader's partial MD5 or file
/// name), places as KOReader writes them (`PlaceSync.progress`, `PlaceSync.locator`).
struct KOSyncPlaces: PlaceServer {
    var client: KOSyncClient
    var target: SyncTarget
    var sync: PlaceSync

    func document(of issue: Issue) -> String? { sync.documentID(of: issue, by: target.identity) }

    func pull(document: String) throws -> ServerPlace? {
        guard let progress = try client.pull(document: document), let stamp = progress.timestamp,
              let locator = PlaceSync.locator(from: progress) else { return nil }
        return ServerPlace(locator: locator, stamp: stamp, device: progress.device, fromThisReader: progress.deviceID == target.deviceID)
    }

    func push(_ locator: Locator, of issue: Issue, document: String) throws -> Int64? {
        try client.push(PlaceSync.progress(of: locator, document: document, target: target))
    }
}
