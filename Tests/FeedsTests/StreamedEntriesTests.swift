import Foundation
import Testing
@testable import Feeds

/// `FeedParser.parse(_:url:batchSize:streaming:)`: entries handed over while reading, and an
/// honest answer about whether they are the document's entries.
@Suite struct StreamedEntriesTests {
    let url = URL(string: "https://stream.example/feed.xml")!

    func parse(_ xml: String, batchSize: Int = 3) throws -> (batches: [[FeedEntry]], document: FeedDocument, final: Bool) {
        var batches: [[FeedEntry]] = []
        let result = try FeedParser.parse(Data(xml.utf8), url: url, batchSize: batchSize) { batches.append($0) }
        return (batches, result.document, result.streamedEntriesAreFinal)
    }

    func items(_ count: Int, dated: (Int) -> Bool = { _ in true }) -> String {
        (1...count).map { n in
            "<item><guid>i-\(n)</guid><title>Item \(n)</title>\(dated(n) ? "<pubDate>Sun, 0\(n % 9 + 1) Nov 2026 06:00:00 GMT</pubDate>" : "")<enclosure url=\"/\(n).epub\" type=\"application/epub+zip\"/></item>"
        }.joined()
    }

    @Test func rssItemsArriveInBatchesInFeedOrderAndAreTheDocumentsEntries() throws {
        let (batches, document, final) = try parse("<rss version=\"2.0\"><channel><title>R</title>\(items(8))</channel></rss>")
        #expect(batches.map(\.count) == [3, 3, 2])
        #expect(batches.flatMap { $0 } == document.entries)
        #expect(document.entries.map(\.name) == (1...8).map { "i-\($0)" })
        #expect(final)
    }

    @Test func whatTheEndOfAFeedChangesIsNotCalledFinal() throws {
        // An undated item takes the channel date, written after the items.
        let undated = try parse("<rss version=\"2.0\"><channel>\(items(5) { $0 != 4 })<pubDate>Mon, 02 Nov 2026 00:00:00 GMT</pubDate></channel></rss>")
        #expect(!undated.final)
        #expect(undated.document.entries.count == 5)
        #expect(undated.batches.flatMap { $0 }.map(\.name) == undated.document.entries.map(\.name))
        // A repeated name: the document keeps the first one only.
        let repeated = try parse("<rss version=\"2.0\"><channel>\(items(4))\(items(1))</channel></rss>")
        #expect(!repeated.final)
        #expect(repeated.document.entries.count == 4)
        // An Atom entry without content is an issue only in a newsstand feed.
        let entry = "<entry><id>a-1</id><title>A</title><updated>2026-11-01T00:00:00Z</updated></entry>"
        let plain = try parse("<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>P</title>\(entry)</feed>")
        #expect(!plain.final && plain.document.entries.isEmpty && plain.batches.count == 1)
        let newsstand = try parse("<feed xmlns=\"http://www.w3.org/2005/Atom\" xmlns:news=\"http://itunes.apple.com/2011/Newsstand\"><title>N</title>\(entry)</feed>")
        #expect(newsstand.final && newsstand.document.entries.map(\.name) == ["a-1"])
    }

    @Test func formatsReadWholeHandNothingOverAndAreNotFinal() throws {
        let json = try parse("""
            {"version": "https://jsonfeed.org/version/1.1", "title": "J", "items": [
              {"id": "j-1", "title": "One", "date_published": "2026-11-01T00:00:00Z", "attachments": [{"url": "/1.zip", "mime_type": "application/zip"}]}]}
            """)
        #expect(json.batches.isEmpty && !json.final && json.document.entries.count == 1)
    }
}

/// A long feed is tokenized on a second thread while its entries are read; the document must
/// be the one a single thread reads, whatever the feed holds.
@Suite struct PipelinedParseTests {
    static let fixtures = [
        "newsstand-magazine.atom", "atom-enclosures.xml", "rss2-enclosures.xml", "rss1.rdf", "opds1-acquisition.xml",
        "truncated.atom", "hostile-strings.atom", "latin1-rss.xml", "utf16le-bom.atom", "invalid-utf8-rss.xml",
        "entity-bomb-rss.xml", "opds1-navigation.xml",
    ]

    func expectSameReading(_ data: Data, _ label: String) throws {
        let url = try #require(URL(string: "https://pipeline.example/feeds/index.xml"))
        let alone = try FeedParser.parse(data, url: url, sink: nil, pipelined: false)
        let pipelined = try FeedParser.parse(data, url: url, sink: nil, pipelined: true)
        #expect(pipelined.entries == alone.entries, "\(label)")
        #expect(pipelined.publication == alone.publication, "\(label)")
        #expect(pipelined.problems == alone.problems, "\(label)")
        #expect(pipelined.format == alone.format, "\(label)")
    }

    @Test(arguments: fixtures) func fixtureReadsTheSameOnTwoThreads(name: String) throws {
        try expectSameReading(try Fixture.data(name), name)
    }

    @Test func longFeedOverTheThresholdReadsTheSameAndWhole() throws {
        var xml = "<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>Long</title><updated>2026-01-01T00:00:00Z</updated>"
        var n = 0
        while xml.utf8.count < FeedParser.pipelineThreshold + 1000 {
            xml += "<entry><id>urn:e:\(n)</id><title>Issue \(n)</title><updated>2026-01-01T00:00:00Z</updated>"
                + "<link rel=\"enclosure\" type=\"application/zip\" href=\"i/\(n).zip\"/></entry>"
            n += 1
        }
        xml += "<entry><id>cut"  // cut off, as a feed can be
        let data = Data(xml.utf8)
        try expectSameReading(data, "long")
        let document = try FeedParser.parse(data, url: try #require(URL(string: "https://pipeline.example/f.xml")))
        #expect(document.entries.count == n)
        #expect(document.entries.last?.contentURL?.absoluteString == "https://pipeline.example/i/\(n - 1).zip")
        #expect(document.problems.contains { $0.contains("not well-formed") })
    }
}
