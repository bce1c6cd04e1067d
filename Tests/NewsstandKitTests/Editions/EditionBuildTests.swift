import Foundation
import Testing
import IssueArchive
@testable import NewsstandKit

/// The agent builds an edition like a download: cleaned articles, their pictures fetched
/// into the book within bounds, sections, contents, a cover, an EPUB 3 epubcheck accepts.
@Suite(.serialized) struct EditionBuildTests {
    /// A port on 127.0.0.1 that nothing listens on: bound by the OS, then closed.
    static func closedPort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length); return getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Records what the cover painter was asked to draw, and draws a small PNG.
    // @unchecked: `texts` is read and written only under `lock`.
    final class CoverRecorder: @unchecked Sendable {
        let lock = NSLock()
        var texts: [EditionCoverText] = []
        func register() {
            EditionCovers.register { [self] text in
                lock.withLock { texts.append(text) }
                return TestPNG.make(width: 6, height: 9, rgb: (20, 20, 20))
            }
        }
    }

    struct Built {
        let server: FeedTestServer
        let temporary: TemporaryLibrary
        let edition: NewsstandKit.Issue
    }

    /// Three articles in two sections with a picture, a tracker, a picture that cannot be
    /// reached and script to drop; subscribed and built by the agent.
    static func buildEdition(covers: CoverRecorder) throws -> Built {
        let server = try FeedTestServer()
        try FileManager.default.createDirectory(at: server.root.appendingPathComponent("img"), withIntermediateDirectories: true)
        try TestPNG.make(width: 80, height: 60, rgb: (200, 30, 30)).write(to: server.root.appendingPathComponent("img/quay.png"))
        try TestPNG.make(width: 1, height: 1, rgb: (0, 0, 0)).write(to: server.root.appendingPathComponent("img/pixel.png"))
        let lost = "http://127.0.0.1:\(closedPort())/gone.png"
        try server.put("lamp.xml", EditionFeed(items: [
            .init(id: "a1", title: "Harbour &amp; quay reopen", when: (2026, 11, 24, 12), category: "Local",
                  html: "<p>The quay <img src=\"../img/quay.png\" alt=\"The quay\"> reopened.<img src=\"/img/pixel.png\"></p>"
                      + "<script>alert(1)</script><p onclick=\"x()\">Read <a href=\"more.html\">more</a>.</p>"),
            .init(id: "a2", title: "Bridge vote", when: (2026, 11, 24, 11), category: "Politics",
                  html: "<p>Ayes have it.</p><img src=\"\(lost)\" alt=\"A lost picture\">"),
            .init(id: "a3", title: "Tide tables", when: (2026, 11, 24, 10), category: "Local", html: "<p>High water at noon.</p>"),
        ]).xml)
        let temporary = try TemporaryLibrary()
        covers.register()
        let (publication, _) = try temporary.library.subscriptions.subscribe(feedURL: server.url("lamp.xml"))
        let edition = try #require(try temporary.library.store.issues(publicationID: publication.id!).first(where: Library.isEdition))
        try temporary.library.downloads.enqueue(edition)
        #expect(try Agent(library: temporary.library).run() == .finished)
        return Built(server: server, temporary: temporary, edition: edition)
    }

    @Test func anEditionIsBuiltAndInstalledAsAnEPUBTheReaderOpens() throws {
        let covers = CoverRecorder()
        let built = try Self.buildEdition(covers: covers)
        defer { built.server.stop() }
        let library = built.temporary.library
        let issue = try #require(try library.store.issue(id: built.edition.id!))
        #expect(issue.status == .available && issue.unread)

        let root = library.downloads.contentDirectory(for: issue)
        let content = try IssueReader.open(directory: root)
        #expect(content.format == .epub)
        #expect(content.coverImage == "OEBPS/images/cover.png")
        // The shelf draws the generated cover, as it would any issue's.
        #expect(library.covers.cover(of: issue)?.file.path.hasSuffix("OEBPS/images/cover.png") == true)
        #expect(content.readingOrder.map(\.path) == ["OEBPS/text/cover.xhtml", "OEBPS/nav.xhtml",
                                                     "OEBPS/text/a1.xhtml", "OEBPS/text/a3.xhtml", "OEBPS/text/a2.xhtml"])
        #expect(content.tableOfContents.map(\.title) == ["Local", "Politics"])
        #expect(content.tableOfContents.map { $0.children.map(\.title) } == [["Harbour & quay reopen", "Tide tables"], ["Bridge vote"]])
        // The picture came in; the tracker did not.
        let images = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("OEBPS/images").path).sorted()
        #expect(images == ["cover.png", "p1.png"])
        let lead = try String(contentsOf: root.appendingPathComponent("OEBPS/text/a1.xhtml"), encoding: .utf8)
        #expect(lead.contains("<img src=\"../images/p1.png\" alt=\"The quay\"/>"))
        #expect(lead.contains("<a href=\"\(built.server.url("more.html").absoluteString)\">more</a>"))
        #expect(!lead.contains("script") && !lead.contains("onclick") && !lead.contains("alert"))
        let second = try String(contentsOf: root.appendingPathComponent("OEBPS/text/a2.xhtml"), encoding: .utf8)
        #expect(second.contains("A lost picture"))
        #expect(!second.contains("gone.png"))
        // The painter is one per process: editions other suites build at the same time are
        // painted through this recorder too, so this edition's text is looked for among them.
        let expected = EditionCoverText(masthead: "The Daily Lamp", dateLine: "Tuesday 24 November 2026",
                                        headline: "Harbour & quay reopen",
                                        leadPicture: TestPNG.make(width: 80, height: 60, rgb: (200, 30, 30)))
        #expect(covers.texts.contains(expected), "\(covers.texts)")
        // Nothing half-built is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: library.paths.partialDirectory.path).isEmpty)
    }

    @Test func picturesOverTheCapOrFromAStalledServerLeaveTheirAltTextWithinBoundedTime() throws {
        let server = try FeedTestServer()
        defer { server.stop() }
        let stalls = try TestHTTPServer.shared()
        try TestPNG.make(width: 500, height: 400, rgb: (10, 120, 200)).write(to: server.root.appendingPathComponent("big.png"))
        try TestPNG.make(width: 20, height: 20, rgb: (10, 120, 200)).write(to: server.root.appendingPathComponent("small.png"))
        // The stalled picture's server holds its answer for two minutes and logs it only then.
        let stallKey = TestHTTPServer.uniqueKey("edition-stall")
        let stalled = stalls.url("/file/\(stallKey)?size=4000&stall_after=0&stall_ms=120000").absoluteString
        let html = "<p><img src=\"big.png\" alt=\"Too big\"><img src=\"small.png\" alt=\"Small\"><img src=\"\(stalled)\" alt=\"Never came\"></p>"
        try server.put("lamp.xml", EditionFeed(items: [.init(id: "a1", title: "Pictures", when: (2026, 11, 24, 12), html: html)]).xml)
        let temporary = try TemporaryLibrary()
        let (publication, _) = try temporary.library.subscriptions.subscribe(feedURL: server.url("lamp.xml"))
        let edition = try #require(try temporary.library.store.issues(publicationID: publication.id!).first(where: Library.isEdition))
        var builder = temporary.library.downloads.editionBuilder
        builder.limits.maximumBytesPerPicture = 100_000
        builder.limits.timeout = 1
        let file = temporary.root.appendingPathComponent("edition.epub")
        try builder.build(edition, into: file)
        // Given up at its timeout: the stall has not ended at the server (a state, not a time).
        #expect(stalls.requests(for: stallKey, atLeast: 0).isEmpty, "the build waited for the stalled picture")
        let (_, root) = try IssueReader.read(archive: file, in: temporary.root)
        let text = try String(contentsOf: root.appendingPathComponent("OEBPS/text/a1.xhtml"), encoding: .utf8)
        #expect(text.contains("<p><span class=\"missing-picture\">Too big</span><img src=\"../images/p1.png\" alt=\"Small\"/>"
                              + "<span class=\"missing-picture\">Never came</span></p>"), "\(text)")
    }

    @Test func anAtomFeedsXMLBaseDecidesWhereItsPicturesAreFetchedFrom() throws {
        let server = try FeedTestServer()
        defer { server.stop() }
        try FileManager.default.createDirectory(at: server.root.appendingPathComponent("static/kelp"), withIntermediateDirectories: true)
        try TestPNG.make(width: 30, height: 20, rgb: (0, 128, 0)).write(to: server.root.appendingPathComponent("static/kelp/k.png"))
        try server.put("zine.atom", """
            <?xml version="1.0"?>
            <feed xmlns="http://www.w3.org/2005/Atom" xml:base="\(server.url("blog/").absoluteString)">
            <title>Zine</title><id>urn:zine</id><updated>2026-11-24T12:00:00Z</updated>
            <entry><id>urn:e1</id><title>Kelp</title><updated>2026-11-24T12:00:00Z</updated><link rel="alternate" href="kelp"/>
              <content type="html" xml:base="../static/kelp/">&lt;p&gt;Green &amp;amp; long.&lt;img src="k.png" alt="Kelp"&gt;&lt;/p&gt;</content></entry>
            </feed>
            """)
        let temporary = try TemporaryLibrary()
        let (publication, _) = try temporary.library.subscriptions.subscribe(feedURL: server.url("zine.atom"))
        let edition = try #require(try temporary.library.store.issues(publicationID: publication.id!).first(where: Library.isEdition))
        let file = temporary.root.appendingPathComponent("edition.epub")
        try temporary.library.downloads.editionBuilder.build(edition, into: file)
        let (_, root) = try IssueReader.read(archive: file, in: temporary.root)
        let text = try String(contentsOf: root.appendingPathComponent("OEBPS/text/a1.xhtml"), encoding: .utf8)
        #expect(text.contains("<p>Green &amp; long.<img src=\"../images/p1.png\" alt=\"Kelp\"/></p>"), "\(text)")
        #expect(text.contains("<a href=\"\(server.url("blog/kelp").absoluteString)\">Read it on the web</a>"), "\(text)")
        #expect(server.requests(path: "static/kelp/k.png", atLeast: 1).map(\.status) == [200])
    }

    @Test func theBuiltEditionPassesEpubcheck() throws {
        let covers = CoverRecorder()
        let built = try Self.buildEdition(covers: covers)
        defer { built.server.stop() }
        let file = built.temporary.root.appendingPathComponent("edition.epub")
        try built.temporary.library.downloads.editionBuilder.build(built.edition, into: file)
        let (status, text) = try Self.epubcheck(file)
        #expect(status == 0, "\(text)")
        #expect(text.contains("0 fatals / 0 errors / 0 warnings"), "\(text)")
    }

    /// epubcheck's exit status and report on `file`.
    static func epubcheck(_ file: URL) throws -> (status: Int32, text: String) {
        let check = Process()
        // The jar itself: Debian's /usr/bin/epubcheck needs jarwrapper's binfmt handler,
        // which containers often lack.
        check.executableURL = URL(fileURLWithPath: "/usr/bin/java")
        check.arguments = ["-jar", "/usr/share/java/epubcheck.jar", file.path]
        let output = Pipe()
        check.standardOutput = output
        check.standardError = output
        try check.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        check.waitUntilExit()
        return (check.terminationStatus, text)
    }
}
