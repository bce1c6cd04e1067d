import Foundation
import Testing
@testable import IssueArchive

@Suite struct ComicTests {
    @Test func pagesAreInNaturalOrderWithoutMacDebrisOrHiddenFiles() throws {
        let scratch = try Scratch()
        let (content, root) = try openIssue([
            ("page 10.jpg", "10"), ("page 2.jpg", "2"), ("Page 1.png", "1"), ("page 9.JPG", "9"),
            ("__MACOSX/._page 2.jpg", "x"), ("._page 3.jpg", "x"), (".hidden.jpg", "x"), (".thumbs/page 0.jpg", "x"),
        ], named: "comic.cbz", in: scratch)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(content.format == .cbz)
        #expect(content.readingOrder.map(\.path) == ["Page 1.png", "page 2.jpg", "page 9.JPG", "page 10.jpg"])
        #expect(content.readingOrder.map(\.mediaType) == ["image/png", "image/jpeg", "image/jpeg", "image/jpeg"])
        #expect(content.coverImage == "Page 1.png")
        #expect(!content.rightToLeft)
    }

    @Test func readsComicInfoFromASubfolderToleratingEmptyAndUnknownValues() throws {
        let scratch = try Scratch()
        let info = """
        <?xml version="1.0"?>
        <ComicInfo xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
          <Title></Title><Series>Tide Pool</Series><Number>3</Number><Year>2025</Year><Month>unknown</Month>
          <Writer>Mika Sato, Ren Ito</Writer><Penciller>Mika Sato</Penciller><LanguageISO>ja</LanguageISO>
          <Publisher>  </Publisher><AgeRating>Unknown</AgeRating><Manga>YesAndRightToLeft</Manga><Colour>maybe</Colour>
          <Pages><Page Image="1" Type="FrontCover"/><Page Image="2" Bookmark="Chapter 2"/><Page Image="99" Bookmark="nowhere"/></Pages>
        </ComicInfo>
        """
        let (content, root) = try openIssue([
            ("Tide Pool 03/ComicInfo.xml", info), ("Tide Pool 03/p001.jpg", "1"), ("Tide Pool 03/p002.jpg", "2"),
            ("Tide Pool 03/p003.jpg", "3"),
        ], named: "tide.cbz", in: scratch)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(content.rightToLeft)
        #expect(content.metadata.title == "Tide Pool #3")
        #expect(content.metadata.series == "Tide Pool")
        #expect(content.metadata.number == "3")
        #expect(content.metadata.date == "2025")
        #expect(content.metadata.publisher == nil)
        #expect(content.metadata.creators == ["Mika Sato", "Ren Ito"])
        #expect(content.metadata.language == "ja")
        #expect(content.coverImage == "Tide Pool 03/p002.jpg")
        #expect(content.tableOfContents == [TOCEntry(title: "Chapter 2", path: "Tide Pool 03/p003.jpg")])
    }

    @Test func mangaFlagOnlyForRightToLeft() throws {
        let scratch = try Scratch()
        let (content, root) = try openIssue([
            ("ComicInfo.xml", "<ComicInfo><Manga>Yes</Manga><Year>2024</Year><Month>2</Month><Day>30</Day></ComicInfo>"),
            ("1.png", "1"),
        ], named: "m.cbz", in: scratch)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(!content.rightToLeft)
        #expect(content.metadata.date == "2024-02")
    }

    @Test func aScannersNoteBesideThePagesIsStillAComic() throws {
        let scratch = try Scratch()
        let (content, root) = try openIssue([("info.txt", "scanned by"), ("01.jpg", "1"), ("02.jpg", "2"), ("03.webp", "3")],
                                            named: "c.cbz", in: scratch)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(content.format == .cbz)
        #expect(content.readingOrder.map(\.path) == ["01.jpg", "02.jpg", "03.webp"])
    }

    @Test func naturalOrderComparesNumbersByValue() {
        #expect(NaturalOrder.sorted(["page 10", "page 2", "page 1", "Page 3", "page 02b", "cover"])
                == ["cover", "page 1", "page 2", "page 02b", "Page 3", "page 10"])
        #expect(NaturalOrder.sorted(["v1/p10", "v1/p9", "v2/p1", "v10/p1"]) == ["v1/p9", "v1/p10", "v2/p1", "v10/p1"])
        #expect(NaturalOrder.sorted(["x99999999999999999999999", "x100000000000000000000000"])
                == ["x99999999999999999999999", "x100000000000000000000000"])
    }
}

