import Foundation
import GRDB
import Testing
@testable import NewsstandKit

/// Highlights' quotes and notes in the search (#32): found as soon as they are made, their
/// notes' words too, marked as a highlight or a note; an edit, a delete and the issue's
/// removal are seen by the next search.
@Suite struct HighlightSearchTests {
    let temporary: TemporaryLibrary
    var library: Library { temporary.library }
    static let text = "Gulls wheeled over the quay. The ferry was late again, and the harbourmaster wrote it down."

    init() throws { temporary = try TemporaryLibrary(inMemory: true) }

    func highlight(_ words: String, in issue: NewsstandKit.Issue, note: String? = nil) throws -> Highlight {
        let locator = Locator(resource: "ch1.xhtml", progression: 0, totalProgression: 0, updated: Date(timeIntervalSince1970: 0))
        let range = try #require(Self.text.range(of: words))
        return try library.highlights.add(try #require(HighlightDraft(issueID: issue.id!, locator: locator, position: 1, range: range,
                                                                      in: Self.text, note: note, chapter: "The Quay")))
    }

    func hits(_ typed: String, publication: String? = nil) throws -> [SearchHit] {
        try library.search.find(SearchQuery(typed), publication: publication).groups.flatMap(\.hits)
    }

    @Test func aHighlightsQuoteAndNoteAreFoundAndSaidApart() throws {
        let (_, issue) = try temporary.publicationWithIssue(named: "weekly-7")
        let made = try highlight("The ferry was late", in: issue, note: "Ask the harbourmaster's office about the timetable")
        let byQuote = try hits("ferry")
        #expect(byQuote.map(\.part.kind) == [.highlight] && byQuote.first?.part.highlight?.id == made.id)
        #expect(byQuote.first?.snippet.pieces.filter(\.matched).map(\.text) == ["ferry"])
        #expect(byQuote.first?.part.resource == "ch1.xhtml" && byQuote.first?.part.label == "The Quay")
        let byNote = try hits("timetable")
        #expect(byNote.map(\.part.kind) == [.note] && byNote.first?.part.highlight?.id == made.id)
        #expect(byNote.first?.snippet.pieces.filter(\.matched).map(\.text) == ["timetable"])
        #expect(try hits("gulls").isEmpty, "words of the issue outside the highlight are not the highlight's")
    }

    /// Highlights outlive an issue's content: one found in an issue that is not downloaded
    /// does not say its text was indexed and evicted ("must be downloaded again").
    @Test func aHighlightInAnIssueNotDownloadedDoesNotSayItWasEvicted() throws {
        let (_, issue) = try temporary.publicationWithIssue(named: "weekly-8")
        #expect(issue.status != .available)
        _ = try highlight("The ferry was late", in: issue)
        let group = try #require(try library.search.find(SearchQuery("ferry")).groups.first)
        #expect(group.hits.map(\.part.kind) == [.highlight])
        #expect(!group.mustDownloadAgain)
    }

    @Test func anEditADeleteAndTheIssuesRemovalAreSeenByTheNextSearch() throws {
        let (_, issue) = try temporary.publicationWithIssue(named: "weekly-8")
        let made = try highlight("Gulls wheeled", in: issue, note: "seabirds")
        _ = try library.highlights.editNote(made.id, to: "terns, not gulls")
        #expect(try hits("seabirds").isEmpty)
        #expect(try hits("terns").map(\.part.kind) == [.note])
        try library.highlights.delete(made.id)
        #expect(try hits("terns").isEmpty && hits("wheeled").isEmpty, "a tombstone is not found")

        let again = try highlight("harbourmaster wrote", in: issue)
        #expect(try hits("harbourmaster").count == 1)
        try library.store.write { db in try db.execute(sql: "DELETE FROM issue WHERE id = ?", arguments: [issue.id]) }
        #expect(try hits("harbourmaster").isEmpty)
        let rows = try library.store.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM highlightSearch WHERE highlightId = ?", arguments: [again.id]) ?? -1
        }
        #expect(rows == 0, "the removed issue's highlights leave the index")
    }

    @Test func aPublicationFilterKeepsToItsIssuesHighlights() throws {
        let (_, weekly) = try temporary.publicationWithIssue(named: "weekly-9")
        let gazette = try library.store.save(Publication(feedURL: "file:///feeds/gazette.xml", title: "Harbour Gazette"))
        let other = try library.store.addIssue(name: "gazette-1", date: Date(timeIntervalSince1970: 1_780_000_000),
                                               publicationID: gazette.id, title: "Gazette 1")
        _ = try highlight("The ferry", in: weekly)
        _ = try highlight("ferry was late", in: other)
        #expect(try library.search.find(SearchQuery("ferry"), publication: "gazette").groups.map(\.issue.name) == ["gazette-1"])
        #expect(try library.search.find(SearchQuery("ferry")).groups.count == 2)
    }

    /// Highlights made before the search knew them are found after the upgrade.
    @Test func theMigrationIndexesHighlightsMadeBefore() throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        let queue = try DatabaseQueue(configuration: configuration)
        let store = try LibraryStore(queue)
        let publication = try store.save(Publication(feedURL: "file:///feeds/old.xml", title: "Old"))
        let issue = try store.addIssue(name: "old-1", date: Date(timeIntervalSince1970: 1_780_000_000), publicationID: publication.id,
                                       title: "Old 1")
        // The library as the version before left it: no search of highlights, one highlight.
        try queue.write { db in
            try db.execute(sql: "DROP TRIGGER highlightSearch_gone; DROP TABLE highlightSearch")
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier LIKE 'v20-hlpdf-highlight-search%'")
            try db.execute(sql: """
                INSERT INTO highlight (id, issueId, resource, position, textOffset, locator, exact, prefix, suffix, color, note,
                                       createdAt, modifiedAt)
                VALUES ('old', ?, 'ch1.xhtml', 0, 0, ?, 'an older quote', '', '', 'yellow', 'kept from before', ?, ?)
                """, arguments: [issue.id, Locator(resource: "ch1.xhtml", progression: 0, totalProgression: 0,
                                                   updated: Date(timeIntervalSince1970: 0)), Date(), Date()])
        }
        try LibraryStore.migrator.migrate(queue)
        let found = try queue.read { db in
            try String.fetchAll(db, sql: "SELECT highlightId FROM highlightSearch WHERE highlightSearch MATCH 'older AND before'")
        }
        #expect(found == ["old"])
    }
}
