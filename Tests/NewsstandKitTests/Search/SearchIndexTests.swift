import Foundation
import GRDB
import Testing
@testable import NewsstandKit

/// Each `.txt` or `.html` file of a content folder as a part (tags taken out), in name
/// order: the text of an installed issue without the text layout (the program's reader is
/// `IssueSearchTexts`, tested end to end).
struct TextFilesSource: IssueTextSource {
    func parts(ofContentIn directory: URL) throws -> [SearchablePart] {
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".txt") || $0.hasSuffix(".html") }.sorted()
        return try files.enumerated().map { position, name in
            let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
            return SearchablePart(kind: .text, resource: name, page: nil, position: position, label: name, title: "",
                                  text: text.replacingOccurrences(of: "<[^>]*>", with: " ", options: .regularExpression))
        }
    }
}

@Suite struct SearchIndexTests {
    let temporary: TemporaryLibrary
    var library: Library { temporary.library }

    init() throws { temporary = try TemporaryLibrary(inMemory: true) }

    func issue(_ title: String, summary: String? = nil, day: Double = 0, publication: String = "The Test Weekly") throws -> NewsstandKit.Issue {
        let owner = try library.store.publications().first { $0.title == publication }
            ?? library.store.save(Publication(feedURL: "file:///feeds/\(UUID().uuidString).xml", title: publication))
        var issue = try library.store.addIssue(name: "issue-\(UUID().uuidString)", date: Date(timeIntervalSince1970: 1_780_000_000 + day * 86_400),
                                         publicationID: owner.id, title: title)
        issue.summary = summary
        return try library.store.save(issue)
    }

    /// The issue's content written as text files and the issue made available, as an install does.
    func install(_ issue: NewsstandKit.Issue, _ texts: [String]) throws -> NewsstandKit.Issue {
        let folder = library.downloads.contentDirectory(for: issue)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (index, text) in texts.enumerated() {
            try text.write(to: folder.appendingPathComponent("part-\(index).txt"), atomically: true, encoding: .utf8)
        }
        try library.store.write { db in
            try db.execute(sql: "UPDATE issue SET status = 'available', downloadedAt = ? WHERE id = ?", arguments: [Date(), issue.id])
        }
        return try #require(try library.store.issue(id: issue.id!))
    }

    func catchUp() throws { try library.search.indexer(texts: TextFilesSource()).catchUp() }

    func found(_ typed: String, publication: String? = nil) throws -> [String] {
        try library.search.find(SearchQuery(typed), publication: publication).groups.map(\.issue.title)
    }

    @Test func everyIssuesTitleAuthorsAndSummaryAreFoundDownloadedOrNot() throws {
        _ = try issue("Harbour Lights", summary: "Notes from the equinox tide")
        _ = try issue("Mountain Air")
        try catchUp()
        #expect(try found("harbour") == ["Harbour Lights"])
        #expect(try found("equinox") == ["Harbour Lights"])
        #expect(try found("harbo*") == ["Harbour Lights"])
        #expect(try found("\"equinox tide\"") == ["Harbour Lights"])
        #expect(try found("\"tide equinox\"").isEmpty)
        #expect(try found("lights -equinox").isEmpty)
        #expect(try found("air -equinox") == ["Mountain Air"])
    }

    @Test func anInstalledIssuesTextIsFoundWithThePartItIsIn() throws {
        let weekly = try install(try issue("Weekly"), ["Nothing here.", "The lighthouse keeper counted gulls."])
        try catchUp()
        let results = try library.search.find(SearchQuery("gulls"))
        let group = try #require(results.groups.first)
        #expect(group.issue.id == weekly.id)
        #expect(group.hits.map(\.part.resource) == ["part-1.txt"])
        #expect(group.hits[0].part.position == 1)
        #expect(group.hits[0].snippet.pieces.contains(.init(text: "gulls", matched: true)))
        #expect(!group.mustDownloadAgain)
        #expect(results.pending == 0)
    }

