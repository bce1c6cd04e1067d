import Foundation
import GRDB
import Testing
@testable import NewsstandKit

/// Whether an issue's pages are fitted to the width (`w` in the reader) is kept per issue,
/// as its view is; an issue from a library before "v17-fit-width" fits the page.
@Suite struct ReaderFitTests {
    @Test func anIssueFromBeforeFitsThePageUntilTheWidthIsChosenThenKeepsIt() throws {
        let before = try LibraryAtV12()
        defer { before.remove() }
        try before.database.write { db in
            try db.execute(sql: "INSERT INTO issue(name, date, title) VALUES ('atlas-1', ?, 'Atlas')", arguments: [Date()])
        }
        try before.database.close()

        let library = try Library(paths: before.paths)
        let issue = try #require(try library.store.issue(named: "atlas-1"))
        #expect(!library.store.readerFitsWidth(for: issue))
        try library.store.setReaderFitsWidth(true, for: issue)
        #expect(library.store.readerFitsWidth(for: issue))
        #expect(try Library(paths: before.paths).store.readerFitsWidth(for: issue), "kept for the next start")
        try library.store.setReaderFitsWidth(false, for: issue)
        #expect(!library.store.readerFitsWidth(for: issue))
        #expect(library.store.readerView(for: issue) == nil, "the view is its own setting")
    }
}
