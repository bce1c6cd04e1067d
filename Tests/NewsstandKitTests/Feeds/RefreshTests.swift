import Foundation
import Testing
import Feeds
import GRDB
@testable import NewsstandKit

/// An Atom feed of `count` issues named `prefix-1` … with a zip content link each.
func atomFeed(title: String, issues: [String], next: String? = nil, push: String? = nil) -> String {
    let entries = issues.enumerated().map { index, name in
        """
        <entry><id>\(name)</id><title>Issue \(name)</title><updated>2026-10-\(String(format: "%02d", index + 1))T00:00:00Z</updated>
        <link rel="enclosure" type="application/zip" href="/content/\(name).zip"/></entry>
        """
    }.joined(separator: "\n")
    let nextLink = next.map { "<link rel=\"next\" type=\"application/atom+xml;profile=opds-catalog;kind=acquisition\" href=\"\($0)\"/>" } ?? ""
    let pushLink = push.map { "<link rel=\"hub\" type=\"text/event-stream\" href=\"\($0)\"/>" } ?? ""
    return """
        <?xml version="1.0" encoding="utf-8"?>
        <feed xmlns="http://www.w3.org/2005/Atom"><title>\(title)</title><id>urn:\(title)</id>
        <updated>2026-11-01T00:00:00Z</updated>\(nextLink)\(pushLink)
        \(entries)
        </feed>
        """
}

@Suite struct ConditionalRefreshTests {
    @Test func refreshSendsStoredValidatorsAndTreats304AsUnchanged() throws {
        let server = try FeedTestServer()
        defer { server.stop() }
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        try server.put("weekly.xml", atomFeed(title: "Conditional Weekly", issues: ["cw-1", "cw-2"]))

        let (publication, first) = try library.subscriptions.subscribe(feedURL: server.url("weekly.xml"))
        #expect(first.added == ["cw-1", "cw-2"])
        let stored = try reloaded(publication, in: library)
        let etag = try #require(stored.etag)
        #expect(stored.lastModified != nil)

        // Unchanged: a conditional request, answered 304, nothing parsed or added.
        let second = try library.subscriptions.refresh(stored)
        #expect(second.unchanged)
        #expect(second.added.isEmpty && second.updated == 0)
        var requests = server.requests(path: "weekly.xml", atLeast: 2)
        try #require(requests.count == 2)
        #expect(requests[0].if_none_match == nil && requests[0].if_modified_since == nil)
        #expect(requests[1].if_none_match == etag)
        #expect(requests[1].if_modified_since == stored.lastModified)
        #expect(requests[1].status == 304)

        // Changed: the new issue arrives and the new validator is stored.
        try server.put("weekly.xml", atomFeed(title: "Conditional Weekly", issues: ["cw-1", "cw-2", "cw-3"]))
        let third = try library.subscriptions.refresh(try reloaded(publication, in: library))
        #expect(!third.unchanged)
        #expect(third.added == ["cw-3"])
        #expect(third.updated == 0)  // cw-1 and cw-2 did not change: no UPDATE
        let after = try reloaded(publication, in: library)
        #expect(after.etag != nil && after.etag != etag)
        requests = server.requests(path: "weekly.xml", atLeast: 3)
        try #require(requests.count == 3)
        #expect(requests[2].if_none_match == etag)
        #expect(requests[2].status == 200)
        #expect(requests.filter { $0.if_none_match != nil }.count == 2)

        // And once more unchanged, against the new validator.
        #expect(try library.subscriptions.refresh(after).unchanged)
        #expect(server.requests(path: "weekly.xml", atLeast: 4).last?.if_none_match == after.etag)
    }

    @Test func refreshOfAFailingFeedThrowsAndRecordsTheError() throws {
        let server = try FeedTestServer()
        defer { server.stop() }
        let temporary = try TemporaryLibrary()
        try server.put("daily.xml", atomFeed(title: "Soon Gone", issues: ["sg-1"]))
        let (publication, _) = try temporary.library.subscriptions.subscribe(feedURL: server.url("daily.xml"))
        try FileManager.default.removeItem(at: server.root.appendingPathComponent("daily.xml"))
        #expect(throws: TransferError.self) { try temporary.library.subscriptions.refresh(publication) }
        let stored = try reloaded(publication, in: temporary.library)
        #expect(stored.lastError?.contains("404") == true)
    }
}

