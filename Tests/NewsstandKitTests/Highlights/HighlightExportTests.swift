import Foundation
import Testing
@testable import NewsstandKit

/// Highlights taken elsewhere: each format parses, carries every highlight with its quote,
/// and the W3C output holds what the Web Annotation model requires.
@Suite struct HighlightExportTests {
    static let text = "Gulls wheeled over the quay. The ferry was late again, and the harbourmaster wrote it down."
    let temp: TemporaryLibrary
    let highlights: [ListedHighlight]

    init() throws {
        temp = try TemporaryLibrary(clock: .fixed(Date(timeIntervalSince1970: 1_790_000_000)), inMemory: true)
        let (_, issue) = try temp.publicationWithIssue(named: "weekly-7")
        let library = temp.library
        try Self.add("harbourmaster wrote", to: issue, in: library, position: 1, chapter: "The Quay",
                     cfi: "epubcfi(/6/4[c1]!/4/2,/1:61,/1:80)", color: .pink, note: "Who is he?\nAsk at the office.")
        try Self.add("Gulls wheeled", to: issue, in: library, position: 0, chapter: "Birds", cfi: "epubcfi(/6/2!/4/2,/1:0,/1:13)",
                     color: .underline)
        try Self.add("The ferry", to: issue, in: library, position: 1, chapter: "The Quay")
        highlights = try library.highlights.forExport()
    }

