import Foundation
import GRDB
import Synchronization
import Testing
@testable import NewsstandKit

/// A refresh holds the write lock only while it stores: its covers are asked for once the
/// transaction has committed, so a slow cover server never keeps the shelf or the agent
/// from writing.
@Suite struct CoversAfterCommitTests {
    /// Notes whether a write transaction of the library is open, and makes each commit slow
    /// (0.2 s), so a request started before the commit is certain to be seen during it.
    final class SlowCommits: TransactionObserver, Sendable {
        let open = Mutex(false)
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
        func databaseDidChange(with event: DatabaseEvent) { open.withLock { $0 = true } }
        func databaseWillCommit() throws { if open.withLock({ $0 }) { Thread.sleep(forTimeInterval: 0.2) } }
        func databaseDidCommit(_ db: Database) { open.withLock { $0 = false } }
        func databaseDidRollback(_ db: Database) { open.withLock { $0 = false } }
    }

    /// The in-memory web, noting for each request whether a write transaction was open.
    final class WatchingClient: HTTPFetching {
        let web: MemoryHTTPClient
        let commits: SlowCommits
        let asked = Mutex<[(url: URL, duringWrite: Bool)]>([])
        init(web: MemoryHTTPClient, commits: SlowCommits) { self.web = web; self.commits = commits }
        func fetch(url: URL, headers: [(String, String)], timeout: TimeInterval, cancellation: Cancellation, splice: SpliceTarget?,
                   onHead: @escaping (HTTPResponseHead) throws -> BodyDecision,
                   onBody: @escaping (UnsafeRawBufferPointer) throws -> Void) throws {
            let duringWrite = commits.open.withLock { $0 }
            asked.withLock { $0.append((url, duringWrite)) }
            try web.fetch(url: url, headers: headers, timeout: timeout, cancellation: cancellation, splice: splice,
                          onHead: onHead, onBody: onBody)
        }
    }

    @Test func coversAreAskedForOnlyAfterTheRefreshCommitted() throws {
        let feedURL = URL(string: "http://news.example.com/feed.xml")!
        let covers = (1...3).map { URL(string: "http://news.example.com/covers/\($0).png")! }
        // Atom, whose entries are stored while the feed is read (the path that fetched covers
        // inside its transaction).
        let entries = covers.enumerated().map { index, cover in
            """
            <entry><id>c-\(index)</id><title>Issue \(index)</title><updated>2026-10-0\(index + 1)T00:00:00Z</updated>
            <link rel="http://opds-spec.org/acquisition" type="application/zip" href="/issues/\(index).zip"/>
            <link rel="http://opds-spec.org/image" type="image/png" href="\(cover.absoluteString)"/></entry>
            """
        }.joined(separator: "\n")
        let web = MemoryHTTPClient()
        web.serve(feedURL, headers: ["Content-Type": "application/atom+xml"], body: Data("""
            <?xml version="1.0" encoding="utf-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom"><title>Slow Covers</title><id>urn:slow-covers</id>
            <updated>2026-11-01T00:00:00Z</updated>
            \(entries)
            </feed>
            """.utf8))
        for cover in covers { web.serve(cover, body: Data("cover".utf8)) }
        let commits = SlowCommits()
        let client = WatchingClient(web: web, commits: commits)
        let temp = try TemporaryLibrary(access: HTTPAccess(client: client) { _ in nil })
        temp.library.store.writer.add(transactionObserver: commits)

        let (_, result) = try temp.library.subscriptions.subscribe(feedURL: feedURL)

        #expect(result.added.count == 3)
        let asked = client.asked.withLock { $0 }
        #expect(Set(asked.map { $0.url }) == Set([feedURL] + covers))
        #expect(asked.filter { $0.duringWrite }.map { $0.url } == [])
        for cover in covers { #expect(temp.library.covers.localFile(forCover: cover.absoluteString) != nil) }
    }
}