@Suite struct SyncTests {
    @Test func changedEntriesAreUpdatedAndANameTwiceInOneFeedIsAddedOnce() throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let publication = try library.store.save(Publication(feedURL: "file:///sync.xml", title: "Sync"))
        let date = Date(timeIntervalSince1970: 1_790_000_000)
        let first = try library.store.sync(publication, entries: [
            FeedEntry(name: "s-1", title: "One", date: date),
            FeedEntry(name: "s-2", title: "Two", date: date),
            FeedEntry(name: "s-1", title: "One again", date: date),
        ])
        #expect(first.added == ["s-1", "s-2"])
        #expect(try library.store.issue(named: "s-1")?.title == "One")
        let second = try library.store.sync(publication, entries: [
            FeedEntry(name: "s-1", title: "One", date: date),
            FeedEntry(name: "s-2", title: "Two, corrected", date: date, contentURL: URL(string: "https://example.org/2.zip")),
        ])
        #expect(second.added.isEmpty)
        #expect(second.updated == 1)
        let two = try #require(try library.store.issue(named: "s-2"))
        #expect(two.title == "Two, corrected")
        #expect(two.contentURL == "https://example.org/2.zip")
        #expect(two.date == date)
    }

    @Test func manyNewEntriesAreStoredWithAllTheirFieldsAcrossInsertBatches() throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let publication = try library.store.save(Publication(feedURL: "file:///many.xml", title: "Many"))
        let other = try library.store.save(Publication(feedURL: "file:///other.xml", title: "Other"))
        let date = Date(timeIntervalSince1970: 1_790_000_000)
        _ = try library.store.sync(other, entries: [FeedEntry(name: "m-150", title: "Taken", date: date)])
        var entries: [FeedEntry] = []
        for n in 1...250 {
            let summary: String? = n % 2 == 0 ? "Summary \(n)" : nil
            let sha256: String? = n == 7 ? String(repeating: "a", count: 64) : nil
            let title = "Issue \(n) \"quoted\" \\"
            entries.append(FeedEntry(name: "m-\(n)", title: title, date: date.addingTimeInterval(Double(n)),
                                     summary: summary, coverURL: URL(string: "https://example.org/\(n).png"),
                                     contentURL: URL(string: "https://example.org/\(n).zip"), contentType: "application/zip",
                                     contentLength: Int64(1000 + n), sha256: sha256))
        }
        // A name twice, the second copy in the next batch of rows, and another twice in one
        // batch: the first one stays.
        entries.insert(FeedEntry(name: "m-3", title: "Three again", date: date), at: 120)
        entries.insert(FeedEntry(name: "m-5", title: "Five again", date: date), at: 10)
        let result = try library.store.sync(publication, entries: entries)
        let expected = (1...250).filter { $0 != 150 }.map { "m-\($0)" }
        #expect(result.added == expected)
        let three = try #require(try library.store.issue(named: "m-3"))
        #expect(three.title == "Issue 3 \"quoted\" \\")
        #expect(try library.store.issue(named: "m-5")?.title == "Issue 5 \"quoted\" \\")
        #expect(try library.store.issue(named: "m-150")?.title == "Taken")
        let seven = try #require(try library.store.issue(named: "m-7"))
        #expect(seven.sha256 == String(repeating: "a", count: 64))
        #expect(seven.summary == nil)
        #expect(seven.coverURL == "https://example.org/7.png")
        #expect(seven.contentURL == "https://example.org/7.zip")
        #expect(seven.contentLength == 1007)
        #expect(seven.date == date.addingTimeInterval(7))
        let last = try #require(try library.store.issue(named: "m-250"))
        #expect(last.summary == "Summary 250")
        #expect(last.publicationId == publication.id)
        // Synced again (without the repeated name): nothing new, nothing changed.
        let again = try library.store.sync(publication, entries: entries.filter { !$0.title.hasSuffix(" again") })
        #expect(again.added.isEmpty)
        #expect(again.updated == 0)
    }
}

