import Foundation
import GRDB
import Synchronization
import Testing
@testable import NewsstandKit

/// The shelf polls and reads while the agent or a refresh holds a long write transaction
/// (a 20,000-entry feed): with one serial queue those reads waited for the commit.
@Suite struct LibraryConcurrencyTests {
    @Test func readsAndTheChangePollDoNotWaitForAnOpenWriteTransaction() throws {
        let temp = try TemporaryLibrary()
        let library = temp.library
        let (_, issue) = try temp.publicationWithIssue()
        let before = library.changeToken()

        let inside = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let committed = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = try? library.store.writer.write { db in
                try db.execute(sql: "UPDATE issue SET title = 'Being stored' WHERE id = ?", arguments: [issue.id])
                inside.signal()
                release.wait()
            }
            committed.signal()
        }
        inside.wait()

        let seen = Mutex<(token: Int, publications: Int, title: String?)?>(nil)
        let readsDone = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let token = library.changeToken()
            let publications = (try? library.store.publications().count) ?? -1
            let title = try? library.store.issue(id: issue.id ?? 0)?.title
            seen.withLock { $0 = (token, publications, title) }
            readsDone.signal()
        }
        // A bound, not a pause: a read that waits for the commit never arrives, as the
        // commit waits for the read.
        let readWhileWriting = readsDone.wait(timeout: .now() + 30) == .success
        release.signal()
        committed.wait()

        #expect(readWhileWriting, "a read waited behind the write transaction")
        let during = try #require(seen.withLock { $0 })
        #expect(during.token == before)                  // nothing committed yet
        #expect(during.publications == 1)
        #expect(during.title == "Issue issue-1")         // the last committed state
        #expect(library.changeToken() != before)         // the commit is seen by the poll
        #expect(try library.store.issue(id: issue.id ?? 0)?.title == "Being stored")
    }

    @Test func theChangeTokenMovesForEveryCommitAndOnlyThen() throws {
        let temp = try TemporaryLibrary()
        let (_, issue) = try temp.publicationWithIssue()
        let first = temp.library.changeToken()
        #expect(temp.library.changeToken() == first)
        _ = try temp.library.store.publications()
        #expect(temp.library.changeToken() == first)     // reads change nothing
        try temp.library.store.setPinned(issue, true)
        #expect(temp.library.changeToken() != first)
    }

    @Test func theCompletionCallbackCanBeSetWhileDownloadsFinishElsewhere() throws {
        let temp = try TemporaryLibrary()
        let calls = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            if index.isMultiple(of: 2) {
                temp.library.onIssueCompleted = { _ in calls.withLock { $0 += 1 } }
            } else {
                temp.library.onIssueCompleted?(Issue(publicationId: nil, name: "n\(index)", date: Date(timeIntervalSince1970: 0), title: "t"))
            }
        }
        temp.library.onIssueCompleted?(Issue(publicationId: nil, name: "last", date: Date(timeIntervalSince1970: 0), title: "t"))
        #expect(calls.withLock { $0 } >= 1)
    }
}

@Suite struct LibraryClockTests {
    @Test func openingAnIssueIsDatedByTheLibrarysClock() throws {
        let when = Date(timeIntervalSince1970: 1_790_000_000)
        let temp = try TemporaryLibrary(clock: .fixed(when))
        let (_, issue) = try temp.publicationWithIssue()
        try temp.library.store.markOpened(issue, at: temp.library.clock.now())
        #expect(try temp.library.store.issue(id: issue.id ?? 0)?.lastOpenedAt == when)
        #expect(temp.library.store.currentlyReadingIssue()?.name == issue.name)
    }
}
