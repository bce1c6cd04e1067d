import Foundation
import Testing
@testable import Feeds

@Suite struct NewsstandAtomTests {
    @Test func readsPublicationAndIssues() throws {
        let doc = try Fixture.parse("newsstand-magazine.atom", url: "https://harbour.example/feeds/monthly.atom")
        #expect(doc.format == .newsstandAtom)
        let pub = doc.publication
        #expect(pub.title == "Harbour Monthly")
        #expect(pub.subtitle == "Tides, boats & the people who mend them")
        #expect(pub.id == "urn:newsstand:harbour-monthly")
        #expect(pub.coverURL?.absoluteString == "https://harbour.example/feeds/covers/default.png")
        #expect(pub.bindingType == "magazine")
        #expect(pub.bindingEdge == "left")
        #expect(pub.pushURL?.absoluteString == "https://harbour.example/feeds/push/events")
        #expect(doc.entries.map(\.name) == ["harbour-2026-03", "harbour-2026-02", "harbour-2026-01"])

        let march = doc.entries[0]
        #expect(march.title == "March 2026: The Net Menders")
        #expect(march.date == utc("2026-03-01T08:00:00Z"))
        #expect(march.endDate == utc("2026-03-31T23:59:59Z"))
        #expect(march.summary == "Winter repairs on the east quay.")
        #expect(march.coverURL?.absoluteString == "https://harbour.example/feeds/covers/2026-03.png")
        #expect(march.thumbnailURL?.absoluteString == "https://harbour.example/feeds/covers/2026-03-thumb.png")
        #expect(march.contentURL?.absoluteString == "https://harbour.example/feeds/issues/2026-03.epub")
        #expect(march.contentType == "application/epub+zip")
        #expect(march.contentLength == 48213)
        #expect(march.sha256 == "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d")
        // Without <published>, <updated> gives the date.
        #expect(doc.entries[2].date == utc("2026-01-01T08:00:00Z"))
        #expect(doc.entries[1].thumbnailURL == doc.entries[1].coverURL)
        #expect(doc.problems.isEmpty)
    }

    @Test func localFeedKeepsFileLinks() throws {
        let doc = try Fixture.parse("newsstand-magazine.atom", url: "file:///srv/sample-feed/harbour/feed.atom")
        #expect(doc.entries[0].contentURL == URL(fileURLWithPath: "/srv/sample-feed/harbour/issues/2026-03.epub"))
    }

    @Test func entryWithoutContentIsKeptWithANote() throws {
        let xml = """
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:news="http://itunes.apple.com/2011/Newsstand">
              <title>T</title><updated>2026-01-01T00:00:00Z</updated>
              <entry><id>a</id><title>No link</title><published>2026-01-01T00:00:00Z</published></entry>
              <entry><title>No id, no link</title></entry>
              <entry><id>a</id><title>Duplicate</title><link rel="enclosure" type="application/zip" href="a.zip"/></entry>
            </feed>
            """
        let doc = try FeedParser.parse(Data(xml.utf8), url: try #require(URL(string: "https://t.example/f")))
        #expect(doc.entries.map(\.name) == ["a"])
        #expect(doc.entries[0].contentURL == nil)
        #expect(doc.problems.contains { $0.contains("\"No link\" has no zip, EPUB, CBZ or PDF") })
        #expect(doc.problems.contains { $0.contains("\"No id, no link\" has neither an id nor a content link") })
        #expect(doc.problems.contains { $0.contains("repeats the name a") })
    }

    @Test func badBindingValuesAreReported() throws {
        let xml = """
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:news="http://itunes.apple.com/2011/Newsstand" xmlns:nst="urn:x-newsstand:1">
              <title>T</title><nst:binding type="Scroll" edge="BOTTOM"/>
            </feed>
            """
        let doc = try FeedParser.parse(Data(xml.utf8), url: try #require(URL(string: "https://t.example/f")))
        #expect(doc.publication.bindingType == nil)
        #expect(doc.publication.bindingEdge == "bottom")
        #expect(doc.problems.contains { $0.contains("binding type \"scroll\"") })
    }
}

@Suite struct OPDS1Tests {
    @Test func acquisitionFeed() throws {
        let doc = try Fixture.parse("opds1-acquisition.xml", url: "https://ignored.example/x.xml")
        #expect(doc.format == .opds1)
        #expect(doc.publication.title == "Lighthouse Comics — New Arrivals")
        #expect(doc.publication.coverURL?.absoluteString == "https://catalog.example/static/icon.png")
        #expect(doc.publication.nextPage?.absoluteString == "https://catalog.example/opds/new.xml?page=2")
        #expect(doc.entries.map(\.name) == ["urn:isbn:0000000000004", "urn:isbn:0000000000003", "urn:isbn:0000000000099"])
        let four = doc.entries[0]
        #expect(four.contentURL?.absoluteString == "https://catalog.example/opds/files/cat-4.cbz")
        #expect(four.contentType == "application/vnd.comicbook+zip")
        #expect(four.coverURL?.absoluteString == "https://catalog.example/opds/covers/cat-4.jpg")
        #expect(four.thumbnailURL?.absoluteString == "https://catalog.example/opds/covers/cat-4-small.jpg")
        #expect(four.summary == "A storm, a cat, a lamp that will not stay lit.")
        #expect(four.date == utc("2026-02-08T00:00:00Z"))
        // The book's author, as the catalog names it (kept as the issue's before any download).
        #expect(four.authors == ["R. Tern"])
        #expect(doc.entries[1].authors.isEmpty)
        // The EPUB is chosen over the PDF, resolved against the entry's own xml:base.
        #expect(doc.entries[1].contentURL?.absoluteString == "https://mirror.example/books/cat-3.epub")
        // A PDF alone is an issue of one file.
        #expect(doc.entries[2].contentURL?.absoluteString == "https://catalog.example/opds/files/lamp-oil.pdf")
        #expect(doc.entries[2].contentType == "application/pdf")
        #expect(!doc.problems.contains { $0.contains("Lamp Oil") })
    }

    @Test func navigationFeed() throws {
        let doc = try Fixture.parse("opds1-navigation.xml", url: "https://library.example/opds/root.xml")
        #expect(doc.format == .opds1)
        #expect(doc.entries.isEmpty)
        #expect(doc.publication.links == [
            NavigationLink(title: "Magazines", url: try #require(URL(string: "https://library.example/opds/magazines.xml")),
                           rel: "subsection", type: "application/atom+xml;profile=opds-catalog;kind=acquisition",
                           summary: "Monthly and weekly titles"),
            NavigationLink(title: "Newest first", url: try #require(URL(string: "https://library.example/opds/new.xml")),
                           rel: "http://opds-spec.org/sort/new", type: "application/atom+xml;profile=opds-catalog;kind=acquisition"),
        ])
    }