    static func add(_ words: String, to issue: NewsstandKit.Issue, in library: Library, position: Int, chapter: String,
                    cfi: String? = nil, color: Highlight.Color = .yellow, note: String? = nil) throws {
        let locator = Locator(resource: "ch\(position).xhtml", progression: 0, totalProgression: 0, updated: Date(timeIntervalSince1970: 0))
        let range = try #require(text.range(of: words))
        let draft = try #require(HighlightDraft(issueID: issue.id!, locator: locator, position: position, range: range, in: text,
                                                cfi: cfi, color: color, note: note, chapter: chapter))
        try library.highlights.add(draft)
    }

    func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func anExportIsInReadingOrder() {
        #expect(highlights.map(\.highlight.quote.exact) == ["Gulls wheeled", "The ferry", "harbourmaster wrote"])
    }

    @Test func markdownGroupsByIssueThenChapterWithTheNotes() throws {
        let markdown = HighlightExport.markdown(highlights)
        let lines = markdown.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("# ") } == ["# Issue weekly-7"])
        #expect(lines.filter { $0.hasPrefix("## ") } == ["## Birds", "## The Quay"])
        let quay = try #require(markdown.range(of: "## The Quay"))
        #expect(markdown[quay.upperBound...].contains("> The ferry"))
        #expect(markdown[quay.upperBound...].contains("> harbourmaster wrote"))
        #expect(markdown.contains("Who is he?  \nAsk at the office."))
        #expect(markdown.contains("*pink · 2026-09-21T14:13:20Z*"))
    }

    @Test func ourJSONHasEveryHighlightWithItsIssue() throws {
        let file = try object(try HighlightExport.json(highlights))
        let items = try #require(file["highlights"] as? [[String: Any]])
        #expect(items.count == 3)
        for item in items {
            let quote = try #require(item["quote"] as? [String: String])
            #expect(quote["exact"]?.isEmpty == false)
            #expect((item["issue"] as? [String: Any])?["name"] as? String == "weekly-7")
            #expect(UUID(uuidString: item["id"] as? String ?? "") != nil)
        }
        #expect(items[2]["note"] as? String == "Who is he?\nAsk at the office.")
        #expect(items[0]["cfi"] as? String == "epubcfi(/6/2!/4/2,/1:0,/1:13)")
    }

    /// The Web Annotation Data Model's musts: `@context` the anno.jsonld IRI, an `id`, `type`
    /// `Annotation`, a `target` (here with a `source` and selectors); a body when present
    /// has a type; a TextQuoteSelector has a non-empty `exact`; a FragmentSelector a `value`.
    @Test func theW3CExportHoldsWhatTheWebAnnotationModelRequires() throws {
        let collection = try object(try HighlightExport.w3c(highlights))
        #expect(collection["@context"] as? String == "http://www.w3.org/ns/anno.jsonld")
        #expect(collection["type"] as? String == "AnnotationCollection")
        #expect(collection["total"] as? Int == 3)
        let page = try #require(collection["first"] as? [String: Any])
        #expect(page["type"] as? String == "AnnotationPage")
        let items = try #require(page["items"] as? [[String: Any]])
        #expect(items.count == 3)
        for annotation in items {
            #expect(annotation["@context"] as? String == "http://www.w3.org/ns/anno.jsonld")
            #expect((annotation["id"] as? String).flatMap(URL.init(string:))?.scheme == "urn")
            #expect(annotation["type"] as? String == "Annotation")
            #expect(["highlighting", "commenting"].contains(annotation["motivation"] as? String))
            #expect((annotation["created"] as? String)?.hasSuffix("Z") == true)
            let target = try #require(annotation["target"] as? [String: Any])
            #expect((target["source"] as? String)?.isEmpty == false)
            let selectors = try #require(target["selector"] as? [[String: Any]])
            let quote = try #require(selectors.first { $0["type"] as? String == "TextQuoteSelector" })
            #expect((quote["exact"] as? String)?.isEmpty == false)
            #expect(quote["prefix"] is String && quote["suffix"] is String)
            for fragment in selectors where fragment["type"] as? String == "FragmentSelector" {
                #expect(fragment["conformsTo"] as? String == "http://www.idpf.org/epub/linking/cfi/epub-cfi.html")
                #expect((fragment["value"] as? String)?.hasPrefix("epubcfi(") == true)
            }
            if let body = annotation["body"] as? [String: Any] {
                #expect(body["type"] as? String == "TextualBody")
                #expect((body["value"] as? String)?.isEmpty == false)
            }
        }
        #expect(items.compactMap { $0["body"] }.count == 1)
        #expect(items.filter { ($0["target"] as? [String: Any])?["selector"].map { ($0 as? [Any])?.count == 2 } == true }.count == 2)
    }

    @Test func calibresExportHasItsShapeWithCFIsFromTheDocumentNode() throws {
        let file = try object(try HighlightExport.calibre(highlights))
        #expect(file["type"] as? String == "calibre_highlights")
        #expect(file["version"] as? Int == 1)
        let items = try #require(file["highlights"] as? [[String: Any]])
        #expect(items.count == 2)
        #expect(HighlightExport.withoutCFI(highlights) == 1)
        let gulls = items[0], harbour = items[1]
        #expect(gulls["type"] as? String == "highlight")
        #expect(gulls["highlighted_text"] as? String == "Gulls wheeled")
        #expect(gulls["start_cfi"] as? String == "/2/4/2/1:0")
        #expect(gulls["end_cfi"] as? String == "/2/4/2/1:13")
        #expect(gulls["spine_index"] as? Int == 0)
        #expect(gulls["spine_name"] as? String == "ch0.xhtml")
        #expect(gulls["style"] as? [String: String] == ["kind": "decoration", "type": "builtin", "which": "wavy"])
        #expect(gulls["toc_family_titles"] as? [String] == ["Birds"])
        #expect((gulls["timestamp"] as? String)?.hasSuffix(".000Z") == true)
        #expect(harbour["spine_index"] as? Int == 1)
        #expect(harbour["style"] as? [String: String] == ["kind": "color", "type": "builtin", "which": "red"])
        #expect(harbour["notes"] as? String == "Who is he?\nAsk at the office.")
        #expect(gulls["notes"] == nil)
    }

    @Test func aQuoteLineThatLooksLikeMarkdownSyntaxStaysText() throws {
        let (_, issue) = try temp.publicationWithIssue(named: "weekly-8")
        let text = "# not a heading\n1. not a list"
        let locator = Locator(resource: "a.html", progression: 0, totalProgression: 0, updated: Date(timeIntervalSince1970: 0))
        try temp.library.highlights.add(try #require(HighlightDraft(issueID: issue.id!, locator: locator, position: 0,
                                                                    range: text.startIndex..<text.endIndex, in: text)))
        let markdown = HighlightExport.markdown(try temp.library.highlights.forExport(issue: issue))
        #expect(markdown.contains("> \\# not a heading\n> 1\\. not a list"))
    }

    /// `highlights --publication NAME`: only that publication's issues' highlights.
    @Test func anExportCanBeOfOnePublication() throws {
        let gazette = try temp.library.store.save(Publication(feedURL: "file:///feeds/gazette.xml", title: "Harbour Gazette"))
        let issue = try temp.library.store.addIssue(name: "gazette-1", date: Date(timeIntervalSince1970: 1_780_000_000),
                                                    publicationID: gazette.id, title: "Gazette 1")
        try Self.add("quay", to: issue, in: temp.library, position: 0, chapter: "Front")
        #expect(try temp.library.highlights.forExport(publication: "gazette").map(\.highlight.quote.exact) == ["quay"])
        #expect(try temp.library.highlights.forExport(publication: "Test Weekly").map(\.highlight.quote.exact)
                == ["Gulls wheeled", "The ferry", "harbourmaster wrote"])
        #expect(try temp.library.highlights.forExport().count == 4)
        #expect(throws: LibraryError.self) { try temp.library.highlights.forExport(publication: "no such paper") }
    }
}
