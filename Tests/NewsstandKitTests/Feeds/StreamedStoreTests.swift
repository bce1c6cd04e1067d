import Foundation
import Testing
import Feeds
import GRDB
@testable import NewsstandKit

/// Subscribing stores a feed's entries while the feed is still being parsed. Whatever path
/// the feed takes (streamed to the end, or rolled back because its end changed the entries),
/// the library must hold exactly what the parsed document lists.
@Suite struct StreamedStoreTests {
    /// An Atom feed of `count` entries; `entry` may replace any entry's XML.
    static func feed(count: Int, newsstand: Bool = false, entry: (Int) -> String? = { _ in nil }) -> String {
        var xml = """
            <?xml version="1.0" encoding="utf-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom"\(newsstand ? " xmlns:news=\"http://itunes.apple.com/2011/Newsstand\"" : "")>
            <title>Streamed Weekly</title><id>urn:streamed</id>
            """
        for n in 1...count {
            xml += entry(n) ?? """
                <entry><id>s-\(n)</id><title>Issue \(n) &amp; more</title>
                <published>2026-\(String(format: "%02d", n % 12 + 1))-\(String(format: "%02d", n % 28 + 1))T06:00:00Z</published>
                <summary>Summary \(n)</summary><link rel="enclosure" type="application/zip" href="issues/\(n).zip" length="\(1000 + n)"/>
                <link rel="http://opds-spec.org/image" type="image/png" href="covers/\(n).png"/></entry>

                """
        }
        return xml + "<updated>2026-11-01T00:00:00Z</updated></feed>\n"
    }

    struct Stored: Equatable {
        var name, title: String
        var date: Date
        var summary, coverURL, contentURL, contentType: String?
        var contentLength: Int64?
    }

    /// The issues as stored, in insertion order (editions of articles aside: `sync` makes none).
    func stored(_ library: Library) throws -> [Stored] {
        try library.store.writer.read { db in
            try NewsstandKit.Issue.order(Column("id")).fetchAll(db).filter { !Library.isEdition($0) }.map {
                Stored(name: $0.name, title: $0.title, date: $0.date, summary: $0.summary, coverURL: $0.coverURL,
                       contentURL: $0.contentURL, contentType: $0.contentType, contentLength: $0.contentLength)
            }
        }
    }

    /// Subscribes to `xml` and checks the library against the parsed document synced whole.
    func subscribeMatchesTheDocument(_ xml: String, expectFinal: Bool) throws -> [Stored] {
        let server = try FeedTestServer()
        defer { server.stop() }
        try server.put("weekly.xml", xml)
        let url = server.url("weekly.xml")
        let parsed = try FeedParser.parse(Data(xml.utf8), url: url, batchSize: StreamedParse.batchSize) { _ in }
        #expect(parsed.streamedEntriesAreFinal == expectFinal)

        let streamed = try TemporaryLibrary()
        let (publication, result) = try streamed.library.subscriptions.subscribe(feedURL: url)
        #expect(publication.title == "Streamed Weekly")
        #expect(result.added.filter { !$0.hasPrefix("edition:") } == parsed.document.entries.map(\.name))

        let whole = try TemporaryLibrary()
        let reference = try whole.library.store.save(Publication(feedURL: url.absoluteString, title: "Streamed Weekly"))
        _ = try whole.library.store.sync(reference, entries: parsed.document.entries)
        let issues = try stored(streamed.library)
        #expect(issues == (try stored(whole.library)))
        #expect(try streamed.library.store.publications().count == 1)
        return issues
    }

    @Test func aLongFeedStoredWhileParsedHoldsWhatTheDocumentLists() throws {
        let issues = try subscribeMatchesTheDocument(Self.feed(count: 3 * StreamedParse.batchSize + 17), expectFinal: true)
        #expect(issues.count == 3 * StreamedParse.batchSize + 17)
        #expect(issues[4].title == "Issue 5 & more")
        #expect(issues[4].contentLength == 1005)
        #expect(issues[4].coverURL?.hasSuffix("/covers/5.png") == true)
    }

    @Test func anUndatedEntryLateInTheFeedTakesTheFeedDate() throws {
        let count = 2 * StreamedParse.batchSize + 3
        let xml = Self.feed(count: count) { n in
            n == count ? "<entry><id>s-undated</id><title>Undated</title><link rel=\"enclosure\" type=\"application/zip\" href=\"u.zip\"/></entry>" : nil
        }
        let issues = try subscribeMatchesTheDocument(xml, expectFinal: false)
        #expect(issues.count == count)
        #expect(issues.last?.name == "s-undated")
        #expect(issues.last?.date == ISO8601DateFormatter().date(from: "2026-11-01T00:00:00Z"))
    }

