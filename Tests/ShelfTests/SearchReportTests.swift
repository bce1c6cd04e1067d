import Foundation
import Testing
@testable import NewsstandKit
@testable import Shelf

/// What `newsstand search` prints: a stranger's text in a snippet or a title is cleaned
/// like every other output, and the marks are the report's own.
@Suite struct SearchReportTests {
    func results(snippet: [SearchSnippet.Piece], title: String) -> SearchResults {
        let issue = NewsstandKit.Issue(publicationId: 1, name: "issue-1", date: Date(timeIntervalSince1970: 1_780_000_000), title: title)
        let part = SearchablePart(kind: .page, resource: "issue.pdf#page=3", page: 2, position: 2, label: nil, title: "", text: "")
        let hit = SearchHit(issueID: 1, part: part, score: -1, snippet: SearchSnippet(pieces: snippet))
        return SearchResults(groups: [.init(issue: issue, shortName: "weekly/1", publication: "Weekly\u{1B}]0;owned\u{7}", hits: [hit])], pending: 0)
    }

    @Test func hostileTextIsCleanedAndOnlyTheMarksAreTheReports() throws {
        let found = results(snippet: [.init(text: "before \u{1B}[2J", matched: false), .init(text: "tide\u{9B}31m", matched: true),
                                      .init(text: " after\u{202E}", matched: false)], title: "Title\u{1B}[5m")
        let text = SearchReport.text(found, marks: .brackets)
        #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B || $0.value == 0x07 || $0.value == 0x202E }, "\(text.debugDescription)")
        #expect(text.hasPrefix("weekly/1  Title"))
        #expect(text.contains("page 3: before"))
        #expect(text.contains("[tide"))
        let terminal = SearchReport.text(found, marks: .terminal)
        #expect(terminal.components(separatedBy: "\u{1B}").count == 3, "\(terminal.debugDescription)")  // one mark: on, off

        let json = try SearchReport.json(found)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let match = try #require(((parsed["issues"] as? [[String: Any]])?.first?["matches"] as? [[String: Any]])?.first)
        let snippet = try #require(match["snippet"] as? String)
        let mark = try #require((match["marks"] as? [[Int]])?.first)
        #expect(!snippet.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B })
        let scalars = Array(snippet.unicodeScalars)
        #expect(String(String.UnicodeScalarView(scalars[mark[0]..<(mark[0] + mark[1])])).hasPrefix("tide"))
    }
}
