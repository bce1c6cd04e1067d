import Foundation
import Testing
import Feeds
@testable import NewsstandKit

/// Catalogs kept in the library, pages and searches fetched through the one HTTP seam,
/// acquisition feeds subscribed to and single books taken as issues.
@Suite struct CatalogLibraryTests {
    static let root = URL(string: "http://books.example/opds")!
    static let newest = URL(string: "http://books.example/opds/new")!

    static func navigation(search: String) -> Data {
        Data("""
            <feed xmlns="http://www.w3.org/2005/Atom"><title>Shelf Server</title><id>urn:shelf</id>
            \(search)
            <entry><title>By Newest</title><id>n</id>
              <link rel="http://opds-spec.org/sort/new" href="/opds/new" type="application/atom+xml;profile=opds-catalog;kind=acquisition"/></entry>
            </feed>
            """.utf8)
    }

    static func acquisition(page: Int, of pages: Int, perPage: Int = 2) -> Data {
        var entries = ""
        for i in 0..<perPage {
            let n = page * perPage + i
            entries += """
                <entry><title>Book \(n)</title><id>urn:book:\(n)</id><author><name>Writer \(n)</name></author>
                <updated>2026-01-\(String(format: "%02d", 1 + n % 28))T00:00:00Z</updated>
                <link rel="http://opds-spec.org/acquisition" href="/get/\(n).epub" type="application/epub+zip"/></entry>
                """
        }
        let next = page + 1 < pages ? #"<link rel="next" href="/opds/new?page=\#(page + 1)"/>"# : ""
        return Data(#"<feed xmlns="http://www.w3.org/2005/Atom"><title>By Newest</title><id>urn:new</id>\#(next)\#(entries)</feed>"#.utf8)
    }

    func library(_ web: MemoryHTTPClient) throws -> TemporaryLibrary {
        try TemporaryLibrary(access: HTTPAccess(client: web) { _ in nil }, inMemory: true)
    }

    @Test func catalogsAreKeptListedAndRemoved() throws {
        let web = MemoryHTTPClient()
        web.serve(Self.root, body: Self.navigation(search: ""))
        let temp = try library(web)
        let (catalog, page, added) = try temp.library.catalogs.addCatalog(url: Self.root)
        #expect(added)
        #expect(catalog.title == "Shelf Server")
        #expect(page.navigation.map(\.title) == ["By Newest"])
        #expect(try temp.library.catalogs.addCatalog(url: Self.root).added == false)
        #expect(try temp.library.store.catalogs().map(\.url) == [Self.root.absoluteString])
        #expect(try temp.library.catalogs.catalog(matching: "1").id == catalog.id)
        #expect(try temp.library.catalogs.catalog(matching: "shelf").id == catalog.id)
        #expect(throws: CatalogError.self) { try temp.library.catalogs.catalog(matching: "nothing") }
        try temp.library.store.removeCatalog(catalog)
        #expect(try temp.library.store.catalogs().isEmpty)
    }

    @Test func aTitleTwoCatalogsShareIsRefusedNamingEachByNumberAndURL() throws {
        let web = MemoryHTTPClient()
        let mirror = URL(string: "http://mirror.example/opds")!
        web.serve(Self.root, body: Self.navigation(search: ""))
        web.serve(mirror, body: Self.navigation(search: ""))
        let temp = try library(web)
        try temp.library.catalogs.addCatalog(url: Self.root)
        let second = try temp.library.catalogs.addCatalog(url: mirror).catalog
        do {
            _ = try temp.library.catalogs.catalog(matching: "Shelf Server")
            Issue.record("a title two catalogs share was taken for one of them")
        } catch let error as CatalogError {
            #expect(error.message.contains("1  Shelf Server  \(Self.root.absoluteString)"), "\(error)")
            #expect(error.message.contains("2  Shelf Server  \(mirror.absoluteString)"), "\(error)")
        }
        #expect(throws: CatalogError.self) { try temp.library.catalogs.catalog(matching: "shelf") }
        #expect(try temp.library.catalogs.catalog(matching: "2").id == second.id)
        #expect(try temp.library.catalogs.catalog(matching: mirror.absoluteString).id == second.id)
    }

    @Test func aURLThatIsNoCatalogIsNotKept() throws {
        let web = MemoryHTTPClient()
        web.serve(Self.root, body: Data("<html><body>hello</body></html>".utf8))
        let temp = try library(web)
        #expect(throws: (any Error).self) { try temp.library.catalogs.addCatalog(url: Self.root) }
        #expect(try temp.library.store.catalogs().isEmpty)
    }

    @Test func searchThroughAnOpenSearchDescription() throws {
        let web = MemoryHTTPClient()
        let description = URL(string: "http://books.example/opds/search.xml")!
        web.serve(Self.root, body: Self.navigation(search: #"<link rel="search" type="application/opensearchdescription+xml" href="/opds/search.xml"/>"#))
        web.serve(description, body: Data("""
            <OpenSearchDescription xmlns="http://a9.com/-/spec/opensearch/1.1/">
              <Url type="text/html" template="/search.html?q={searchTerms}"/>
              <Url type="application/atom+xml" template="/opds/search/{searchTerms}"/>
            </OpenSearchDescription>
            """.utf8))
        web.serve(URL(string: "http://books.example/opds/search/net%20menders")!, body: Self.acquisition(page: 0, of: 1))
        let temp = try library(web)
        let browser = temp.library.catalogs
        let page = try browser.page(at: Self.root)
        let results = try browser.search(page, terms: "net menders")
        #expect(results.books.map(\.title) == ["Book 0", "Book 1"])
        #expect(web.requests.map(\.url.path) == ["/opds", "/opds/search.xml", "/opds/search/net menders"])
        #expect(throws: CatalogError.self) { try browser.searchURL(for: page, terms: "  ") }
    }

    @Test func anAcquisitionFeedIsSubscribedToWithAllItsPages() throws {
        let web = MemoryHTTPClient()
        web.serve(Self.newest, body: Self.acquisition(page: 0, of: 3))
        web.serve(URL(string: "http://books.example/opds/new?page=1")!, body: Self.acquisition(page: 1, of: 3))
        web.serve(URL(string: "http://books.example/opds/new?page=2")!, body: Self.acquisition(page: 2, of: 3))
        let temp = try library(web)
        let (publication, result) = try temp.library.subscriptions.subscribe(feedURL: Self.newest)
        #expect(publication.title == "By Newest")
        #expect(Set(result.added) == Set((0..<6).map { "urn:book:\($0)" }))
        #expect(try temp.library.store.issues(publicationID: publication.id ?? -1).count == 6)
    }

    /// The feed's authors are the issue's before anything is downloaded, follow the feed
    /// when it changes them, and stay when a later version of the feed names none.
    @Test func theCatalogsAuthorsAreTheIssuesBeforeTheDownload() throws {
        let web = MemoryHTTPClient()
        web.serve(Self.newest, body: Data(#"""
            <feed xmlns="http://www.w3.org/2005/Atom"><title>By Newest</title><id>urn:new</id>
            <entry><title>Two hands</title><id>urn:book:two</id><author><name>Ada Reef</name></author><author><name>Bo
            Strand</name></author><link rel="http://opds-spec.org/acquisition" href="/get/two.epub" type="application/epub+zip"/></entry>
            <entry><title>No one's</title><id>urn:book:none</id>
            <link rel="http://opds-spec.org/acquisition" href="/get/none.epub" type="application/epub+zip"/></entry>
            </feed>
            """#.utf8))
        let temp = try library(web)
        let (publication, _) = try temp.library.subscriptions.subscribe(feedURL: Self.newest)
        let two = try #require(try temp.library.store.issue(named: "urn:book:two"))
        #expect(two.status == .none)
        #expect(two.authors == ["Ada Reef", "Bo Strand"])
        #expect(try temp.library.store.issue(named: "urn:book:none")?.authors == [])

        web.serve(Self.newest, body: Data(#"""
            <feed xmlns="http://www.w3.org/2005/Atom"><title>By Newest</title><id>urn:new</id>
            <entry><title>Two hands</title><id>urn:book:two</id><author><name>Ada Reef-Strand</name></author>
            <link rel="http://opds-spec.org/acquisition" href="/get/two.epub" type="application/epub+zip"/></entry>
            <entry><title>No one's</title><id>urn:book:none</id><author><name>Cy Tern</name></author>
            <link rel="http://opds-spec.org/acquisition" href="/get/none.epub" type="application/epub+zip"/></entry>
            </feed>
            """#.utf8))
        let result = try temp.library.subscriptions.refresh(publication)
        #expect(result.updated == 2)
        #expect(try temp.library.store.issue(named: "urn:book:two")?.authors == ["Ada Reef-Strand"])
        #expect(try temp.library.store.issue(named: "urn:book:none")?.authors == ["Cy Tern"])

        // A book taken alone from a page keeps its authors too.
        web.serve(Self.newest, body: Self.acquisition(page: 0, of: 1))
        let taken = try temp.library.subscriptions.take(try temp.library.catalogs.page(at: Self.newest).books[1])
        #expect(taken.authors == ["Writer 1"])
    }

    @Test func aBookIsTakenAsAnIssueFromCatalogs() throws {
        let web = MemoryHTTPClient()
        web.serve(Self.newest, body: Self.acquisition(page: 0, of: 1))
        let temp = try library(web)
        let page = try temp.library.catalogs.page(at: Self.newest)
        let issue = try temp.library.subscriptions.take(page.books[1])
        #expect(issue.name == "urn:book:1")
        #expect(issue.contentURL == "http://books.example/get/1.epub")
        let again = try temp.library.subscriptions.take(page.books[1])
        #expect(again.id == issue.id)
        _ = try temp.library.subscriptions.take(page.books[0])
        let publications = try temp.library.store.publications()
        #expect(publications.map(\.title) == ["From catalogs"])
        #expect(try temp.library.store.issues(publicationID: publications[0].id ?? -1).count == 2)
        // Refreshing it fetches nothing.
        let before = web.requests.count
        let result = try temp.library.subscriptions.refresh(publications[0])
        #expect(result.added.isEmpty)
        #expect(web.requests.count == before)

        let mobiOnly = CatalogBook(id: "m", title: "Kindle only",
                                   acquisitions: [CatalogAcquisition(url: URL(string: "http://books.example/m.mobi")!,
                                                                     type: "application/x-mobipocket-ebook", rel: "http://opds-spec.org/acquisition")])
        #expect(throws: CatalogError("Kindle only comes as MOBI; only EPUB, CBZ, PDF and zip are read here")) {
            try temp.library.subscriptions.take(mobiOnly)
        }
    }
}

/// A catalog behind a password: the page's fetch says so in a typed error the screen can
/// answer, and goes through once credentials are there.
@Suite struct CatalogSignInTests {
    @Test func aPageBehindAPasswordAsksForOneAndThenOpens() throws {
        let web = MemoryHTTPClient()
        let credentials = Credentials.basic(user: "reader", password: "tide")
        web.serve(CatalogLibraryTests.root, body: CatalogLibraryTests.navigation(search: ""), requiring: credentials)
        let anonymous = try TemporaryLibrary(access: HTTPAccess(client: web) { _ in nil })
        do {
            _ = try anonymous.library.catalogs.page(at: CatalogLibraryTests.root)
            Issue.record("a page behind a password opened without one")
        } catch let asked as HTTPAuthenticationRequired {
            #expect(asked.host == "books.example")
            #expect(!asked.credentialsSent)
        }
        let wrong = try TemporaryLibrary(access: HTTPAccess(client: web) { _ in .basic(user: "reader", password: "sand") })
        #expect(throws: HTTPAuthenticationRequired.self) { try wrong.library.catalogs.page(at: CatalogLibraryTests.root) }
        let right = try TemporaryLibrary(access: HTTPAccess(client: web) { _ in credentials })
        #expect(try right.library.catalogs.page(at: CatalogLibraryTests.root).title == "Shelf Server")
    }
}
