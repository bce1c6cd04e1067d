import Foundation
import Testing

/// A comics server of the test's own on 127.0.0.1, written to OPDS-PSE 1.2 (the
/// `http://vaemendis.net/opds-pse/stream` link: `{pageNumber}` from 0, `{maxWidth}`,
/// `pse:count`, `pse:lastRead` from 1) behind HTTP Basic (RFC 7617): an acquisition feed of
/// two comics whose pages are PNGs the script makes, each request written to a log.
final class ComicStreamTestServer {
    let log: URL
    private let server: PythonTestServer

    static let user = "reader"
    static let password = "Wharf-8642"

    static let script = #"""
        import base64, struct, sys, threading, zlib
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
        from urllib.parse import urlparse

        LOG = sys.argv[1]
        AUTH = "Basic " + base64.b64encode(sys.argv[2].encode()).decode()

        def png(rgb, width=60, height=90):
            def chunk(kind, data):
                return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
            raw = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
            return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) \
                + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")

        COLOURS = [(200, 40, 40), (40, 160, 60), (40, 70, 200), (220, 200, 40), (150, 60, 170)]
        COMICS = {"harbour": ("Harbour Lights", 4, None), "tides": ("Tide Tables", 5, 2)}

        def entry(key):
            title, count, last = COMICS[key]
            read = ' pse:lastRead="%d" pse:lastReadDate="2026-03-01T10:00:00Z"' % last if last else ""
            return ('<entry><title>%s</title><id>urn:pse:%s</id><updated>2026-03-01T00:00:00Z</updated>'
                    '<author><name>Rue Marsh</name></author>'
                    '<link rel="http://opds-spec.org/acquisition" href="/private/books/%s.cbz" type="application/vnd.comicbook+zip"/>'
                    '<link rel="http://vaemendis.net/opds-pse/stream" type="image/png" pse:count="%d"%s'
                    ' href="/private/pse/%s/{pageNumber}?width={maxWidth}"/></entry>' % (title, key, key, count, read, key))

        FEED = ('<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom"'
                ' xmlns:pse="http://vaemendis.net/opds-pse/ns" xmlns:opds="http://opds-spec.org/2010/catalog">'
                '<id>urn:pse:root</id><title>Harbour Comics</title><updated>2026-03-01T00:00:00Z</updated>'
                + entry("harbour") + entry("tides") + '</feed>')

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def do_GET(self):
                authorised = self.headers.get("Authorization") == AUTH
                with open(LOG, "a") as log:
                    log.write("%s %s\n" % (self.path, "signed" if authorised else "anonymous"))
                if not authorised:
                    self.send_response(401)
                    self.send_header("WWW-Authenticate", 'Basic realm="Harbour Comics"')
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                parts = urlparse(self.path).path.split("/")
                if self.path == "/private/opds":
                    self.send(FEED.encode(), "application/atom+xml;profile=opds-catalog;kind=acquisition")
                elif len(parts) == 5 and parts[2] == "pse" and parts[3] in COMICS and parts[4].isdigit() \
                        and int(parts[4]) < COMICS[parts[3]][1]:
                    self.send(png(COLOURS[int(parts[4])]), "image/png")
                else:
                    self.send_response(404); self.send_header("Content-Length", "0"); self.end_headers()
            def send(self, body, kind):
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            def log_message(self, *args): pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        print(server.server_address[1], flush=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        sys.stdin.read()   # until the test closes it
        """#

    init() throws {
        server = try PythonTestServer(script: Self.script, named: "pse") { directory in
            [directory.appendingPathComponent("requests.log").path, "\(Self.user):\(Self.password)"]
        }
        log = server.directory.appendingPathComponent("requests.log")
    }

    var port: Int { server.port }
    func url(_ path: String) -> String { server.url(path) }

    /// The requests so far: "path signed|anonymous", oldest first.
    var requests: [String] {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    func stop() { server.stop() }
}

/// Comics read page by page from a catalog (issue #25, OPDS-PSE), against the server above.
@Suite(.serialized) struct CatalogStreamEndToEndTests {
    /// A page of one colour is drawn as the same cell over and over (`▀`, or where the
    /// painter picks ASCII a character for its brightness): that cell, once a row of 20 shows.
    func pictureCell(_ screen: String) -> Character? {
        for line in screen.split(separator: "\n") {
            let cells = line.trimmingCharacters(in: .whitespaces)
            if cells.count >= 20, let first = cells.first, !first.isLetter, cells.allSatisfy({ $0 == first }) { return first }
        }
        return nil
    }

    @Test func aStreamedComicIsReadPageByPageWithThePagesAheadFetchedAndNoArchive() throws {
        let server = try ComicStreamTestServer()
        defer { server.stop() }
        let sandbox = Sandbox(["NEWSSTAND_RESOURCES=/nonexistent", "NEWSSTAND_KEYRING=off"])
        let config = sandbox.home.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data("""
            [credentials."127.0.0.1:\(server.port)"]
            user = "\(ComicStreamTestServer.user)"
            password = "\(ComicStreamTestServer.password)"
            """.utf8).write(to: config.appendingPathComponent("config.toml"))
        let added = try sandbox.run("catalog", "add", server.url("/private/opds"))
        #expect(added.status == 0, "\(added.output)")

        let tmux = Tmux()
        defer { tmux.stop() }
        try tmux.start("env NEWSSTAND_HOME='\(sandbox.home.path)' NEWSSTAND_RESOURCES=/nonexistent NEWSSTAND_KEYRING=off TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 '\(Tmux.binary.path)'")
        _ = try tmux.waitFor(text: "NEWSSTAND")
        try tmux.send("c")
        _ = try tmux.waitFor(text: "Harbour Comics")
        try tmux.send("Enter")
        // Each streamed book says how long it is, or where reading goes on (pse:lastRead).
        var screen = try tmux.waitFor(text: "Tide Tables")
        #expect(screen.contains("r: 4 pages online"), "\(screen)")
        #expect(screen.contains("r: continue at page 2 of 5"), "\(screen)")

        // r: the reader on page 1, drawn from the server's picture; pages 2 and 3 fetched ahead.
        try tmux.send("r")
        screen = try tmux.waitFor(showing: "page 1 drawn") { $0.contains("page 1 of 4") && pictureCell($0) != nil }
        #expect(!screen.contains("could not be fetched"), "\(screen)")
        _ = try tmux.waitFor(showing: "pages 2 and 3 fetched ahead") { _ in
            let pages = server.requests.filter { $0.contains("/pse/") }
            return pages.contains { $0.hasPrefix("/private/pse/harbour/2?") }
        }
        // Each page asked without credentials is answered 401 and asked again with them
        // (HTTPAccess answers a 401 per request); {maxWidth}: 120 columns of 10 px where the
        // terminal does not tell its cell size.
        var pages = server.requests.filter { $0.contains("/pse/") && $0.hasSuffix(" signed") }
        #expect(pages == ["/private/pse/harbour/0?width=1200 signed", "/private/pse/harbour/1?width=1200 signed",
                          "/private/pse/harbour/2?width=1200 signed"], "\(pages)")

        // Space: page 2, already here; page 4 is fetched ahead in turn.
        try tmux.send("Space")
        let firstPage = pictureCell(screen)
        // Another colour, another cell: the new page's picture, not the old one left on screen.
        screen = try tmux.waitFor(showing: "page 2 drawn") { $0.contains("page 2 of 4") && pictureCell($0).map { $0 != firstPage } == true }
        _ = try tmux.waitFor(showing: "page 4 fetched ahead") { _ in
            server.requests.contains { $0.hasPrefix("/private/pse/harbour/3?width=1200 signed") }
        }
        pages = server.requests.filter { $0.contains("/pse/") && $0.hasSuffix(" signed") }
        #expect(pages.count == 4, "\(pages)")
        #expect(!server.requests.contains { $0.contains("/books/") }, "the archive was downloaded: \(server.requests)")

        // q: back to the catalog; nothing was taken onto the shelf, and the pages go from the cache.
        try tmux.send("q")
        _ = try tmux.waitFor(text: "r: continue at page 2 of 5")
        let streamed = sandbox.home.appendingPathComponent("cache/streamed-pages")
        _ = try tmux.waitFor(showing: "the streamed pages removed") { _ in
            let left = (try? FileManager.default.subpathsOfDirectory(atPath: streamed.path)) ?? []
            return !left.contains { $0.contains("page-") }
        }
        try tmux.send("Q")
        #expect(tmux.waitUntilExited())
        let taken = try sandbox.sql("SELECT count(*) FROM issue WHERE title LIKE '%Harbour%' OR name LIKE 'urn:pse:%'")
        #expect(taken == "0", "\(taken)")
    }
}
