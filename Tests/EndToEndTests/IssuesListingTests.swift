import Foundation
import Testing

/// `issues` shows each issue's title, and how far a running download is, in text and JSON
/// (issue #21, item 8).
@Suite(.serialized) struct IssuesListingTests {
    @Test func eachLineShowsTheIssuesTitle() throws {
        let sandbox = Sandbox(["NEWSSTAND_RESOURCES=\(Sandbox.repository.path)"], samples: true)
        let lines = try sandbox.run("issues").output.components(separatedBy: "\n")
        let courier = lines.first { $0.contains("courier-2026-11-20\t") } ?? ""
        #expect(courier.contains("\tFriday 20 November 2026\t"), "\(courier)")
        let tidewater = lines.first { $0.contains("tidewater-2026-10\t") } ?? ""
        #expect(tidewater.contains("\tNo. 30 · October 2026\t"), "\(tidewater)")
        let lantern = lines.first { $0.contains("lantern-2026-09\t") } ?? ""
        #expect(lantern.hasPrefix("The Lantern\t") && lantern.contains("\tNo. 7 · Autumn 2026\t"), "\(lantern)")
        // The sample news feed's articles are gathered into editions, one a day (three days).
        let editions = lines.filter { $0.hasPrefix("Wendle Valley Wire\tedition:") }
        #expect(editions.count >= 2 && editions.allSatisfy { $0.contains(" November 2026\t") }, "\(lines)")
    }

    /// The sample PDF quarterly's newest issue has no cover in its feed: once downloaded,
    /// its first page is its cover; the issue before it keeps the feed's.
    @Test func aPDFIssueWithoutAFeedCoverHasItsFirstPageAsCover() throws {
        let sandbox = Sandbox(["NEWSSTAND_RESOURCES=\(Sandbox.repository.path)"], samples: true)
        let download = try sandbox.run("download", "lantern-2026-09", "--wait")
        #expect(download.status == 0, "\(download.output)")
        let listed = try sandbox.run("issues", "--json")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]])
        let newest = try #require(rows.first { $0["name"] as? String == "lantern-2026-09" })
        #expect(newest["status"] as? String == "available")
        #expect((newest["cover"] as? String)?.hasSuffix("/issue.pdf#page=1") == true, "\(newest)")
        #expect(newest["authors"] as? [String] == ["Isla Marchetti, Kofi Mensah-Lowe, Ruairi Penhale, Sunniva Dahl"])
        let before = try #require(rows.first { $0["name"] as? String == "lantern-2026-06" })
        #expect((before["cover"] as? String)?.hasSuffix("sample-feed/lantern-quarterly/covers/lantern-2026-06.png") == true, "\(before)")
    }

    /// A book subscribed to from an OPDS acquisition feed (calibre's, calibre-web's) shows
    /// the authors the feed names before it is downloaded.
    @Test func aCatalogBooksAuthorsShowBeforeItsDownload() throws {
        let sandbox = Sandbox(["NEWSSTAND_RESOURCES=/nonexistent"])
        let feeds = sandbox.home.appendingPathComponent("feeds")
        try FileManager.default.createDirectory(at: feeds, withIntermediateDirectories: true)
        let feed = feeds.appendingPathComponent("by-newest.xml")
        try Data("""
            <feed xmlns="http://www.w3.org/2005/Atom"><title>By Newest</title><id>urn:calibre:new</id>
            <updated>2026-03-01T00:00:00Z</updated>
            <entry><title>The Harbour Ledger</title><id>urn:uuid:harbour</id><updated>2026-02-01T00:00:00Z</updated>
            <author><name>Ada Reef</name></author><author><name>Bo Strand</name></author>
            <link rel="http://opds-spec.org/acquisition" type="application/epub+zip" href="harbour.epub"/></entry>
            </feed>
            """.utf8).write(to: feed)
        let subscribed = try sandbox.run("subscribe", feed.path)
        #expect(subscribed.status == 0, "\(subscribed.output)")
        let listed = try sandbox.run("issues", "--json")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]], "\(listed.output)")
        let book = try #require(rows.first { $0["name"] as? String == "urn:uuid:harbour" }, "\(rows)")
        #expect(book["status"] as? String == "none", "\(book)")
        #expect(book["authors"] as? [String] == ["Ada Reef", "Bo Strand"], "\(book)")
    }

    @Test func aRunningDownloadShowsItsPercent() throws {
        let sandbox = try Sandbox.downloadingSlowly("big-issue", title: "The Big Issue")

        var text = ""
        var json = ""
        _ = Tmux.poll(timeout: 30) {
            text = (try? sandbox.run("issues").output) ?? ""
            json = (try? sandbox.run("issues", "--json").output) ?? ""
            return text.range(of: #"\tdownloading [1-9]\d? %"#, options: .regularExpression) != nil
                && json.range(of: #""percent" : [1-9]\d?,"#, options: .regularExpression) != nil
        }
        #expect(text.range(of: #"big-issue\tThe Big Issue\t2026-11-01\tdownloading [1-9]\d? %"#, options: .regularExpression) != nil, "\(text)")
        #expect(json.range(of: #""percent" : [1-9]\d?,"#, options: .regularExpression) != nil, "\(json)")
    }
}
