import Foundation
import Testing
import TestSupport
@testable import NewsstandKit

/// Places kept in step through a KOReader sync server: the kosync test server
/// (Tests/Servers/kosync_server.py, written from the published API) and two libraries.
@Suite("Places that follow the reader through a KOReader sync server", .serialized)
struct PlaceSyncTests {
    @Test func theClientSignsUpSignsInSendsAndReadsAPlaceAsKOReaderDoes() throws {
        let server = try KOSyncTestServer()
        defer { server.stop() }
        let transport = HTTPAccess.syncTransport()
        let client = KOSyncClient(server: server.url, user: "ann", key: KOSyncWire.userKey(password: "pa55"), name: "kobo", transport: transport)
        try client.register()
        try client.register()  // an account already there is signed in to
        try client.authorize()
        #expect(try client.pull(document: "0123abcd") == nil)
        let sent = KOSyncWire.Progress(document: "0123abcd", progress: "12", percentage: 0.4, device: "test", deviceID: "D1")
        let stamp = try #require(try client.push(sent))
        let read = try #require(try client.pull(document: "0123abcd"))
        #expect(read.progress == "12" && read.percentage == 0.4 && read.device == "test" && read.deviceID == "D1")
        #expect(read.timestamp == stamp && read.document == "0123abcd")

        let wrong = KOSyncClient(server: server.url, user: "ann", key: KOSyncWire.userKey(password: "nope"), name: "kobo", transport: transport)
        #expect(throws: SyncError.refused(target: "kobo")) { try wrong.authorize() }
        #expect(throws: SyncError.refused(target: "kobo")) { try wrong.pull(document: "0123abcd") }
        // The server refuses a request without kosync's media type, as the reference routes by it.
        let bare = try transport.send(SyncRequest(method: "GET", url: server.url.appendingPathComponent("users/auth"), headers: [:], body: nil))
        #expect(bare.status == 406)
        let down = KOSyncClient(server: URL(string: "http://127.0.0.1:\(try deadPort())")!, user: "ann", key: "k", name: "kobo", transport: transport)
        #expect {
            try down.authorize()
        } throws: { error in
            if case SyncError.unreachable = error { return true } else { return false }
        }
    }

    @Test func aPlaceSentByAnotherReaderInTheSameSecondAsOursIsOfferedNotLost() throws {
        try Self.twoReaders(bookSize: 300_000) { server, first, second in
            let ((a, issueA, syncA), (b, issueB, syncB)) = (first, second)
            // The server stamps both places with the same second (it dates them to the second).
            try server.fixClock(at: Int(Date().timeIntervalSince1970) - 60)

            try syncB.setPlace(of: issueB, percentage: 0.80)
            #expect(syncB.sync().sent == 1)
            try syncA.setPlace(of: issueA, percentage: 0.40)
            #expect(syncA.sync().sent == 1, "A's place is newer than what the server holds: sent")
            // B sees a stamp it has seen already, its own; the place under it is A's, sent after.
            let seen = syncB.sync()
            #expect(seen.offered == 1 && seen.sent == 0, "\(seen)")
            let issueNow = try #require(try b.library.store.issue(id: issueB.id!))
            let offer = try #require(try b.library.store.placeOffer(for: issueNow))
            #expect(abs(offer.locator.totalProgression - 0.40) < 0.0001)
            #expect(abs((try b.library.store.issue(id: issueB.id!)?.locator?.totalProgression ?? 0) - 0.80) < 0.0001, "offered, not taken")
            // Seen once: the next sync offers nothing more, and A, whose place it is, takes nothing.
            #expect(syncB.sync().offered == 0)
            let again = syncA.sync()
            #expect(again.received == 0 && again.offered == 0 && again.sent == 0, "\(again)")
            _ = a
        }
    }

    @Test func aBookReadTo40PercentInOneLibraryIsOfferedAt40PercentInTheOther() throws {
        try Self.twoReaders(bookSize: 300_000) { server, first, second in
            let ((a, issueA, syncA), (b, issueB, syncB)) = (first, second)

            try syncA.setPlace(of: issueA, percentage: 0.40)
            let sentA = syncA.sync()
            #expect(sentA.sent == 1 && sentA.problems.isEmpty && sentA.waiting == 0)

            // B never opened it: the place is simply taken.
            let first = syncB.sync()
            #expect(first.received == 1 && first.problems.isEmpty)
            let taken = try #require(try b.library.store.issue(id: issueB.id!)?.locator)
            #expect(abs(taken.totalProgression - 0.40) < 0.0001)

            // B reads back to 10 %; A, later, reads on to 75 %: B is offered 75 %, not moved.
            try syncB.setPlace(of: try #require(try b.library.store.issue(id: issueB.id!)), percentage: 0.10)
            #expect(syncB.sync().sent == 1)
            try server.advanceClock(seconds: 2)  // the server stamps places to the second: A's must be newer
            try syncA.setPlace(of: try #require(try a.library.store.issue(id: issueA.id!)), percentage: 0.75)
            #expect(syncA.sync().sent == 1)
            let second = syncB.sync()
            #expect(second.offered == 1 && second.received == 0)
            let issue = try #require(try b.library.store.issue(id: issueB.id!))
            #expect(abs((issue.locator?.totalProgression ?? 0) - 0.10) < 0.0001)
            let offer = try #require(try b.library.store.placeOffer(for: issue))
            #expect(abs(offer.locator.totalProgression - 0.75) < 0.0001)
            #expect(offer.line(pageCount: nil, now: offer.at.addingTimeInterval(7200)).hasSuffix("75 %, 2 h ago — Enter to go, Esc to stay"))
            // Taken: the place left is kept in the history.
            try syncB.acceptOffer(for: issue)
            let moved = try #require(try b.library.store.issue(id: issueB.id!))
            #expect(abs((moved.locator?.totalProgression ?? 0) - 0.75) < 0.0001)
            #expect(try b.library.store.placeOffer(for: moved) == nil)
            let history = try b.library.store.placeHistory(of: moved)
            #expect(history.map { ($0.locator.totalProgression * 100).rounded() } == [10, 40])
            // Nothing new on the server: a sync again changes nothing.
            #expect(syncB.sync() == PlaceSync.Report())
        }
    }

    @Test func aServerDownKeepsThePlaceWaitingAndSendsItWhenBackUp() throws {
        try Self.twoReaders(bookSize: 5_000) { server, first, second in
            let ((a, issueA, syncA), (b, issueB, syncB)) = (first, second)

            server.halt()
            try syncA.setPlace(of: issueA, page: 12)
            let down = syncA.sync()
            #expect(down.sent == 0 && down.waiting == 1)
            #expect(down.problems.count == 1 && down.problems[0].contains("could not be reached"))
            // The agent waits before trying again.
            #expect(syncA.sync(onlyDue: true).sent == 0)
            try server.restart()
            #expect(syncA.sync(onlyDue: true).sent == 0)  // not yet due
            let up = syncA.sync()
            #expect(up.sent == 1 && up.waiting == 0 && up.problems.isEmpty)
            #expect(syncB.sync().received == 1)
            let place = try #require(try b.library.store.issue(id: issueB.id!)?.locator)
            #expect(place.page == 11)
            _ = a
        }
    }

    @Test func aRefusedPasswordIsSaidOnce() throws {
        let server = try KOSyncTestServer()
        defer { server.stop() }
        let book = try Self.book(size: 2_000)
        defer { try? FileManager.default.removeItem(at: book.deletingLastPathComponent()) }
        let (a, issue, sync) = try Self.library(with: book, server: server)
        // Someone changed the password elsewhere: what is kept no longer signs in.
        let target = try #require(try a.library.store.syncTarget(named: "kobo"))
        try sync.credentials().save(.basic(user: "ann", password: "old"), for: target.credentialKey)
        try sync.setPlace(of: issue, percentage: 0.5)
        let first = sync.sync()
        #expect(first.problems.count == 1 && first.problems[0].contains("refused"))
        #expect(sync.sync().problems.isEmpty)
        #expect(try a.library.store.syncTarget(named: "kobo")?.refusedAt != nil)
        #expect(first.waiting == 1)
    }

    @Test func aServerAddedLaterIsSentThePlacesAlreadyReadAndTheAgentSendsWhatWaits() throws {
        let server = try KOSyncTestServer()
        defer { server.stop() }
        let book = try Self.book(size: 70_000)
        defer { try? FileManager.default.removeItem(at: book.deletingLastPathComponent()) }
        let (a, issue, sync) = try Self.library(with: book, server: server, adding: false)
        try a.library.store.saveLocator(Locator(resource: "", progression: 1, totalProgression: 0.3, page: 29, updated: Date()), for: issue)
        try sync.add(name: "kobo", url: server.url, kind: .kosync, user: "ann", password: "pa55")
        #expect(try a.library.store.pendingPlaceCount() == 1)
        #expect(throws: SyncError.self) { try sync.add(name: "cal", url: server.url, kind: .calibre, user: "ann", password: "pa55") }
        #expect(try sync.targets().map(\.name) == ["kobo"])
        // The agent's step sends what waits, once per interval.
        let schedule = PlaceSyncSchedule(sync: sync)
        let group = DispatchGroup()
        schedule.requestIfDue(group: group)
        group.wait()
        #expect(try a.library.store.pendingPlaceCount() == 0)
        let client = KOSyncClient(server: server.url, user: "ann", key: KOSyncWire.userKey(password: "pa55"), name: "kobo",
                                  transport: HTTPAccess.syncTransport())
        let kept = try #require(try client.pull(document: KOSyncWire.partialMD5(of: book)))
        #expect(kept.progress == "30" && kept.percentage == 0.3)
        try sync.setPlace(of: try #require(try a.library.store.issue(id: issue.id!)), page: 40)
        let before = server.requests
        schedule.requestIfDue(group: group)
        group.wait()
        #expect(server.requests == before)
        #expect(try a.library.store.pendingPlaceCount() == 1)
    }

    @Test func placesTravelAsKOReaderKeepsThem() throws {
        let target = SyncTarget(id: 1, name: "k", url: URL(string: "http://h")!, kind: .kosync, user: "u", identity: .binary,
                                device: "dev", deviceID: "ID", refusedAt: nil, lastSyncedAt: nil, lastError: nil)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let paged = PlaceSync.progress(of: Locator(resource: "p/12.jpg", progression: 1, totalProgression: 0.123456, page: 11, updated: now),
                                       document: "d", target: target)
        #expect(paged.progress == "12" && paged.percentage == 0.1235 && paged.deviceID == "ID")
        let text = PlaceSync.progress(of: Locator(resource: "c.xhtml", progression: 0.2, totalProgression: 0.42, updated: now),
                                      document: "d", target: target)
        #expect(text.progress == "0.4200" && text.percentage == 0.42)
        let epub = try #require(PlaceSync.locator(from: KOSyncWire.Progress(document: "d", progress: "/body/DocFragment[20]/body/p[22]/text().0",
                                                                          percentage: 0.5, device: nil, deviceID: nil, timestamp: 1_800_000_000)))
        #expect(epub.resourceIndex == 19 && epub.totalProgression == 0.5 && epub.updated == now)
        #expect(PlaceSync.locator(from: KOSyncWire.Progress(document: "d", progress: "7", percentage: 0.2, device: nil, deviceID: nil, timestamp: 1))?.page == 6)
        #expect(PlaceSync.move(from: Locator(resource: "", progression: 1, totalProgression: 0, page: 10, updated: now),
                               to: Locator(resource: "", progression: 1, totalProgression: 0, page: 13, updated: now)) == .small)
        #expect(PlaceSync.move(from: Locator(resource: "", progression: 1, totalProgression: 0, page: 10, updated: now),
                               to: Locator(resource: "", progression: 1, totalProgression: 0, page: 9, updated: now)) == .far)
    }

    // MARK: Helpers

    /// A file of one's own, `size` bytes, in a folder of its own.
    static func book(size: Int) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-book-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("walrus.pdf")
        try Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ $0 >> 9) }).write(to: file)
        return file
    }

    /// calibre keeps an anonymous reader's place where it never reads it back: a calibre
    /// server added without a user would say "Sent" and keep nothing. Refused before any
    /// server is asked (this address has none), and one kept from before is not synced with.
    @Test func aCalibreServerWithoutAUserIsRefusedSayingWhy() throws {
        let library = try TemporaryLibrary(inMemory: true)
        let credentials = CredentialStore(file: library.root.appendingPathComponent("credentials.json"), keyring: nil)
        let sync = PlaceSync(store: library.library.store, paths: library.library.paths, clock: .system,
                             transport: HTTPAccess.syncTransport(timeout: 5), credentials: { credentials })
        let refusal = #expect(throws: SyncError.self) {
            try sync.add(name: "cal", url: URL(string: "http://127.0.0.1:9")!, kind: .calibre, user: nil, password: nil)
        }
        #expect(refusal?.description.contains("--user NAME --password-stdin") == true, "\(String(describing: refusal))")
        #expect(try sync.targets().isEmpty)
        // One added so by an earlier build is not synced with, and says why at each sync.
        try library.library.store.saveSyncTarget(name: "cal", url: URL(string: "http://127.0.0.1:9")!, kind: .calibre, user: nil,
                                                 identity: .binary, device: "newsstand", deviceID: "ABCDEF0123456789", at: Date())
        let report = try sync.sync()
        #expect(report.problems == [PlaceSync.calibreNeedsAUser("cal").description], "\(report.problems)")
    }

    /// Two libraries holding the same book of `size` bytes, the kosync test server added to
    /// both as "kobo" for ann; the server and the book are gone once `body` returns.
    static func twoReaders(bookSize size: Int, _ body: (KOSyncTestServer, Reader, Reader) throws -> Void) throws {
        let server = try KOSyncTestServer()
        defer { server.stop() }
        let book = try Self.book(size: size)
        defer { try? FileManager.default.removeItem(at: book.deletingLastPathComponent()) }
        try body(server, try library(with: book, server: server), try library(with: book, server: server))
    }

    /// One library's side: the library, its issue of the book, its sync.
    typealias Reader = (library: TemporaryLibrary, issue: NewsstandKit.Issue, sync: PlaceSync)

    /// A library holding `book` as an installed issue, with `server` added as "kobo" for ann.
    static func library(with book: URL, server: KOSyncTestServer, adding: Bool = true) throws -> (TemporaryLibrary, NewsstandKit.Issue, PlaceSync) {
        let library = try TemporaryLibrary()
        var (_, issue) = try library.publicationWithIssue(named: "walrus", content: book)
        issue.status = .available
        issue = try library.library.store.save(issue)
        let credentials = CredentialStore(file: library.root.appendingPathComponent("credentials.json"), keyring: nil)
        let sync = PlaceSync(store: library.library.store, paths: library.library.paths, clock: .system,
                             transport: HTTPAccess.syncTransport(timeout: 5), credentials: { credentials })
        if adding { try sync.add(name: "kobo", url: server.url, kind: .kosync, user: "ann", password: "pa55") }
        return (library, issue, sync)
    }
}
