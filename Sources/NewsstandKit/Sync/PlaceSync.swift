import Foundation
import GRDB
import Synchronization

/// Keeps each issue's place in step with the servers the user added (`newsstand sync add`):
/// a service apart from the store, asked by the `sync` and `place` commands, by the shelf
/// when an issue is opened or left (an effect, never on a key's path) and by the agent
/// while places wait. The newest place by its time wins; one that would move the reader
/// back, or forward by more than a few pages, is offered rather than taken; every place
/// replaced is kept in the issue's history; a server that is down keeps the places waiting,
/// tried again later with a growing wait; a refused password is said once.
public struct PlaceSync: Sendable {
    let store: LibraryStore
    let paths: Paths
    let clock: WallClock
    let transport: any SyncTransport
    let credentials: @Sendable () -> CredentialStore
    /// How many places are asked for at once, per server.
    var parallel = 8

    public init(store: LibraryStore, paths: Paths, clock: WallClock) {
        let made = Mutex<CredentialStore?>(nil)
        self.init(store: store, paths: paths, clock: clock, transport: HTTPAccess.syncTransport(), credentials: {
            made.withLock { store in
                if let store { return store }
                let fresh = CredentialStore(paths: paths)
                store = fresh
                return fresh
            }
        })
    }

    init(store: LibraryStore, paths: Paths, clock: WallClock, transport: any SyncTransport,
         credentials: @escaping @Sendable () -> CredentialStore) {
        (self.store, self.paths, self.clock, self.transport, self.credentials) = (store, paths, clock, transport, credentials)
    }

    // MARK: Targets

    /// Adds (or replaces) a server: a kosync account is signed up, or signed in to when it
    /// exists, before anything is kept; the password goes to the credential store.
    public func add(name: String, url: URL, kind: SyncTarget.Kind, user: String?, password: String?,
                    identity: KOSyncWire.DocumentIdentity = .binary) throws {
        guard !name.isEmpty, !name.contains(where: { $0.isWhitespace || $0.isNewline }) else {
            throw SyncError.invalid("a sync server's name is one word (\"\(name)\" is not)")
        }
        guard let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil else {
            throw SyncError.invalid("\(url.absoluteString) is not an http or https address")
        }
        let deviceID = UUID().uuidString.replacingOccurrences(of: "-", with: "").uppercased()
        if kind == .kosync {
            guard let user, let password else { throw SyncError.invalid("a KOReader sync server needs --user and a password (--password-stdin)") }
            try KOSyncClient(server: url, user: user, key: KOSyncWire.userKey(password: password), name: name, transport: transport).register()
        } else {
            try checkCalibre(url: url, user: user, password: password, name: name)
        }
        if let password {
            try credentials().save(.basic(user: user ?? "", password: password), for: "sync:\(name)")
        }
        try store.saveSyncTarget(name: name, url: url, kind: kind, user: user, identity: identity,
                                 device: Self.deviceName, deviceID: deviceID, at: clock.now())
    }

    public func targets() throws -> [SyncTarget] { try store.syncTargets() }

    /// Forgets the server and its password.
    public func remove(name: String) throws {
        guard let target = try store.syncTarget(named: name) else { throw SyncError.noSuchTarget(name) }
        try store.removeSyncTarget(named: name)
        _ = try? credentials().remove(target.credentialKey)
    }

    /// What this reader is called on servers ("newsstand on HOST").
    static var deviceName: String { "newsstand on \(ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "this computer")" }

    // MARK: Syncing

    /// What one sync did.
    public struct Report: Sendable, Equatable {
        /// Places sent, taken from a server, offered to the reader, still waiting for a server.
        public var sent = 0, received = 0, offered = 0, waiting = 0
        /// Issues whose file cannot be named for the server (content extracted, nothing kept).
        public var unnamed = 0
        /// One sentence a server: unreachable, or a password refused (said once).
        public var problems: [String] = []
    }