    @Test func pagesAreMerged() throws {
        var first = try Fixture.parse("opds1-acquisition.xml", url: "https://ignored.example/x.xml")
        let page = """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>p2</title>
            <entry><id>urn:isbn:0000000000003</id><title>again</title><link rel="http://opds-spec.org/acquisition" type="application/zip" href="x.zip"/></entry>
            <entry><id>urn:isbn:2</id><title>No. 2</title><updated>2025-12-01T00:00:00Z</updated><link rel="http://opds-spec.org/acquisition" type="application/zip" href="2.zip"/></entry>
            </feed>
            """
        let second = try FeedParser.parse(Data(page.utf8), url: try #require(first.publication.nextPage))
        first.append(page: second)
        #expect(first.entries.map(\.name) == ["urn:isbn:0000000000004", "urn:isbn:0000000000003", "urn:isbn:0000000000099", "urn:isbn:2"])
        #expect(first.publication.nextPage == nil)
    }
}

@Suite struct OPDS2Tests {
    @Test func publicationsNavigationAndGroups() throws {
        let doc = try Fixture.parse("opds2.json", url: "https://catalog.example/opds2/home.json")
        #expect(doc.format == .opds2)
        #expect(doc.publication.title == "The Lighthouse")
        #expect(doc.publication.id == "urn:opds2:lighthouse")
        #expect(doc.publication.nextPage?.absoluteString == "https://catalog.example/opds2/home.json?page=2")
        #expect(doc.publication.pushURL?.absoluteString == "https://catalog.example/events")
        #expect(doc.publication.links.map(\.title) == ["New Publications", "Popular"])
        #expect(doc.publication.links[0].url.absoluteString == "https://catalog.example/opds2/new.json")
        #expect(doc.entries.map(\.name) == ["urn:tide:7", "urn:tide:6", "urn:almanac:2026"])
        let seven = doc.entries[0]
        #expect(seven.title == "Tide Tables, Issue 7")
        #expect(seven.summary == "High water at dawn.")
        #expect(seven.date == utc("2026-02-01T00:00:00Z"))
        // `metadata.author`: a name, or a list of contributor objects (a name in a language map).
        #expect(seven.authors == ["Mara Gull"])
        #expect(doc.entries[1].authors == ["Mara Gull", "Ivo Reed"])
        #expect(seven.coverURL?.absoluteString == "https://catalog.example/covers/tide-7.jpg")
        #expect(seven.thumbnailURL?.absoluteString == "https://catalog.example/covers/tide-7-small.jpg")
        #expect(seven.sha256 == "aa11bb22cc33dd44ee55ff6600112233445566778899aabbccddeeff00112233")
        #expect(doc.entries[1].title == "Tide Tables, Issue 6")
        #expect(doc.entries[1].contentURL?.absoluteString == "https://catalog.example/files/tide-6.cbz")
        #expect(doc.entries[2].contentType == "application/zip")
        #expect(doc.problems.contains { $0.contains("Audio tour") && $0.contains("audio/mpeg") })
    }
}

@Suite struct RSSTests {
    @Test func rss2WithEnclosuresAndMessyDates() throws {
        let doc = try Fixture.parse("rss2-enclosures.xml", url: "https://lantern.example/feed.xml")
        #expect(doc.format == .rss2)
        #expect(doc.publication.title == "The Evening Lantern")
        #expect(doc.publication.coverURL?.absoluteString == "https://lantern.example/logo.png")
        #expect(doc.publication.nextPage?.absoluteString == "https://lantern.example/feed?page=2")
        #expect(doc.publication.pushURL?.absoluteString == "https://lantern.example/events")
        #expect(doc.entries.map(\.name) == [
            "lantern-2026-02-10", "lantern-2026-02-09", "https://lantern.example/issues/2026-02-08.cbz", "lantern-2026-02-07",
        ])
        let tuesday = doc.entries[0]
        #expect(tuesday.date == utc("2026-02-10T22:30:00Z"))
        #expect(tuesday.summary == "Ferry timetable & weather.")
        #expect(tuesday.contentLength == 120400)
        #expect(tuesday.coverURL?.absoluteString == "https://lantern.example/covers/2026-02-10.jpg")
        #expect(tuesday.thumbnailURL?.absoluteString == "https://lantern.example/covers/2026-02-10-small.jpg")
        #expect(doc.entries[1].date == utc("2026-02-09T16:30:00Z"))
        #expect(doc.entries[1].contentURL?.absoluteString == "https://lantern.example/issues/2026-02-09.zip")
        #expect(doc.entries[2].date == utc("2026-02-08T16:30:00Z"))
        #expect(doc.entries[2].contentLength == nil)
        #expect(doc.entries[2].title == "Sunday edition")
        // No readable date: the feed's date, and a note.
        #expect(doc.entries[3].date == utc("2026-02-10T18:00:00Z"))
        #expect(doc.problems.contains { $0.contains("Saturday edition") && $0.contains("no readable date") })
        // The item without an archive is an article, not a problem (issue #30, item 19).
        #expect(doc.articles.count == 1 && !doc.problems.contains { $0.contains("carry no") }, "\(doc.problems)")
    }

    @Test func rss1() throws {
        let doc = try Fixture.parse("rss1.rdf", url: "https://gazette.example/rss")
        #expect(doc.format == .rss1)
        #expect(doc.publication.title == "Fishermen's Gazette")
        #expect(doc.publication.id == "https://gazette.example/rss")
        #expect(doc.entries.map(\.name) == ["https://gazette.example/2026/06", "https://gazette.example/2026/05"])
        #expect(doc.entries[0].contentURL?.absoluteString == "https://gazette.example/files/2026-06.epub")
        #expect(doc.entries[0].contentLength == 70000)
        #expect(doc.entries[0].date == utc("2026-02-06T06:00:00Z"))
        #expect(doc.entries[1].date == utc("2026-01-30T00:00:00Z"))
    }
}

