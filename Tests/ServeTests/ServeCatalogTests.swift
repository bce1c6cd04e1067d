import Feeds
import Foundation
import IssueArchive
import NewsstandKit
import Testing

@Suite struct ServeCatalogTests {
    static let hostile = "Bad <b>\"title\"</b> & 'quotes' ]]> \u{1B}[31m \u{7}end"

    @Test func theRootOfBothCatalogsLeadsToEverySection() async throws {
        try await ServedShelf.with { shelf in
            let atom = try CatalogParser.parse(try shelf.get("/opds").body, url: URL(string: "http://127.0.0.1/opds")!)
            #expect(atom.navigation.map(\.title) == ["Publications", "New", "Newest", "Editions", "Reading now"])
            #expect(atom.search != nil)
            let json = try CatalogParser.parse(try shelf.get("/opds2").body, url: URL(string: "http://127.0.0.1/opds2")!)
            #expect(json.navigation.map(\.url.path) == ["/opds2/publications", "/opds2/new", "/opds2/newest", "/opds2/editions", "/opds2/reading"])
            #expect(shelf.lines.all.contains { $0.hasPrefix("GET /opds 200 ") && $0.hasSuffix(" ms") }, "\(shelf.lines.all)")
        }
    }

    @Test func anEmptyShelfGivesNoYearOneForATime() async throws {
        try await ServedShelf.with { shelf in
            let json = try shelf.get("/opds2")
            #expect(json.status == 200 && !json.text.contains("0001-01-01"), "\(json.text)")
            let metadata = try #require((try JSONSerialization.jsonObject(with: json.body) as? [String: Any])?["metadata"] as? [String: Any])
            #expect(metadata["modified"] == nil && metadata["title"] != nil)
            let atom = try shelf.get("/opds")
            #expect(atom.status == 200 && atom.text.contains("<updated>2") && !atom.text.contains("0001-01-01"), "\(atom.text)")
        }
    }

    @Test func eachInstalledIssueIsAnAcquisitionEntryWithItsFileAndCover() async throws {
        try await ServedShelf.with { shelf in
            let tidewater = try shelf.publication("Tidewater")
            let badger = try shelf.publication("Rocket Badger")
            let epub = try shelf.installed(ServedShelf.epub, in: tidewater, title: "No. 31", summary: "The river issue",
                                           date: Date(timeIntervalSince1970: 1_790_000_000))
            let cbz = try shelf.installed(ServedShelf.cbz, in: badger, title: "#3", date: Date(timeIntervalSince1970: 1_791_000_000))
            var waiting = try shelf.library.store.addIssue(name: "not-yet", date: Date(), publicationID: badger.id, title: "Not downloaded")
            waiting.status = .downloading
            _ = try shelf.library.store.save(waiting)

            for root in ["/opds", "/opds2"] {
                let page = try CatalogParser.parse(try shelf.get("\(root)/newest").body, url: URL(string: "http://127.0.0.1\(root)/newest")!)
                #expect(page.books.map(\.title) == ["#3", "No. 31"], "\(root)")
                #expect(page.books.map { $0.acquisitions.first?.url.path } == ["/issues/\(cbz.id!).cbz", "/issues/\(epub.id!).epub"])
                #expect(page.books.map { $0.acquisitions.first?.type } == ["application/vnd.comicbook+zip", "application/epub+zip"])
                #expect(page.books.last?.summary == "The river issue")
                #expect(page.books.allSatisfy { $0.coverURL != nil }, "\(root): \(page.books.map(\.coverURL))")
            }
            let cover = try shelf.get("/covers/\(cbz.id!)")
            #expect(cover.status == 200 && cover.header("Content-Type") == "image/png" && cover.body.starts(with: [0x89, 0x50]))
            let publications = try CatalogParser.parse(try shelf.get("/opds/publications").body, url: URL(string: "http://127.0.0.1/opds/publications")!)
            #expect(publications.navigation.map(\.title) == ["Tidewater", "Rocket Badger"])
            let one = try CatalogParser.parse(try shelf.get("/opds2/publications/\(badger.id!)").body, url: URL(string: "http://127.0.0.1/opds2/x")!)
            #expect(one.books.map(\.title) == ["#3"])
        }
    }

