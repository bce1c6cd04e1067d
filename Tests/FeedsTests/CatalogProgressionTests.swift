import Foundation
import Testing
@testable import Feeds

/// Catalogs that keep the reader's place: an OPDS 2 publication's progression link (Codex's,
/// Cantook's relation) and OPDS-PSE's `lastRead`, read so a book taken or streamed from them
/// can be synced.
@Suite struct CatalogProgressionTests {
    @Test func opds2PublicationKeepsItsProgressionLinkResolved() throws {
        // The shape Codex 1.9 serves (codex/views/opds/v2/feed/publications.py): the
        // acquisition, the progression and the Divina manifest, hrefs relative to the feed.
        let json = """
        {"metadata": {"title": "Comics"}, "links": [{"rel": "self", "href": "/opds/v2.0/r/0/1"}],
         "publications": [
          {"metadata": {"title": "Gull #1", "identifier": "urn:uuid:gull-1"},
           "links": [
            {"rel": "http://opds-spec.org/acquisition", "href": "/opds/bin/c/3/download/gull-1.cbz", "type": "application/vnd.comicbook+zip"},
            {"rel": "http://www.cantook.com/api/progression", "href": "/opds/v2.0/c/3/position", "type": "application/vnd.readium.progression+json"},
            {"rel": "self", "href": "/opds/v2.0/c/3/1", "type": "application/divina+json"}]},
          {"metadata": {"title": "No place kept"},
           "links": [{"rel": "http://opds-spec.org/acquisition", "href": "/get/plain.cbz", "type": "application/vnd.comicbook+zip"}]}]}
        """
        let page = try CatalogParser.parse(Data(json.utf8), url: try #require(URL(string: "http://127.0.0.1:9810/opds/v2.0/r/0/1")))
        #expect(page.format == .opds2)
        #expect(page.books.map(\.title) == ["Gull #1", "No place kept"])
        let gull = page.books[0]
        #expect(gull.progressionURL?.absoluteString == "http://127.0.0.1:9810/opds/v2.0/c/3/position")
        // The progression link is neither the details nor an acquisition.
        #expect(gull.detailsURL?.absoluteString == "http://127.0.0.1:9810/opds/v2.0/c/3/1")
        #expect(gull.acquisitions.map(\.url.absoluteString) == ["http://127.0.0.1:9810/opds/bin/c/3/download/gull-1.cbz"])
        #expect(page.books[1].progressionURL == nil)
    }

    @Test func opds1EntryWithAProgressionLinkAndPSELastRead() throws {
        let atom = """
        <feed xmlns="http://www.w3.org/2005/Atom" xmlns:pse="http://vaemendis.net/opds-pse/ns" xmlns:opds="http://opds-spec.org/2010/catalog">
          <id>urn:c</id><title>Comics</title><updated>2026-01-01T00:00:00Z</updated>
          <entry><id>urn:gull-2</id><title>Gull #2</title><updated>2026-01-01T00:00:00Z</updated>
            <link rel="http://opds-spec.org/acquisition" href="get/gull-2.cbz" type="application/vnd.comicbook+zip"/>
            <link rel="http://vaemendis.net/opds-pse/stream" type="image/jpeg" pse:count="12" pse:lastRead="4"
                  pse:lastReadDate="2026-03-04T05:06:07+00:00" href="/pages/9/{pageNumber}/page.jpg?bookmark=1"/>
            <link rel="http://www.cantook.com/api/progression" href="position/9" type="application/vnd.readium.progression+json"/>
          </entry>
        </feed>
        """
        let page = try CatalogParser.parse(Data(atom.utf8), url: try #require(URL(string: "http://127.0.0.1:9810/opds/v1.2/")))
        let gull = try #require(page.books.first)
        #expect(gull.progressionURL?.absoluteString == "http://127.0.0.1:9810/opds/v1.2/position/9")
        let stream = try #require(gull.stream)
        #expect(stream.lastRead == 4)
        #expect(stream.lastReadDate == Date(timeIntervalSince1970: 1_772_600_767))
        #expect(stream.url(page: 4, maxWidth: 600)?.absoluteString == "http://127.0.0.1:9810/pages/9/4/page.jpg?bookmark=1")
    }
}