@Suite struct AtomEnclosureTests {
    @Test func httpsNamespaceXmlBaseHtmlTitlesAndUndeclaredPrefix() throws {
        let doc = try Fixture.parse("atom-enclosures.xml", url: "https://elsewhere.example/feed")
        #expect(doc.format == .atom)
        #expect(doc.publication.title == "Salt & Pepper Zine")
        #expect(doc.entries.map(\.title) == ["Issue 12: Kelp", "Issue 11: Driftwood"])
        #expect(doc.entries[0].contentURL?.absoluteString == "https://zine.example/files/zine-12.cbz")
        #expect(doc.entries[1].contentURL?.absoluteString == "https://cdn.example/zine/zine-11.zip")
        // A file: link in a feed fetched over https is refused.
        #expect(!doc.entries.contains { $0.contentURL?.isFileURL == true })
        #expect(doc.articles.count == 1 && !doc.problems.contains { $0.contains("carry no") }, "\(doc.problems)")
    }
}

@Suite struct JSONFeedTests {
    @Test func version11() throws {
        let doc = try Fixture.parse("jsonfeed-1.1.json", url: "https://cliffside.example/feed.json")
        #expect(doc.format == .jsonFeed)
        #expect(doc.publication.title == "Cliffside Weekly")
        #expect(doc.publication.bindingType == "newspaper")
        #expect(doc.publication.bindingEdge == "bottom")
        #expect(doc.publication.pushURL?.absoluteString == "https://cliffside.example/push")
        #expect(doc.publication.nextPage?.absoluteString == "https://cliffside.example/feed.json?before=40")
        #expect(doc.entries.map(\.name) == ["41", "week-40"])
        #expect(doc.entries[0].contentURL?.absoluteString == "https://cliffside.example/issues/41.epub")
        #expect(doc.entries[0].contentLength == 80123)
        #expect(doc.entries[0].sha256 == "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff")
        #expect(doc.entries[0].coverURL?.absoluteString == "https://cliffside.example/covers/41.png")
        #expect(doc.entries[0].date == utc("2026-02-07T14:00:00Z"))
        #expect(doc.entries[1].title == "40")
        #expect(doc.entries[1].date == utc("2026-01-31T09:00:00Z"))
    }

