import Foundation
import GRDB
import Testing
@testable import NewsstandKit

/// The store alone, in memory: its repositories move an issue's download through its
/// states, with no file, pool or service around it.
@Suite struct LibraryStoreTests {
    let store: LibraryStore
    let issue: NewsstandKit.Issue

    init() throws {
        store = try LibraryStore.inMemory()
        issue = try store.write { db in
            var issue = NewsstandKit.Issue(publicationId: nil, name: "weekly-1", date: Date(timeIntervalSince1970: 1_780_000_000), title: "One")
            try issue.insert(db)
            return issue
        }
    }

    func asset(_ identifier: String) -> AssetDownload {
        AssetDownload(id: nil, identifier: identifier, issueId: issue.id!, url: "http://127.0.0.1:9/\(identifier).zip", headers: "{}",
                      userInfo: "{}", kind: .archive, state: .queued, bytesWritten: 0, bytesExpected: nil, bytesPerSecond: nil,
                      etag: nil, lastModified: nil, attempts: 0, lastError: nil, createdAt: Date(), finishedAt: nil)
    }

    func stored() throws -> NewsstandKit.Issue { try #require(try store.read { db in try NewsstandKit.Issue.fetchOne(db, key: issue.id) }) }

    @Test func anInMemoryStoreHasTheWholeSchema() throws {
        #expect(try store.read { db in try LibraryStore.migrator.hasCompletedMigrations(db) })
        #expect(try store.read { db in try db.tableExists("article") && db.tableExists("assetDownload") })
    }

    @Test func aDownloadGoesFromQueuedToActiveToFinishedAndItsIssueBecomesAvailable() throws {
        let first = try store.insert(asset("a"))
        let second = try store.insert(asset("b"))
        #expect(try stored().status == .downloading)
        #expect(try store.unfinishedDownloadIdentifiers() == ["a", "b"])

        #expect(try store.markActive(downloadID: first.id))
        #expect(try store.downloadState(id: first.id) == "active")
        #expect(try store.finish(first, at: Date()) == nil)  // one asset still to come
        #expect(try stored().status == .downloading)

        #expect(try store.markActive(downloadID: second.id))
        let completed = try #require(try store.finish(second, at: Date()))
        #expect(completed.status == .available)
        #expect(completed.unread)
        #expect(try store.unfinishedDownloadIdentifiers().isEmpty)
    }

    @Test func aCancelledDownloadIsNeitherTakenUpNorFinishedNorFailed() throws {
        let queued = try store.insert(asset("c"))
        #expect(try store.cancelDownloads(issueID: issue.id!).map(\.identifier) == ["c"])
        #expect(try stored().status == NewsstandKit.Issue.Status.none)
        #expect(try store.markActive(downloadID: queued.id) == false)
        #expect(throws: TransferError.self) { try store.finish(queued, at: Date()) }
        try store.fail(queued, reason: "too late")
        #expect(try store.downloadState(id: queued.id) == "cancelled")
        #expect(try stored().lastError == nil)
    }

    @Test func aStoreOpenedOnAFullDiskRefusesEveryChange() throws {
        let full = LibraryError.diskFull(path: "/full", freeBytes: 0)
        let readOnly = LibraryStore(migrated: store.writer, diskFull: full)
        #expect(throws: LibraryError.self) { try readOnly.setPinned(issue, true) }
        #expect(try stored().pinned == false)
    }
}