    /// Syncs every issue with a place or content (`issues` nil) or only those, with every
    /// server; `onlyDue` (the agent) sends only places that wait and whose retry time came.
    public func sync(issues: [Int64]? = nil, onlyDue: Bool = false) -> Report {
        var report = Report()
        for target in (try? store.syncTargets()) ?? [] {
            if onlyDue, target.refusedAt != nil { continue }
            sync(target, issues: issues.map(Set.init), onlyDue: onlyDue, into: &report)
        }
        catalogs.sync(issues: issues, onlyDue: onlyDue, into: &report)  // catalogs that keep places (CatalogPlaceSync)
        report.waiting = (try? store.pendingPlaceCount()) ?? 0
        return report
    }

    private func sync(_ target: SyncTarget, issues: Set<Int64>?, onlyDue: Bool, into report: inout Report) {
        let now = clock.now()
        let client: any PlaceServer
        do {
            client = try placeServer(for: target)
        } catch {
            report.problems.append(String(describing: error))
            return
        }
        let places: [(Issue, SyncPlaceRow)]
        do {
            places = try store.syncPlaces(for: target, onlyDue: onlyDue ? now : nil, issues: issues)
        } catch {
            report.problems.append("the library could not be read: \(error)")
            return
        }
        let outcome = Outcome()
        do {
            try client.prepare(places, parallel: parallel)
        } catch {
            outcome.stop(error as? SyncError ?? .invalid("the library could not keep a synced place: \(error)"))
        }
        let next = Atomic<Int>(0)
        let workers = max(1, min(parallel, places.count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while !outcome.stopped {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < places.count else { return }
                do {
                    outcome.count(try syncPlace(places[index].0, places[index].1, with: client, target: target))
                } catch let error as SyncError {
                    outcome.stop(error)
                } catch {
                    outcome.stop(.invalid("the library could not keep a synced place: \(error)"))
                }
            }
        }
        let (counts, failure) = outcome.result
        report.sent += counts.sent; report.received += counts.received
        report.offered += counts.offered; report.unnamed += counts.unnamed
        switch failure {
        case nil:
            try? store.noteSync(of: target, refused: false, error: nil, at: now)
        case .refused?:
            if target.refusedAt == nil { report.problems.append(failure!.description) }
            try? store.noteSync(of: target, refused: true, error: failure!.description, at: now)
        case let failure?:
            report.problems.append(failure.description)
            try? store.postponeSync(of: target, at: now)
            try? store.noteSync(of: target, error: failure.description, at: now)
        }
    }

    enum Step { case sent, received, offered, unnamed, nothing }

    /// The rule for a newer place from elsewhere (a sync server, a catalog, a device of the
    /// shelf's own server), against the reader's own `local`: taken when there is none or it
    /// moves the reader a little forward, offered when it would move it back or far, nothing
    /// when it is the same place. A sync server's `row` is saved with what is done.
    static func weigh(_ their: Locator, over local: Locator?, of issue: Issue, from source: String, row: SyncPlaceRow? = nil,
                      in store: LibraryStore, at now: Date) throws -> Step {
        guard let local else {
            try store.replacePlace(of: issue, with: their, by: source, at: now, from: row)
            return .received
        }
        switch move(from: local, to: their) {
        case .none:
            if let row { try store.saveSyncPlace(row) }
            return .nothing
        case .small:
            try store.replacePlace(of: issue, with: their, by: source, at: now, from: row)
            return .received
        case .far:
            try store.offerPlace(PlaceOffer(locator: their, source: source, at: their.updated), for: issue, place: row)
            return .offered
        }
    }

    /// One issue with one server: the newer place wins; ours is sent when it waits.
    private func syncPlace(_ issue: Issue, _ row: SyncPlaceRow, with client: any PlaceServer, target: SyncTarget) throws -> Step {
        let original = row
        var row = row
        guard let document = row.document ?? client.document(of: issue) else { return .unnamed }
        row.document = document
        let local = issue.locator
        let theirs = try client.pull(document: document)
        // Another reader's place at the very stamp of the one sent from here came after it
        // (stamped to the same second): newer than ours, unless ours moved since.
        let afterOurs = theirs.map { $0.stamp == row.seenTimestamp && row.seenOwn && !row.pending } ?? false
        if let theirs, theirs.stamp != row.seenTimestamp || afterOurs, !theirs.fromThisReader,
           afterOurs || local.map({ theirs.locator.updated > $0.updated }) ?? true {
            let their = theirs.locator
            row.seenTimestamp = theirs.stamp
            row.seenOwn = false
            row.pending = false
            row.attempts = 0
            row.retryAt = nil
            return try Self.weigh(their, over: local, of: issue, from: "\(target.name): \(theirs.device ?? "another reader")",
                                  row: row, in: store, at: clock.now())
        }
        if let theirs, theirs.stamp != row.seenTimestamp {
            row.seenTimestamp = theirs.stamp
            row.seenOwn = theirs.fromThisReader
        }
        // The server holds this very place already (one taken from it): nothing to send.
        if row.pending, let local, let their = theirs?.locator, Self.move(from: local, to: their) == .none {
            row.pending = false
        }
        guard row.pending, let local else {
            if row != original { try store.saveSyncPlace(row) }  // a thousand unchanged places write nothing
            return .nothing
        }
        let stamp = try client.push(local, of: issue, document: document)
        row.pending = false
        row.attempts = 0
        row.retryAt = nil
        if let stamp {
            row.seenTimestamp = stamp
            row.seenOwn = true
        }
        try store.saveSyncPlace(row)
        return .sent
    }

    /// The issue's name on a kosync server, when its file can be found: one's own file where
    /// it lies, or a content that is one file (a PDF); an EPUB or comic that was unpacked
    /// into the cache kept no file to name (by file name, the name it was downloaded as).
    func documentID(of issue: Issue, by identity: KOSyncWire.DocumentIdentity) -> String? {
        // The file as downloaded, named before it was unpacked (`DownloadedDocuments.swift`).
        if let downloaded = try? store.downloadedDocument(of: issue) { return downloaded.id(by: identity) }
        let file = Self.contentFile(of: issue, in: paths.contentDirectory(for: issue))
        switch identity {
        case .binary:
            return file.flatMap { try? KOSyncWire.partialMD5(of: $0) }
        case .filename:
            let name = file?.lastPathComponent ?? issue.contentURL.flatMap(URL.init(string:))?.lastPathComponent
            return name.map(KOSyncWire.fileNameMD5)
        }
    }

    static func contentFile(of issue: Issue, in directory: URL) -> URL? {
        let manager = FileManager.default
        if let own = issue.contentURL.flatMap(URL.init(string:)), own.isFileURL {
            var isDirectory: ObjCBool = false
            if manager.fileExists(atPath: own.path, isDirectory: &isDirectory), !isDirectory.boolValue { return own }
        }
        guard let names = try? manager.contentsOfDirectory(atPath: directory.path).filter({ !$0.hasPrefix(".") }), names.count == 1 else { return nil }
        let file = directory.appendingPathComponent(names[0])
        var isDirectory: ObjCBool = false
        return manager.fileExists(atPath: file.path, isDirectory: &isDirectory) && !isDirectory.boolValue ? file : nil
    }

    // MARK: Places on the wire

    /// Our place as KOReader keeps one: the page (from 1) of a paged document, else the
    /// start of the chapter as an XPointer where the chapter is known by its index, else the
    /// percentage itself; the percentage always, to four places as KOReader rounds it.
    static func progress(of locator: Locator, document: String, target: SyncTarget) -> KOSyncWire.Progress {
        let percentage = (locator.totalProgression * 10_000).rounded() / 10_000
        let progress: String
        if let page = locator.page { progress = String(page + 1) }
        else if let index = locator.resourceIndex { progress = "/body/DocFragment[\(index + 1)]/body" }
        else { progress = String(format: "%.4f", percentage) }
        return KOSyncWire.Progress(document: document, progress: progress, percentage: percentage,
                                   device: target.device, deviceID: target.deviceID)
    }

    /// A place read from a kosync server, dated by the server: a page number is a page, an
    /// XPointer names its chapter (`DocFragment[N]`), and the percentage is always the place
    /// through the whole issue.
    static func locator(from progress: KOSyncWire.Progress) -> Locator? {
        guard let percentage = progress.percentage, let stamp = progress.timestamp else { return nil }
        let updated = Date(timeIntervalSince1970: TimeInterval(stamp))
        let text = progress.progress ?? ""
        if let page = Int(text), page >= 1 {
            return Locator(resource: "", progression: 1, totalProgression: percentage, page: page - 1, updated: updated)
        }
        if let chapter = chapterIndex(inXPointer: text) {
            return Locator(legacyPosition: "{\"article\":\(chapter)}", progress: percentage, updated: updated)
        }
        return Locator(resource: "", progression: 0, totalProgression: percentage, updated: updated)
    }

    /// `/body/DocFragment[12]/body/p[3]` → 11.
    static func chapterIndex(inXPointer text: String) -> Int? {
        guard let start = text.range(of: "DocFragment["), let end = text[start.upperBound...].firstIndex(of: "]"),
              let number = Int(text[start.upperBound..<end]), number >= 1 else { return nil }
        return number - 1
    }

    enum Move { case none, small, far }

    /// How far a place moves the reader: forward by up to `fewPages` pages (or as many
    /// hundredths of an unpaged issue) is small and taken; back, or further, is far and offered.
    static let fewPages = 3
    static func move(from here: Locator, to there: Locator) -> Move {
        if let from = here.page, let to = there.page {
            let pages = to - from
            return pages == 0 ? .none : (1...fewPages).contains(pages) ? .small : .far
        }
        let hundredths = Int(((there.totalProgression - here.totalProgression) * 100).rounded())
        return hundredths == 0 ? .none : (1...fewPages).contains(hundredths) ? .small : .far
    }

    // MARK: One issue's place, for scripts

    /// Sets the issue's place by hand (`newsstand place --set`): a share of the whole issue,
    /// or a page (from 1). The old place goes to the history; the new one waits for the servers.
    public func setPlace(of issue: Issue, percentage: Double? = nil, page: Int? = nil) throws {
        let now = clock.now()
        let locator: Locator
        if let page {
            let total = percentage ?? issue.locator?.totalProgression ?? 0
            locator = Locator(resource: "", progression: 1, totalProgression: total, page: max(0, page - 1), updated: now)
        } else {
            // Only how far: no chapter (the reader finds it by the articles' sizes, `placed`).
            locator = Locator(resource: "", progression: 0, totalProgression: percentage ?? 0, page: nil, updated: now)
        }
        try store.replacePlace(of: issue, with: locator, by: "place --set", at: now)
    }

    /// Takes the offered place (Enter on the reader's offer); the one left is kept in the history.
    public func acceptOffer(for issue: Issue) throws {
        guard let offer = try store.placeOffer(for: issue) else { return }
        try store.replacePlace(of: issue, with: offer.locator, by: offer.source, at: clock.now())
    }
}

/// What the workers of one sync found, gathered under a lock; the first failure stops them
/// all (a server down is down for every place).
private final class Outcome: Sendable {
    struct Counts { var sent = 0, received = 0, offered = 0, unnamed = 0 }
    private let state = Mutex<(Counts, SyncError?)>((Counts(), nil))

