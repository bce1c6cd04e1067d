import Feeds
import Foundation
import NewsstandKit
import Testing

/// OPDS-PSE: a comic's pages one at a time, scaled down when a device asks.
@Suite struct ServePageStreamTests {
    /// A PNG's width, from its header.
    static func pngWidth(_ data: Data) -> Int? {
        guard data.count > 24, data.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { return nil }
        return data[16..<20].reduce(0) { $0 << 8 | Int($1) }
    }

    @Test func aComicOffersItsPagesAndServesThemScaledOnRequest() async throws {
        try await ServedShelf.with { shelf in
            var comic = try shelf.installed(ServedShelf.cbz, in: try shelf.publication("Badger"), title: "Three")
            try shelf.library.store.saveLocator(Locator(resource: "page-03.png", progression: 0, totalProgression: 0.5, page: 2, updated: Date()), for: comic)
            comic = try #require(try shelf.library.store.issue(id: comic.id!))
            let epub = try shelf.installed(ServedShelf.epub, in: try shelf.publication("Tidewater"), title: "Words")

            let atom = try shelf.get("/opds/newest")
            #expect(atom.text.contains(#"href="/pages/\#(comic.id!)/{pageNumber}?maxWidth={maxWidth}" type="image/jpeg" pse:count="4" pse:lastRead="2""#), "\(atom.text)")
            let books = try CatalogParser.parse(atom.body, url: URL(string: "http://127.0.0.1/opds/newest")!).books
            #expect(books.first { $0.title == "Three" }?.stream?.count == 4)
            #expect(books.first { $0.title == "Words" }?.stream == nil, "an EPUB has no pages to stream")

            let whole = try shelf.get("/pages/\(comic.id!)/0")
            let width = try #require(Self.pngWidth(whole.body))
            #expect(whole.status == 200 && whole.header("Content-Type") == "image/png" && width > 100)
            let scaled = try shelf.get("/pages/\(comic.id!)/0?maxWidth=100")
            #expect(Self.pngWidth(scaled.body) == 100)
            let wider = try shelf.get("/pages/\(comic.id!)/0?maxWidth=\(width * 2)")
            #expect(wider.body == whole.body, "never scaled up")
            #expect(try shelf.get("/pages/\(comic.id!)/4").status == 404)
            #expect(try shelf.get("/pages/\(comic.id!)/-1").status == 404)
            #expect(try shelf.get("/pages/\(epub.id!)/0").status == 404)
            #expect(try shelf.get("/pages/\(comic.id!)/../0").status == 404)
        }
    }

    /// A PDF and an EPUB of one's own, subscribed by the real program before the server starts
    /// (no agent has indexed them): the PDF is served whole and page by page, and the
    /// catalogs' search finds words inside both.
    @Test func aPDFIssueIsServedWholeAndPageByPageAndSearchFindsWhatNoAgentIndexed() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-own-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let pdf = folder.appendingPathComponent("lantern.pdf")
        try await ServedShelf.with(before: { home in
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: ServedShelf.checkout.appendingPathComponent("sample-feed/lantern-quarterly/issues/lantern-2026-06.pdf"), to: pdf)
            try FileManager.default.copyItem(at: ServedShelf.epub, to: folder.appendingPathComponent("tides.epub"))
            #expect(try ServedShelf.run(["subscribe", folder.path], in: home) == 0)
        }) { shelf in
            let issue = try #require(try shelf.library.store.issues().first { $0.status == .available && $0.contentURL?.hasSuffix(".pdf") == true })
            let feed = try shelf.get("/opds2/newest")
            #expect(feed.text.contains("/issues/\(issue.id!).pdf") && feed.text.contains("application/pdf"), "\(feed.text)")
            let atom = try shelf.get("/opds/newest")
            #expect(atom.text.contains("/pages/\(issue.id!)/{pageNumber}"), "a PDF streams page by page: \(atom.text)")
            let whole = try shelf.get("/issues/\(issue.id!).pdf")
            let bytes = try Data(contentsOf: pdf)
            #expect(whole.status == 200 && whole.body == bytes)
            let page = try shelf.get("/pages/\(issue.id!)/0?maxWidth=300")
            #expect(page.status == 200 && Self.pngWidth(page.body).map { $0 > 100 && $0 <= 300 } == true, "\(page.status) \(page.text.prefix(200))")

            let found = try CatalogParser.parse(try shelf.get("/opds2/search?query=lamp%20gull").body, url: URL(string: "http://127.0.0.1/opds2/search")!)
            #expect(found.books.count == 1, "words of the EPUB's text: \(found.books.map(\.title))")
        }
    }
}
