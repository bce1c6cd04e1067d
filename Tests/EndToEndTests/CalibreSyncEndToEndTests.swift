import Foundation
import Testing
import TestSupport

/// Issue #33 with calibre's content server (Debian's `calibre-server`, on 127.0.0.1, a user
/// signed in with HTTP Digest): two libraries (two `NEWSSTAND_HOME`s) took the same book from
/// its catalog. A place set in one is kept by calibre (read back through calibre's own HTTP
/// API) and taken by the other; a refused password is said; with the server down the place waits.
/// Files of one's own sync with the calibre book they share an identifier with.
@Suite(.serialized) struct CalibreSyncEndToEndTests {
    static let password = "Tide 7ables!"

    @Test func aBookReadTo40PercentInOneLibraryIsAt40PercentInTheOtherAndInCalibre() throws {
        CalibreServer.turn.wait()
        defer { CalibreServer.turn.signal() }
        let server = try CalibreServer(user: "reader", password: Self.password)
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)"
        let first = Sandbox(["NEWSSTAND_RESOURCES=/nonexistent", "NEWSSTAND_KEYRING=off"])
        let second = Sandbox(["NEWSSTAND_RESOURCES=/nonexistent", "NEWSSTAND_KEYRING=off"])
        let stranger = Sandbox(["NEWSSTAND_RESOURCES=/nonexistent", "NEWSSTAND_KEYRING=off"])
        defer { for sandbox in [first, second, stranger] { try? FileManager.default.removeItem(at: sandbox.home) } }

        var names: [String] = []
        for sandbox in [first, second] {
            names.append(try Self.takeTheTideTables(from: url, into: sandbox))
            let added = try Self.addServer(url, to: sandbox, password: Self.password)
            #expect(added.status == 0 && added.output.contains("Added calibre (calibre,"), "\(added.output)")
        }
        let wrong = try Self.addServer(url, to: stranger, password: "not the password")
        #expect(wrong.status == 1 && wrong.output.contains("refused the user name or password"), "\(wrong.output)")
        #expect(try stranger.run("sync", "list").output.contains("No sync servers"))

        // The first reads to 40 %: sent, and calibre keeps it as this reader's place.
        #expect(try first.run("place", names[0], "--set", "40%").status == 0)
        let sent = try first.run("sync", "now")
        #expect(sent.output.contains("Sent 1, took 0, offered 0; 0 waiting."), "\(sent.output)")
        let link = try first.sql("SELECT contentURL FROM issue WHERE name = '\(names[0])'")
        let book = try #require(link.split(separator: "/").reversed().dropFirst().first.flatMap { Int($0) }, "\(link)")
        let kept = try Self.calibre(url, "/book-get-annotations/library/\(book)-EPUB")
        let positions = try #require((kept["\(book):EPUB"] as? [String: Any])?["last_read_positions"] as? [[String: Any]], "\(kept)")
        #expect(positions.count == 1 && positions.first?["pos_frac"] as? Double == 0.4, "\(positions)")
        #expect((positions.first?["device"] as? String)?.hasPrefix("newsstand on ") == true)
        #expect((positions.first?["cfi"] as? String)?.hasPrefix("epubcfi(/") == true)

        // The second takes it: at 40 % there too.
        let taken = try second.run("sync", "now")
        #expect(taken.output.contains("Sent 0, took 1, offered 0; 0 waiting."), "\(taken.output)")
        #expect(try PlaceSyncEndToEndTests.place(second, names[1])["place"]?["percentage"] as? Double == 40)
        // Nothing changed: the first takes nothing back, the second sends nothing back.
        #expect(try first.run("sync", "now").output.contains("Sent 0, took 0, offered 0; 0 waiting."))
        #expect(try second.run("sync", "now").output.contains("Sent 0, took 0, offered 0; 0 waiting."))

