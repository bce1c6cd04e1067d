import Foundation
import GRDB
import Testing
@testable import NewsstandKit

/// The shelf reads issues again only when an issue row was added, removed or changed;
/// whatever else changed (a download's progress, a publication) is read every time.
@Suite struct ShelfReaderTests {
    @Test func progressAloneIsReadWithoutReadingTheIssuesAgain() throws {
        let temp = try TemporaryLibrary()
        let (publication, issue) = try temp.publicationWithIssue()
        let id = try #require(publication.id)
        let reader = ShelfReader(library: temp.library)
        #expect(try reader.storeTiles(publicationID: id).first?.download == nil)
        _ = try reader.summaries()
        #expect(reader.issueReads == 2)

        // Queueing the download marks the issue downloading: that is read.
        let asset = try temp.library.downloads.addAsset(to: issue, url: URL(string: "http://127.0.0.1:9/i.zip")!, kind: .archive)
        #expect(try reader.storeTiles(publicationID: id).first?.issue.status == .downloading)
        _ = try reader.summaries()
        #expect(reader.issueReads == 4)

        try temp.library.downloads.recordProgress(asset, written: 300, expected: 1000, bytesPerSecond: nil)
        #expect(try reader.storeTiles(publicationID: id).first?.download?.bytesWritten == 300)
        var renamed = publication
        renamed.title = "Renamed"
        _ = try temp.library.store.save(renamed)
        #expect(try reader.summaries().first?.publication.title == "Renamed")
        #expect(reader.issueReads == 4)
    }

    @Test func anIssueAddedChangedOrRemovedIsReadAgain() throws {
        let temp = try TemporaryLibrary()
        let (publication, issue) = try temp.publicationWithIssue()
        let id = try #require(publication.id)
        let reader = ShelfReader(library: temp.library)
        #expect(try reader.storeTiles(publicationID: id).count == 1)
        #expect(try reader.summaries().first?.issueCount == 1)

        // Changed by another connection, as the agent's process would.
        let other = try DatabaseQueue(path: temp.library.paths.database.path)
        try other.write { db in try db.execute(sql: "UPDATE issue SET status = 'available', unread = 1 WHERE id = ?", arguments: [issue.id]) }
        #expect(try reader.storeTiles(publicationID: id).first?.issue.status == .available)
        #expect(try reader.summaries().first?.unreadCount == 1)

        let added = try temp.library.store.addIssue(name: "issue-2", date: Date(timeIntervalSince1970: 1_790_000_000), publicationID: id)
        #expect(try reader.storeTiles(publicationID: id).map(\.issue.name) == ["issue-2", "issue-1"])
        #expect(try reader.summaries().first?.issueCount == 2)

        // One removed and one added in the same interval: the count stays, the highest id moves.
        try temp.library.downloads.removeIssue(added)
        try temp.library.store.addIssue(name: "issue-3", date: Date(timeIntervalSince1970: 1_800_000_000), publicationID: id)
        #expect(try reader.storeTiles(publicationID: id).map(\.issue.name) == ["issue-3", "issue-1"])

        // Unsubscribing hides the publication from the shelf; its issues stay its own and
        // unchanged, so they are not read again.
        try temp.library.subscriptions.removePublication(publication, removeIssues: false)
        #expect(try reader.storeTiles(publicationID: id).map(\.issue.name) == ["issue-3", "issue-1"])
        #expect(try reader.summaries().isEmpty)
        #expect(reader.issueReads == 8)
    }
}
