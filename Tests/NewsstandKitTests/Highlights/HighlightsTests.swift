import Foundation
import GRDB
import Testing
@testable import NewsstandKit

/// The library keeps highlights: made, recoloured, annotated, deleted as tombstones,
/// listed for an issue in reading order and all of them newest first.
@Suite struct HighlightsTests {
    static let text = "Gulls wheeled over the quay. The ferry was late again, and the harbourmaster wrote it down."

    final class Ticks: @unchecked Sendable {
        // @unchecked: a test's clock, advanced only by the test's one thread.
        var now = Date(timeIntervalSince1970: 1_790_000_000)
    }

    func library(_ ticks: Ticks = Ticks()) throws -> TemporaryLibrary {
        try TemporaryLibrary(clock: WallClock { ticks.now }, inMemory: true)
    }

    func draft(_ words: String, issue: NewsstandKit.Issue, position: Int = 0, in text: String = text, note: String? = nil) throws -> HighlightDraft {
        let range = try #require(text.range(of: words))
        let locator = Locator(resource: "chapter-\(position).xhtml", progression: 0.5, totalProgression: 0.25,
                              updated: Date(timeIntervalSince1970: 1_789_000_000))
        return try #require(HighlightDraft(issueID: issue.id!, locator: locator, position: position, range: range, in: text,
                                           note: note, chapter: "Chapter \(position + 1)"))
    }

    @Test func aHighlightIsKeptWithItsAnchorsColourAndNote() throws {
        let temp = try library()
        let (_, issue) = try temp.publicationWithIssue()
        let made = try temp.library.highlights.add(try draft("The ferry was late", issue: issue, note: "Again!\nSecond line."))
        let read = try #require(try temp.library.highlights.highlight(id: made.id))
        #expect(read == made)
        #expect(read.quote.exact == "The ferry was late")
        #expect(read.quote.prefix == "Gulls wheeled over the quay. ")
        #expect(read.note == "Again!\nSecond line.")
        #expect(read.color == .yellow)
        #expect(read.locator.resource == "chapter-0.xhtml")
        #expect(UUID(uuidString: read.id) != nil)
    }

    @Test func anIssuesHighlightsComeInReadingOrder() throws {
        let temp = try library()
        let (_, issue) = try temp.publicationWithIssue()
        let late = try temp.library.highlights.add(try draft("harbourmaster", issue: issue, position: 0))
        let second = try temp.library.highlights.add(try draft("Gulls", issue: issue, position: 1))
        let early = try temp.library.highlights.add(try draft("Gulls", issue: issue, position: 0))
        #expect(try temp.library.highlights.list(for: issue).map(\.id) == [early.id, late.id, second.id])
    }

    @Test func recolouringAndAnnotatingChangeTheModifiedTime() throws {
        let ticks = Ticks()
        let temp = try library(ticks)
        let (_, issue) = try temp.publicationWithIssue()
        let made = try temp.library.highlights.add(try draft("quay", issue: issue))
        ticks.now += 60
        let green = try temp.library.highlights.recolor(made.id, to: .green)
        #expect(green.color == .green)
        #expect(green.modified == made.created + 60)
        let noted = try temp.library.highlights.editNote(made.id, to: "  \n ")
        #expect(noted.note == nil)
        let read = try #require(try temp.library.highlights.highlight(id: made.id))
        #expect(read.color == .green && read.created == made.created && read.modified == made.created + 60)
    }

    @Test func aDeletedHighlightIsATombstoneThatNoListShows() throws {
        let temp = try library()
        let (_, issue) = try temp.publicationWithIssue()
        let kept = try temp.library.highlights.add(try draft("quay", issue: issue))
        let gone = try temp.library.highlights.add(try draft("ferry", issue: issue))
        try temp.library.highlights.delete(gone.id)
        #expect(try temp.library.highlights.list(for: issue).map(\.id) == [kept.id])
        #expect(try temp.library.highlights.all().map(\.highlight.id) == [kept.id])
        #expect(try temp.library.highlights.highlight(id: gone.id)?.deleted == true)
        #expect(throws: HighlightError.noSuchHighlight(gone.id)) { try temp.library.highlights.recolor(gone.id, to: .pink) }
    }

    @Test func everyHighlightIsListedNewestFirstAndFilteredByPublicationAndText() throws {
        let ticks = Ticks()
        let temp = try library(ticks)
        let (weekly, first) = try temp.publicationWithIssue(named: "weekly-1")
        let (_, other) = try temp.publicationWithIssue(named: "other-1")
        let old = try temp.library.highlights.add(try draft("quay", issue: first, note: "Where the 100% ferries wait"))
        ticks.now += 10
        let new = try temp.library.highlights.add(try draft("harbourmaster", issue: other))
        let all = try temp.library.highlights.all()
        #expect(all.map(\.highlight.id) == [new.id, old.id])
        #expect(all.last?.issueName == "weekly-1" && all.last?.publicationTitle == "The Test Weekly")
        #expect(try temp.library.highlights.all(publication: String(weekly.id!)).map(\.highlight.id) == [old.id])
        #expect(try temp.library.highlights.all(containing: "HARBOUR").map(\.highlight.id) == [new.id])
        #expect(try temp.library.highlights.all(containing: "100%").map(\.highlight.id) == [old.id])
        #expect(try temp.library.highlights.all(containing: "1000").isEmpty)
    }

    @Test func aHighlightGoesWithItsIssue() throws {
        let temp = try library()
        let (_, issue) = try temp.publicationWithIssue()
        let made = try temp.library.highlights.add(try draft("quay", issue: issue))
        try temp.library.store.write { db in try db.execute(sql: "DELETE FROM issue WHERE id = ?", arguments: [issue.id!]) }
        #expect(try temp.library.highlights.highlight(id: made.id) == nil)
    }

    @Test func theServiceFindsAHighlightInItsResourcesText() throws {
        let temp = try library()
        let (_, issue) = try temp.publicationWithIssue()
        let made = try temp.library.highlights.add(try draft("was late again", issue: issue))
        let range = try #require(temp.library.highlights.resolve(made, in: Self.text).range)
        #expect(Self.text[range] == "was late again")
        #expect(temp.library.highlights.resolve(made, in: "The ferry was on time.") == .gone)
    }

    /// Pending places for each kind of sync server, by the kind's name.
    func waiting(_ temp: TemporaryLibrary) throws -> [String: Int] {
        try temp.library.store.read { db in
            Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: """
                SELECT syncTarget.kind, count(syncPlace.issueId) AS waiting FROM syncTarget
                LEFT JOIN syncPlace ON syncPlace.targetId = syncTarget.id AND syncPlace.pending = 1 GROUP BY syncTarget.kind
                """).map { ($0["kind"] as String, $0["waiting"] as Int) })
        }
    }

    @Test func aHighlightMadeChangedOrDeletedWaitsToBeSentToCalibreNotToKOReader() throws {
        let temp = try library()
        let (_, issue) = try temp.publicationWithIssue()
        for (name, kind) in [("calibre", SyncTarget.Kind.calibre), ("kobo", .kosync)] {
            try temp.library.store.saveSyncTarget(name: name, url: URL(string: "http://127.0.0.1:9")!, kind: kind, user: "ann",
                                                  identity: .binary, device: "test", deviceID: "0123456789ABCDEF", at: Date())
        }
        #expect(try waiting(temp) == ["calibre": 0, "kosync": 0])
        let made = try temp.library.highlights.add(try draft("quay", issue: issue))
        #expect(try waiting(temp) == ["calibre": 1, "kosync": 0], "made: calibre keeps highlights, KOReader's server does not")
        for change in [{ _ = try temp.library.highlights.recolor(made.id, to: .green) }, { try temp.library.highlights.delete(made.id) }] {
            try temp.library.store.write { db in try db.execute(sql: "UPDATE syncPlace SET pending = 0") }
            try change()
            #expect(try waiting(temp) == ["calibre": 1, "kosync": 0], "changed or deleted, it waits again")
        }
    }
}
