import Foundation
import Testing
@testable import Feeds

@Suite struct FeedReportTests {
    @Test func textListsPublicationIssuesNewestFirstAndProblems() throws {
        let doc = try Fixture.parse("rss2-enclosures.xml", url: "https://lantern.example/feed.xml")
        let lines = FeedReport.text(doc, formatSize: { "\($0) bytes" })
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "The Evening Lantern  (rss2)")
        #expect(lines.contains("  push      https://lantern.example/events"))
        #expect(lines.contains("Issues (4), newest first:"))
        // The feed's item without an archive is listed after the issues, as an article.
        #expect(lines.contains("Articles (1), gathered into editions:"))
        let issueLines = lines.prefix { !$0.hasPrefix("Articles") }.filter { $0.hasPrefix("  2026-") }
        #expect(issueLines.first == "  2026-02-10  Tuesday edition  [lantern-2026-02-10]")
        #expect(issueLines.last?.hasPrefix("  2026-02-08  Sunday edition") == true)
        #expect(lines.contains("      content  https://lantern.example/issues/2026-02-10.epub (application/epub+zip) 120400 bytes"))
        // The undated issue is a problem; the article is not (issue #30, item 19).
        #expect(lines.contains("Problems (1):"))
        #expect(!lines.contains { $0.contains("carry no") })
    }

    @Test func jsonRoundTrips() throws {
        let doc = try Fixture.parse("newsstand-magazine.atom", url: "https://harbour.example/feeds/monthly.atom")
        let json = try FeedReport.json(doc)
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let back = try decoder.decode(FeedDocument.self, from: Data(json.utf8))
        #expect(back.format == .newsstandAtom)
        #expect(back.publication == doc.publication)
        #expect(back.entries == doc.entries)
        #expect(json.contains("\"contentURL\" : \"https://harbour.example/feeds/issues/2026-03.epub\""))
    }
}