    @Test func version10() throws {
        let doc = try Fixture.parse("jsonfeed-1.0.json", url: "https://pier.example/feed.json")
        #expect(doc.format == .jsonFeed)
        #expect(doc.entries.count == 1)
        #expect(doc.entries[0].contentLength == 5000)
    }
}

@Suite struct PlistTests {
    @Test func tutorialPlist() throws {
        let doc = try Fixture.parse("tutorial.plist", url: "http://tutorial.example/issues.plist")
        #expect(doc.format == .plist)
        #expect(doc.entries.map(\.name) == ["Magazine-1", "Magazine-2"])
        #expect(doc.entries[0].date == utc("2026-01-05T10:00:00Z"))
        #expect(doc.entries[1].date == utc("2026-02-05T00:00:00Z"))
        #expect(doc.entries[1].coverURL?.absoluteString == "http://tutorial.example/covers/2.png")
        #expect(doc.entries[1].contentURL?.absoluteString == "http://tutorial.example/issues/2.zip")
    }

    @Test func lowerCaseVariant() throws {
        let doc = try Fixture.parse("tutorial-lowercase.plist", url: "http://tutorial.example/tt/issues.plist")
        #expect(doc.publication.title == "Tutorial Times")
        let issue = try #require(doc.entries.first)
        #expect(issue.name == "tt-03")
        #expect(issue.coverURL?.absoluteString == "http://tutorial.example/tt/covers/3-large.png")
        #expect(issue.thumbnailURL?.absoluteString == "http://tutorial.example/tt/covers/3-small.png")
        #expect(issue.contentURL?.absoluteString == "http://tutorial.example/tt/issues/3.epub")
    }

    @Test func binaryPlist() throws {
        let issues: [[String: Any]] = [["Name": "bin-1", "Title": "Binary", "Date": utc("2026-01-01T00:00:00Z"),
                                        "Cover": "c.png", "Content": "i.zip"]]
        let data = try PropertyListSerialization.data(fromPropertyList: issues, format: .binary, options: 0)
        let doc = try FeedParser.parse(data, url: try #require(URL(string: "https://bin.example/x.plist")))
        #expect(doc.format == .plist)
        #expect(doc.entries.map(\.name) == ["bin-1"])
        #expect(doc.entries[0].date == utc("2026-01-01T00:00:00Z"))
    }
}

@Suite struct PushDiscoveryTests {
    func pushURL(_ links: String) throws -> URL? {
        let xml = "<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>P</title>\(links)</feed>"
        return try FeedParser.parse(Data(xml.utf8), url: try #require(URL(string: "https://push.example/feed"))).publication.pushURL
    }

    @Test func eventStreamLinksAreTakenWebSubHubsAreNot() throws {
        #expect(try pushURL("<link rel=\"urn:x-newsstand:push\" href=\"/sse\"/>")?.absoluteString == "https://push.example/sse")
        #expect(try pushURL("<link rel=\"hub\" type=\"text/event-stream\" href=\"sse\"/>")?.absoluteString == "https://push.example/sse")
        #expect(try pushURL("<link rel=\"hub\" href=\"https://pubsubhubbub.example/\"/>") == nil)
        #expect(try pushURL("<link rel=\"self\" href=\"feed\"/>") == nil)
        let ours = "<nst:push xmlns:nst=\"urn:x-newsstand:1\" href=\"events\"/><link rel=\"hub\" type=\"text/event-stream\" href=\"other\"/>"
        #expect(try pushURL(ours)?.absoluteString == "https://push.example/events")
    }
}