        // A highlight made in the first shows in calibre's annotations and in the second.
        let made = try first.run("highlight", names[0], "--quote", "Twice a day.", "--note", "tides", "--color", "green")
        #expect(made.status == 0, "\(made.output)")
        #expect(try first.run("sync", "now").status == 0)
        let annotated = try Self.calibre(url, "/book-get-annotations/library/\(book)-EPUB")
        let marks = ((annotated["\(book):EPUB"] as? [String: Any])?["annotations_map"] as? [String: Any])?["highlight"] as? [[String: Any]] ?? []
        #expect(marks.count == 1 && marks.first?["highlighted_text"] as? String == "Twice a day." && marks.first?["notes"] as? String == "tides",
                "\(annotated)")
        #expect((marks.first?["start_cfi"] as? String)?.hasPrefix("/2/") == true, "\(marks)")
        #expect(try second.run("sync", "now").status == 0)
        let theirs = try second.run("highlights", names[1], "--format", "json").output
        #expect(theirs.contains("Twice a day.") && theirs.contains("tides") && theirs.contains("green"), "\(theirs)")

        // One made in calibre's viewer (its shape, through its own API) shows in the first.
        let start = try #require(marks.first?["start_cfi"] as? String)
        let made2 = #"{"highlight": [{"type": "highlight", "uuid": "made-in-calibre", "timestamp": "2026-11-29T06:00:00.000Z", "#
            + #""start_cfi": "\#(start)", "end_cfi": "\#(start)", "spine_index": 0, "highlighted_text": "Twice", "notes": "from calibre", "#
            + #""style": {"kind": "color", "type": "builtin", "which": "blue"}}]}"#
        _ = try Self.calibre(url, "/book-update-annotations/library/\(book)/EPUB", post: made2)
        #expect(try first.run("sync", "now").status == 0)
        let back = try first.run("highlights", names[0], "--format", "json").output
        #expect(back.contains("made-in-calibre") && back.contains("from calibre") && back.contains("blue"), "\(back)")
        #expect(try second.run("sync", "now").status == 0)
        #expect(try second.run("highlights", names[1], "--format", "json").output.contains("made-in-calibre"))

        // Deleted in calibre's viewer (its tombstone): gone from both libraries, and neither
        // sends it back alive, however often they sync.
        let removed = #"{"highlight": [{"type": "highlight", "uuid": "made-in-calibre", "removed": true, "#
            + #""timestamp": "2026-11-29T07:00:00.000Z"}]}"#
        _ = try Self.calibre(url, "/book-update-annotations/library/\(book)/EPUB", post: removed)
        for sandbox in [first, second, first, second] { #expect(try sandbox.run("sync", "now").status == 0) }
        for (sandbox, name) in zip([first, second], names) {
            let left = try sandbox.run("highlights", name, "--format", "json").output
            #expect(!left.contains("made-in-calibre") && left.contains("Twice a day."), "\(left)")
        }
        let after = try Self.calibre(url, "/book-get-annotations/library/\(book)-EPUB")
        let kinds = ((after["\(book):EPUB"] as? [String: Any])?["annotations_map"] as? [String: Any])?["highlight"] as? [[String: Any]] ?? []
        let tombstone = kinds.first { $0["uuid"] as? String == "made-in-calibre" }
        #expect(tombstone?["removed"] as? Bool == true, "still deleted in calibre: \(kinds)")

        // The server goes down: the place read on waits, said once per sync.
        server.stop()
        #expect(try first.run("place", names[0], "--set", "42%").status == 0)
        let down = try first.run("sync", "now")
        #expect(down.output.contains("1 waiting") && down.output.contains("could not be reached"), "\(down.output)")
        #expect(try first.run("sync", "list").output.contains("1 place waiting to be sent"))
    }

    /// Books of one's own, never taken from calibre's catalog, that are also in the calibre
    /// library: one as calibre hands it out (its uuid written in), three the very files given
    /// to calibre (an ISBN, a DOI; a PDF with an ISBN in its XMP; calibre's uuid not in them).
    /// All sync with calibre's books; a fifth, sharing nothing but a title with a book there,
    /// stays unsynced, and no error is said.
    @Test func ownFilesThatShareAnIdentifierWithACalibreBookSyncWithIt() throws {
        CalibreServer.turn.wait()
        defer { CalibreServer.turn.signal() }
        let originals = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-own-books-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: originals) }
        try FileManager.default.createDirectory(at: originals, withIntermediateDirectories: true)
        try Self.writeOwnBooks(in: originals)
        let server = try CalibreServer(user: "reader", password: Self.password, books: ["field-guide.epub", "tide-atlas.epub", "current-chart.pdf"].map(originals.appendingPathComponent))
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)"
        let sandbox = Sandbox(["NEWSSTAND_RESOURCES=/nonexistent", "NEWSSTAND_KEYRING=off"])
        defer { try? FileManager.default.removeItem(at: sandbox.home) }

        // calibre's books: The Tide Tables, and the field guide with the ISBN it read from the
        // file and a uuid of its own (not the one in the file: the match is by ISBN).
        let library = try Self.calibre(url, "/ajax/books/library?category_urls=false").compactMapValues { $0 as? [String: Any] }
        let tides = try #require(library.first { $0.value["title"] as? String == "The Tide Tables" }.flatMap { Int($0.key) }, "\(library)")
        let guide = try #require(library.first { $0.value["title"] as? String == "A Field Guide to Tides" }, "\(library)")
        // (calibre 6.13 keeps it as the file writes it, dashes and all.)
        #expect((guide.value["identifiers"] as? [String: String])?["isbn"]?.filter(\.isNumber) == "9780306406157", "\(guide.value)")
        #expect(guide.value["uuid"] as? String != Self.guideUUID)
        let guideID = try #require(Int(guide.key))
        let atlas = try #require(library.first { $0.value["title"] as? String == "A Tide Atlas" }, "\(library)")
        #expect((atlas.value["identifiers"] as? [String: String])?["doi"] == "10.5555/tide.atlas(2)+", "\(atlas.value)")
        let atlasID = try #require(Int(atlas.key))
        let chart = try #require(library.first { $0.value["title"] as? String == "A Chart of Currents" }, "\(library)")
        #expect((chart.value["identifiers"] as? [String: String])?["isbn"] == "9781861972712", "\(chart.value)")
        let chartID = try #require(Int(chart.key))

        // The folder: the Tide Tables as calibre's server hands them out, the field guide and the stranger.
        let folder = sandbox.home.appendingPathComponent("Books of mine", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["field-guide.epub", "tide-atlas.epub", "current-chart.pdf", "stranger.epub"] {
            try FileManager.default.copyItem(at: originals.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        let fetched = try Tmux.runWithStatus(["curl", "-s", "--fail", "--digest", "-u", "reader:\(Self.password)",
                                              "-o", folder.appendingPathComponent("tides.epub").path, "\(url)/get/EPUB/\(tides)/library"])
        #expect(fetched.status == 0, "\(fetched.output)")
        let subscribed = try sandbox.run("subscribe", folder.path)
        #expect(subscribed.status == 0 && subscribed.output.contains("5 new issue(s)"), "\(subscribed.output)")
        let issues = try JSONSerialization.jsonObject(with: Data(try sandbox.run("issues", "--json").output.utf8)) as? [[String: Any]] ?? []
        func name(_ file: String) throws -> String {
            try #require(issues.compactMap { $0["name"] as? String }.first { $0.hasSuffix("/" + file) }, "\(issues)")
        }
        let (ownTides, ownGuide, stranger) = (try name("tides.epub"), try name("field-guide.epub"), try name("stranger.epub"))
        let ownAtlas = try name("tide-atlas.epub")
        let ownChart = try name("current-chart.pdf")

        let added = try Self.addServer(url, to: sandbox, password: Self.password)
        #expect(added.status == 0, "\(added.output)")
        for issue in [ownTides, ownGuide, ownAtlas] { #expect(try sandbox.run("place", issue, "--set", "40%").status == 0) }
        #expect(try sandbox.run("place", ownChart, "--set", "page:3").status == 0)
        #expect(try sandbox.run("place", stranger, "--set", "25%").status == 0)
        let sent = try sandbox.run("sync", "now")
        #expect(sent.status == 0 && sent.output.trimmingCharacters(in: .whitespacesAndNewlines)
                == "Sent 4, took 0, offered 0; 1 waiting; 1 without a file to name.", "\(sent.output)")
        for book in [tides, guideID, atlasID] {
            let kept = try Self.calibre(url, "/book-get-annotations/library/\(book)-EPUB")
            let positions = (kept["\(book):EPUB"] as? [String: Any])?["last_read_positions"] as? [[String: Any]] ?? []
            #expect(positions.count == 1 && positions.first?["pos_frac"] as? Double == 0.4, "book \(book): \(kept)")
        }
        // The PDF's place, page 3 of 5, as the share of it read that `place` gives.
        let chartShare = try #require(try PlaceSyncEndToEndTests.place(sandbox, ownChart)["place"]?["percentage"] as? Double)
        let chartKept = try Self.calibre(url, "/book-get-annotations/library/\(chartID)-PDF")
        let chartPositions = (chartKept["\(chartID):PDF"] as? [String: Any])?["last_read_positions"] as? [[String: Any]] ?? []
        #expect(chartPositions.count == 1 && chartPositions.first?["pos_frac"] as? Double == chartShare / 100, "\(chartShare) %: \(chartKept)")
        // Which book each is, kept: found once, not searched for again.
        let documents = try sandbox.sql("SELECT i.name || ' ' || coalesce(p.document, '-') FROM syncPlace p JOIN issue i ON i.id = p.issueId ORDER BY i.name")
        #expect(documents.split(separator: "\n").sorted() == ["\(ownGuide) library/\(guideID)/EPUB", "\(ownAtlas) library/\(atlasID)/EPUB", "\(stranger) -",
                                                          "\(ownChart) library/\(chartID)/PDF",
                                                          "\(ownTides) library/\(tides)/EPUB"].sorted(),
                "\(documents)")
        #expect(try sandbox.run("sync", "now").output.contains("Sent 0, took 0, offered 0; 1 waiting; 1 without a file to name."))

        // Read on in calibre's viewer: the place comes back to one's own file.
        _ = try Self.calibre(url, "/book-set-last-read-position/library/\(guideID)/EPUB",
                             post: #"{"device": "calibre's viewer", "cfi": "epubcfi(/2)", "pos_frac": 0.42}"#)
        let taken = try sandbox.run("sync", "now")
        #expect(taken.output.contains("Sent 0, took 1, offered 0"), "\(taken.output)")
        #expect(try PlaceSyncEndToEndTests.place(sandbox, ownGuide)["place"]?["percentage"] as? Double == 42)
    }

    /// The uuid the field guide's publisher gave it (calibre gives the book its own).
    static let guideUUID = "0d7c3a52-9f1e-4b8a-a6d2-5c1e7f3b9a40"

    /// `field-guide.epub`: EPUB 2, its ISBN with dashes under `opf:scheme="ISBN"` and its
    /// publisher's uuid; `tide-atlas.epub`: EPUB 3, a DOI (`urn:doi:`) full of what regular
    /// expressions read as their own; `stranger.epub`: EPUB 3, titled as a calibre book but with an ISBN
    /// (`urn:isbn:`) and a uuid calibre has not; `current-chart.pdf`: five pages, an ISBN in
    /// its XMP only, as calibre writes one.
    static func writeOwnBooks(in folder: URL) throws {
        _ = try Tmux.run(["python3", "-c", """
            import sys, zipfile
            folder, uuid = sys.argv[1], sys.argv[2]
            container = '<container xmlns="urn:oasis:names:tc:opendocument:xmlns:container" version="1.0"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>'
            books = {
                "field-guide.epub": '<package xmlns="http://www.idpf.org/2007/opf" version="2.0" unique-identifier="isbn"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:opf="http://www.idpf.org/2007/opf"><dc:title>A Field Guide to Tides</dc:title><dc:creator opf:role="aut">Ada Reef</dc:creator><dc:language>en</dc:language><dc:identifier id="isbn" opf:scheme="ISBN">978-0-306-40615-7</dc:identifier><dc:identifier opf:scheme="UUID">urn:uuid:' + uuid + '</dc:identifier></metadata><manifest><item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/><item id="c2" href="c2.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c1"/><itemref idref="c2"/></spine></package>',
                "tide-atlas.epub": '<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="uid"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>A Tide Atlas</dc:title><dc:language>en</dc:language><dc:identifier id="uid">urn:doi:10.5555/tide.atlas(2)+</dc:identifier></metadata><manifest><item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/><item id="c2" href="c2.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c1"/><itemref idref="c2"/></spine></package>',
                "stranger.epub": '<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="uid"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>The Tide Tables</dc:title><dc:language>en</dc:language><dc:identifier id="uid">urn:uuid:6f1d2b7e-0c4a-4e59-9b3d-2a8f5e7c1d90</dc:identifier><dc:identifier>urn:isbn:9783161484100</dc:identifier></metadata><manifest><item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/><item id="c2" href="c2.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c1"/><itemref idref="c2"/></spine></package>',
            }
            for name, package in books.items():
                with zipfile.ZipFile(folder + "/" + name, "w") as z:
                    z.writestr("mimetype", "application/epub+zip", zipfile.ZIP_STORED)
                    z.writestr("META-INF/container.xml", container)
                    z.writestr("OEBPS/content.opf", package)
                    z.writestr("OEBPS/c1.xhtml", '<html xmlns="http://www.w3.org/1999/xhtml"><head><title>Springs</title></head><body><h1>Spring tides</h1><p>When the moon is new.</p></body></html>')
                    z.writestr("OEBPS/c2.xhtml", '<html xmlns="http://www.w3.org/1999/xhtml"><head><title>Neaps</title></head><body><h1>Neap tides</h1><p>When the moon is half.</p></body></html>')
            # current-chart.pdf: five pages, its ISBN in its XMP as calibre writes one (and PRISM's).
            xmp = ('<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
                   '<rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:xmpidq="http://ns.adobe.com/xmp/Identifier/qual/1.0/"><xmp:Identifier><rdf:Bag>'
                   '<rdf:li rdf:parseType="Resource"><xmpidq:Scheme>isbn</xmpidq:Scheme><rdf:value>9781861972712</rdf:value></rdf:li></rdf:Bag></xmp:Identifier></rdf:Description>'
                   '<rdf:Description rdf:about="" xmlns:prism="http://prismstandard.org/namespaces/basic/2.0/"><prism:isbn>9781861972712</prism:isbn></rdf:Description>'
                   '</rdf:RDF></x:xmpmeta><?xpacket end="w"?>').encode()
            nl = chr(10).encode()
            def stream(header, data):
                return header + b" /Length " + str(len(data)).encode() + b" >>" + nl + b"stream" + nl + data + nl + b"endstream"
            pages = 5
            objects = [b"<< /Type /Catalog /Pages 2 0 R /Metadata 3 0 R >>",
                       b"<< /Type /Pages /Count " + str(pages).encode() + b" /Kids [" + b" ".join(str(5 + 2 * i).encode() + b" 0 R" for i in range(pages)) + b"] >>",
                       stream(b"<< /Type /Metadata /Subtype /XML", xmp),
                       b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
            for i in range(pages):
                objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 400] /Resources << /Font << /F1 4 0 R >> >> /Contents " + str(6 + 2 * i).encode() + b" 0 R >>")
                objects.append(stream(b"<<", b"BT /F1 18 Tf 40 300 Td (Currents, chart " + str(i + 1).encode() + b") Tj ET"))
            out, offsets = b"%PDF-1.4" + nl, []
            for number, body in enumerate(objects, 1):
                offsets.append(len(out))
                out += str(number).encode() + b" 0 obj" + nl + body + nl + b"endobj" + nl
            start = len(out)
            out += b"xref" + nl + b"0 " + str(len(objects) + 1).encode() + nl + b"0000000000 65535 f " + nl
            out += b"".join(b"%010d 00000 n " % offset + nl for offset in offsets)
            out += b"trailer" + nl + b"<< /Size " + str(len(objects) + 1).encode() + b" /Root 1 0 R /Info << /Title (A Chart of Currents) >> >>" + nl
            out += b"startxref" + nl + str(start).encode() + nl + b"%%EOF" + nl
            open(folder + "/current-chart.pdf", "wb").write(out)
            """, folder.path, guideUUID])
    }

    /// Signs in to the catalog, subscribes to "By Newest" and downloads The Tide Tables; its issue name.
    static func takeTheTideTables(from url: String, into sandbox: Sandbox) throws -> String {
        let login = try sandbox.login("\(url)/opds", user: "reader", password: password)
        #expect(login.status == 0, "\(login.output)")
        let subscribed = try sandbox.run("subscribe", "\(url)/opds/navcatalog/4f6e6577657374?library_id=library")
        #expect(subscribed.status == 0, "\(subscribed.output)")
        let issues = try JSONSerialization.jsonObject(with: Data(try sandbox.run("issues", "--json").output.utf8)) as? [[String: Any]] ?? []
        let name = try #require(issues.first { $0["title"] as? String == "The Tide Tables" }?["name"] as? String, "\(issues)")
        let downloaded = try sandbox.run("download", name, "--wait")
        #expect(downloaded.status == 0, "\(downloaded.output)")
        return name
    }

    static func addServer(_ url: String, to sandbox: Sandbox, password: String) throws -> (output: String, status: Int32) {
        try FileManager.default.createDirectory(at: sandbox.home, withIntermediateDirectories: true)
        let input = sandbox.home.appendingPathComponent("password.txt")
        try (password + "\n").write(to: input, atomically: true, encoding: .utf8)
        return try Tmux.runWithStatus(["sh", "-c", "exec env \"$@\" < \"$0\"", input.path] + sandbox.environment
                                      + [Tmux.binary.path, "sync", "add", "calibre", url, "--kind", "calibre", "--user", "reader", "--password-stdin"])
    }

    /// An answer of calibre's own HTTP API, asked with curl as the tests' user.
    static func calibre(_ url: String, _ path: String, post body: String? = nil) throws -> [String: Any] {
        var arguments = ["curl", "-s", "--fail", "--digest", "-u", "reader:\(password)"]
        if let body { arguments += ["-H", "Content-Type: application/json", "--data-binary", body] }
        let answer = try Tmux.runWithStatus(arguments + [url + path])
        #expect(answer.status == 0, "\(path): \(answer.output)")
        guard body == nil else { return [:] }
        return try JSONSerialization.jsonObject(with: Data(answer.output.utf8)) as? [String: Any] ?? [:]
    }
}
