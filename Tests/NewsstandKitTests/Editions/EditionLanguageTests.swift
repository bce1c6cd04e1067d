import Foundation
import Testing
import IssueArchive
@testable import NewsstandKit

/// An edition of a two-language feed says its language truthfully: the book's is its
/// articles' most common one, and each article in another language says its own.
@Suite(.serialized) struct EditionLanguageTests {
    static func build(_ feed: EditionFeed) throws -> (root: URL, epub: URL, temporary: TemporaryLibrary) {
        let server = try FeedTestServer()
        defer { server.stop() }
        try server.put("wire.xml", feed.xml)
        let temporary = try TemporaryLibrary()
        let (publication, _) = try temporary.library.subscriptions.subscribe(feedURL: server.url("wire.xml"))
        let edition = try #require(try temporary.library.store.issues(publicationID: publication.id!).first(where: Library.isEdition))
        let file = temporary.root.appendingPathComponent("edition.epub")
        try temporary.library.downloads.editionBuilder.build(edition, into: file)
        let (_, root) = try IssueReader.read(archive: file, in: temporary.root)
        return (root, file, temporary)
    }

    static func text(_ root: URL, _ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent("OEBPS/" + path), encoding: .utf8)
    }

    @Test func aMostlyEnglishEditionIsEnglishAndItsGermanArticlesSayTheyAreGerman() throws {
        let (root, epub, temporary) = try Self.build(EditionFeed(items: [
            .init(id: "a1", title: "Ferry stoppage called off", when: (2026, 11, 25, 16)),
            .init(id: "a2", title: "Weihnachtsmarkt öffnet", when: (2026, 11, 25, 14), html: "<p>Mit einem Laternenumzug.</p>",
                  language: "de"),
            .init(id: "a3", title: "Library hours", when: (2026, 11, 25, 11)),
        ], language: "en-gb"))
        let package = try Self.text(root, "package.opf")
        #expect(package.contains("<dc:language>en-GB</dc:language>"), "\(package)")
        #expect(package.contains("xml:lang=\"en-GB\""))
        // Articles in edition order: a1, a2, a3.
        #expect(try Self.text(root, "text/a2.xhtml").contains("lang=\"de\" xml:lang=\"de\""))
        for english in ["text/a1.xhtml", "text/a3.xhtml", "nav.xhtml"] {
            #expect(try Self.text(root, english).contains("lang=\"en-GB\" xml:lang=\"en-GB\""), "\(english)")
        }
        let (status, report) = try EditionBuildTests.epubcheck(epub)
        #expect(status == 0 && report.contains("0 errors"), "\(report)")
        withExtendedLifetime(temporary) {}  // its folder holds the book
    }

    @Test func aMostlyGermanEditionIsGermanEvenInAnEnglishFeed() throws {
        let (root, _, temporary) = try Self.build(EditionFeed(items: [
            .init(id: "a1", title: "Hochwasser", when: (2026, 11, 24, 16), language: "de"),
            .init(id: "a2", title: "Fahrplan", when: (2026, 11, 24, 14), language: "de"),
            .init(id: "a3", title: "Choir", when: (2026, 11, 24, 11)),
        ], language: "en"))
        #expect(try Self.text(root, "package.opf").contains("<dc:language>de</dc:language>"))
        #expect(try Self.text(root, "text/a3.xhtml").contains("lang=\"en\" xml:lang=\"en\""))
        // The library keeps each article's language.
        let stored = try temporary.library.store.writer.read { db in try String?.fetchAll(db, sql: "SELECT language FROM article ORDER BY name") }
        #expect(stored == ["de", "de", "en"])
    }

    @Test func aFeedThatNamesNoLanguageMakesAnEditionOfUndeterminedLanguage() throws {
        let (root, epub, temporary) = try Self.build(EditionFeed(items: [.init(id: "a1", title: "Ferry", when: (2026, 11, 24, 16))]))
        #expect(try Self.text(root, "package.opf").contains("<dc:language>und</dc:language>"))
        let (status, report) = try EditionBuildTests.epubcheck(epub)
        #expect(status == 0 && report.contains("0 errors"), "\(report)")
        withExtendedLifetime(temporary) {}  // its folder holds the book
    }
}
