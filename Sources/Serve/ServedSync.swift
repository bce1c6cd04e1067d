import Foundation
import NewsstandKit
import Synchronization
import TextLayout

/// The KOReader sync server of the shelf (`KOSyncWire`): a device set to sync with
/// `http://HOST:PORT` sends its place for a document, and the place of the issue that document
/// is comes back to the library (`PlaceSync.arrive`); it reads the shelf's place the same way.
/// A document is the KOReader partial MD5 of a file as this server serves it: which issue's
/// file that is, is worked out from the files served so far and remembered per install.
final class ServedSync: Sendable {
    let library: Library
    let files: ServedFiles
    let access: ServeAccess
    /// Each install's document id (`InstallMemo`'s key), and the issue of each document.
    private let documents = Mutex<(byInstall: [String: String], issues: [String: Int64])>(([:], [:]))
    /// The last place each device sent per document, as sent: handed back as it is while it
    /// is still the shelf's place, so a device reads its own XPointer and device id (and
    /// ignores it), not a rounding of them. Bounded, oldest dropped first.
    private let lastSent = Mutex<[String: (progress: KOSyncWire.Progress, stamp: Int64)]>([:])
    static let lastSentKept = 1000

    init(library: Library, files: ServedFiles, access: ServeAccess) {
        self.library = library
        self.files = files
        self.access = access
    }

    /// The most a sync request's body may hold (a place is ~200 bytes).
    static let maxBodyBytes = 16 << 10

    /// Whether a request's path is the sync server's.
    static func owns(_ path: String) -> Bool { path.hasPrefix("/users/") || path.hasPrefix("/syncs/") }

    static func phrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 401: "Unauthorized"
        case 402: "Payment Required"
        case 403: "Forbidden"
        default: "Bad Gateway"
        }
    }

    struct Answer {
        var status: Int
        var body: Data
    }

    /// The answer to a request under `/users` or `/syncs`; nil for a path that is not kosync's.
    func answer(method: String, path: String, user: String?, key: String?, body: Data) -> Answer? {
        switch (method, path) {
        case ("POST", KOSyncWire.Path.createUser):
            return createUser(body)
        case ("GET", KOSyncWire.Path.auth):
            return signedIn(user, key) { self.json(KOSyncWire.Authorized()) }
        case ("PUT", KOSyncWire.Path.progress):
            return signedIn(user, key) { self.receive(body, user: user) }
        case ("GET", _) where path.hasPrefix(KOSyncWire.Path.progress + "/"):
            let document = String(path.dropFirst(KOSyncWire.Path.progress.count + 1))
            return signedIn(user, key) { self.progress(of: document) }
        default:
            return nil
        }
    }

    private func signedIn(_ user: String?, _ key: String?, _ answer: () -> Answer) -> Answer {
        access.admitsSync(user: user, key: key) ? answer() : failure(.unauthorized)
    }

    /// An open shelf takes any account (it asks no one to sign in); a shelf with a user has
    /// that account already (402, as the reference server says: sign in) and makes no other.
    private func createUser(_ body: Data) -> Answer {
        guard let asked = try? JSONDecoder().decode(KOSyncWire.CreateUser.self, from: body), !asked.username.isEmpty else {
            return failure(.invalidRequest)
        }
        guard access.isSyncUser(asked.username) else {
            return failure(KOSyncWire.Failure(code: 2003, message: "This shelf has one user, the one `newsstand serve --user` names: sign in as it."))
        }
        if access.admitsSync(user: nil, key: nil) { return json(KOSyncWire.Created(username: asked.username), status: 201) }
        return failure(.userExists)
    }

    private func receive(_ body: Data, user: String?) -> Answer {
        guard let sent = try? JSONDecoder().decode(KOSyncWire.Progress.self, from: body) else { return failure(.invalidRequest) }
        guard let document = sent.document, Self.isDocumentID(document) else { return failure(.documentMissing) }
        guard sent.percentage != nil, sent.progress != nil else { return failure(.invalidRequest) }
        let stamp = Int64(library.clock.now().timeIntervalSince1970)
        do {
            if let issue = try issue(of: document) {
                let device = Sanitizer.clean(sent.device ?? user ?? "a device", multiline: false)
                try library.sync.arrive(sent, for: issue, from: String(device.prefix(80)), at: stamp)
            }
        } catch {
            return failure(.unknown)
        }
        lastSent.withLock { kept in
            kept[document] = (sent, stamp)
            if kept.count > Self.lastSentKept, let oldest = kept.min(by: { $0.value.stamp < $1.value.stamp })?.key {
                kept[oldest] = nil
            }
        }
        return json(KOSyncWire.Updated(document: document, timestamp: stamp))
    }

    /// The shelf's place for the document's issue: the device's own place as it sent it while
    /// that is still the shelf's; `{}` when the shelf keeps none (or knows no such document).
    private func progress(of document: String) -> Answer {
        guard Self.isDocumentID(document) else { return failure(.documentMissing) }
        let sent = lastSent.withLock { $0[document] }
        guard let issue = try? issue(of: document) else {
            // A book this shelf does not hold: what a device sent is kept for its other devices.
            return sent.map { json(Self.stamped($0.progress, $0.stamp)) } ?? json([String: String]())
        }
        guard let locator = issue.locator else { return json([String: String]()) }
        // The place taken from that device: its stamp, its share (a place is kept to the second).
        if let sent, Int64(locator.updated.timeIntervalSince1970) == sent.stamp,
           abs(locator.totalProgression - (sent.progress.percentage ?? -1)) < 0.0001 {
            return json(Self.stamped(sent.progress, sent.stamp))
        }
        return json(PlaceSync.servedProgress(of: locator, document: document))
    }

    static func stamped(_ progress: KOSyncWire.Progress, _ stamp: Int64) -> KOSyncWire.Progress {
        var progress = progress
        progress.timestamp = stamp
        return progress
    }

    /// The installed issue whose served file is `document`. The files served so far (an EPUB
    /// or CBZ is packed when first asked for; a PDF is its own file) are named once per
    /// install, and only when a document is not known yet.
    func issue(of document: String) throws -> Issue? {
        if let id = documents.withLock({ $0.issues[document] }), let issue = try library.store.issue(id: id),
           documents.withLock({ $0.byInstall[InstallMemo<String>.key(issue)] == document }) {
            return issue
        }
        var found: Issue?
        for issue in try library.store.installedIssues() {
            let install = InstallMemo<String>.key(issue)
            if let known = documents.withLock({ $0.byInstall[install] }) {
                if known == document { found = issue }
                continue
            }
            guard let file = files.servedFile(of: issue), let named = try? KOSyncWire.partialMD5(of: file) else { continue }
            documents.withLock {
                $0.byInstall[install] = named
                $0.issues[named] = issue.id
            }
            if named == document { found = issue }
        }
        return found
    }

    /// 32 hex digits, as KOReader names a document.
    static func isDocumentID(_ text: String) -> Bool {
        text.utf8.count == 32 && text.allSatisfy(\.isHexDigit)
    }

    private func json(_ value: some Encodable, status: Int = 200) -> Answer {
        Answer(status: status, body: (try? JSONEncoder().encode(value)) ?? Data("{}".utf8))
    }

    private func failure(_ failure: KOSyncWire.Failure) -> Answer {
        json(failure, status: failure.status)
    }
}