    @Test func newReadingNowAndEditionsSelectTheirIssues() async throws {
        try await ServedShelf.with { shelf in
            let tidewater = try shelf.publication("Tidewater")
            try shelf.installed(ServedShelf.epub, in: tidewater, title: "Unread")
            var opened = try shelf.installed(ServedShelf.epub, in: tidewater, title: "Opened", unread: false)
            try shelf.library.store.saveLocator(Locator(resource: "c1.xhtml", progression: 0.5, totalProgression: 0.4, updated: Date()), for: opened)
            try shelf.library.store.markOpened(opened, at: Date())
            opened = try #require(try shelf.library.store.issue(id: opened.id!))
            let new = try CatalogParser.parse(try shelf.get("/opds/new").body, url: URL(string: "http://127.0.0.1/opds/new")!)
            #expect(new.books.map(\.title) == ["Unread"])
            let reading = try CatalogParser.parse(try shelf.get("/opds2/reading").body, url: URL(string: "http://127.0.0.1/opds2/reading")!)
            #expect(reading.books.map(\.title) == ["Opened"])
            let editions = try shelf.get("/opds2/editions")
            #expect(editions.status == 200)
            let object = try #require(try JSONSerialization.jsonObject(with: editions.body) as? [String: Any])
            #expect(object["publications"] == nil && (object["navigation"] as? [Any])?.count == 1)
        }
    }

    @Test func hostileTitlesAndSummariesAreEscapedForXMLAndJSON() async throws {
        try await ServedShelf.with { shelf in
            let publication = try shelf.publication(Self.hostile)
            try shelf.installed(ServedShelf.epub, in: publication, title: Self.hostile, summary: Self.hostile)
            // XML forbids ESC and BEL: they are left out, every markup character escaped.
            let expectedInXML = Self.hostile.replacingOccurrences(of: "\u{1B}", with: "").replacingOccurrences(of: "\u{7}", with: "")
            let atom = try shelf.get("/opds/newest")
            #expect(!atom.text.contains("<b>") && !atom.text.contains("\u{1B}"))
            let parsed = try CatalogParser.parse(atom.body, url: URL(string: "http://127.0.0.1/opds/newest")!)
            #expect(parsed.books.count == 1)
            #expect(try XMLTexts.all("title", in: atom.body).contains(expectedInXML), "\((try? XMLTexts.all("title", in: atom.body)) ?? [])")
            let json = try shelf.get("/opds2/newest")
            let object = try #require(try JSONSerialization.jsonObject(with: json.body) as? [String: Any])
            let publications = try #require(object["publications"] as? [[String: Any]])
            let metadata = try #require(publications.first?["metadata"] as? [String: Any])
            #expect(metadata["title"] as? String == Self.hostile)
            #expect(metadata["description"] as? String == Self.hostile)
            let navigation = try shelf.get("/opds/publications")
            #expect(try XMLTexts.all("title", in: navigation.body).contains(expectedInXML))
        }
    }

