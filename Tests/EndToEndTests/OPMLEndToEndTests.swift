import Foundation
import Testing

/// `opml import` and `opml export` as a user moving from another reader runs them (issue #30,
/// item 22), on lists written in NetNewsWire's shape, with feeds of the test's own.
@Suite struct OPMLEndToEndTests {
    let sandbox = Sandbox(["NEWSSTAND_RESOURCES=/nonexistent"])

    /// The file URL of a feed "TITLE Weekly" the test writes.
    func feed(_ title: String) throws -> String {
        let feeds = sandbox.home.appendingPathComponent("feeds/\(title.lowercased())")
        try FileManager.default.createDirectory(at: feeds, withIntermediateDirectories: true)
        return try IssueFeedFixture(in: feeds, id: title.lowercased(), title: title, payloadBytes: 1024).feed.absoluteString
    }

    func write(_ text: String, named name: String) throws -> String {
        try FileManager.default.createDirectory(at: sandbox.home, withIntermediateDirectories: true)
        let file = sandbox.home.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file.path
    }

    @Test func importSubscribesNewFeedsNamesTheFollowedOnceAndRunsNoCommand() throws {
        let marker = sandbox.home.appendingPathComponent("ran")
        let list = try write("""
            <?xml version="1.0" encoding="UTF-8"?>
            <opml version="1.1">
            \t<head><title>Subscriptions-OnMyMac.opml</title></head>
            <body>
            \t<outline text="Magazines" title="Magazines">
            \t\t<outline text="Tidewater" title="Tidewater" type="rss" version="RSS" xmlUrl="\(try feed("Tidewater"))"/>
            \t\t<outline text="Courier" title="Courier" type="rss" version="RSS" xmlUrl="\(try feed("Courier"))"/>
            \t</outline>
            \t<outline text="Wire" title="Wire" type="rss" xmlUrl="\(try feed("Wire"))"/>
            \t<outline type="rss" title="Script" xmlUrl="exec:touch \(marker.path)"/>
            \t<outline type="rss" title="Piped" xmlUrl="|touch \(marker.path)"/>
            </body>
            </opml>
            """, named: "netnewswire.opml")
        let before = try sandbox.run("subscribe", try feed("Tidewater"))
        #expect(before.status == 0, "\(before.output)")

        let result = try sandbox.run("opml", "import", list)
        #expect(result.status == 0, "\(result.output)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.contains("Tidewater") }.count == 1, "\(result.output)")
        #expect(lines.contains { $0.hasPrefix("Already subscribed to 1: Tidewater Weekly.") }, "\(result.output)")
        #expect(lines.contains { $0.hasPrefix("Subscribed to Courier Weekly") }, "\(result.output)")
        #expect(lines.contains { $0.hasPrefix("Subscribed to Wire Weekly") }, "\(result.output)")
        #expect(lines.filter { $0.hasPrefix("newsstand: ") && $0.contains("refused") && $0.contains("not run") }.count == 2, "\(result.output)")
        #expect(lines.contains { $0.contains("no folders or tags") && $0.contains("Magazines") }, "\(result.output)")
        #expect(!FileManager.default.fileExists(atPath: marker.path), "a command in the list was run")

        let again = try sandbox.run("opml", "import", list)
        #expect(again.status == 0, "\(again.output)")
        let followed = again.output.split(separator: "\n").filter { $0.hasPrefix("Already subscribed") }
        #expect(followed.count == 1 && followed[0].hasPrefix("Already subscribed to 3:"), "\(again.output)")
        #expect(!again.output.contains("Subscribed to"), "\(again.output)")
    }