    /// The snippets come in one statement for every part shown: each must be its own part's,
    /// with the word the prefix matched in it marked.
    @Test func eachPartShownHasTheSnippetOfItsOwnText() throws {
        _ = try install(try issue("Quay", day: 1), ["The harbour wall held.", "Gulls over the harbourmaster's roof."])
        _ = try install(try issue("Coast", day: 0), ["A harbinger of storms."])
        try catchUp()
        var shown: [String: String] = [:]
        var marked: Set<String> = []
        for group in try library.search.find(SearchQuery("harb*")).groups {
            for hit in group.hits {
                shown["\(group.issue.title) \(hit.part.resource ?? "")"] = hit.snippet.pieces.map(\.text).joined()
                marked.formUnion(hit.snippet.pieces.filter(\.matched).map(\.text))
            }
        }
        #expect(shown == ["Quay part-0.txt": "The harbour wall held.",
                          "Quay part-1.txt": "Gulls over the harbourmaster's roof.",
                          "Coast part-0.txt": "A harbinger of storms."])
        #expect(marked == ["harbour", "harbourmaster", "harbinger"])
    }

    @Test func accentsAreFoldedBothWays() throws {
        _ = try install(try issue("Cuisine"), ["Un café crème à Orléans."])
        try catchUp()
        #expect(try found("cafe creme") == ["Cuisine"])
        #expect(try found("orléans") == ["Cuisine"])
        #expect(try found("ORLEANS") == ["Cuisine"])
    }

    @Test func chineseJapaneseAndThaiWordsAreFoundWithoutSpaces() throws {
        _ = try install(try issue("Tokyo"), ["私は東京タワーに行きました。"])
        _ = try install(try issue("Beijing"), ["我们明天去北京大学。"])
        _ = try install(try issue("Bangkok"), ["ฉันชอบกินข้าวผัดมาก"])
        try catchUp()
        #expect(try found("東京") == ["Tokyo"])
        #expect(try found("タワー") == ["Tokyo"])
        #expect(try found("北京") == ["Beijing"])
        #expect(try found("京北").isEmpty)
        #expect(try found("ข้าวผัด") == ["Bangkok"])
        let snippet = try #require(try library.search.find(SearchQuery("北京")).groups.first?.hits.first?.snippet)
        #expect(snippet.pieces.map(\.text).joined() == "我们明天去北京大学。")
    }

    @Test func anEvictedIssueStaysFoundAndSaysItMustBeDownloadedAgain() throws {
        let kept = try install(try issue("Kept"), ["The old mill by the weir."])
        try catchUp()
        #expect(try library.store.markEvictedToSaveSpace(issueID: kept.id!))
        try catchUp()
        let group = try #require(try library.search.find(SearchQuery("weir")).groups.first)
        #expect(group.issue.id == kept.id)
        #expect(group.mustDownloadAgain)
    }

    @Test func contentTheUserRemovedIsNoLongerFoundButItsTitleIs() throws {
        let gone = try install(try issue("Removed content"), ["A word like marmalade."])
        try catchUp()
        try library.store.markContentRemoved(issueID: gone.id!, toSaveSpace: false)
        #expect(try found("marmalade").isEmpty)
        #expect(try found("removed") == ["Removed content"])
    }

    @Test func aRemovedIssueIsFoundNoMore() throws {
        let gone = try install(try issue("Ephemeral"), ["Quince and medlar."])
        try catchUp()
        try library.store.removeIssue(id: gone.id!, name: gone.name)
        #expect(try found("quince").isEmpty)
        #expect(try found("ephemeral").isEmpty)
        #expect(try library.store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM searchText") } == 0)
    }

    @Test func aSecondInstallReplacesTheTextItIndexed() throws {
        var weekly = try install(try issue("Weekly"), ["First printing: sparrows."])
        try catchUp()
        try FileManager.default.removeItem(at: library.downloads.contentDirectory(for: weekly))
        weekly = try install(weekly, ["Second printing: starlings."])
        try catchUp()
        #expect(try found("sparrows").isEmpty)
        #expect(try found("starlings") == ["Weekly"])
    }

    @Test func aTitleMatchRanksFirstAndTiesGoNewestFirst() throws {
        _ = try install(try issue("Almanac", day: 3), ["Tides, and a word on the moon."])
        _ = try issue("Moon", day: 1)
        _ = try issue("Moon", day: 2)
        try catchUp()
        let results = try library.search.find(SearchQuery("moon")).groups
        #expect(results.map(\.issue.title) == ["Moon", "Moon", "Almanac"])
        #expect(results[0].issue.date > results[1].issue.date)
    }

    /// Only the parts at or above the cut are ordered by their issues' dates: parts that tie
    /// with the cut are all among them, so the newest of equal scores are the ones kept,
    /// whichever were indexed first.
    @Test func theBestOfManyEqualScoresAreTheNewest() throws {
        let moons = try (1...5).map { try issue("Moon", day: Double($0)) }
        try catchUp()
        let hits = try library.store.read { db in try LibraryStore.searchHits(db, match: "\"moon\"", publicationIDs: nil, limit: 3) }
        #expect(hits.map(\.issueID) == [moons[4].id, moons[3].id, moons[2].id])
        let theirs = try library.store.read { db in
            try LibraryStore.searchHits(db, match: "\"moon\"", publicationIDs: [try #require(moons[0].publicationId)], limit: 2)
        }
        #expect(theirs.map(\.issueID) == [moons[4].id, moons[3].id])
    }

    @Test func thePublicationFilterKeepsOnlyItsIssues() throws {
        _ = try issue("Rain report", publication: "Weather Weekly")
        _ = try issue("Rain of goals", publication: "Football Daily")
        try catchUp()
        #expect(try found("rain", publication: "weather") == ["Rain report"])
        #expect(Set(try found("rain")) == ["Rain report", "Rain of goals"])
        // Typed in the query (the search screen's way): `in:` and a quoted title.
        #expect(try found("rain in:football") == ["Rain of goals"])
        #expect(try found("in:\"weather weekly\" rain") == ["Rain report"])
        #expect(try SearchQuery("in:weather rain").match == "\"rain\"")
        #expect(throws: SearchQuery.Problem.self) { try SearchQuery("in:weather") }
    }

    @Test func changedDetailsAreIndexedAgain() throws {
        var renamed = try issue("Draft title")
        try catchUp()
        renamed.title = "Final title"
        _ = try library.store.save(renamed)
        #expect(try library.search.pendingCount() == 1)
        try catchUp()
        #expect(try found("final") == ["Final title"])
        #expect(try found("draft").isEmpty)
    }

    @Test func queriesFTS5WouldRefuseAreSearchedAsText() throws {
        _ = try issue("NEAR the AND gate: col:umn ^start (paren")
        try catchUp()
        for typed in ["NEAR(", "AND", "\"unclosed", "col:umn", "^start", "(paren", "a OR", "*", "NOT near"] {
            #expect(throws: Never.self) { _ = try? SearchQuery(typed); if let query = try? SearchQuery(typed) { _ = try library.search.find(query) } }
        }
        #expect(try found("NEAR(") == ["NEAR the AND gate: col:umn ^start (paren"])
        #expect(try found("col:umn") == ["NEAR the AND gate: col:umn ^start (paren"])
    }

    @Test func aPhraseIsFoundOnlyInARowAndInOneColumn() throws {
        _ = try install(try issue("Tides"), ["The equinox tide came in. A tide of equinox visitors.", "The harbour-master slept."])
        _ = try install(try issue("Harbour Equinox", summary: "tide tables"), ["Nothing else."])
        try catchUp()
        #expect(try found("\"equinox tide\"") == ["Tides"])
        #expect(try found("\"equinox tid\"*") == ["Tides"])
        #expect(try found("\"tide came in\"") == ["Tides"])
        #expect(try found("\"came tide\"").isEmpty)
        // The title says equinox and the summary tide: two columns, not a phrase.
        #expect(try found("\"harbour equinox tide\"").isEmpty)
        #expect(try found("harbour-master") == ["Tides"])
        #expect(try found("\"master harbour\"").isEmpty)
        // A phrase left out leaves out only what has it in a row.
        #expect(Set(try found("equinox -\"equinox tide\"")) == ["Harbour Equinox"])
        #expect(Set(try found("equinox -\"tide equinox\"")) == ["Tides", "Harbour Equinox"])
    }

    @Test func aSearchOfOnlyWordsToLeaveOutSaysWhatIsMissing() {
        #expect(throws: SearchQuery.Problem.self) { try SearchQuery("-weather") }
        #expect(throws: SearchQuery.Problem.self) { try SearchQuery("  ") }
        #expect(throws: SearchQuery.Problem.self) { try SearchQuery("-- ** \"\"") }
    }

    @Test func theQueryIsQuotedForFTS5() throws {
        #expect(try SearchQuery("harbo* \"equinox tide\" -storm").match == "\"harbo\" * AND \"equinox tide\" NOT \"storm\"")
        #expect(try SearchQuery("say \"\"\"hi").match == "\"say\" AND \"hi\"")
    }

    @Test func theUpgradeMarksEveryIssueForTheAgentToIndex() throws {
        let queue = try DatabaseQueue()
        var migrator = LibraryStore.migrator
        try migrator.migrate(queue, upTo: "v16-site: a publication's web site, for an OPML list's htmlUrl")
        try queue.write { db in
            try db.execute(sql: "INSERT INTO issue (name, date, title, status) VALUES ('a', ?, 'Old one', 'none'), ('b', ?, 'Old two', 'available')",
                           arguments: [Date(), Date()])
        }
        migrator = LibraryStore.migrator
        try migrator.migrate(queue)
        let store = LibraryStore(migrated: queue)
        #expect(try store.pendingSearchWork().map(\.content) == [false, true])
    }

    /// PDFs indexed before poppler-cpp read their pages have their content read again once;
    /// other issues, and PDFs no longer on disk (their text cannot be read again), do not.
    @Test func theUpgradeMarksInstalledPDFsForTheirTextToBeReadAgain() throws {
        let queue = try DatabaseQueue()
        var migrator = LibraryStore.migrator
        try migrator.migrate(queue, upTo: "v18-search: an FTS5 index of every issue's text and details, built by the agent")
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO issue (id, name, date, title, status) VALUES (1, 'pdf', ?, 'A PDF', 'available'),
                    (2, 'epub', ?, 'An EPUB', 'available'), (3, 'gone', ?, 'An evicted PDF', 'none');
                DELETE FROM searchPending;
                INSERT INTO searchPart (issueId, kind, resource, page, position) VALUES
                    (1, 'about', NULL, NULL, 0), (1, 'page', 'issue.pdf#page=1', 0, 0), (1, 'page', 'issue.pdf#page=2', 1, 1),
                    (2, 'about', NULL, NULL, 0), (2, 'text', 'ch1.xhtml', NULL, 0), (3, 'page', 'issue.pdf#page=1', 0, 0);
                """, arguments: [Date(), Date(), Date()])
        }
        migrator = LibraryStore.migrator
        try migrator.migrate(queue)
        let store = LibraryStore(migrated: queue)
        #expect(try store.pendingSearchWork().map { [$0.issueID: $0.content] } == [[1: true]])
    }

    /// A library indexed with the titles first (v18) keeps every part, evicted text too, and
    /// finds it the same way after the index is made again with the text first.
    @Test func theUpgradeRebuildsTheIndexWithItsTextFirstKeepingEveryPart() throws {
        let queue = try DatabaseQueue()
        var migrator = LibraryStore.migrator
        try migrator.migrate(queue, upTo: "v19d-sync: servers places are synced with, the places waiting for them, places replaced and offered")
        try queue.write { db throws in
            try db.execute(sql: """
                INSERT INTO issue (id, name, date, title, status, evicted) VALUES (1, 'kept', ?, 'Harbour Notes', 'available', 0),
                    (2, 'evicted', ?, 'Old Almanac', 'none', 1);
                DELETE FROM searchPending;
                INSERT INTO searchPart (id, issueId, kind, position) VALUES (10, 1, 'about', 0), (11, 1, 'text', 0), (12, 2, 'text', 3);
                INSERT INTO searchText (rowid, title, body) VALUES (10, 'Harbour Notes', ''), (11, 'Gulls', 'the equinox tide came in'),
                    (12, '', 'petrels over the harbour wall');
                """, arguments: [Date(timeIntervalSince1970: 1_780_000_000), Date(timeIntervalSince1970: 1_770_000_000)])
            #expect(try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'searchText'")?.contains("fts5(title, body") == true)
        }
        migrator = LibraryStore.migrator
        try migrator.migrate(queue)
        try queue.read { db throws in
            #expect(try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'searchText'")?.contains("fts5(body, title") == true)
            #expect(try Row.fetchAll(db, sql: "SELECT CAST(rowid AS TEXT), title, body FROM searchText ORDER BY rowid").map { [$0[0], $0[1], $0[2]] as [String] }
                    == [["10", "Harbour Notes", ""], ["11", "Gulls", "the equinox tide came in"], ["12", "", "petrels over the harbour wall"]])
        }
        let store = LibraryStore(migrated: queue)
        #expect(try store.pendingSearchWork().isEmpty)
        let hits = try store.read { db in try LibraryStore.searchHits(db, match: "\"harbour\"", publicationIDs: nil, limit: 10) }
        // The title match first (titles weigh more), then the evicted issue's text.
        #expect(hits.map(\.partID) == [10, 12])
        let gone = try store.read { db in try LibraryStore.searchHits(db, match: "\"tide\"", publicationIDs: nil, limit: 10) }
        #expect(gone.map(\.partID) == [11])
        // The trigger still takes a removed issue's parts out of the new table.
        try queue.write { db in try db.execute(sql: "DELETE FROM issue WHERE id = 2") }
        #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM searchText WHERE searchText MATCH 'petrels'") } == 0)
    }

    @Test func theIndexIsSmallerThanTheTextItHolds() throws {
        let words = (0..<4000).map { "word\($0 % 700) " }.joined()
        _ = try install(try issue("Big"), [words])
        try catchUp()
        let size = try library.search.size()
        #expect(size.text > 20_000)
        #expect(size.index > 0 && size.index < size.text)
    }
}
