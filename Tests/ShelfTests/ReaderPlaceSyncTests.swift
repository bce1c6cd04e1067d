import Foundation
import Terminal
import Testing
import TestSupport
@testable import NewsstandKit
@testable import Shelf

/// The reader and a real KOReader sync server (the kosync test server, a child process):
/// two libraries, a place read in one offered in the other's reader, sent when it is left,
/// and kept waiting while the server is down.
@Suite("The reader offers a place synced from another reader", .serialized)
struct ReaderPlaceSyncTests {
    /// The magazine installed in a library of its own, with the server added as "kobo".
    static func library(_ server: KOSyncTestServer) throws -> (ShelfHarness, NewsstandKit.Issue) {
        let h = try ShelfHarness(width: 100, height: 30, samples: false)
        var issue = try ReaderFixture.install(ReaderFixture.magazine(), in: h, name: "harbour")
        // Both libraries took it from the same address: KOReader's file-name id names it.
        issue.contentURL = "http://127.0.0.1:9/harbour-monthly.epub"
        issue = try h.library.store.save(issue)
        try h.library.sync.add(name: "kobo", url: server.url, kind: .kosync, user: "ann", password: "pa55", identity: .filename)
        return (h, issue)
    }

    @Test func aBookReadTo40PercentInOneLibraryIsOfferedInTheOthersReaderAndEnterGoesThere() throws {
        let server = try KOSyncTestServer()
        defer { server.stop() }
        let (a, issueA) = try Self.library(server)
        let (b, issueB) = try Self.library(server)

        try a.library.sync.setPlace(of: issueA, percentage: 0.40)
        #expect(a.library.sync.sync().sent == 1)

        // B opens the issue: the first frame does not wait; the sync's answer is offered.
        b.app.startReading(issueB)
        let opened = b.settle().text
        #expect(opened.contains("article 1 of 4"), "\(opened)")
        #expect(opened.contains("40 %, just now — Enter to go, Esc to stay"), "\(opened)")
        #expect(opened.contains(" kobo: 40 %"), "the server is named")

        let went = b.key(.enter).text
        #expect(went.contains("article 2 of 4"), "\(went)")
        #expect(!went.contains("Enter to go"))
        let place = try #require(try b.library.store.issue(id: issueB.id!)?.locator)
        #expect(place.resource.hasSuffix("ch2.xhtml"))

        // Leaving sends B's place to the server, where A finds it.
        _ = b.key(.pageDown)
        _ = b.key(.character("q"))
        let pull = KOSyncClient(server: server.url, user: "ann", key: KOSyncWire.userKey(password: "pa55"), name: "kobo",
                                transport: HTTPAccess.syncTransport())
        let kept = try #require(try pull.pull(document: KOSyncWire.fileNameMD5("harbour-monthly.epub")))
        let left = try #require(try b.library.store.issue(id: issueB.id!)?.locator)
        #expect(kept.deviceID != nil && abs((kept.percentage ?? 0) - left.totalProgression) < 0.0001)
        #expect(try b.library.store.pendingPlaceCount() == 0)
    }

    @Test func escStaysAndTheSamePlaceIsNotOfferedWhenTheIssueIsOpenedAgain() throws {
        let server = try KOSyncTestServer()
        defer { server.stop() }
        let (a, issueA) = try Self.library(server)
        let (b, issueB) = try Self.library(server)
        // B has read a little already; A is far on.
        try b.library.sync.setPlace(of: issueB, percentage: 0.05)
        #expect(b.library.sync.sync().sent == 1)
        try server.advanceClock(seconds: 2)
        try a.library.sync.setPlace(of: issueA, percentage: 0.90)
        #expect(a.library.sync.sync().sent == 1)

        b.app.startReading(try #require(try b.library.store.issue(id: issueB.id!)))
        #expect(b.settle().text.contains("90 %, just now — Enter to go, Esc to stay"))
        let stayed = b.key(.escape).text
        #expect(stayed.contains("Staying here."), "Esc answers the offer and leaves the reader open: \(stayed)")
        #expect(try b.library.store.placeOffer(for: issueB) == nil)
        _ = b.key(.character("q"))

        b.app.startReading(try #require(try b.library.store.issue(id: issueB.id!)))
        #expect(!b.settle().text.contains("Enter to go"), "the same remote place is not offered again")
        #expect((try b.library.store.issue(id: issueB.id!)?.locator?.totalProgression ?? 1) < 0.5, "B stayed near its start")
    }

    @Test func leavingWhileTheServerIsDownKeepsThePlaceWaitingForIt() throws {
        let server = try KOSyncTestServer()
        defer { server.stop() }
        let (b, issueB) = try Self.library(server)
        b.app.startReading(issueB)
        _ = b.settle()
        server.halt()
        _ = b.key(.right)
        _ = b.key(.character("q"))
        #expect(try b.library.store.pendingPlaceCount() == 1, "the place waits for the server")
        let target = try #require(try b.library.store.syncTarget(named: "kobo"))
        let row = try #require(try b.library.store.syncPlaces(for: target, onlyDue: nil).first?.1)
        #expect(row.attempts == 1 && row.retryAt != nil, "tried again later, with the agent's backoff")
        try server.restart()
        #expect(b.library.sync.sync().sent == 1)
    }
}
