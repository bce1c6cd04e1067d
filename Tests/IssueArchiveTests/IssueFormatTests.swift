import Foundation
import Testing
@testable import IssueArchive

/// Builds an issue archive from (name, content) pairs and opens it the way `inspect` does.
func openIssue(_ files: [(String, String)], named name: String = "issue.zip", in scratch: Scratch) throws -> (IssueContent, URL) {
    let archive = try scratch.zip(name, files.map { ZipFixture.Entry($0.0, $0.1, method: $0.0 == "mimetype" ? 0 : 8) })
    return try IssueReader.read(archive: archive)
}

let containerXML = """
<?xml version="1.0"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
</container>
"""

func xhtml(_ title: String, _ body: String) -> String {
    """
    <?xml version="1.0" encoding="utf-8"?>
    <html xmlns="http://www.w3.org/1999/xhtml"><head><title>\(title)</title></head><body>\(body)</body></html>
    """
}

@Suite struct EPUBTests {
    @Test func aSpineOfSVGPagesIsReadAsDocumentsNotRefused() throws {
        // Fixed-layout books and comics wrap each page's picture in an SVG document.
        let scratch = try Scratch()
        let opf = """
        <?xml version="1.0" encoding="UTF-8"?>
        <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
          <metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">x</dc:identifier>
            <dc:title>Cranes</dc:title></metadata>
          <manifest>
            <item id="p1" href="pages/p1.svg" media-type="image/svg+xml"/>
            <item id="p2" href="pages/p2.svg" media-type="image/svg+xml"/>
            <item id="img" href="pages/crane.jpg" media-type="image/jpeg"/>
          </manifest>
          <spine><itemref idref="p1"/><itemref idref="p2"/></spine>
        </package>
        """
        let page = """
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">
            <image width="10" height="10" xlink:href="crane.jpg"/></svg>
            """
        let (content, root) = try openIssue([
            ("mimetype", "application/epub+zip"), ("META-INF/container.xml", containerXML), ("OEBPS/content.opf", opf),
            ("OEBPS/pages/p1.svg", page), ("OEBPS/pages/p2.svg", page), ("OEBPS/pages/crane.jpg", "jpeg bytes"),
        ], in: scratch)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(content.readingOrder.map(\.path) == ["OEBPS/pages/p1.svg", "OEBPS/pages/p2.svg"])
        #expect(content.readingOrder.allSatisfy { !$0.isPicture })
        #expect(Resource(path: "a.jpg", mediaType: "image/JPEG").isPicture)
    }

