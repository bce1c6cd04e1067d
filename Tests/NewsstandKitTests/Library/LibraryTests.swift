import Foundation
import Testing
@testable import NewsstandKit

@Suite struct LibraryTests {
    @Test func addingAnIssueTwiceIsAnErrorNotACrash() throws {
        let temp = try TemporaryLibrary(inMemory: true)
        let first = try temp.library.store.addIssue(name: "2026-11", date: Date())
        #expect(first.id != nil)
        #expect(throws: LibraryError.duplicateIssueName("2026-11")) {
            try temp.library.store.addIssue(name: "2026-11", date: Date())
        }
        #expect(try temp.library.store.issues().count == 1)
    }

    /// `Issue.init(row:)` is written by hand: every column written must come back. The
    /// mirror check makes a property added later fail here until this test sets it.
    @Test func everyIssueColumnReadsBackAsWritten() throws {
        let temp = try TemporaryLibrary(inMemory: true)
        let publication = try temp.library.store.save(Publication(feedURL: "https://example.com/feed", title: "P"))
        var issue = Issue(publicationId: publication.id, name: "full", date: Date(timeIntervalSince1970: 1_700_000_000.25),
                          title: "Full", summary: "s", coverURL: "https://example.com/c.png",
                          contentURL: "https://example.com/i.zip", contentType: "application/zip",
                          contentLength: 123, sha256: String(repeating: "ab", count: 32))
        issue.status = .available; issue.unread = true; issue.pinned = true; issue.evicted = true
        issue.downloadedAt = Date(timeIntervalSince1970: 1_700_000_100.5)
        issue.lastOpenedAt = Date(timeIntervalSince1970: 1_700_000_200.75)
        issue.lastError = "e"; issue.contentSize = 456
        issue.locator = Locator(resource: "p3.png", progression: 0, totalProgression: 0.5, page: 3, updated: Date(timeIntervalSince1970: 1_700_000_300))
        issue.contentTitle = "Inside"; issue.contentAuthors = "A\nB"; issue.contentCover = "OEBPS/cover.jpg"
        issue.feedAuthors = "C\nD"
        issue = try temp.library.store.save(issue)
        for child in Mirror(reflecting: issue).children {
            let description = String(describing: child.value)
            #expect(description != "nil" && description != "false", "set \(child.label ?? "?") in this test")
        }
        #expect(try temp.library.store.issue(named: "full") == issue)
        #expect(try temp.library.store.issues(publicationID: #require(publication.id)) == [issue])
    }

    @Test func issuesAreListedNewestFirst() throws {
        let temp = try TemporaryLibrary(inMemory: true)
        try temp.library.store.addIssue(name: "old", date: Date(timeIntervalSince1970: 1_000))
        try temp.library.store.addIssue(name: "new", date: Date(timeIntervalSince1970: 3_000))
        try temp.library.store.addIssue(name: "middle", date: Date(timeIntervalSince1970: 2_000))
        #expect(try temp.library.store.issues().map(\.name) == ["new", "middle", "old"])
        #expect(try temp.library.store.issue(named: "middle")?.date == Date(timeIntervalSince1970: 2_000))
        #expect(try temp.library.store.issue(named: "missing") == nil)
    }

    @Test(arguments: ["../../etc/passwd", "a/b/c", "nul\u{0}byte", String(repeating: "long", count: 75), "📰 Зима 冬号", "..", ".", ""])
    func anyNameMapsToASafeDirectoryInsideTheCache(name: String) throws {
        let temp = try TemporaryLibrary(inMemory: true)
        let issue = try temp.library.store.addIssue(name: name.isEmpty ? "empty" : name, date: Date())
        let directory = temp.library.downloads.contentDirectory(for: issue)
        #expect(directory.deletingLastPathComponent().standardizedFileURL.path == temp.library.paths.issuesDirectory.standardizedFileURL.path)
        let component = directory.lastPathComponent
        #expect(!component.isEmpty && component != "." && component != "..")
        #expect(component.utf8.count <= 64)
        #expect(!component.contains("/") && !component.contains("\u{0}"))
    }

    @Test func similarNamesGetDifferentDirectories() throws {
        let temp = try TemporaryLibrary(inMemory: true)
        let a = try temp.library.store.addIssue(name: "a/b", date: Date())
        let b = try temp.library.store.addIssue(name: "a b", date: Date())
        let c = try temp.library.store.addIssue(name: "a?b", date: Date())
        let directories = Set([a, b, c].map { temp.library.downloads.contentDirectory(for: $0) })
        #expect(directories.count == 3)
    }

    @Test func openingClearsNewAndBecomesCurrentlyReading() throws {
        let temp = try TemporaryLibrary()
        var issue = try temp.library.store.addIssue(name: "n1", date: Date())
        issue.status = .available
        issue.unread = true
        issue = try temp.library.store.save(issue)
        try temp.library.store.markOpened(issue, at: temp.library.clock.now())
        #expect(try temp.library.store.issue(named: "n1")?.unread == false)
        #expect(temp.library.store.currentlyReadingIssue()?.name == "n1")
        // It survives reopening the library, as another process would see it.
        let again = try Library(paths: temp.library.paths)
        #expect(again.store.currentlyReadingIssue()?.name == "n1")
    }

    @Test func userInfoSurvivesAndUnstorableValuesAreRefused() throws {
        let temp = try TemporaryLibrary()
        let (_, issue) = try temp.publicationWithIssue()
        let asset = try temp.library.downloads.addAsset(to: issue, url: URL(string: "https://example.invalid/a.zip")!, kind: .file,
                                              userInfo: ["fileName": "a.zip", "size": 12, "tags": ["x", "y"]], identifier: "asset-1")
        let reopened = try Library(paths: temp.library.paths)
        let stored = try #require(try reopened.downloads.download(identifier: "asset-1"))
        let info = DownloadQueue.userInfo(of: stored)
        #expect(info["fileName"] as? String == "a.zip")
        #expect(info["size"] as? Int == 12)
        #expect(info["tags"] as? [String] == ["x", "y"])
        #expect(throws: LibraryError.userInfoNotStorable(key: "when")) {
            try temp.library.downloads.setUserInfo(["when": Date()], for: asset)
        }
        #expect(throws: LibraryError.self) {
            try temp.library.downloads.addAsset(to: issue, url: URL(string: "https://example.invalid/b")!, kind: .file, userInfo: ["blob": Data([1])])
        }
    }

    @Test func enqueueMarksDownloadingOnceAndFinishMakesAvailableAndUnread() throws {
        let temp = try TemporaryLibrary(inMemory: true)
        let (_, issue) = try temp.publicationWithIssue(content: URL(fileURLWithPath: "/tmp/x.epub"))
        let asset = try #require(try temp.library.downloads.enqueue(issue))
        #expect(try temp.library.downloads.enqueue(issue) == nil)  // already queued
        #expect(try temp.library.store.issue(named: issue.name)?.status == .downloading)
        #expect(try temp.library.downloads.pendingDownloads().map(\.identifier) == [asset.identifier])
        let completed = try temp.library.downloads.finish(asset)
        #expect(completed?.status == .available)
        #expect(completed?.unread == true)
        #expect(try temp.library.downloads.pendingDownloads().isEmpty)
        #expect(try temp.library.downloads.enqueue(try #require(completed)) == nil)  // already downloaded
    }

    @Test func anIssueIsCompleteOnlyWhenItsLastAssetFinishes() throws {
        let temp = try TemporaryLibrary(inMemory: true)
        let (_, issue) = try temp.publicationWithIssue()
        let first = try temp.library.downloads.addAsset(to: issue, url: URL(string: "file:///a")!, kind: .file)
        let second = try temp.library.downloads.addAsset(to: issue, url: URL(string: "file:///b")!, kind: .file)
        nonisolated(unsafe) var completedNames: [String] = []
        temp.library.onIssueCompleted = { completedNames.append($0.name) }
        #expect(try temp.library.downloads.finish(first) == nil)
        #expect(try temp.library.store.issue(named: issue.name)?.status == .downloading)
        #expect(try temp.library.downloads.finish(second)?.name == issue.name)
        #expect(completedNames == [issue.name])
    }

    @Test func failingADownloadRecordsTheReasonAndRemovesThePartialFile() throws {
        let temp = try TemporaryLibrary(inMemory: true)
        let (_, issue) = try temp.publicationWithIssue(content: URL(fileURLWithPath: "/tmp/x.epub"))
        let asset = try #require(try temp.library.downloads.enqueue(issue))
        let part = temp.library.downloads.partialFile(for: asset)
        try Data("half".utf8).write(to: part)
        try temp.library.downloads.fail(asset, reason: "HTTP 404 Not Found")
        let stored = try #require(try temp.library.store.issue(named: issue.name))
        #expect(stored.status == .none)
        #expect(stored.lastError == "HTTP 404 Not Found")
        #expect(!FileManager.default.fileExists(atPath: part.path))
    }

    @Test func removingAnIssueDeletesItsDownloadsContentAndPartials() throws {
        let temp = try TemporaryLibrary(inMemory: true)
        let (_, issue) = try temp.publicationWithIssue(content: URL(fileURLWithPath: "/tmp/x.epub"))
        let asset = try #require(try temp.library.downloads.enqueue(issue))
        try Data("half".utf8).write(to: temp.library.downloads.partialFile(for: asset))
        let content = temp.library.downloads.contentDirectory(for: issue)
        try FileManager.default.createDirectory(at: content, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: content.appendingPathComponent("a.html"))
        try temp.library.downloads.removeIssue(issue)
        #expect(try temp.library.store.issue(named: issue.name) == nil)
        #expect(try temp.library.downloads.download(identifier: asset.identifier) == nil)
        #expect(!FileManager.default.fileExists(atPath: content.path))
        #expect(!FileManager.default.fileExists(atPath: temp.library.downloads.partialFile(for: asset).path))
    }

    @Test func orphanedPartialFilesAreRemoved() throws {
        let temp = try TemporaryLibrary(inMemory: true)
        let stray = temp.library.paths.partialDirectory.appendingPathComponent("gone.part")
        try Data("x".utf8).write(to: stray)
        #expect(try temp.library.downloads.removeOrphanedPartials() == 1)
        #expect(!FileManager.default.fileExists(atPath: stray.path))
    }

    @Test func theShelfCoverIsTheNewestAvailableIssuesAndTheSashFollowsUnread() throws {
        let temp = try TemporaryLibrary(inMemory: true)
        let coverDir = temp.root.appendingPathComponent("covers")
        try FileManager.default.createDirectory(at: coverDir, withIntermediateDirectories: true)
        func cover(_ name: String) throws -> URL {
            let file = coverDir.appendingPathComponent(name)
            try Data([0x89]).write(to: file)
            return file
        }
        var publication = Publication(feedURL: "file:///f.xml", title: "Daily")
        publication.coverURL = try cover("default.png").absoluteString
        publication = try temp.library.store.save(publication)
        var older = try temp.library.store.addIssue(name: "d1", date: Date(timeIntervalSince1970: 1_000), publicationID: publication.id)
        var newer = try temp.library.store.addIssue(name: "d2", date: Date(timeIntervalSince1970: 2_000), publicationID: publication.id)
        older.coverURL = try cover("d1.png").absoluteString
        newer.coverURL = try cover("d2.png").absoluteString
        older = try temp.library.store.save(older)
        newer = try temp.library.store.save(newer)

        var summary = try #require(try ShelfReader(library: temp.library).summaries().first)
        #expect(summary.coverFile?.lastPathComponent == "default.png")  // nothing downloaded yet
        #expect(summary.unreadCount == 0)

        // The newer issue is only downloading: the cover must not follow it yet.
        older.status = .available; older.unread = true
        try temp.library.store.save(older)
        newer.status = .downloading
        try temp.library.store.save(newer)
        summary = try #require(try ShelfReader(library: temp.library).summaries().first)
        #expect(summary.coverFile?.lastPathComponent == "d1.png")
        #expect(summary.unreadCount == 1)

        try temp.library.store.markOpened(older, at: temp.library.clock.now())
        summary = try #require(try ShelfReader(library: temp.library).summaries().first)
        #expect(summary.unreadCount == 0)
    }

    @Test func anotherProcessesCommitChangesTheChangeToken() throws {
        let temp = try TemporaryLibrary()
        let other = try Library(paths: temp.library.paths)
        let before = temp.library.changeToken()
        try other.store.addIssue(name: "from-elsewhere", date: Date())
        #expect(temp.library.changeToken() != before)
    }
}
