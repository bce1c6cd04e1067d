import Foundation
import Testing

/// A feed of plain articles through the real program (issue #23): `subscribe` says what it
/// found in one line, and `download` builds an edition with a generated cover.
@Suite struct EditionsEndToEndTests {
    let sandbox = Sandbox(["NEWSSTAND_RESOURCES=/nonexistent"])

    func feedFolder() throws -> URL {
        let folder = sandbox.home.appendingPathComponent("feeds")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func aFeedOfArticlesBecomesEditionsWithAGeneratedCover() throws {
        let folder = try feedFolder()
        try Data("""
            <?xml version="1.0"?>
            <rss version="2.0"><channel><title>The Daily Lamp</title>
            <item><title>Harbour reopens</title><guid>a1</guid><pubDate>Tue, 24 Nov 2026 12:00:00 +0000</pubDate>
            <description>&lt;p&gt;The quay reopened.&lt;script&gt;x()&lt;/script&gt;&lt;/p&gt;</description></item>
            </channel></rss>
            """.utf8).write(to: folder.appendingPathComponent("lamp.xml"))
        let subscribed = try sandbox.run("subscribe", folder.appendingPathComponent("lamp.xml").path)
        #expect(subscribed.status == 0 && subscribed.output.contains("Subscribed to The Daily Lamp: 1 new edition(s) of its articles."),
                "\(subscribed.output)")
        // Its own edition, not the sample news feed's (the samples are found beside the build).
        let name = try sandbox.sql("SELECT name FROM issue WHERE contentType = 'application/x-newsstand-edition' "
                                   + "AND publicationId = (SELECT id FROM publication WHERE title = 'The Daily Lamp')")
        #expect(name.hasPrefix("edition:"))
        let downloaded = try sandbox.run("download", name, "--wait")
        #expect(downloaded.status == 0, "\(downloaded.output)")
        let plain = try sandbox.run("read", name, "--plain")
        #expect(plain.output.contains("The quay reopened.") && !plain.output.contains("x()"), "\(plain.output)")
        // The cover was drawn by the program's painter (Imaging), registered at its start.
        let covers = FileManager.default.enumerator(at: sandbox.home.appendingPathComponent("cache/issues"), includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.path.hasSuffix("OEBPS/images/cover.png") } ?? []
        #expect(covers.count == 1)
        let bytes = try covers.first.map { [UInt8](try Data(contentsOf: $0).prefix(8)) }
        #expect(bytes == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    @Test func aFeedWithNeitherArchivesNorArticlesSaysSoInOneLine() throws {
        let folder = try feedFolder()
        try Data("<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Quiet</title></channel></rss>".utf8)
            .write(to: folder.appendingPathComponent("quiet.xml"))
        let result = try sandbox.run("subscribe", folder.appendingPathComponent("quiet.xml").path)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.trimmingCharacters(in: .whitespacesAndNewlines)
                == "Subscribed to Quiet, but its feed lists neither issue archives nor articles: nothing to read until it does.")
    }

    @Test func anUnknownEditionScheduleIsRefusedWithTheChoices() throws {
        let result = try sandbox.run("subscribe", "https://lamp.example/feed", "--editions", "hourly")
        #expect(result.status == 1 && result.output.contains("--editions must be daily, \"daily at HH\" (00 to 23), weekly or \"per refresh\""),
                "\(result.output)")
    }

    @Test func setChangesTheSchedulesOfEditionsNotYetReadAndTheFullTextSetting() throws {
        let folder = try feedFolder()
        let feed = folder.appendingPathComponent("lamp.xml")
        try Data("""
            <?xml version="1.0"?>
            <rss version="2.0"><channel><title>The Daily Lamp</title>
            <item><title>Monday</title><guid>a1</guid><pubDate>Mon, 23 Nov 2026 12:00:00 +0000</pubDate><description>One.</description></item>
            <item><title>Tuesday</title><guid>a2</guid><pubDate>Tue, 24 Nov 2026 12:00:00 +0000</pubDate><description>Two.</description></item>
            </channel></rss>
            """.utf8).write(to: feed)
        #expect(try sandbox.run("subscribe", feed.path).status == 0)
        let editions = "SELECT title FROM issue WHERE publicationId = (SELECT id FROM publication WHERE title = 'The Daily Lamp') ORDER BY date"
        #expect(try sandbox.sql(editions) == "Monday 23 November 2026\nTuesday 24 November 2026")

        let set = try sandbox.run("set", "The Daily Lamp", "--editions", "weekly", "--full-text")
        #expect(set.status == 0, "\(set.output)")
        #expect(set.output == "The Daily Lamp: editions weekly (1 edition(s) not yet read made again), full text on.\n", "\(set.output)")
        #expect(try sandbox.sql(editions) == "week of 23 November 2026")
        #expect(try sandbox.sql("SELECT editionSchedule || fullText FROM publication WHERE title = 'The Daily Lamp'") == "weekly1")

        let nothing = try sandbox.run("set", "The Daily Lamp")
        #expect(nothing.status == 64 && nothing.output.contains("say what to set"), "\(nothing.output)")
        let wrong = try sandbox.run("set", "The Daily Lamp", "--editions", "hourly")
        #expect(wrong.status == 1 && wrong.output.contains("--editions must be daily"), "\(wrong.output)")
    }
}
