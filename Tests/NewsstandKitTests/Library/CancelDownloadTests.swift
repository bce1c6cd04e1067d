import Foundation
import Testing
@testable import NewsstandKit

/// Issue #21, item 4: a download in progress can be cancelled, from another process.
@Suite struct CancelDownloadTests {
    /// An agent with its own connection to the library, as the detached agent process has.
    static func agent(for library: Library, policy: RetryPolicy = RetryPolicy(maxAttempts: 2, baseDelay: 0.01, maxDelay: 0.02)) throws -> Agent {
        var options = Agent.Options()
        options.retryPolicy = policy
        options.progressInterval = 0
        return Agent(library: try Library(paths: library.paths), options: options)
    }

    static func partials(_ library: Library) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: library.paths.partialDirectory.path)) ?? []
    }

    @Test func cancellingMidwayStopsTheTransferAndLeavesNothingBehind() throws {
        let server = try TestHTTPServer.shared()
        let temp = try TemporaryLibrary()
        let key = TestHTTPServer.uniqueKey("cancel")
        // About 20 s in all: 1 000 chunks of 2 000 bytes, 20 ms apart.
        let (_, issue) = try temp.publicationWithIssue(content: server.url("/file/\(key)?size=2000000&chunk=2000&delay_ms=20"))
        let asset = try #require(try temp.library.downloads.enqueue(issue))
        let running = BackgroundAgent(try Self.agent(for: temp.library))

        // Midway: bytes in the .part and in the library, the download not done.
        #expect(try CacheLibrary.wait { (try temp.library.downloads.download(identifier: asset.identifier)?.bytesWritten ?? 0) > 50_000 })
        #expect(FileManager.default.fileExists(atPath: temp.library.downloads.partialFile(for: asset).path))
        #expect(try temp.library.downloads.cancelDownload(issue))

        // The transfer itself was stopped: the download is cancelled with part of its bytes, below.
        #expect(running.finished(), "the agent did not notice the cancel")
        let stored = try #require(try temp.library.store.issue(named: issue.name))
        #expect(stored.status == .none)
        #expect(stored.lastError == nil, "a cancel is not a failure: \(stored.lastError ?? "")")
        let download = try #require(try temp.library.downloads.download(identifier: asset.identifier))
        #expect(download.state == .cancelled)
        #expect(download.lastError == nil)
        #expect(download.bytesWritten < 2_000_000)
        #expect(Self.partials(temp.library).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: temp.library.downloads.contentDirectory(for: stored).path))
        #expect(try temp.library.downloads.pendingDownloads().isEmpty)

        // Not resumed by the next agent, and the issue can be downloaded afresh.
        #expect(try Self.agent(for: temp.library).run() == .finished)
        #expect(try temp.library.store.issue(named: issue.name)?.status == Issue.Status.none)
        #expect(try temp.library.downloads.download(identifier: asset.identifier)?.state == .cancelled)
        #expect(try temp.library.downloads.enqueue(stored) != nil)
    }

    @Test func cancellingAQueuedDownloadWithNoAgentRemovesItsPartAtOnce() throws {
        let temp = try TemporaryLibrary()
        let archive = try AgentTests.makeIssueArchive(in: temp.root)
        let (_, issue) = try temp.publicationWithIssue(content: archive)
        let asset = try #require(try temp.library.downloads.enqueue(issue))
        try Data("half an issue".utf8).write(to: temp.library.downloads.partialFile(for: asset))

        #expect(try temp.library.downloads.cancelDownload(issue))
        #expect(Self.partials(temp.library).isEmpty)
        #expect(try temp.library.store.issue(named: issue.name)?.status == Issue.Status.none)
        // An agent started afterwards has nothing to do: nothing is installed.
        #expect(try Self.agent(for: temp.library).run() == .finished)
        #expect(try temp.library.store.issue(named: issue.name)?.status == Issue.Status.none)
        #expect(!FileManager.default.fileExists(atPath: temp.library.downloads.contentDirectory(for: issue).path))
    }

    @Test func thereIsNothingToCancelWhenNothingIsDownloading() throws {
        let temp = try TemporaryLibrary()
        let archive = try AgentTests.makeIssueArchive(in: temp.root)
        let (_, issue) = try temp.publicationWithIssue(content: archive)
        #expect(try !temp.library.downloads.cancelDownload(issue))
        try temp.library.downloads.enqueue(issue)
        #expect(try Self.agent(for: temp.library).run() == .finished)
        let downloaded = try #require(try temp.library.store.issue(named: issue.name))
        #expect(downloaded.status == .available)
        // A finished download is not undone by a cancel.
        #expect(try !temp.library.downloads.cancelDownload(downloaded))
        #expect(try temp.library.store.issue(named: issue.name)?.status == .available)
    }
}
