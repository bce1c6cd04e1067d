import Foundation
import Testing
@testable import NewsstandKit

/// `issues` says where an issue stands in a reader's words (issue #30, item 18).
@Suite struct IssueStatusWordsTests {
    static func issue(_ status: NewsstandKit.Issue.Status, progress: Double? = nil) -> NewsstandKit.Issue {
        var issue = NewsstandKit.Issue(publicationId: 1, name: "x", date: Date(timeIntervalSince1970: 0), title: "x")
        issue.status = status
        issue.locator = progress.map { Locator(resource: "OEBPS/ch1.xhtml", progression: 0, totalProgression: $0, updated: Date(timeIntervalSince1970: 0)) }
        return issue
    }

    @Test func eachStateHasTheWordsAReaderUses() {
        #expect(IssueStatusWords.phrase(Self.issue(.none), downloadPercent: nil) == "not downloaded")
        #expect(IssueStatusWords.phrase(Self.issue(.downloading), downloadPercent: 37) == "downloading 37 %")
        #expect(IssueStatusWords.phrase(Self.issue(.downloading), downloadPercent: nil) == "downloading")
        #expect(IssueStatusWords.phrase(Self.issue(.available), downloadPercent: nil) == "ready")
        #expect(IssueStatusWords.phrase(Self.issue(.available, progress: 0), downloadPercent: nil) == "ready")
        #expect(IssueStatusWords.phrase(Self.issue(.available, progress: 0.42), downloadPercent: nil) == "reading 42 %")
        #expect(IssueStatusWords.phrase(Self.issue(.available, progress: 0.001), downloadPercent: nil) == "reading 1 %")
        #expect(IssueStatusWords.phrase(Self.issue(.available, progress: 0.99), downloadPercent: nil) == "read")
    }
}