@Suite struct PagedFeedTests {
    @Test func nextPagesAreFollowedOnSubscribeAndRefresh() throws {
        let server = try FeedTestServer()
        defer { server.stop() }
        let temporary = try TemporaryLibrary()
        try server.put("catalog/1.xml", atomFeed(title: "Paged Catalog", issues: ["p-1", "p-2"], next: "2.xml"))
        try server.put("catalog/2.xml", atomFeed(title: "Paged Catalog", issues: ["p-3", "p-4"], next: "/catalog/3.xml"))
        try server.put("catalog/3.xml", atomFeed(title: "Paged Catalog", issues: ["p-5"]))

        let (publication, result) = try temporary.library.subscriptions.subscribe(feedURL: server.url("catalog/1.xml"))
        #expect(result.added == ["p-1", "p-2", "p-3", "p-4", "p-5"])
        #expect(server.requests(atLeast: 3).map(\.path) == ["/catalog/1.xml", "/catalog/2.xml", "/catalog/3.xml"])

        // A later page grows: the first page changed too (its validator), so all are read.
        try server.put("catalog/1.xml", atomFeed(title: "Paged Catalog", issues: ["p-0", "p-1", "p-2"], next: "2.xml"))
        try server.put("catalog/3.xml", atomFeed(title: "Paged Catalog", issues: ["p-5", "p-6"]))
        let refreshed = try temporary.library.subscriptions.refresh(try reloaded(publication, in: temporary.library))
        #expect(Set(refreshed.added) == ["p-0", "p-6"])
        #expect(try temporary.library.store.issues(publicationID: publication.id ?? -1).count == 7)
    }

    @Test func aCycleOfPagesStopsAndIsReported() throws {
        let server = try FeedTestServer()
        defer { server.stop() }
        try server.put("a.xml", atomFeed(title: "Loop", issues: ["l-1"], next: "b.xml"))
        try server.put("b.xml", atomFeed(title: "Loop", issues: ["l-2"], next: "a.xml"))
        guard case let .fetched(document, _) = try FeedFetcher.document(at: server.url("a.xml"), validator: nil) else {
            Issue.record("expected a document")
            return
        }
        #expect(document.entries.map(\.name) == ["l-1", "l-2"])
        #expect(document.problems.contains { $0.contains("links back") })
        #expect(server.requests(atLeast: 2).count == 2)
    }

    @Test func pagesStopAtTheLimit() throws {
        let server = try FeedTestServer()
        defer { server.stop() }
        for page in 1...25 {
            try server.put("p\(page).xml", atomFeed(title: "Endless", issues: ["e-\(page)"], next: "p\(page + 1).xml"))
        }
        guard case let .fetched(document, _) = try FeedFetcher.document(at: server.url("p1.xml"), validator: nil) else {
            Issue.record("expected a document")
            return
        }
        #expect(document.entries.count == 20)
        #expect(server.requests(atLeast: 20).count == 20)
        #expect(document.problems.contains { $0.contains("stopped after 20 pages") })
    }
}

/// The publication as the library has it now.
func reloaded(_ publication: Publication, in library: Library) throws -> Publication {
    try #require(try library.store.publication(id: publication.id ?? -1))
}