@Suite struct PlainIssueTests {
    @Test func indexHTMLGivesTheOrder() throws {
        let scratch = try Scratch()
        let index = """
        <html><head><title>Weekend Edition</title></head><body><h1>Contents</h1><ul>
        <li><a href="articles/zebra.html">The &amp; Zebra</a></li>
        <li><a class="x" href='articles/apple.md#intro'><b>Apple</b> pie</a></li>
        <li><a href="https://example.com/">elsewhere</a></li><li><a href="../outside.html">out</a></li>
        <li><a href="articles/zebra.html#again">Zebra again</a></li></ul></body></html>
        """
        let (content, root) = try openIssue([
            ("index.html", index), ("articles/apple.md", "# Apple\n\ntext"), ("articles/zebra.html", xhtml("Zebra", "z")),
            ("articles/notes.txt", "unlinked"), ("cover.png", "png"),
        ], in: scratch)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(content.format == .zip)
        #expect(content.metadata.title == "Weekend Edition")
        #expect(content.readingOrder.map(\.path) == ["articles/zebra.html", "articles/apple.md", "articles/notes.txt"])
        #expect(content.tableOfContents.map(\.title) == ["The & Zebra", "Apple pie", "Zebra again"])
        #expect(content.tableOfContents[1].path == "articles/apple.md#intro")
        #expect(content.coverImage == "cover.png")
    }

    /// Unclosed tags by the ten thousand: scanned in one pass (a quadratic scan of these
    /// inputs would hold the test for minutes).
    @Test func scanningHostileHTMLStaysLinear() {
        let unclosed = String(repeating: "<a href=\"x.html\">", count: 20_000)
        #expect(HTMLScan.links(in: unclosed).count == 20_000)
        #expect(HTMLScan.title(in: String(repeating: "<title>", count: 100_000)) == nil)
        #expect(HTMLScan.text(of: String(repeating: "<p><script>", count: 50_000)).isEmpty)
    }

    @Test func withoutAnIndexFilesAreInNaturalOrder() throws {
        let scratch = try Scratch()
        let (content, root) = try openIssue([
            ("chapter 10.txt", "ten"), ("chapter 2.md", "# Two\n"), ("chapter 1.xhtml", xhtml("One", "1")), ("style.css", "x"),
        ], in: scratch)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(content.readingOrder.map(\.path) == ["chapter 1.xhtml", "chapter 2.md", "chapter 10.txt"])
        #expect(content.tableOfContents.map(\.title) == ["One", "Two", "chapter 10"])
    }

    @Test func aManifestGivesTheOrderAndMetadata() throws {
        let scratch = try Scratch()
        let manifest = """
        {"metadata": {"title": {"en": "Field Notes", "fr": "Notes"}, "author": [{"name": "R. Ito"}, "K. Mori"], "language": "en"},
         "readingOrder": [{"href": "b.html", "title": "Bee"}, {"href": "a.html"}, {"href": "missing.html"}],
         "resources": [{"href": "img/c.jpg", "rel": "cover", "type": "image/jpeg"}]}
        """
        let (content, root) = try openIssue([
            ("manifest.json", manifest), ("a.html", "<p>a</p>"), ("b.html", "<p>b</p>"), ("img/c.jpg", "j"),
        ], in: scratch)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(content.metadata.title == "Field Notes")
        #expect(content.metadata.creators == ["R. Ito", "K. Mori"])
        #expect(content.readingOrder.map(\.path) == ["b.html", "a.html"])
        #expect(content.coverImage == "img/c.jpg")
    }