    @Test func largeShelvesArePagedFiftyAtATime() async throws {
        try await ServedShelf.with { shelf in
            let publication = try shelf.publication("Many")
            for index in 0..<51 {
                try shelf.installed(ServedShelf.cbz, in: publication, title: "Issue \(index)", date: Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 86400))
            }
            let first = try CatalogParser.parse(try shelf.get("/opds/newest").body, url: URL(string: "http://127.0.0.1/opds/newest")!)
            #expect(first.books.count == 50 && first.books.first?.title == "Issue 50")
            #expect(first.pages.next?.absoluteString == "http://127.0.0.1/opds/newest?page=2")
            let second = try CatalogParser.parse(try shelf.get("/opds2/newest?page=2").body, url: URL(string: "http://127.0.0.1/opds2/newest?page=2")!)
            #expect(second.books.map(\.title) == ["Issue 0"])
            #expect(second.pages.previous?.path == "/opds2/newest" && second.pages.next == nil)
        }
    }

    @Test func aCatalogAlreadyHeldIsNotSentAgain() async throws {
        try await ServedShelf.with { shelf in
            try shelf.installed(ServedShelf.epub, in: try shelf.publication("Tidewater"), title: "One")
            let first = try shelf.get("/opds/newest")
            let tag = try #require(first.header("ETag"))
            let modified = try #require(first.header("Last-Modified"))
            #expect(try shelf.get("/opds/newest", headers: ["If-None-Match": tag]).status == 304)
            // The tag names a state of the whole library: it never answers for a document that does not exist.
            #expect(try shelf.get("/opds/publications/999", headers: ["If-None-Match": tag]).status == 404)
            #expect(try shelf.get("/opds/newest", headers: ["If-Modified-Since": modified]).status == 304)
            // An IMF-fixdate (RFC 9110) of about now, as a reference formatter reads and writes it, weekday and all.
            let reference = DateFormatter()
            reference.locale = Locale(identifier: "en_US_POSIX")
            reference.timeZone = TimeZone(identifier: "GMT")
            reference.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            let date = try #require(reference.date(from: modified), "\(modified)")
            #expect(reference.string(from: date) == modified && abs(date.timeIntervalSinceNow) < 300, "\(modified)")
            let earlier = reference.string(from: date.addingTimeInterval(-3600))
            #expect(try shelf.get("/opds/newest", headers: ["If-Modified-Since": earlier]).status == 200)
            #expect(try shelf.get("/opds/newest", headers: ["If-Modified-Since": "yesterday"]).status == 200)
            // The obsolete forms a recipient must also accept (RFC 9110, 5.6.7): RFC 850's and asctime's.
            let later = date.addingTimeInterval(3600)
            for form in ["EEEE, dd-MMM-yy HH:mm:ss 'GMT'", "EEE MMM d HH:mm:ss yyyy"] {
                reference.dateFormat = form
                #expect(try shelf.get("/opds/newest", headers: ["If-Modified-Since": reference.string(from: later)]).status == 304, "\(form)")
            }
            try shelf.installed(ServedShelf.cbz, in: try shelf.publication("Badger"), title: "Two")
            let changed = try shelf.get("/opds/newest", headers: ["If-None-Match": tag])
            #expect(changed.status == 200 && changed.header("ETag") != tag)
        }
    }

    @Test func aCatalogKeptBetweenRequestsFollowsWritesOfAnotherProcess() async throws {
        try await ServedShelf.with { shelf in
            try shelf.installed(ServedShelf.epub, in: try shelf.publication("Tidewater"), title: "One")
            let first = try shelf.get("/opds2/newest")
            let tag = try #require(first.header("ETag"))
            #expect(try shelf.get("/opds2/newest").body == first.body)
            // Another process's connections to the same file: the agent installing an issue.
            let other = try Library(paths: Paths(environment: ["NEWSSTAND_HOME": shelf.home.path]))
            let publication = try other.store.save(Publication(feedURL: "https://example.invalid/other", title: "Badger"))
            var issue = try other.store.addIssue(name: "issue-other", date: Date(), publicationID: publication.id, title: "Two")
            let content = try IssueInstaller.install(download: ServedShelf.cbz, into: other.paths.contentDirectory(for: issue))
            issue.contentCover = content.coverImage
            issue.status = .available
            issue.downloadedAt = Date()
            _ = try other.store.save(issue)
            let changed = try shelf.get("/opds2/newest", headers: ["If-None-Match": tag])
            #expect(changed.status == 200 && changed.header("ETag") != tag)
            let titles = try CatalogParser.parse(changed.body, url: URL(string: "http://127.0.0.1/opds2/newest")!).books.map(\.title)
            #expect(Set(titles) == ["One", "Two"])
        }
    }

    @Test func searchFindsIssuesThroughTheLibrarysIndex() async throws {
        try await ServedShelf.with { shelf in
            let publication = try shelf.publication("Tidewater")
            try shelf.installed(ServedShelf.epub, in: publication, title: "The heron number")
            try shelf.installed(ServedShelf.epub, in: publication, title: "The otter number")
            _ = try shelf.library.search.indexer(texts: nil).catchUp()
            let description = try shelf.get("/opds/opensearch.xml")
            #expect(description.text.contains("template=\"/opds/search?q={searchTerms}\""))
            let atom = try CatalogParser.parse(try shelf.get("/opds/search?q=heron").body, url: URL(string: "http://127.0.0.1/opds/search")!)
            #expect(atom.books.map(\.title) == ["The heron number"])
            let json = try CatalogParser.parse(try shelf.get("/opds2/search?query=otter").body, url: URL(string: "http://127.0.0.1/opds2/search")!)
            #expect(json.books.map(\.title) == ["The otter number"])
            #expect(json.search != nil)
        }
    }
}

/// The texts of every `<name>` element of a document, unescaped: what a title reads as in the XML itself.
enum XMLTexts {
    static func all(_ name: String, in data: Data) throws -> [String] {
        let text = String(decoding: data, as: UTF8.self)
        var found: [String] = []
        var rest = Substring(text)
        while let open = rest.range(of: "<\(name)>"), let close = rest.range(of: "</\(name)>", range: open.upperBound..<rest.endIndex) {
            found.append(unescape(String(rest[open.upperBound..<close.lowerBound])))
            rest = rest[close.upperBound...]
        }
        return found
    }

    static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
    }
}
