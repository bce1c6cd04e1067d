import Foundation
import Testing

/// `subscribe PATH` with the user's own files: a folder is a publication of its files, a
/// single file joins "My files"; downloaded issues show the title, authors and cover their
/// content names (issue #22).
@Suite(.serialized) struct OwnFilesEndToEndTests {
    /// An EPUB 3 book (cover by `properties="cover-image"`) and a comic with ComicInfo,
    /// written by Python's zipfile; the pictures are 1×1 PNGs.
    static func writeBooks(in folder: URL) throws {
        _ = try Tmux.run(["python3", "-c", """
            import sys, zipfile, zlib, struct
            def png():
                def chunk(kind, data):
                    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
                return b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)) \\
                    + chunk(b"IDAT", zlib.compress(b"\\x00\\xff\\x80\\x00")) + chunk(b"IEND", b"")
            folder = sys.argv[1]
            with zipfile.ZipFile(folder + "/tides.epub", "w") as z:
                z.writestr("mimetype", "application/epub+zip", zipfile.ZIP_STORED)
                z.writestr("META-INF/container.xml", '<container xmlns="urn:oasis:names:tc:opendocument:xmlns:container" version="1.0"><rootfiles><rootfile full-path="book.opf" media-type="application/oebps-package+xml"/></rootfiles></container>')
                z.writestr("book.opf", '<package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>The Tide Tables</dc:title><dc:creator>Ada Reef</dc:creator></metadata><manifest><item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/><item id="art" href="art/cover.png" media-type="image/png" properties="cover-image"/></manifest><spine><itemref idref="c1"/></spine></package>')
                z.writestr("c1.xhtml", "<html><body><h1>High water</h1><p>Twice a day.</p></body></html>")
                z.writestr("art/cover.png", png())
            with zipfile.ZipFile(folder + "/pool.cbz", "w") as z:
                z.writestr("ComicInfo.xml", "<ComicInfo><Series>Tide Pool</Series><Number>3</Number><Writer>Mika Sato</Writer></ComicInfo>")
                z.writestr("p001.png", png())
            """, folder.path])
    }

    func issues(_ sandbox: Sandbox) throws -> [[String: Any]] {
        let output = try sandbox.run("issues", "--json").output
        return try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]], "\(output)")
    }

    @Test func aFolderOfBooksAndComicsIsReadWhereItIs() throws {
        let sandbox = Sandbox(["NEWSSTAND_RESOURCES=/nonexistent"])
        let folder = sandbox.home.appendingPathComponent("Books of mine", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Self.writeBooks(in: folder)

        let added = try sandbox.run("subscribe", folder.path)
        #expect(added.status == 0)
        #expect(added.output.contains("Added to Books of mine: 2 new issue(s)."), "\(added.output)")
        // Ready at once, no download step, named by what they say of themselves.
        let listed = try issues(sandbox)
        let mine = listed.filter { ($0["name"] as? String)?.hasPrefix(folder.absoluteString) == true }
        #expect(mine.map { $0["status"] as? String } == ["available", "available"], "\(mine)")
        let book = try #require(listed.first { ($0["name"] as? String)?.hasSuffix("tides.epub") == true })
        #expect(book["title"] as? String == "The Tide Tables")
        #expect(book["authors"] as? [String] == ["Ada Reef"])
        let cover = try #require(book["cover"] as? String)
        #expect(cover.hasSuffix("art/cover.png") && FileManager.default.fileExists(atPath: cover), "\(cover)")
        let comic = try #require(listed.first { ($0["name"] as? String)?.hasSuffix("pool.cbz") == true })
        #expect(comic["title"] as? String == "Tide Pool #3")
        #expect(comic["authors"] as? [String] == ["Mika Sato"])
        #expect((comic["cover"] as? String)?.hasSuffix("p001.png") == true)
        // Read in place: the user's files stay where they were.
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("tides.epub").path))

        // A file added later appears on refresh; a removed one is named.
        try FileManager.default.copyItem(at: folder.appendingPathComponent("tides.epub"), to: folder.appendingPathComponent("tides-2.epub"))
        try FileManager.default.removeItem(at: folder.appendingPathComponent("pool.cbz"))
        let refreshed = try sandbox.run("refresh", "Books of mine")
        #expect(refreshed.output.contains("Books of mine: 1 new issue(s); removed: pool.cbz"), "\(refreshed.output)")
    }

    /// A copy of a sample issue with three articles, outside any subscribed folder.
    static let sampleBook = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("sample-feed/tidewater-monthly/issues/tidewater-2026-11.epub")

    @Test func readAFileOpensItInTheReaderAndItsPlaceIsKept() throws {
        let sandbox = Sandbox(["NEWSSTAND_RESOURCES=/nonexistent"])
        let book = sandbox.home.appendingPathComponent("somewhere else/gull rock.epub")
        try FileManager.default.createDirectory(at: book.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.sampleBook, to: book)
        let command = "cd '\(book.deletingLastPathComponent().path)' && env NEWSSTAND_HOME='\(sandbox.home.path)' NEWSSTAND_RESOURCES=/nonexistent "
            + "TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 '\(Tmux.binary.path)' read 'gull rock.epub'"
        let tmux = Tmux()
        defer { tmux.stop() }
        try tmux.start(command, width: 100, height: 30)
        #expect(tmux.waitFor("The lamp at Gull Rock burned") != nil, "the reader did not open:\n\(tmux.lastScreen)")
        try tmux.send("]")
        #expect(tmux.waitFor("article 2 of 3") != nil, "no second article:\n\(tmux.lastScreen)")
        try tmux.send("Q")
        #expect(tmux.waitUntilExited(), "Q did not quit the reader")

        let listed = try issues(sandbox).filter { $0["publication"] as? String == "My files" }
        #expect(listed.count == 1)
        #expect(listed.first?["status"] as? String == "available")
        // Read again: where it was left.
        try tmux.start(command, width: 100, height: 30)
        #expect(tmux.waitFor("article 2 of 3") != nil, "not where it was left:\n\(tmux.lastScreen)")
        try tmux.send("Q")
        #expect(tmux.waitUntilExited())
        #expect(try issues(sandbox).filter { $0["publication"] as? String == "My files" }.count == 1)
    }

    @Test func aSingleFileJoinsMyFiles() throws {
        let sandbox = Sandbox(["NEWSSTAND_RESOURCES=/nonexistent"])
        let folder = sandbox.home.appendingPathComponent("downloads", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Self.writeBooks(in: folder)
        let first = try sandbox.run("subscribe", folder.appendingPathComponent("tides.epub").path)
        #expect(first.output.contains("Added to My files: 1 new issue(s)."), "\(first.output)")
        let second = try sandbox.run("subscribe", "--copy", folder.appendingPathComponent("pool.cbz").path)
        #expect(second.output.contains("Added to My files: 1 new issue(s)."), "\(second.output)")
        let listed = try issues(sandbox)
        #expect(listed.filter { $0["publication"] as? String == "My files" }.count == 2)
        let notes = folder.appendingPathComponent("notes.txt")
        try Data("x".utf8).write(to: notes)
        let refused = try sandbox.run("subscribe", notes.path)
        #expect(refused.status != 0)
        let feedCopied = try sandbox.run("subscribe", "--copy", "https://127.0.0.1:1/feed.xml")
        #expect(feedCopied.status != 0)
        #expect(feedCopied.output.contains("--copy is for your own files"), "\(feedCopied.output)")
    }
}
