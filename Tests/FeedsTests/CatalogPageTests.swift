import Foundation
import Testing
@testable import Feeds

@Suite struct CatalogPageTests {
    static func page(_ name: String, url: String) throws -> CatalogPage {
        try CatalogParser.parse(Fixture.data(name), url: try #require(URL(string: url)))
    }

    @Test func opds1AcquisitionFeed() throws {
        let page = try Self.page("catalog-opds1-acquisition.xml", url: "https://harbour.example/opds/new?page=2")
        #expect(page.format == .opds1)
        #expect(page.title == "Harbour Shelf & Co: By Newest")
        #expect(page.isAcquisitionFeed)
        #expect(page.pages.next?.absoluteString == "https://harbour.example/opds/new?page=3")
        #expect(page.pages.previous?.absoluteString == "https://harbour.example/opds/new?page=1")
        #expect(page.pages.first?.absoluteString == "https://harbour.example/opds/new?page=1")
        #expect(page.pages.last?.absoluteString == "https://harbour.example/opds/new?page=9")
        #expect(page.pages.start?.absoluteString == "https://harbour.example/opds")
        #expect(page.pages.up?.absoluteString == "https://harbour.example/opds")
        #expect(page.search == .description(URL(string: "https://harbour.example/opds/search.xml")!))
        #expect(page.facets.map(\.title) == ["English", "All languages"])
        #expect(page.facets.map(\.facetGroup) == ["Language", "Language"])
        #expect(page.facets.map(\.active) == [false, true])
        #expect(page.facets.first?.count == 41)

        #expect(page.books.map(\.title) == ["The Net Menders", "Gull Comics #12", "Only on paper"])
        let menders = page.books[0]
        #expect(menders.id == "urn:book:net-menders")
        #expect(menders.authors == ["Ada Quay", "Bo Keel"])
        #expect(menders.summary == "Winter repairs on the east quay.")
        #expect(menders.date == utc("2025-11-03T00:00:00Z"))
        #expect(menders.coverURL?.absoluteString == "https://harbour.example/covers/net-menders.jpg")
        #expect(menders.thumbnailURL?.absoluteString == "https://harbour.example/covers/net-menders-small.jpg")
        #expect(menders.formats == ["MOBI", "EPUB"])
        #expect(menders.acquisitions[1].rel == "http://opds-spec.org/acquisition/open-access")
        #expect(menders.acquisitions[1].length == 48213)
        // As an issue: the EPUB, not the MOBI listed first.
        let issue = try #require(menders.issueEntry(fallbackDate: .distantPast))
        #expect(issue.name == "urn:book:net-menders")
        #expect(issue.contentURL?.absoluteString == "https://harbour.example/get/net-menders.epub")
        #expect(issue.contentType == "application/epub+zip")
        #expect(issue.contentLength == 48213)

        let gull = page.books[1]
        #expect(gull.thumbnailURL?.absoluteString == "https://harbour.example/opds/covers/gull-12.png")
        #expect(gull.summary == "Twenty-four pages of gulls.")
        #expect(gull.formats == ["CBZ"])
        let stream = try #require(gull.stream)
        #expect(stream.count == 24)
        #expect(stream.lastRead == 7)
        #expect(stream.lastReadDate == utc("2026-02-01T18:30:00Z"))
        #expect(stream.url(page: 0, maxWidth: 800)?.absoluteString == "https://harbour.example/pages/gull-12/0?width=800")
        #expect(stream.url(page: 23, maxWidth: 800) != nil)
        #expect(stream.url(page: 24, maxWidth: 800) == nil)
        #expect(stream.url(page: -1, maxWidth: 800) == nil)

        let paper = page.books[2]
        #expect(paper.acquisitions.isEmpty)
        #expect(paper.detailsURL?.absoluteString == "https://harbour.example/opds/book/paper")
        #expect(paper.issueEntry(fallbackDate: .distantPast) == nil)
    }

    @Test func opds1NavigationFeedWithTemplateSearchAndHostileInput() throws {
        let page = try Self.page("catalog-opds1-root.xml", url: "https://harbour.example/opds/")
        #expect(!page.isAcquisitionFeed)
        // The DOCTYPE's entities are never expanded.
        #expect(!page.title.contains("BOOM"))
        #expect(page.navigation.map(\.title).first == "By Newest")
        #expect(page.navigation.count == 2)
        #expect(page.navigation[1].title.hasPrefix("Series"))
        #expect(page.navigation.allSatisfy { isClean($0.title) })
        #expect(page.navigation[0].url.absoluteString == "https://harbour.example/opds/new")
        #expect(page.navigation[0].summary == "Books sorted by date")
        #expect(page.navigation[0].count == 120)
        #expect(page.navigation[1].url.absoluteString == "https://other.example/series")
        guard case let .template(template, _) = page.search else {
            Issue.record("expected a search template, got \(String(describing: page.search))")
            return
        }
        #expect(template == "https://harbour.example/opds/search/{searchTerms}")
        #expect(OpenSearch.url(template: template, terms: "tide tables/2")?.absoluteString
                == "https://harbour.example/opds/search/tide%20tables%2F2")
        // A javascript: link is dropped, with a word about it.
        #expect(!page.navigation.contains { $0.url.scheme == "javascript" })
        #expect(page.problems.contains { $0.contains("Elsewhere") })
    }

