import Foundation
import Testing
@testable import Feeds

/// An entry whose content is a PDF is an issue of one file, in every feed shape.
@Suite struct PDFEntryTests {
    private func parse(_ text: String, url: String = "https://pdf.example/feed") throws -> FeedDocument {
        try FeedParser.parse(Data(text.utf8), url: try #require(URL(string: url)))
    }

    @Test func tutorialPlistContentIsAPDF() throws {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><array>
              <dict><key>Name</key><string>Magazine-1</string><key>Title</key><string>First</string>
                <key>Date</key><date>2026-01-05T10:00:00Z</date><key>Content</key><string>magazine-1.pdf</string></dict>
              <dict><key>Name</key><string>Magazine-2</string><key>Title</key><string>Second</string>
                <key>Date</key><date>2026-02-05T10:00:00Z</date><key>Content</key><string>issues/magazine-2.zip</string></dict>
            </array></plist>
            """
        let doc = try parse(plist, url: "http://tutorial.example/issues.plist")
        #expect(doc.entries.map(\.name) == ["Magazine-1", "Magazine-2"])
        #expect(doc.entries[0].contentURL?.absoluteString == "http://tutorial.example/magazine-1.pdf")
        // The multi-asset issue stays a zip.
        #expect(doc.entries[1].contentURL?.absoluteString == "http://tutorial.example/issues/magazine-2.zip")
        #expect(!doc.problems.contains { $0.contains("no zip") })
    }

    @Test func plistAssetWithPDFTypeAndNoExtension() throws {
        let plist = """
            <plist version="1.0"><array><dict><key>name</key><string>a</string><key>content</key>
              <array><dict><key>url</key><string>download?id=1</string><key>type</key><string>application/pdf</string></dict></array>
            </dict></array></plist>
            """
        let doc = try parse(plist)
        #expect(doc.entries.first?.contentURL?.absoluteString == "https://pdf.example/download?id=1")
        #expect(doc.entries.first?.contentType == "application/pdf")
    }

    @Test func newsstandAtomEnclosureOfTypePDF() throws {
        let atom = """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>T</title>
              <entry><id>p1</id><title>P</title><updated>2026-01-01T00:00:00Z</updated>
                <link rel="enclosure" type="application/pdf" href="issues/p1"/></entry>
            </feed>
            """
        let entry = try #require(try parse(atom).entries.first)
        #expect(entry.contentURL?.absoluteString == "https://pdf.example/issues/p1")
        #expect(entry.contentType == "application/pdf")
    }

    @Test func rssEnclosureKnownByItsExtension() throws {
        let rss = """
            <rss version="2.0"><channel><title>T</title>
              <item><guid>g1</guid><title>One</title><enclosure url="https://pdf.example/one.PDF" length="10"/></item>
              <item><guid>g2</guid><title>Two</title><enclosure url="https://pdf.example/two.pdf" type="application/octet-stream"/></item>
              <item><guid>g3</guid><title>Three</title><enclosure url="https://pdf.example/three.pdf" type="audio/mpeg"/></item>
            </channel></rss>
            """
        let doc = try parse(rss)
        #expect(doc.entries.map(\.name) == ["g1", "g2"])
        #expect(doc.entries.map { $0.contentURL?.lastPathComponent } == ["one.PDF", "two.pdf"])
        #expect(doc.entries[0].contentLength == 10)
    }

    @Test func opds2AcquisitionOfTypePDF() throws {
        let json = """
            {"metadata": {"title": "Catalogue"},
             "publications": [{"metadata": {"identifier": "urn:p", "title": "Paper"},
               "links": [{"rel": "http://opds-spec.org/acquisition/open-access", "href": "p.pdf", "type": "application/pdf"}]}]}
            """
        let entry = try #require(try parse(json, url: "https://pdf.example/opds2.json").entries.first)
        #expect(entry.contentURL?.absoluteString == "https://pdf.example/p.pdf")
        #expect(entry.contentType == "application/pdf")
    }

    @Test func archiveIsPreferredToAPDFOfTheSameIssue() throws {
        let json = """
            {"version": "https://jsonfeed.org/version/1.1", "title": "T",
             "items": [{"id": "i", "title": "I", "attachments": [
               {"url": "https://pdf.example/i.pdf", "mime_type": "application/pdf"},
               {"url": "https://pdf.example/i.epub", "mime_type": "application/epub+zip"}]}]}
            """
        let entry = try #require(try parse(json).entries.first)
        #expect(entry.contentURL?.lastPathComponent == "i.epub")
    }
}
