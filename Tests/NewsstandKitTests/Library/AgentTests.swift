import Foundation
import Testing
import ZIPFoundation
@testable import NewsstandKit

@Suite struct AgentTests {
    /// A plain-zip issue: an index page and an article, written by the test.
    static func makeIssueArchive(in directory: URL, name: String = "issue.zip", article: String = "The tide came in at noon.") throws -> URL {
        let url = directory.appendingPathComponent(name)
        try? FileManager.default.removeItem(at: url)
        let archive = try Archive(url: url, accessMode: .create)
        let files: [(String, String)] = [
            ("index.html", "<html><body><h1>Contents</h1><a href=\"a.html\">A</a></body></html>"),
            ("a.html", "<html><body><h1>Article</h1><p>\(article)</p></body></html>"),
        ]
        for (path, text) in files {
            let data = Data(text.utf8)
            try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        return url
    }

    func runAgent(_ library: Library) throws -> Agent.Outcome {
        var options = Agent.Options()
        options.retryPolicy = RetryPolicy(maxAttempts: 2, baseDelay: 0.01, maxDelay: 0.02)
        return try Agent(library: library, options: options).run()
    }

    @Test func downloadsAndInstallsAQueuedIssue() throws {
        let temp = try TemporaryLibrary()
        let archive = try Self.makeIssueArchive(in: temp.root)
        let (_, issue) = try temp.publicationWithIssue(content: archive)
        try temp.library.downloads.enqueue(issue)
        #expect(try runAgent(temp.library) == .finished)

        let stored = try #require(try temp.library.store.issue(named: issue.name))
        #expect(stored.status == .available)
        #expect(stored.unread)
        let article = temp.library.downloads.contentDirectory(for: stored).appendingPathComponent("a.html")
        #expect(try String(contentsOf: article, encoding: .utf8).contains("The tide came in at noon."))
        // Nothing half-done is left: no partial file, no temporary directory beside the content.
        #expect(try FileManager.default.contentsOfDirectory(atPath: temp.library.paths.partialDirectory.path).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temp.library.paths.issuesDirectory.path)
            == [temp.library.downloads.contentDirectory(for: stored).lastPathComponent])
    }

    @Test func aWrongLengthInTheFeedIsAHintUnlessASHA256VouchesForIt() throws {
        let temp = try TemporaryLibrary()
        let archive = try Self.makeIssueArchive(in: temp.root)
        let size = Int64(try FileManager.default.attributesOfItem(atPath: archive.path)[.size] as? Int ?? 0)
        // An RSS enclosure saying length="1": downloaded all the same.
        var (_, issue) = try temp.publicationWithIssue(content: archive)
        issue.contentLength = 1
        issue = try temp.library.store.save(issue)
        try temp.library.downloads.enqueue(issue)
        #expect(try runAgent(temp.library) == .finished)
        #expect(try temp.library.store.issue(named: issue.name)?.status == .available)
        // With a digest the length binds: a file of another size is refused.
        var (_, vouched) = try temp.publicationWithIssue(named: "issue-2", content: archive)
        vouched.contentLength = size + 10
        vouched.sha256 = String(repeating: "0", count: 64)
        vouched = try temp.library.store.save(vouched)
        try temp.library.downloads.enqueue(vouched)
        #expect(try runAgent(temp.library) == .finished)
        let refused = try #require(try temp.library.store.issue(named: "issue-2"))
        #expect(refused.status == .none)
        #expect(refused.lastError?.contains("feed says \(size + 10)") == true)
    }

    @Test func aMissingFileFailsWithItsReason() throws {
        let temp = try TemporaryLibrary()
        let (_, issue) = try temp.publicationWithIssue(content: temp.root.appendingPathComponent("nowhere.zip"))
        try temp.library.downloads.enqueue(issue)
        #expect(try runAgent(temp.library) == .finished)
        let stored = try #require(try temp.library.store.issue(named: issue.name))
        #expect(stored.status == .none)
        #expect(stored.lastError?.isEmpty == false)
        #expect(!FileManager.default.fileExists(atPath: temp.library.downloads.contentDirectory(for: stored).path))
    }

    @Test func anArchiveThatCannotBeInstalledLeavesNothingBehind() throws {
        let temp = try TemporaryLibrary()
        let bogus = temp.root.appendingPathComponent("bogus.zip")
        try Data("this is not a zip archive at all".utf8).write(to: bogus)
        let (_, issue) = try temp.publicationWithIssue(content: bogus)
        try temp.library.downloads.enqueue(issue)
        #expect(try runAgent(temp.library) == .finished)
        let stored = try #require(try temp.library.store.issue(named: issue.name))
        #expect(stored.status == .none)
        #expect(stored.lastError?.contains("install") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temp.library.paths.issuesDirectory.path).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temp.library.paths.partialDirectory.path).isEmpty)
    }

    @Test func aPlainAssetLandsUnderItsUserInfoFileName() throws {
        let temp = try TemporaryLibrary()
        let source = temp.root.appendingPathComponent("extra.bin")
        try Data((0..<5000).map { UInt8($0 % 251) }).write(to: source)
        let (_, issue) = try temp.publicationWithIssue()
        try temp.library.downloads.addAsset(to: issue, url: source, kind: .file, userInfo: ["fileName": "../../escape/bonus.bin"])
        #expect(try runAgent(temp.library) == .finished)
        let installed = temp.library.downloads.contentDirectory(for: issue).appendingPathComponent("bonus.bin")
        #expect(try Data(contentsOf: installed) == Data(contentsOf: source))
        #expect(try temp.library.store.issue(named: issue.name)?.status == .available)
    }

    @Test func onlyOneAgentRunsPerLibrary() throws {
        let temp = try TemporaryLibrary()
        let held = try #require(AgentLock(path: temp.library.paths.agentLock))
        #expect(AgentLock.isHeld(path: temp.library.paths.agentLock))
        #expect(try runAgent(temp.library) == .alreadyRunning)
        withExtendedLifetime(held) {}
    }

    @Test func anAssetWhoseIssueWasRemovedIsDropped() throws {
        let temp = try TemporaryLibrary()
        let archive = try Self.makeIssueArchive(in: temp.root)
        let (_, issue) = try temp.publicationWithIssue(content: archive)
        let asset = try #require(try temp.library.downloads.enqueue(issue))
        try Data("partial".utf8).write(to: temp.library.downloads.partialFile(for: asset))
        try temp.library.downloads.removeIssue(issue)
        #expect(try runAgent(temp.library) == .finished)
        #expect(try temp.library.downloads.pendingDownloads().isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temp.library.paths.partialDirectory.path).isEmpty)
    }
}