    @Test func anArchiveWithNothingToReadOrAHostileOneIsRefusedAndRemoved() throws {
        let scratch = try Scratch()
        let archive = try scratch.zip("junk.zip", [.init("data.bin", "x"), .init("style.css", "y")])
        let hostile = try scratch.zip("hostile.cbz", [.init("1.jpg", "x"), .init("../2.jpg", "y")])
        // A directory of its own: other tests extract into the shared temporary one meanwhile.
        let temporary = scratch.url.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let before = try FileManager.default.contentsOfDirectory(atPath: temporary.path)
            .filter { $0.contains("newsstand-inspect") }
        #expect(throws: ArchiveError.self) { try IssueReader.read(archive: archive, in: temporary) }
        #expect(throws: ArchiveError.self) { try IssueReader.read(archive: hostile, in: temporary) }
        let after = try FileManager.default.contentsOfDirectory(atPath: temporary.path)
            .filter { $0.contains("newsstand-inspect") }
        #expect(Set(after).subtracting(before).isEmpty)
    }
}

@Suite struct InstallerTests {
    @Test func installsReplacingOldContentAtomically() throws {
        let scratch = try Scratch()
        let content = scratch.file("issues/2026-03")
        try FileManager.default.createDirectory(at: content, withIntermediateDirectories: true)
        try Data("old".utf8).write(to: content.appendingPathComponent("old.txt"))
        let archive = try scratch.zip("new.zip", [.init("a.html", "<p>new</p>")])
        let installed = try IssueInstaller.install(download: archive, into: content)
        #expect(installed.readingOrder.map(\.path) == ["a.html"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: content.path) == ["a.html"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.file("issues").path) == ["2026-03"])
    }

    @Test func canKeepFilesTheArchiveDoesNotHave() throws {
        let scratch = try Scratch()
        let content = scratch.file("issue")
        try FileManager.default.createDirectory(at: content.appendingPathComponent("old-folder"), withIntermediateDirectories: true)
        try Data("cover".utf8).write(to: content.appendingPathComponent("cover.jpg"))
        try Data("old a".utf8).write(to: content.appendingPathComponent("a.html"))
        let archive = try scratch.zip("new.zip", [.init("a.html", "<p>new a</p>")])
        _ = try IssueInstaller.install(download: archive, into: content, keepingOtherFiles: true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: content.path).sorted() == ["a.html", "cover.jpg"])
        #expect(try String(contentsOf: content.appendingPathComponent("a.html"), encoding: .utf8) == "<p>new a</p>")
        #expect(try String(contentsOf: content.appendingPathComponent("cover.jpg"), encoding: .utf8) == "cover")
    }

    @Test func installsIntoAMissingDirectory() throws {
        let scratch = try Scratch()
        let content = scratch.file("fresh")
        let archive = try scratch.zip("c.cbz", [.init(bytes: Array("1.jpg".utf8), content: PageBytes.png), .init(bytes: Array("2.jpg".utf8), content: PageBytes.png)])
        let installed = try IssueInstaller.install(download: archive, into: content)
        #expect(installed.format == .cbz)
        #expect(try FileManager.default.contentsOfDirectory(atPath: content.path).sorted() == ["1.jpg", "2.jpg"])
    }

    @Test func aFailedInstallKeepsTheOldContentAndLeavesNothingBehind() throws {
        let scratch = try Scratch()
        let issues = scratch.file("issues")
        let content = issues.appendingPathComponent("one")
        try FileManager.default.createDirectory(at: content, withIntermediateDirectories: true)
        try Data("old".utf8).write(to: content.appendingPathComponent("old.txt"))
        var bad = ZipFixture.Entry("b.html", "<p>damaged</p>")
        bad.crc = 1
        let broken = try scratch.zip("broken.zip", [.init("a.html", "<p>fine</p>"), bad])
        #expect(throws: ArchiveError.self) { try IssueInstaller.install(download: broken, into: content) }
        let unreadable = try scratch.zip("unreadable.zip", [.init("x.bin", "nothing to read")])
        #expect(throws: ArchiveError.self) { try IssueInstaller.install(download: unreadable, into: content) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: issues.path) == ["one"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: content.path) == ["old.txt"])
    }

    @Test func removesLeftoversOfAnInterruptedInstall() throws {
        let scratch = try Scratch()
        for name in [".one.installing-abc", ".one.extracting-def/x", ".two.replaced-1/y", "keep", ".hidden-but-mine"] {
            try FileManager.default.createDirectory(at: scratch.file(name), withIntermediateDirectories: true)
        }
        let removed = IssueInstaller.removeLeftovers(in: scratch.url)
        #expect(removed.count == 3)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted() == [".hidden-but-mine", "keep"])
    }
}
