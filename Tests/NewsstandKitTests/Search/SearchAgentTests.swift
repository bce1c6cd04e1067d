import Foundation
import Testing
@testable import NewsstandKit

/// The agent keeps the index up to date: what it installs is found when it finishes.
@Suite struct SearchAgentTests {
    @Test func whatTheAgentInstallsIsIndexedBeforeItEnds() throws {
        let temp = try TemporaryLibrary()
        let archive = try AgentTests.makeIssueArchive(in: temp.root, article: "The cormorants dried their wings on the breakwater.")
        let (_, issue) = try temp.publicationWithIssue(content: archive)
        try temp.library.downloads.enqueue(issue)
        var options = Agent.Options()
        options.searchTexts = TextFilesSource()
        #expect(try Agent(library: temp.library, options: options).run() == .finished)

        #expect(try temp.library.search.pendingCount() == 0)
        let group = try #require(try temp.library.search.find(SearchQuery("cormorant*")).groups.first)
        #expect(group.issue.id == issue.id)
        #expect(group.hits.map(\.part.resource) == ["a.html"])
    }

    @Test func anAgentWithoutAReaderOfTextLeavesTheContentMarkedForOneThatHasIt() throws {
        let temp = try TemporaryLibrary()
        let archive = try AgentTests.makeIssueArchive(in: temp.root, article: "Puffins nest in burrows.")
        let (_, issue) = try temp.publicationWithIssue(content: archive)
        try temp.library.downloads.enqueue(issue)
        #expect(try Agent(library: temp.library, options: Agent.Options()).run() == .finished)
        #expect(try temp.library.search.pendingCount() == 1)
        try temp.library.search.indexer(texts: nil).catchUp()
        #expect(try temp.library.search.pendingCount() == 1)
        try temp.library.search.indexer(texts: TextFilesSource()).catchUp()
        #expect(try temp.library.search.pendingCount() == 0)
        #expect(try temp.library.search.find(SearchQuery("puffins")).groups.count == 1)
    }
}