    @Test func opds2FeedWithGroupsFacetsAndTemplatedSearch() throws {
        let page = try Self.page("catalog-opds2.json", url: "https://lighthouse.example/opds2/home.json")
        #expect(page.format == .opds2)
        #expect(page.title == "Lighthouse Library")
        #expect(page.navigation.map(\.title) == ["Series", "Authors"])
        #expect(page.navigation[0].count == 12)
        #expect(page.pages.next?.absoluteString == "https://lighthouse.example/opds2/home.json?page=2")
        #expect(page.pages.start?.absoluteString == "https://lighthouse.example/opds2/home.json")
        #expect(page.facets.map(\.title) == ["Newest", "Title"])
        #expect(page.facets.map(\.active) == [true, false])
        #expect(page.facets.allSatisfy { $0.facetGroup == "Order" })

        let tide = try #require(page.books.first)
        #expect(tide.title == "Tide Tables")
        #expect(tide.authors == ["Mara Gull", "Ivo Reed"])
        #expect(tide.summary == "High water at dawn.")
        #expect(tide.formats == ["EPUB", "PDF"])
        #expect(tide.coverURL?.absoluteString == "https://lighthouse.example/covers/tide.jpg")
        #expect(tide.thumbnailURL?.absoluteString == "https://lighthouse.example/covers/tide-small.jpg")
        #expect(tide.detailsURL?.absoluteString == "https://lighthouse.example/opds2/pub/tide.json")

        #expect(page.groups.map(\.title) == ["Featured", "Browse"])
        #expect(page.groups[0].url?.absoluteString == "https://lighthouse.example/opds2/featured.json")
        #expect(page.groups[0].books.map(\.authors) == [["Port Office"]])
        #expect(page.groups[0].books[0].formats == ["HTML"])
        #expect(page.groups[0].books[0].issueEntry(fallbackDate: .distantPast) == nil)
        #expect(page.groups[1].navigation.map(\.title) == ["New arrivals"])
        #expect(page.allBooks.count == 2)

        guard case let .template(template, _) = page.search else {
            Issue.record("expected a templated search link")
            return
        }
        #expect(OpenSearch.url(template: template, terms: "gull & tide")?.absoluteString
                == "https://lighthouse.example/opds2/search?query=gull%20%26%20tide")
    }

    @Test func openSearchDescriptionPicksTheAcquisitionAtomTemplate() throws {
        let url = try #require(URL(string: "https://harbour.example/opds/search.xml"))
        let template = try OpenSearch.template(fromDescription: Fixture.data("opensearch.xml"), url: url)
        #expect(template == "https://harbour.example/opds/search/{searchTerms}?start={startIndex?}")
        #expect(OpenSearch.url(template: template, terms: " gulls ")?.absoluteString
                == "https://harbour.example/opds/search/gulls?start=")
        // The plain Atom one, its optional page left out and the language its default.
        let plain = "https://harbour.example/opds/search?q={searchTerms}&page={startPage?}&lang={language}"
        #expect(OpenSearch.url(template: plain, terms: "a+b")?.absoluteString
                == "https://harbour.example/opds/search?q=a%2Bb&page=&lang=*")
        let html = Data(#"<OpenSearchDescription xmlns="http://a9.com/-/spec/opensearch/1.1/"><Url type="text/html" template="https://x.example/?q={searchTerms}"/></OpenSearchDescription>"#.utf8)
        #expect(throws: FeedError.self) { try OpenSearch.template(fromDescription: html, url: url) }
        #expect(throws: FeedError.self) { try OpenSearch.template(fromDescription: Data("<html/>".utf8), url: url) }
    }

    @Test func templatesNeverLeaveHTTP() {
        #expect(OpenSearch.url(template: "javascript:alert('{searchTerms}')", terms: "x") == nil)
        #expect(OpenSearch.url(template: "https:///nohost/{searchTerms}", terms: "x") == nil)
    }

    @Test func notACatalogAndDamagedCatalogs() throws {
        let url = try #require(URL(string: "https://x.example/feed"))
        #expect(throws: FeedError.self) { try CatalogParser.parse(Data(), url: url) }
        #expect(throws: FeedError.self) { try CatalogParser.parse(Data("{\"version\": 1}".utf8), url: url) }
        #expect(throws: FeedError.self) { try CatalogParser.parse(Data("<rss><channel/></rss>".utf8), url: url) }
        #expect(throws: FeedError.self) { try CatalogParser.parse(Data("not xml at all".utf8), url: url) }
        // Cut off in the middle: what was read is kept, and the page says so.
        let full = try Fixture.data("catalog-opds1-acquisition.xml")
        let firstEnd = try #require(String(decoding: full, as: UTF8.self).range(of: "</entry>"))
        let cut = Data(String(decoding: full, as: UTF8.self)[..<firstEnd.upperBound].utf8) + Data("<entry><title>Gull".utf8)
        let page = try CatalogParser.parse(Data(cut), url: url)
        #expect(page.books.map(\.title).first == "The Net Menders")
        #expect(page.problems.contains { $0.contains("not well-formed") })
    }

    @Test func hugeAndDeepCatalogsStayBounded() throws {
        let url = try #require(URL(string: "https://x.example/feed"))
        var xml = #"<feed xmlns="http://www.w3.org/2005/Atom"><title>Big</title>"#
        for i in 0..<5000 {
            xml += #"<entry><title>Book \#(i)</title><id>b\#(i)</id><link rel="http://opds-spec.org/acquisition" href="/b/\#(i).epub" type="application/epub+zip"/></entry>"#
        }
        xml += String(repeating: "<div>", count: 10_000) + "</feed>"
        let page = try CatalogParser.parse(Data(xml.utf8), url: url)
        #expect(page.books.count == 5000)
        #expect(page.books.last?.acquisitions.first?.url.absoluteString == "https://x.example/b/4999.epub")
    }
}