@Suite struct RemoteCoverTests {
    @Test func coversOfTheNewestIssuesAreCachedEachFetchedOnce() throws {
        let server = try FeedTestServer()
        defer { server.stop() }
        let temporary = try TemporaryLibrary()
        let entries = (1...8).map { n in
            """
            <entry><id>rc-\(n)</id><title>Cover \(n)</title><updated>2026-10-\(String(format: "%02d", n))T00:00:00Z</updated>
            <link rel="http://opds-spec.org/image" type="image/png" href="/covers/\(n % 4 == 0 ? "missing" : "c\(n)").png"/>
            <link rel="enclosure" type="application/zip" href="/content/\(n).zip"/></entry>
            """
        }.joined()
        try server.put("covers.xml", """
            <?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Covers</title><id>urn:covers</id>
            <updated>2026-11-01T00:00:00Z</updated><logo>/covers/logo.png</logo>\(entries)</feed>
            """)
        for n in [1, 2, 3, 5, 6, 7] { try server.put("covers/c\(n).png", "png \(n)") }
        try server.put("covers/logo.png", "logo")

        let (publication, _) = try temporary.library.subscriptions.subscribe(feedURL: server.url("covers.xml"))
        for n in [1, 2, 3, 5, 6, 7] {
            let file = try #require(temporary.library.covers.localFile(forCover: server.url("covers/c\(n).png").absoluteString))
            #expect(try String(contentsOf: file, encoding: .utf8) == "png \(n)")
        }
        #expect(temporary.library.covers.localFile(forCover: server.url("covers/logo.png").absoluteString) != nil)
        // Seven covers and one missing file (named by two issues, asked for once).
        let requests = server.requests(atLeast: 9).filter { $0.path.hasPrefix("/covers/") }
        #expect(requests.count == 8)
        #expect(Set(requests.map(\.path)).count == 8)
        // The next refresh asks for nothing: the cached covers are there, and the server said
        // the missing one does not exist.
        try server.put("covers.xml", (try String(contentsOf: server.root.appendingPathComponent("covers.xml"), encoding: .utf8)) + " ")
        _ = try temporary.library.subscriptions.refresh(try reloaded(publication, in: temporary.library))
        #expect(server.requests(atLeast: 10).filter { $0.path.hasPrefix("/covers/") }.count == 8)
        // A day later it is asked for again, and found.
        try server.put("covers/missing.png", "found")
        let stored = try reloaded(publication, in: temporary.library)
        #expect(temporary.library.subscriptions.fetchRemoteCovers(for: stored, now: Date().addingTimeInterval(3600)) == 0)
        #expect(temporary.library.subscriptions.fetchRemoteCovers(for: stored, now: Date().addingTimeInterval(CoverFetcher.missingCoverRetry + 60)) == 1)
        let again = server.requests(atLeast: 11).filter { $0.path.hasPrefix("/covers/") }
        #expect(again.dropFirst(8).map(\.path) == ["/covers/missing.png"])
        let file = try #require(temporary.library.covers.localFile(forCover: server.url("covers/missing.png").absoluteString))
        #expect(try String(contentsOf: file, encoding: .utf8) == "found")
    }

    @Test func aCoverThatFailsForAnotherReasonIsAskedForAtTheNextRefresh() throws {
        let server = try FeedTestServer()
        defer { server.stop() }
        let temporary = try TemporaryLibrary()
        // Too large is not "not there": no note, asked for again.
        try server.put("big.png", String(repeating: "x", count: Int(FeedFetcher.maximumCoverSize) + 1))
        try server.put("feed.xml", """
            <?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Big</title><id>urn:big</id>
            <updated>2026-11-01T00:00:00Z</updated><logo>/big.png</logo></feed>
            """)
        let (publication, _) = try temporary.library.subscriptions.subscribe(feedURL: server.url("feed.xml"))
        let first = server.requests(atLeast: 2).filter { $0.path == "/big.png" }.count
        #expect(first >= 1)
        #expect(temporary.library.subscriptions.fetchRemoteCovers(for: try reloaded(publication, in: temporary.library)) == 0)
        #expect(server.requests(atLeast: 2 + first).filter { $0.path == "/big.png" }.count > first)
    }
}

@Suite struct DatabaseDateTests {
    @Test func writesWhatGRDBWrites() {
        let dates = [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_790_000_000.123),
                     Date(timeIntervalSince1970: -86_400 * 365.25 * 50 + 0.5), Date(timeIntervalSince1970: 4_102_444_799.999)]
        for date in dates {
            let ours = DatabaseDate.value(date).databaseValue
            #expect(ours == date.databaseValue, "\(date.timeIntervalSince1970)")
        }
        // Years GRDB's text cannot hold in four digits are left to GRDB.
        let far = Date(timeIntervalSince1970: 300_000_000_000)
        #expect(DatabaseDate.value(far).databaseValue == far.databaseValue)
    }
}
