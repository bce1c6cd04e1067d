import Foundation
import IssueArchive
import Testing
import ZIPFoundation
@testable import NewsstandKit

@Suite struct ContentDetailsTests {
    func runAgent(_ library: Library, formats: IssueFormats = .shared) throws -> Agent.Outcome {
        var options = Agent.Options()
        options.retryPolicy = RetryPolicy(maxAttempts: 2, baseDelay: 0.01, maxDelay: 0.02)
        options.formats = formats
        return try Agent(library: library, options: options).run()
    }

    /// An EPUB 2 book whose package names its cover through `<meta name="cover">`.
    static func makeEPUB(at url: URL, title: String, authors: [String], date: String? = nil) throws {
        let archive = try Archive(url: url, accessMode: .create)
        let creators = authors.map { "<dc:creator>\($0)</dc:creator>" }.joined() + (date.map { "<dc:date>\($0)</dc:date>" } ?? "")
        let files: [(String, Data)] = [
            ("mimetype", Data("application/epub+zip".utf8)),
            ("META-INF/container.xml", Data("""
                <container xmlns="urn:oasis:names:tc:opendocument:xmlns:container" version="1.0"><rootfiles>
                <rootfile full-path="OEBPS/book.opf" media-type="application/oebps-package+xml"/></rootfiles></container>
                """.utf8)),
            ("OEBPS/book.opf", Data("""
                <package xmlns="http://www.idpf.org/2007/opf" version="2.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
                <dc:title>\(title)</dc:title>\(creators)<meta name="cover" content="front"/></metadata>
                <manifest><item id="c1" href="c1.html" media-type="application/xhtml+xml"/>
                <item id="front" href="art/front.png" media-type="image/png"/></manifest>
                <spine><itemref idref="c1"/></spine></package>
                """.utf8)),
            ("OEBPS/c1.html", Data("<html><body><h1>One</h1><p>Words.</p></body></html>".utf8)),
            ("OEBPS/art/front.png", Data([0x89, 0x50, 0x4E, 0x47])),
        ]
        for (path, data) in files {
            try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .none) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
    }

    /// A comic book whose ComicInfo.xml gives `info` (its inner XML), with one page.
    static func makeCBZ(at url: URL, info: String) throws {
        let archive = try Archive(url: url, accessMode: .create)
        for (path, data) in [("ComicInfo.xml", Data("<ComicInfo>\(info)</ComicInfo>".utf8)), ("p001.png", TestPNG.make(width: 2, height: 3, rgb: (200, 80, 40)))] {
            try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .none) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
    }

    @Test func aPDFIssueIsDownloadedAndInstalledByItsFormat() throws {
        let temp = try TemporaryLibrary()
        let pdf = temp.root.appendingPathComponent("magazine-1.pdf")
        let bytes = Data("%PDF-1.7\nThe Spring Number\n%%EOF\n".utf8)
        try bytes.write(to: pdf)
        var (_, issue) = try temp.publicationWithIssue(named: "magazine-1", content: pdf)
        issue.contentType = "application/pdf"
        issue = try temp.library.store.save(issue)
        let download = try #require(try temp.library.downloads.enqueue(issue))
        #expect(DownloadQueue.userInfo(of: download)["contentType"] as? String == "application/pdf")
        let formats = IssueFormats()
        formats.register(StandInPDF())
        #expect(try runAgent(temp.library, formats: formats) == .finished)

        let stored = try #require(try temp.library.store.issue(named: "magazine-1"))
        #expect(stored.status == .available)
        let installed = temp.library.downloads.contentDirectory(for: stored).appendingPathComponent("issue.pdf")
        #expect(try Data(contentsOf: installed) == bytes)
        #expect(stored.contentTitle == "The Spring Number")
        #expect(stored.authors == ["A. Printer"])
        // The test library's title is its own ("Issue magazine-1"): the feed's title wins.
        #expect(stored.shownTitle == "Issue magazine-1")
        // A title that is the content file's name is the one made when the feed gave none.
        var untitled = stored
        untitled.title = "magazine-1"
        #expect(untitled.shownTitle == "The Spring Number")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temp.library.paths.partialDirectory.path).isEmpty)
    }

    @Test func aPDFNoFormatReadsFailsWithItsReason() throws {
        let temp = try TemporaryLibrary()
        let pdf = temp.root.appendingPathComponent("magazine-1.pdf")
        try Data("%PDF-1.7\n%%EOF\n".utf8).write(to: pdf)
        let (_, issue) = try temp.publicationWithIssue(named: "magazine-1", content: pdf)
        try temp.library.downloads.enqueue(issue)
        #expect(try runAgent(temp.library, formats: IssueFormats()) == .finished)
        let stored = try #require(try temp.library.store.issue(named: "magazine-1"))
        #expect(stored.status == .none)
        #expect(stored.lastError?.contains("cannot install the issue") == true)
    }

