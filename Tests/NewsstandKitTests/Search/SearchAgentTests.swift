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

    /// The text source as the agent calls it, noting the niceness of the thread it runs on.
    final class NicenessSeen: IssueTextSource, @unchecked Sendable {
        private let lock = NSLock()
        private var seen: [Int32] = []
        var values: [Int32] { lock.withLock { seen } }

        func parts(ofContentIn directory: URL) throws -> [SearchablePart] {
            errno = 0
            let nice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
            lock.withLock { seen.append(nice) }
            return try TextFilesSource().parts(ofContentIn: directory)
        }
    }

    @Test func theAgentIndexesOnALowerPriorityThreadAndLeavesItsOwnAlone() throws {
        let temp = try TemporaryLibrary()
        let archive = try AgentTests.makeIssueArchive(in: temp.root, article: "Gannets dive from a great height.")
        let (_, issue) = try temp.publicationWithIssue(content: archive)
        try temp.library.downloads.enqueue(issue)
        let seen = NicenessSeen()
        var options = Agent.Options()
        options.searchTexts = seen
        errno = 0
        let before = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        #expect(try Agent(library: temp.library, options: options).run() == .finished)
        #expect(seen.values == [max(before, SearchCatchUp.niceness)], "read on a thread niced by \(SearchCatchUp.niceness)")
        #expect(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) == before, "this thread is as it was")
        #expect(try temp.library.search.find(SearchQuery("gannets")).groups.count == 1)
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