    @Test func aRepeatedNameAndEntriesWithoutContentAreSettledAtTheEnd() throws {
        let count = StreamedParse.batchSize + 40
        // Entries without content are not issues in a plain Atom feed (they are articles, for editions).
        let plain = Self.feed(count: count) { n in
            if n == count { return "<entry><id>s-3</id><title>Three again</title><updated>2026-01-01T00:00:00Z</updated><link rel=\"enclosure\" type=\"application/zip\" href=\"again.zip\"/></entry>" }
            if n % 50 == 0 { return "<entry><id>s-\(n)</id><title>No content</title><updated>2026-01-01T00:00:00Z</updated></entry>" }
            return nil
        }
        let issues = try subscribeMatchesTheDocument(plain, expectFinal: false)
        #expect(!issues.contains { $0.title == "No content" || $0.title == "Three again" })
        #expect(issues.count == count - 1 - count / 50)
        // In a newsstand feed they are issues, listed without content.
        let newsstand = Self.feed(count: count, newsstand: true) { n in
            n % 50 == 0 ? "<entry><id>s-\(n)</id><title>No content</title><updated>2026-01-01T00:00:00Z</updated></entry>" : nil
        }
        let listed = try subscribeMatchesTheDocument(newsstand, expectFinal: true)
        #expect(listed.filter { $0.title == "No content" }.count == count / 50)
    }

    @Test func aFeedThatTurnsOutNotToBeOneLeavesTheLibraryAsItWas() throws {
        let server = try FeedTestServer()
        defer { server.stop() }
        // Items, but inside a web page: nothing is a publication.
        try server.put("page.html", "<html><body>" + String(repeating: "<item><title>x</title></item>", count: 600) + "</body></html>")
        let temporary = try TemporaryLibrary()
        #expect(throws: FeedError.self) { try temporary.library.subscriptions.subscribe(feedURL: server.url("page.html")) }
        #expect(try temporary.library.store.publications().isEmpty)
        #expect(try stored(temporary.library).isEmpty)
    }

    @Test func aRefreshStoresOnlyWhatChangedWhileParsing() throws {
        let server = try FeedTestServer()
        defer { server.stop() }
        let count = 2 * StreamedParse.batchSize
        try server.put("weekly.xml", Self.feed(count: count))
        let temporary = try TemporaryLibrary()
        let (publication, first) = try temporary.library.subscriptions.subscribe(feedURL: server.url("weekly.xml"))
        #expect(first.added.count == count)
        try server.put("weekly.xml", Self.feed(count: count + 1) { n in
            n == 7 ? "<entry><id>s-7</id><title>Seven, corrected</title><published>2026-08-08T06:00:00Z</published><link rel=\"enclosure\" type=\"application/zip\" href=\"issues/7.zip\"/></entry>" : nil
        })
        let second = try temporary.library.subscriptions.refresh(try reloaded(publication, in: temporary.library))
        #expect(second.added == ["s-\(count + 1)"])
        #expect(second.updated == 1)
        #expect(try temporary.library.store.issue(named: "s-7")?.title == "Seven, corrected")
        #expect(try temporary.library.store.issues(publicationID: publication.id ?? -1).count == count + 1)
    }

    /// A new library has 16 KiB pages, and what a subscription wrote is in the library file
    /// itself when `subscribe` returns, not only in the log until the last connection closes.
    @Test func aSubscriptionIsWrittenBackIntoTheLibraryFileBeforeSubscribeReturns() throws {
        let server = try FeedTestServer()
        defer { server.stop() }
        try server.put("weekly.xml", Self.feed(count: 2000))
        let temporary = try TemporaryLibrary()
        let file = temporary.library.paths.database.path
        func size() throws -> Int { try #require(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) }
        let before = try size()
        let (_, result) = try temporary.library.subscriptions.subscribe(feedURL: server.url("weekly.xml"))
        #expect(result.added.count == 2000)
        #expect(try temporary.library.store.writer.read { try Int.fetchOne($0, sql: "PRAGMA page_size") } == Library.pageSize)
        // 2,000 issues of about 250 bytes each, with their indexes (nothing, were the log
        // left as it is).
        #expect(try size() >= before + 400_000)
    }
}