    @Test func aFeedOrAnOPMLWithoutBodyIsRefusedInOneLine() throws {
        let feed = try sandbox.run("opml", "import", Sandbox.repository.appendingPathComponent("sample-feed/tidewater-monthly/feed.xml").path)
        #expect(feed.status == 1, "\(feed.output)")
        #expect(feed.output.hasPrefix("newsstand: ") && feed.output.contains("is not OPML"), "\(feed.output)")
        #expect(feed.output.split(separator: "\n").count == 1, "\(feed.output)")

        let empty = try write("<opml version=\"1.0\"><head><title>newsboat - Exported Feeds</title></head></opml>", named: "empty.opml")
        let result = try sandbox.run("opml", "import", empty)
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.contains("without a <body>"), "\(result.output)")
        #expect(result.output.split(separator: "\n").count == 1, "\(result.output)")
    }

    @Test func exportWritesOPML2OfTheFeedsFollowedToStandardOutputOrAFile() throws {
        for title in ["Tidewater", "Wire"] {
            let result = try sandbox.run("subscribe", try feed(title))
            #expect(result.status == 0, "\(result.output)")
        }
        let printed = try sandbox.run("opml", "export")
        #expect(printed.status == 0, "\(printed.output)")
        #expect(printed.output.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<opml version=\"2.0\">"), "\(printed.output)")
        #expect(printed.output.contains("<outline type=\"rss\" text=\"Wire Weekly\" title=\"Wire Weekly\" xmlUrl=\"\(try feed("Wire"))\""),
                "\(printed.output)")
        let outlines = printed.output.components(separatedBy: "<outline ").count - 1
        #expect(outlines >= 2 && printed.output.contains("title=\"Tidewater Weekly\""), "\(printed.output)")

        let file = sandbox.home.appendingPathComponent("subscriptions.opml")
        let written = try sandbox.run("opml", "export", file.path)
        #expect(written.status == 0 && written.output.contains("Wrote \(outlines) feed(s)"), "\(written.output)")
        #expect(try String(contentsOf: file, encoding: .utf8) == printed.output)

        // What was exported imports into another library as the same feeds.
        let other = Sandbox(["NEWSSTAND_RESOURCES=/nonexistent"])
        let imported = try other.run("opml", "import", file.path)
        #expect(imported.status == 0, "\(imported.output)")
        #expect(imported.output.contains("Subscribed to Wire Weekly"), "\(imported.output)")
        #expect(imported.output.contains("of the \(outlines) feed(s)"), "\(imported.output)")
    }

    /// A feed's web site is exported as `htmlUrl`, escaped; a feed without one has none.
    @Test func exportWritesTheSiteLinkAFeedGives() throws {
        let rss = try write("""
            <?xml version="1.0"?><rss version="2.0"><channel><title>Harbour Notes</title>
            <link>https://harbour.example/notes?from=feed&amp;lang=en</link>
            <item><title>One</title><guid>h1</guid><description>Hello</description></item></channel></rss>
            """, named: "harbour.xml")
        let subscribed = try sandbox.run("subscribe", URL(fileURLWithPath: rss).absoluteString)
        #expect(subscribed.status == 0, "\(subscribed.output)")
        #expect(try sandbox.run("subscribe", try feed("Wire")).status == 0)
        let printed = try sandbox.run("opml", "export")
        #expect(printed.status == 0, "\(printed.output)")
        let harbour = printed.output.split(separator: "\n").first { $0.contains("Harbour Notes") } ?? ""
        #expect(harbour.hasSuffix("htmlUrl=\"https://harbour.example/notes?from=feed&amp;lang=en\"/>"), "\(printed.output)")
        let wire = printed.output.split(separator: "\n").first { $0.contains("Wire Weekly") } ?? ""
        #expect(!wire.isEmpty && !wire.contains("htmlUrl"), "\(printed.output)")

        // An imported list's htmlUrl is kept for a feed that names no site of its own.
        let list = try write(printed.output
            .replacingOccurrences(of: "xmlUrl=\"\(try feed("Wire"))\"",
                                  with: "xmlUrl=\"\(try feed("Wire"))\" htmlUrl=\"https://wire.example/?a=1&amp;b=2\""),
            named: "with-site.opml")
        let other = Sandbox(["NEWSSTAND_RESOURCES=/nonexistent"])
        let imported = try other.run("opml", "import", list)
        #expect(imported.status == 0, "\(imported.output)")
        let again = try other.run("opml", "export")
        #expect(again.output.contains("title=\"Wire Weekly\" xmlUrl=\"\(try feed("Wire"))\" htmlUrl=\"https://wire.example/?a=1&amp;b=2\"/>"),
                "\(again.output)")
        #expect(again.output.contains("htmlUrl=\"https://harbour.example/notes?from=feed&amp;lang=en\""), "\(again.output)")
    }
}