    @Test func anEPUBsTitleAuthorsAndCoverAreKept() throws {
        let temp = try TemporaryLibrary()
        let book = temp.root.appendingPathComponent("the-tide-tables.epub")
        try Self.makeEPUB(at: book, title: "The Tide Tables", authors: ["Ada Reef", "Bo Strand"])
        var (_, issue) = try temp.publicationWithIssue(named: "tides", content: book)
        // The feed gave no title: its entry was named after the content file.
        issue.title = "the-tide-tables"
        issue = try temp.library.store.save(issue)
        #expect(temp.library.covers.coverFile(of: issue) == nil)
        try temp.library.downloads.enqueue(issue)
        #expect(try runAgent(temp.library) == .finished)

        let stored = try #require(try temp.library.store.issue(named: "tides"))
        #expect(stored.status == .available)
        #expect(stored.shownTitle == "The Tide Tables")
        #expect(stored.authors == ["Ada Reef", "Bo Strand"])
        #expect(try temp.library.issue(matching: "tide tables").id == stored.id)
        #expect(stored.contentCover == "OEBPS/art/front.png")
        let cover = try #require(temp.library.covers.coverFile(of: stored))
        #expect(cover.path.hasSuffix("OEBPS/art/front.png"))
        #expect(FileManager.default.fileExists(atPath: cover.path))
        // Once evicted, the content's cover is gone with it: no tile points at a missing file.
        try temp.library.cache.evictContent(of: stored)
        #expect(temp.library.covers.coverFile(of: try #require(try temp.library.store.issue(named: "tides"))) == nil)
    }

    /// The authors a catalog's feed names win over the EPUB's; the EPUB's fill in where the feed names none.
    @Test func theFeedsOwnAuthorsWin() throws {
        let temp = try TemporaryLibrary()
        let book = temp.root.appendingPathComponent("book.epub")
        try Self.makeEPUB(at: book, title: "The Tide Tables", authors: ["Ada Reef"])
        var (_, issue) = try temp.publicationWithIssue(named: "tides", content: book)
        issue.feedAuthors = "A. Reef (catalog)"
        issue = try temp.library.store.save(issue)
        #expect(issue.authors == ["A. Reef (catalog)"])
        try temp.library.downloads.enqueue(issue)
        #expect(try runAgent(temp.library) == .finished)
        var stored = try #require(try temp.library.store.issue(named: "tides"))
        #expect(stored.status == .available)
        #expect(stored.contentAuthors == "Ada Reef")
        #expect(stored.authors == ["A. Reef (catalog)"])
        stored.feedAuthors = nil
        #expect(stored.authors == ["Ada Reef"])
    }

    @Test func aCoverPathLeavingTheContentDirectoryIsNotShown() throws {
        let temp = try TemporaryLibrary()
        var (_, issue) = try temp.publicationWithIssue()
        issue.status = .available
        issue.contentCover = "../../library.sqlite"
        issue = try temp.library.store.save(issue)
        try FileManager.default.createDirectory(at: temp.library.downloads.contentDirectory(for: issue), withIntermediateDirectories: true)
        #expect(temp.library.covers.coverFile(of: issue) == nil)
    }

    @Test func theFeedsOwnCoverWins() throws {
        let temp = try TemporaryLibrary()
        let feedCover = temp.root.appendingPathComponent("feed-cover.png")
        try Data([1, 2, 3]).write(to: feedCover)
        var (_, issue) = try temp.publicationWithIssue()
        issue.status = .available
        issue.coverURL = feedCover.absoluteString
        issue.contentCover = "inside.png"
        issue = try temp.library.store.save(issue)
        let directory = temp.library.downloads.contentDirectory(for: issue)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data([4]).write(to: directory.appendingPathComponent("inside.png"))
        #expect(temp.library.covers.coverFile(of: issue)?.standardizedFileURL == feedCover.standardizedFileURL)
    }

    @Test func theTutorialsPlistOfPDFsSubscribesWithItsIssues() throws {
        let temp = try TemporaryLibrary()
        let feed = temp.root.appendingPathComponent("issues.plist")
        try Data("""
            <plist version="1.0"><array>
              <dict><key>Name</key><string>Magazine-1</string><key>Title</key><string>One</string>
                <key>Date</key><date>2026-01-05T10:00:00Z</date><key>Content</key><string>magazine-1.pdf</string></dict>
              <dict><key>Name</key><string>Magazine-2</string><key>Title</key><string>Two</string>
                <key>Date</key><date>2026-02-05T10:00:00Z</date><key>Content</key><string>magazine-2.pdf</string></dict>
            </array></plist>
            """.utf8).write(to: feed)
        let (_, result) = try temp.library.subscriptions.subscribe(feedURL: feed)
        #expect(result.added.count == 2)
        let one = try #require(try temp.library.store.issue(named: "Magazine-1"))
        #expect(one.contentURL == temp.root.appendingPathComponent("magazine-1.pdf").absoluteString)
        #expect(try temp.library.downloads.enqueue(one) != nil)
    }
}
