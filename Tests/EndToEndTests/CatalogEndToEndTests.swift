import Foundation
import Testing

/// An OPDS server of the test's own on 127.0.0.1, written to the published specifications
/// (OPDS 1.2 Atom, OPDS 2.0 JSON, OpenSearch 1.1): a navigation root with an OpenSearch
/// description, an acquisition feed of two pages, search results, an OPDS 2 home with
/// navigation, a group and a templated search link; EPUBs and PNG covers made by Python.
final class CatalogTestServer {
    private let server: PythonTestServer

    static let script = #"""
        import io, json, struct, sys, zipfile, zlib
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
        from urllib.parse import urlparse, parse_qs, unquote

        def png(rgb):
            def chunk(kind, data):
                return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
            raw = b"".join(b"\x00" + bytes(rgb) * 30 for _ in range(45))
            return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 30, 45, 8, 2, 0, 0, 0)) \
                + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")

        def epub(title, author):
            out = io.BytesIO()
            with zipfile.ZipFile(out, "w") as z:
                z.writestr("mimetype", "application/epub+zip", zipfile.ZIP_STORED)
                z.writestr("META-INF/container.xml", '<container xmlns="urn:oasis:names:tc:opendocument:xmlns:container" version="1.0"><rootfiles><rootfile full-path="book.opf" media-type="application/oebps-package+xml"/></rootfiles></container>')
                z.writestr("book.opf", '<package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>%s</dc:title><dc:creator>%s</dc:creator></metadata><manifest><item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c1"/></spine></package>' % (title, author))
                z.writestr("c1.xhtml", "<html><body><h1>%s</h1><p>The first chapter of %s.</p></body></html>" % (title, title))
            return out.getvalue()

        BOOKS = {"menders": ("The Net Menders", "Ada Quay"), "gulls": ("Gull Almanac", "Mara Gull"),
                 "lamps": ("Lamps of the Quay", "Ivo Reed")}
        ACQ = "application/atom+xml;profile=opds-catalog;kind=acquisition"
        NAV = "application/atom+xml;profile=opds-catalog;kind=navigation"

        def entry(key):
            title, author = BOOKS[key]
            return ('<entry><title>%s</title><id>urn:e2e:%s</id><author><name>%s</name></author>'
                    '<updated>2026-02-01T00:00:00Z</updated><summary>%s, told by %s.</summary>'
                    '<link rel="http://opds-spec.org/image/thumbnail" href="/covers/%s.png" type="image/png"/>'
                    '<link rel="http://opds-spec.org/acquisition" href="/books/%s.epub" type="application/epub+zip"/></entry>'
                    % (title, key, author, title, author, key, key))

        def feed(title, keys, links=""):
            return ('<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom">'
                    '<id>urn:e2e:%s</id><title>%s</title><updated>2026-03-01T00:00:00Z</updated>%s%s</feed>'
                    % (title, title, links, "".join(entry(k) for k in keys)))

        ROOT = ('<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom">'
                '<id>urn:e2e:root</id><title>Quay Library</title><updated>2026-03-01T00:00:00Z</updated>'
                '<link rel="start" href="/opds" type="%s"/>'
                '<link rel="search" href="/opds/search.xml" type="application/opensearchdescription+xml"/>'
                '<entry><title>By Newest</title><id>urn:e2e:new</id><updated>2026-03-01T00:00:00Z</updated>'
                '<content type="text">The newest books first</content>'
                '<link rel="http://opds-spec.org/sort/new" href="/opds/new" type="%s"/></entry></feed>') % (NAV, ACQ)
        OPENSEARCH = ('<?xml version="1.0" encoding="UTF-8"?><OpenSearchDescription xmlns="http://a9.com/-/spec/opensearch/1.1/">'
                      '<ShortName>Quay</ShortName><Description>Search the Quay Library</Description>'
                      '<Url type="text/html" template="/search.html?q={searchTerms}"/>'
                      '<Url type="application/atom+xml;profile=opds-catalog;kind=acquisition" template="/opds/search?q={searchTerms}"/>'
                      '</OpenSearchDescription>')

        def home(base):
            pub = lambda key: {"metadata": {"title": BOOKS[key][0], "identifier": "urn:e2e2:" + key, "author": BOOKS[key][1]},
                               "links": [{"rel": "http://opds-spec.org/acquisition/open-access", "href": "/books/%s.epub" % key,
                                          "type": "application/epub+zip"}],
                               "images": [{"href": "/covers/%s.png" % key, "type": "image/png", "width": 30, "height": 45}]}
            return {"metadata": {"title": "Quay Library, OPDS 2"},
                    "links": [{"rel": "self", "href": "/opds2/home.json", "type": "application/opds+json"},
                              {"rel": "search", "href": "/opds2/search{?query}", "type": "application/opds+json", "templated": True}],
                    "navigation": [{"href": "/opds", "title": "The Atom catalog", "type": NAV}],
                    "publications": [pub("lamps")],
                    "groups": [{"metadata": {"title": "Staff picks"}, "publications": [pub("gulls")]}]}

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def do_GET(self):
                url = urlparse(self.path)
                query = parse_qs(url.query)
                path = url.path
                if path.startswith("/private/"):
                    # RFC 7617 Basic: user "reader", password "Kelp-7531".
                    import base64
                    if self.headers.get("Authorization") != "Basic " + base64.b64encode(b"reader:Kelp-7531").decode():
                        self.send_response(401)
                        self.send_header("WWW-Authenticate", 'Basic realm="Quay staff"')
                        self.send_header("Content-Length", "0")
                        self.end_headers()
                        return
                    path = path[len("/private"):]
                if path == "/opds": self.send(ROOT, NAV)
                elif path == "/opds/search.xml": self.send(OPENSEARCH, "application/opensearchdescription+xml")
                elif path == "/opds/new" and query.get("page") == ["2"]:
                    self.send(feed("By Newest", ["lamps"], '<link rel="previous" href="/opds/new"/>'), ACQ)
                elif path == "/opds/new": self.send(feed("By Newest", ["menders", "gulls"], '<link rel="next" href="/opds/new?page=2"/>'), ACQ)
                elif path == "/opds/search":
                    words = query.get("q", [""])[0].lower()
                    self.send(feed("Search: " + words, [k for k in BOOKS if words in BOOKS[k][0].lower()]), ACQ)
                elif path == "/opds2/home.json": self.send(json.dumps(home("")), "application/opds+json")
                elif path == "/opds2/search":
                    words = query.get("query", [""])[0].lower()
                    hits = [k for k in BOOKS if words in BOOKS[k][0].lower()]
                    doc = home("")
                    doc["metadata"]["title"] = "Found: " + words
                    doc["publications"] = [{"metadata": {"title": BOOKS[k][0], "identifier": "urn:e2e2:" + k, "author": BOOKS[k][1]},
                                            "links": [{"rel": "http://opds-spec.org/acquisition", "href": "/books/%s.epub" % k,
                                                       "type": "application/epub+zip"}]} for k in hits]
                    del doc["groups"]
                    self.send(json.dumps(doc), "application/opds+json")
                elif path.startswith("/covers/"): self.send(png((200, 60, 40)), "image/png")
                elif path.startswith("/books/") and path[7:-5] in BOOKS:
                    self.send(epub(*BOOKS[path[7:-5]]), "application/epub+zip")
                else:
                    self.send_response(404); self.send_header("Content-Length", "0"); self.end_headers()
            def send(self, body, kind):
                if isinstance(body, str): body = body.encode()
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            def log_message(self, *args): pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        print(server.server_address[1], flush=True)
        import threading
        threading.Thread(target=server.serve_forever, daemon=True).start()
        sys.stdin.read()   # until the test closes it
        """#

    init() throws { server = try PythonTestServer(script: Self.script, named: "opds") }

    var port: Int { server.port }
    func url(_ path: String) -> String { server.url(path) }
    func stop() { server.stop() }
}

/// Catalogs from the command line and the shelf, against the server above (issue #25).
@Suite(.serialized) struct CatalogEndToEndTests {
    @Test func browseAndSearchFromTheCommandLine() throws {
        let server = try CatalogTestServer()
        defer { server.stop() }
        let sandbox = Sandbox(["NEWSSTAND_RESOURCES=/nonexistent"])

        let added = try sandbox.run("catalog", "add", server.url("/opds"))
        #expect(added.status == 0 && added.output.contains("Added the catalog Quay Library: 1 catalog(s)"), "\(added.output)")
        let listed = try sandbox.run("catalog", "list")
        #expect(listed.output.contains("1  Quay Library  \(server.url("/opds"))"), "\(listed.output)")

        let page = try sandbox.run("browse", server.url("/opds/new"))
        #expect(page.output.contains("The Net Menders — Ada Quay") && page.output.contains("formats  EPUB"), "\(page.output)")
        #expect(page.output.contains("next      \(server.url("/opds/new?page=2"))"), "\(page.output)")

        // OpenSearch: the Atom template among the description's URLs; by the kept catalog's name.
        let found = try sandbox.run("browse", "Quay Library", "--search", "gull")
        #expect(found.status == 0 && found.output.contains("Search: gull") && found.output.contains("Gull Almanac"), "\(found.output)")
        #expect(!found.output.contains("Net Menders"), "\(found.output)")

        // OPDS 2, as JSON for scripts, and its templated search.
        let json = try sandbox.run("browse", server.url("/opds2/home.json"), "--json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any], "\(json.output)")
        #expect((object["navigation"] as? [[String: Any]])?.first?["title"] as? String == "The Atom catalog")
        #expect((object["books"] as? [[String: Any]])?.first?["title"] as? String == "Lamps of the Quay")
        #expect((object["groups"] as? [[String: Any]])?.first?["title"] as? String == "Staff picks")
        let found2 = try sandbox.run("browse", server.url("/opds2/home.json"), "--search", "lamps")
        #expect(found2.output.contains("Found: lamps") && found2.output.contains("Lamps of the Quay — Ivo Reed"), "\(found2.output)")

        let removed = try sandbox.run("catalog", "remove", "1")
        #expect(removed.output.contains("Removed the catalog Quay Library."), "\(removed.output)")
        let refused = try sandbox.run("browse", server.url("/nothing-here"))
        #expect(refused.status == 1 && refused.output.hasPrefix("newsstand: cannot browse"), "\(refused.output)")
    }

    /// Issue #30, item 13: two catalogs of one title are never removed by that title at a guess.
    @Test func removingATitleTwoCatalogsShareIsRefusedNamingBoth() throws {
        let server = try CatalogTestServer()
        defer { server.stop() }
        let sandbox = Sandbox(["NEWSSTAND_RESOURCES=/nonexistent", "NEWSSTAND_KEYRING=off"])
        let first = server.url("/opds"), second = server.url("/opds?mirror=1")
        for url in [first, second] {
            let added = try sandbox.run("catalog", "add", url)
            #expect(added.status == 0 && added.output.contains("Added the catalog Quay Library"), "\(added.output)")
        }
        let refused = try sandbox.run("catalog", "remove", "Quay Library")
        #expect(refused.status == 1, "\(refused.output)")
        #expect(refused.output.contains("1  Quay Library  \(first)\n"), "\(refused.output)")
        #expect(refused.output.contains("2  Quay Library  \(second)"), "\(refused.output)")
        #expect(try sandbox.run("catalog", "list").output.components(separatedBy: "Quay Library").count == 3)

        let removed = try sandbox.run("catalog", "remove", "2")
        #expect(removed.status == 0 && removed.output.contains("Removed the catalog Quay Library."), "\(removed.output)")
        let left = try sandbox.run("catalog", "list").output
        #expect(left.contains("1  Quay Library  \(first)") && !left.contains(second), "\(left)")
    }

    @Test func aCatalogBehindAPasswordAsksForItOnce() throws {
        let server = try CatalogTestServer()
        defer { server.stop() }
        let sandbox = Sandbox(["NEWSSTAND_RESOURCES=/nonexistent", "NEWSSTAND_KEYRING=off"])
        let refused = try sandbox.run("catalog", "add", server.url("/private/opds"))
        #expect(refused.status == 1 && refused.output.contains("asks for a user name and password"), "\(refused.output)")

        let tmux = Tmux()
        defer { tmux.stop() }
        try tmux.start("env NEWSSTAND_HOME='\(sandbox.home.path)' NEWSSTAND_RESOURCES=/nonexistent NEWSSTAND_KEYRING=off TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 '\(Tmux.binary.path)'")
        _ = try tmux.waitFor(text: "NEWSSTAND")
        try tmux.send("c")
        _ = try tmux.waitFor(text: "CATALOGS")
        try tmux.send("a")
        _ = try tmux.waitFor(text: "Catalog URL:")
        try tmux.send("-l", server.url("/private/opds"))
        _ = try tmux.waitFor(text: server.url("/private/opds"))
        try tmux.send("Enter")
        _ = try tmux.waitFor(text: "Quay staff asks you to sign in. User:")
        // A wrong password first: said in one line, and asked again.
        try tmux.send("-l", "reader")
        try tmux.send("Enter")
        _ = try tmux.waitFor(text: "Password for reader at Quay staff:")
        try tmux.send("-l", "Sand-2468")
        var screen = try tmux.waitFor(text: "Password for reader at Quay staff: •••••••••")
        #expect(!screen.contains("Sand-2468"), "\(screen)")
        try tmux.send("Enter")
        // The user is kept: Enter goes on to the password.
        _ = try tmux.waitFor(text: "Wrong user name or password. Quay staff asks you to sign in. User: reader")
        try tmux.send("Enter")
        _ = try tmux.waitFor(text: "Password for reader")
        try tmux.send("-l", "Kelp-7531")
        try tmux.send("Enter")
        screen = try tmux.waitFor(text: "▸ By Newest")
        #expect(screen.contains("Quay Library"), "\(screen)")
        // Every request to the server carries them now: a feed page and its covers.
        try tmux.send("Enter")
        _ = try tmux.waitFor(text: "The Net Menders — Ada Quay")
        try tmux.send("Q")
        #expect(tmux.waitUntilExited())

        // Kept outside the library, in a file only the user can read; the command line has them too.
        let file = sandbox.home.appendingPathComponent("config/credentials.json")
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int)
        #expect(mode & 0o077 == 0)
        let data = sandbox.home.appendingPathComponent("data")
        let library = try ["library.sqlite", "library.sqlite-wal"].reduce(into: Data()) { all, name in
            all += (try? Data(contentsOf: data.appendingPathComponent(name))) ?? Data()
        }
        #expect(!library.isEmpty)
        #expect(library.range(of: Data("Kelp-7531".utf8)) == nil && library.range(of: Data("Sand-2468".utf8)) == nil)
        #expect(try String(contentsOf: file, encoding: .utf8).contains("Kelp-7531"))
        let browsed = try sandbox.run("browse", server.url("/private/opds/new"))
        #expect(browsed.status == 0 && browsed.output.contains("The Net Menders"), "\(browsed.output)")
        #expect(!browsed.output.contains("Kelp-7531"))
    }

    @Test func theCatalogScreenWalksSubscribesAndTakesABook() throws {
        let server = try CatalogTestServer()
        defer { server.stop() }
        let sandbox = Sandbox(["NEWSSTAND_RESOURCES=/nonexistent"])
        #expect(try sandbox.run("catalog", "add", server.url("/opds")).status == 0)
        let tmux = Tmux()
        defer { tmux.stop() }
        try tmux.start("env NEWSSTAND_HOME='\(sandbox.home.path)' NEWSSTAND_RESOURCES=/nonexistent TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 '\(Tmux.binary.path)'")
        _ = try tmux.waitFor(text: "NEWSSTAND")

        try tmux.send("c")
        _ = try tmux.waitFor(text: "Quay Library")
        try tmux.send("Enter")
        _ = try tmux.waitFor(text: "▸ By Newest")
        try tmux.send("Enter")
        var screen = try tmux.waitFor(text: "The Net Menders — Ada Quay")
        #expect(screen.contains("[EPUB]") && screen.contains("] next page"), "\(screen)")
        // The cover arrives after the page, in place of the placeholder (a solid colour:
        // the same cell over and over, `▀` or, where the painter picks ASCII, `=`).
        screen = try tmux.waitFor(showing: "a cover") { $0.contains("▀▀▀▀") || $0.contains("====") }
        try tmux.send("]")
        _ = try tmux.waitFor(text: "Lamps of the Quay")
        try tmux.send("[")
        _ = try tmux.waitFor(text: "Gull Almanac")

        // Subscribe to the acquisition feed shown: both pages' books.
        try tmux.send("s")
        _ = try tmux.waitFor(text: "Subscribed to “By Newest”: 3 new issue(s)")

        // Search through the catalog's OpenSearch description.
        try tmux.send("/")
        _ = try tmux.waitFor(text: "Search:")
        try tmux.send("-l", "menders")
        _ = try tmux.waitFor(text: "Search: menders")
        try tmux.send("Enter")
        screen = try tmux.waitFor(showing: "the results") { $0.contains("Search: menders") && $0.contains("1 book") }
        #expect(screen.contains("The Net Menders") && !screen.contains("Gull Almanac"), "\(screen)")

        // An OPDS 2 catalog added by its URL; Enter on a book takes it and downloads it.
        try tmux.send("Escape")
        try tmux.send("Escape")
        try tmux.send("Escape")
        _ = try tmux.waitFor(text: "CATALOGS")
        try tmux.send("a")
        _ = try tmux.waitFor(text: "Catalog URL:")
        try tmux.send("-l", server.url("/opds2/home.json"))
        _ = try tmux.waitFor(text: "Catalog URL: " + server.url("/opds2/home.json"))
        try tmux.send("Enter")
        _ = try tmux.waitFor(text: "Quay Library, OPDS 2")
        // Navigation, then the group's books, then the page's own.
        try tmux.send("Down")
        screen = try tmux.waitFor(text: "▶ Gull Almanac")
        #expect(screen.contains("Staff picks") && screen.contains("Lamps of the Quay"), "\(screen)")
        try tmux.send("Enter")
        _ = try tmux.waitFor(showing: "the book downloaded") { _ in
            (try? sandbox.sql("SELECT status FROM issue WHERE name = 'urn:e2e2:gulls'")) == "available"
        }
        // Said when it is there, and where.
        _ = try tmux.waitFor(text: "“Gull Almanac” is on the shelf, in From catalogs.")
        // q goes back one level: the page to the catalogs, the catalogs to the shelf.
        try tmux.send("q")
        _ = try tmux.waitFor(text: "CATALOGS")
        try tmux.send("q")
        // The shelf's own key line: the catalog screen's status also names "From catalogs".
        screen = try tmux.waitFor(showing: "the shelf") { $0.contains("Enter open") && $0.contains("From catalogs") }
        #expect(screen.contains("By Newest"), "\(screen)")
        try tmux.send("Q")
        #expect(tmux.waitUntilExited())
        #expect(try sandbox.sql("SELECT count(*) FROM catalog") == "2")
    }
}