    @Test func readsAnEPUB3WithNavCoverImageAndSpineFallback() throws {
        let scratch = try Scratch()
        let opf = """
        <?xml version="1.0" encoding="UTF-8"?>
        <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
          <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
            <dc:identifier id="id">urn:uuid:1</dc:identifier>
            <dc:title>The Harbour Monthly</dc:title><dc:title>Second title, ignored</dc:title>
            <dc:creator>Ada Lovelace</dc:creator><dc:creator>Grace Hopper</dc:creator>
            <dc:date>2026-03-01</dc:date><dc:language>en</dc:language><dc:publisher>Harbour Press</dc:publisher>
            <meta property="belongs-to-collection">Harbour</meta>
          </metadata>
          <manifest>
            <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
            <item id="c1" href="text/one.xhtml" media-type="application/xhtml+xml"/>
            <item id="pic" href="images/plate.svg" media-type="image/svg+xml" fallback="c2"/>
            <item id="c2" href="text/two%20words.xhtml" media-type="application/xhtml+xml"/>
            <item id="cov" href="images/cover.jpg" media-type="image/jpeg" properties="cover-image"/>
          </manifest>
          <spine><itemref idref="c1"/><itemref idref="pic"/><itemref idref="missing"/></spine>
        </package>
        """
        let nav = """
        <?xml version="1.0" encoding="utf-8"?>
        <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body>
          <nav epub:type="landmarks"><ol><li><a href="text/two%20words.xhtml">Landmark</a></li></ol></nav>
          <nav epub:type="toc"><ol>
            <li><a href="text/one.xhtml">First   article</a>
              <ol><li><a href="text/one.xhtml#part2">Part two</a></li></ol></li>
            <li><span>Features</span><ol><li><a href="text/two%20words.xhtml">Second</a></li></ol></li>
            <li><a href="../../../etc/passwd">Escape</a></li>
          </ol></nav>
        </body></html>
        """
        let (content, root) = try openIssue([
            ("mimetype", "application/epub+zip\n  "), ("META-INF/container.xml", containerXML),
            ("OEBPS/content.opf", opf), ("OEBPS/nav.xhtml", nav),
            ("OEBPS/text/one.xhtml", xhtml("One", "<p>Hello</p>")),
            ("OEBPS/text/two words.xhtml", xhtml("Two", "<p>World</p>")),
            ("OEBPS/images/plate.svg", "<svg/>"), ("OEBPS/images/cover.jpg", "jpeg bytes"),
        ], in: scratch)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(content.format == .epub)
        #expect(content.metadata.title == "The Harbour Monthly")
        #expect(content.metadata.creators == ["Ada Lovelace", "Grace Hopper"])
        #expect(content.metadata.date == "2026-03-01")
        #expect(content.metadata.language == "en")
        #expect(content.metadata.publisher == "Harbour Press")
        #expect(content.metadata.series == "Harbour")
        #expect(content.readingOrder.map(\.path) == ["OEBPS/text/one.xhtml", "OEBPS/text/two words.xhtml"])
        #expect(content.coverImage == "OEBPS/images/cover.jpg")
        #expect(content.tableOfContents == [
            TOCEntry(title: "First article", path: "OEBPS/text/one.xhtml",
                     children: [TOCEntry(title: "Part two", path: "OEBPS/text/one.xhtml#part2")]),
            TOCEntry(title: "Features", path: "OEBPS/text/two words.xhtml",
                     children: [TOCEntry(title: "Second", path: "OEBPS/text/two words.xhtml")]),
        ])
        let file = try IssueReader.resolve(content.tableOfContents[0].children[0].path, in: root)
        #expect(try String(contentsOf: file, encoding: .utf8).contains("Hello"))
    }

    @Test func readsAnEPUB2WithNCXAndMetaCover() throws {
        let scratch = try Scratch()
        let opf = """
        <?xml version="1.0" encoding="UTF-8"?>
        <package xmlns="http://www.idpf.org/2007/opf" xmlns:opf="http://www.idpf.org/2007/opf" version="2.0">
          <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
            <dc:title>Daily Ledger</dc:title><dc:creator opf:role="aut">Newsroom</dc:creator>
            <dc:date opf:event="publication">2026-11-21</dc:date><dc:language>ja</dc:language>
            <meta name="cover" content="cover-jpg"/><meta name="calibre:series" content="Ledger"/>
            <meta name="calibre:series_index" content="12"/>
          </metadata>
          <manifest>
            <item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>
            <item id="a" href="a.html" media-type="application/xhtml+xml"/>
            <item id="b" href="b.html" media-type="application/xhtml+xml"/>
            <item id="cover-jpg" href="pics/front.jpeg" media-type="image/jpeg"/>
          </manifest>
          <spine toc="ncx"><itemref idref="b"/><itemref idref="a" linear="no"/></spine>
        </package>
        """
        let ncx = """
        <?xml version="1.0"?>
        <ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1"><navMap>
          <navPoint id="p1" playOrder="1"><navLabel><text>Front page</text></navLabel><content src="b.html"/>
            <navPoint id="p2" playOrder="2"><navLabel><text>Weather</text></navLabel><content src="b.html#weather"/></navPoint>
          </navPoint>
          <navPoint id="p3" playOrder="3"><navLabel><text>Letters</text></navLabel><content src="A.html"/></navPoint>
          <navPoint id="p4" playOrder="4"><navLabel><text>Gone</text></navLabel><content src="missing.html"/></navPoint>
        </navMap></ncx>
        """
        let container = containerXML.replacingOccurrences(of: "OEBPS/content.opf", with: "book.opf")
        let (content, root) = try openIssue([
            ("mimetype", "application/epub+zip"), ("META-INF/container.xml", container), ("book.opf", opf),
            ("toc.ncx", ncx), ("a.html", xhtml("A", "a")), ("b.html", xhtml("B", "b")), ("pics/front.jpeg", "jpeg"),
        ], in: scratch)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(content.metadata.title == "Daily Ledger")
        #expect(content.metadata.creators == ["Newsroom"])
        #expect(content.metadata.language == "ja")
        #expect(content.metadata.series == "Ledger")
        #expect(content.metadata.number == "12")
        #expect(content.coverImage == "pics/front.jpeg")
        #expect(content.readingOrder.map(\.path) == ["b.html", "a.html"])
        #expect(content.tableOfContents == [
            TOCEntry(title: "Front page", path: "b.html", children: [TOCEntry(title: "Weather", path: "b.html#weather")]),
            TOCEntry(title: "Letters", path: "a.html"),
        ])
    }

    @Test func findsABookWrappedInOneFolder() throws {
        let scratch = try Scratch()
        let opf = """
        <package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
          <dc:title>Wrapped</dc:title></metadata>
          <manifest><item id="x" href="x.xhtml" media-type="application/xhtml+xml"/></manifest>
          <spine><itemref idref="x"/></spine></package>
        """
        let (content, root) = try openIssue([
            ("Wrapped/mimetype", "application/epub+zip"), ("Wrapped/META-INF/container.xml", containerXML),
            ("Wrapped/OEBPS/content.opf", opf), ("Wrapped/OEBPS/x.xhtml", xhtml("X", "x")),
        ], in: scratch)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(content.format == .epub)
        #expect(content.metadata.title == "Wrapped")
        #expect(content.readingOrder.map(\.path) == ["Wrapped/OEBPS/x.xhtml"])
    }

    @Test func refusesDRMButNotFontObfuscation() throws {
        let scratch = try Scratch()
        let opf = """
        <package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata/>
          <manifest><item id="x" href="x.xhtml" media-type="application/xhtml+xml"/>
            <item id="f" href="fonts/a.otf" media-type="font/otf"/></manifest>
          <spine><itemref idref="x"/></spine></package>
        """
        func encryption(_ algorithm: String, _ uri: String) -> String {
            """
            <encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#">
              <enc:EncryptedData><enc:EncryptionMethod Algorithm="\(algorithm)"/>
                <enc:CipherData><enc:CipherReference URI="\(uri)"/></enc:CipherData></enc:EncryptedData>
            </encryption>
            """
        }
        let book: [(String, String)] = [("META-INF/container.xml", containerXML), ("OEBPS/content.opf", opf),
                                         ("OEBPS/x.xhtml", xhtml("X", "x")), ("OEBPS/fonts/a.otf", "font")]
        let (fonts, root) = try openIssue(book + [("META-INF/encryption.xml",
            encryption("http://www.idpf.org/2008/embedding", "OEBPS/fonts/a.otf"))], named: "fonts.epub", in: scratch)
        try? FileManager.default.removeItem(at: root)
        #expect(fonts.readingOrder.count == 1)
        #expect(throws: ArchiveError(.encrypted, "this EPUB is locked with DRM: its articles are encrypted and cannot be read")) {
            _ = try openIssue(book + [("META-INF/encryption.xml",
                encryption("http://www.w3.org/2001/04/xmlenc#aes128-cbc", "OEBPS/x.xhtml"))], named: "drm.epub", in: scratch)
        }
    }

    @Test func fallsBackToTheSpineForTheTableOfContents() throws {
        let scratch = try Scratch()
        let opf = """
        <package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata/>
          <manifest><item id="x" href="x.xhtml" media-type="application/xhtml+xml"/>
            <item id="y" href="y.xhtml" media-type="application/xhtml+xml"/></manifest>
          <spine><itemref idref="x"/><itemref idref="y"/></spine></package>
        """
        let (content, root) = try openIssue([
            ("META-INF/container.xml", containerXML), ("OEBPS/content.opf", opf),
            ("OEBPS/x.xhtml", xhtml("Opening", "x")), ("OEBPS/y.xhtml", xhtml("Closing", "y")),
        ], in: scratch)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(content.tableOfContents.map(\.title) == ["Opening", "Closing"])
        #expect(content.metadata.title == nil)
        #expect(content.coverImage == nil)
    }

    @Test func doesNotExpandEntityBombsOrExternalEntities() throws {
        let scratch = try Scratch()
        let opf = """
        <?xml version="1.0"?>
        <!DOCTYPE package [
          <!ENTITY a "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa">
          <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
          <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
          <!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">
          <!ENTITY e "&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;&d;">
          <!ENTITY secret SYSTEM "file:///etc/hostname">
        ]>
        <package xmlns="http://www.idpf.org/2007/opf" version="3.0">
          <metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Bomb &e; &amp; more</dc:title>
            <dc:creator>&secret;</dc:creator></metadata>
          <manifest><item id="x" href="x.xhtml" media-type="application/xhtml+xml"/></manifest>
          <spine><itemref idref="x"/></spine></package>
        """
        let (content, root) = try openIssue([
            ("META-INF/container.xml", containerXML), ("OEBPS/content.opf", opf), ("OEBPS/x.xhtml", xhtml("X", "x")),
        ], in: scratch)
        defer { try? FileManager.default.removeItem(at: root) }
        let title = try #require(content.metadata.title)
        #expect(title.count < 100)
        #expect(!title.contains("aaaa"))
        #expect(title.contains("& more"))
        let hostname = (try? String(contentsOfFile: "/etc/hostname", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "\u{0}"
        #expect(!content.metadata.creators.contains { !hostname.isEmpty && $0.contains(hostname) })
    }

    @Test func linksCanNeverLeaveTheIssue() throws {
        let scratch = try Scratch()
        let root = scratch.file("issue")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("text"), withIntermediateDirectories: true)
        try Data("inside".utf8).write(to: root.appendingPathComponent("text/a.xhtml"))
        try Data("outside".utf8).write(to: scratch.file("secret.txt"))
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("text/link").path,
                                                   withDestinationPath: scratch.url.path)
        #expect(try IssueReader.resolve("text/a.xhtml#top", in: root).lastPathComponent == "a.xhtml")
        #expect(try IssueReader.resolve("text/./a.xhtml", in: root).path.hasSuffix("text/a.xhtml"))
        for hostile in ["../secret.txt", "text/../../secret.txt", "/etc/passwd", "text\\..\\..\\secret.txt", "text/link/secret.txt"] {
            #expect(throws: ArchiveError.self, "\(hostile)") { try IssueReader.resolve(hostile, in: root) }
        }
        #expect(try IssueReader.resolve(link: "../text/a.xhtml#p2", from: "text/b.xhtml", in: root).path
                == root.appendingPathComponent("text/a.xhtml").path)
        #expect(throws: ArchiveError.self) { try IssueReader.resolve(link: "../../secret.txt", from: "text/a.xhtml", in: root) }
        #expect(throws: ArchiveError.self) { try IssueReader.resolve(link: "mailto:x@example.com", from: "text/a.xhtml", in: root) }
        #expect(BookPath.resolve("../../../x.xhtml", from: "OEBPS/text/a.xhtml") == nil)
        #expect(BookPath.resolve("../../x.xhtml", from: "OEBPS/text/a.xhtml") == "x.xhtml")
        #expect(BookPath.resolve("../img/p.png", from: "OEBPS/text/a.xhtml") == "OEBPS/img/p.png")
        #expect(BookPath.resolve("https://example.com/x", from: "a.xhtml") == nil)
        #expect(BookPath.resolve("#note", from: "OEBPS/a.xhtml") == "OEBPS/a.xhtml#note")
    }
}