    var stopped: Bool { state.withLock { $0.1 != nil } }
    var result: (Counts, SyncError?) { state.withLock { $0 } }

    func count(_ step: PlaceSync.Step) {
        state.withLock { state in
            switch step {
            case .sent: state.0.sent += 1
            case .received: state.0.received += 1
            case .offered: state.0.offered += 1
            case .unnamed: state.0.unnamed += 1
            case .nothing: break
            }
        }
    }

    func stop(_ error: SyncError) { state.withLock { if $0.1 == nil { $0.1 = error } } }
}

extension LibraryStore {
    /// A server did not answer: every place waiting for it is tried again later, the wait
    /// doubling with each attempt from 30 s up to an hour.
    func postponeSync(of target: SyncTarget, at now: Date) throws {
        try write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO syncPlace (targetId, issueId) SELECT ?, id FROM issue WHERE locator IS NOT NULL",
                           arguments: [target.id])
            let rows = try Row.fetchAll(db, sql: "SELECT issueId, attempts FROM syncPlace WHERE targetId = ? AND pending = 1", arguments: [target.id])
            for row in rows {
                let attempts: Int = row["attempts"]
                let wait = min(3600, 30 * pow(2, Double(min(attempts, 12))))
                try db.execute(sql: "UPDATE syncPlace SET attempts = ?, retryAt = ? WHERE targetId = ? AND issueId = ?",
                               arguments: [attempts + 1, now.addingTimeInterval(wait), target.id, row["issueId"] as Int64])
            }
        }
    }
}
