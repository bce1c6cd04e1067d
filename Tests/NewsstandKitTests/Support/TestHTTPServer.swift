import Foundation
import TestSupport

/// The test HTTP server: a Python 3 standard-library script (below) started on 127.0.0.1
/// with a port chosen by the OS, once per test process, by the first test that needs it.
/// It exits when its standard input closes, i.e. when the test process ends (or `stop()`),
/// and removes its folder (script and logs) as it goes.
///
/// `GET /file/KEY?…` serves `size` pseudo-random bytes (from `seed`) with ETag and
/// Last-Modified, honouring Range and If-Range. Query parameters choose misbehaviour:
/// `validators=both|etag|lastmod|weak|none`, `ignore_range=1` (200 to every Range),
/// `chunk=N&delay_ms=D` (slow body), `drop_after=N&drops=K[&drop_mode=reset]` (the first K
/// requests lose the connection after N body bytes), `stall_after=N&stall_ms=D`,
/// `fail=CODE&fail_times=K&retry_after=V`, `auth=basic&user=U&pass=P` or
/// `auth=bearer&token=T`, `auth=digest&user=U&pass=P` (see `digest_ok`), `length_delta=D` (wrong Content-Length), `no_length=1`,
/// `chunked=1`, `change_after=K` (the file changes after K requests), `bad_range=D`
/// (Content-Range off by D), `short_range=N` (206 carrying only N bytes), `huge_header=N`
/// (an N-byte header line). `/to/KEY?location=L` redirects to L.
/// PUT or POST to any path echoes the request as JSON (`echo` below), on a kept-alive connection.
/// `/progression/KEY?…` keeps an OPDS 2 progression document (PUT) and gives it back (GET),
/// behind Digest with `auth=digest&user=U&pass=P`.
/// `/redirect/N/KEY?…` redirects N+1 times (absolute and relative Locations) to
/// `/file/KEY?…`; `/loop/KEY` redirects to itself; `/status/CODE` answers CODE.
/// Every request to KEY is logged as a JSON line in `logDirectory/KEY.jsonl` when its
/// response ends; `requests(for:)` returns them in order of arrival.
// @unchecked: every property is a `let` set at init; the child server is touched after that only by `stop()` and `shared()` (under `lock`).
final class TestHTTPServer: @unchecked Sendable {
    struct LoggedRequest: Decodable {
        /// Order of arrival at the server (the log itself is written as responses end).
        var seq: Int
        var n: Int?
        var path: String
        var status: Int
        var range: String?
        var if_range: String?
        var authorization: String?
        var user_agent: String?
        var x_test: String?
        var sent: Int?
    }

    struct StartFailure: Error, CustomStringConvertible { var description: String }

    let port: Int
    let logDirectory: URL
    /// The https server's self-signed certificate (PEM), for a client told to trust it.
    let certificate: Data?
    private let server: ChildServer

    private static let lock = NSLock()
    // Unsafe: read and written only under `lock`.
    nonisolated(unsafe) private static var current: TestHTTPServer?

    /// The server shared by every test of this process.
    static func shared() throws -> TestHTTPServer {
        try lock.withLock {
            if let current, current.server.isRunning { return current }
            let server = try TestHTTPServer()
            current = server
            return server
        }
    }

    /// A server of its own that speaks https with a self-signed certificate made by the
    /// `openssl` command (a dependency of ca-certificates). Call `stop()` when done.
    static func startTLS() throws -> TestHTTPServer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let cert = directory.appendingPathComponent("cert.pem")
        let key = directory.appendingPathComponent("key.pem")
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        openssl.arguments = ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                             "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                             "-keyout", key.path, "-out", cert.path]
        openssl.standardError = FileHandle.nullDevice
        openssl.standardOutput = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        guard openssl.terminationStatus == 0 else { throw StartFailure(description: "openssl could not make a test certificate") }
        defer { try? FileManager.default.removeItem(at: directory) }  // loaded once the port is printed
        return try TestHTTPServer(tls: (cert, key))
    }

    private init(tls: (certificate: URL, key: URL)? = nil) throws {
        certificate = try tls.map { try Data(contentsOf: $0.certificate) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-test-server-\(UUID().uuidString)")
        logDirectory = directory.appendingPathComponent("log")
        try FileManager.default.createDirectory(at: logDirectory, withIntermediateDirectories: true)
        let script = directory.appendingPathComponent("server.py")
        try Data(TestHTTPServer.script.utf8).write(to: script)

        // Tracebacks of connections the tests break on purpose stay out of the test log.
        _ = FileManager.default.createFile(atPath: directory.appendingPathComponent("stderr.txt").path, contents: nil)
        server = try ChildServer(python: script.path, [logDirectory.path] + (tls.map { [$0.certificate.path, $0.key.path] } ?? []),
                                 name: "HTTP", errors: try FileHandle(forWritingTo: directory.appendingPathComponent("stderr.txt")))
        port = server.port
    }

    func stop() { server.stop() }

    /// A fresh key, so tests running in parallel never share a resource or its log.
    static func uniqueKey(_ label: String) -> String {
        "\(label)-\(UUID().uuidString.prefix(8))"
    }

    func url(_ pathAndQuery: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(pathAndQuery)")!
    }

    /// The requests logged for `key`, once at least `atLeast` are there (the server logs a
    /// request after sending its response, so the log may lag the client by a moment; 30 s at most).
    func requests(for key: String, atLeast: Int = 1) -> [LoggedRequest] {
        let file = logDirectory.appendingPathComponent("\(key).jsonl")
        var entries: [LoggedRequest] = []
        waitUntil {
            entries = ((try? String(contentsOf: file, encoding: .utf8)) ?? "")
                .split(separator: "\n")
                .compactMap { try? JSONDecoder().decode(LoggedRequest.self, from: Data($0.utf8)) }
            return entries.count >= atLeast
        }
        return entries
            .sorted { $0.seq < $1.seq }
    }

    // Unsafe: read and written only under `lock`.
    nonisolated(unsafe) private static var contentCache: [String: Data] = [:]

    /// The bytes `/file/KEY?size=…&seed=…` serves, made by the same Python generator.
    static func expectedContent(size: Int, seed: Int) throws -> Data {
        let key = "\(size)-\(seed)"
        if let cached = lock.withLock({ contentCache[key] }) { return cached }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-expected-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import random,sys; open(sys.argv[1],'wb').write(random.Random(\(seed)).randbytes(\(size)))", file.path]
        try process.run()
        process.waitUntilExit()
        let data = try Data(contentsOf: file)
        lock.withLock { contentCache[key] = data }
        return data
    }

    static let script = #"""
# Newsstand's test HTTP server (127.0.0.1 only). Started by the tests, it prints its port
# on the first line of stdout and exits when its stdin closes (the test process ended).
import base64, hashlib, json, os, random, re, socket, sys, threading, time
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

LOG_DIR = sys.argv[1]
lock = threading.Lock()
arrivals = 0
counts = {}
nonces = {}
stale_given = set()
contents = {}


def content(seed, size):
    with lock:
        data = contents.get((seed, size))
        if data is None:
            data = random.Random(seed).randbytes(size)
            contents[(seed, size)] = data
        return data


def log(key, record):
    line = json.dumps(record) + "\n"
    with lock:
        with open(os.path.join(LOG_DIR, key + ".jsonl"), "a") as f:
            f.write(line)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        global arrivals
        with lock:
            arrivals += 1
            self.seq = arrivals
        url = urlsplit(self.path)
        self.q = {k: v[-1] for k, v in parse_qs(url.query).items()}
        parts = [p for p in url.path.split("/") if p]
        self.close_connection = True
        if len(parts) == 2 and parts[0] == "file":
            self.serve_file(parts[1], url.query)
        elif len(parts) == 3 and parts[0] == "redirect":
            self.redirect(int(parts[1]), parts[2], url.query)
        elif len(parts) == 2 and parts[0] == "loop":
            self.record(parts[1], 302)
            self.simple(302, {"Location": "/loop/%s?%s" % (parts[1], url.query)})
        elif len(parts) == 2 and parts[0] == "to":
            self.record(parts[1], 302)
            self.simple(302, {"Location": self.q["location"]})
        elif len(parts) == 2 and parts[0] == "status":
            self.simple(int(parts[1]), {})
        elif len(parts) == 2 and parts[0] == "progression":
            self.progression(parts[1])
        else:
            self.simple(404, {})

    def do_PUT(self):
        if self.path.startswith("/progression/"):
            global arrivals
            with lock:
                arrivals += 1
                self.seq = arrivals
            self.q = {k: v[-1] for k, v in parse_qs(urlsplit(self.path).query).items()}
            self.progression(urlsplit(self.path).path.split("/")[2])
        else:
            self.echo()

    def progression(self, key):
        # `/progression/KEY`: an OPDS 2 progression document kept by PUT and read by GET
        # (404 before one is kept), behind Digest with auth=digest.
        body = self.rfile.read(int(self.headers.get("Content-Length", "0"))) if self.command == "PUT" else b""
        if self.q.get("auth") == "digest" and not self.digest_ok(self.q):
            self.record(key, 401)
            return
        self.record(key, 200, method=self.command)
        with lock:
            if self.command == "PUT":
                contents[("progression", key)] = body
            kept = contents.get(("progression", key))
        if self.command == "GET" and kept is None:
            self.simple(404, {})
        else:
            self.simple(200, {"Content-Type": "application/vnd.readium.progression+json"}, kept if self.command == "GET" else b"{}")

    def do_POST(self):
        self.echo()

    def echo(self):
        # `/echo`: the request's method, body and Content-Type as JSON, and the client's
        # port (the same port twice: one connection kept alive). The connection stays open.
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        answer = json.dumps({"method": self.command, "path": self.path, "body": body.decode("utf-8", "replace"),
                             "content_type": self.headers.get("Content-Type"), "port": self.client_address[1]}).encode()
        self.send_response(201 if self.command == "POST" else 200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def simple(self, status, headers, body=b"test server\n"):
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)

    def digest_ok(self, q):
        """HTTP Digest (RFC 7616) for user/pass, algorithm=MD5|SHA-256 (qop auth or, with
        qop=none, RFC 2069); stale_first=1 calls a right answer to the first nonce stale;
        also_basic=1 offers Basic in a second WWW-Authenticate; auth_doc=1 sends an OPDS
        Authentication Document with the 401."""
        algorithm = q.get("algorithm", "MD5")
        hash = hashlib.sha256 if algorithm.startswith("SHA-256") else hashlib.md5
        h = lambda text: hash(text.encode()).hexdigest()
        realm = 'Newsstand "digest", test'
        given = {}
        header = self.headers.get("Authorization", "")
        if header.startswith("Digest "):
            for m in re.finditer(r'([A-Za-z-]+)=(?:"((?:[^"\\]|\\.)*)"|([^,\s]*))', header[7:]):
                given[m.group(1)] = re.sub(r'\\(.)', r'\1', m.group(2)) if m.group(2) is not None else m.group(3)
        stale = False
        if given:
            ha1 = h("%s:%s:%s" % (q["user"], realm, q["pass"]))
            ha2 = h("%s:%s" % (self.command, given.get("uri", "")))
            if q.get("qop") == "none":
                wanted = h("%s:%s:%s" % (ha1, given.get("nonce", ""), ha2))
            else:
                wanted = h(":".join([ha1, given.get("nonce", ""), given.get("nc", ""), given.get("cnonce", ""), "auth", ha2]))
            right = (given.get("response") == wanted and given.get("uri") == self.path and given.get("username") == q["user"]
                     and given.get("realm") == realm and given.get("opaque") == "opaque-value")
            with lock:
                right = right and given.get("nonce") in nonces
                stale = right and q.get("stale_first") and self.path not in stale_given
                if stale:
                    stale_given.add(self.path)
            if right and not stale:
                return True
        with lock:
            nonce = base64.b64encode(os.urandom(12)).decode()
            nonces[nonce] = len(nonces) + 1
        qop = '' if q.get("qop") == "none" else ', qop="auth,auth-int"'
        challenge = 'Digest realm="%s"%s, algorithm=%s, nonce="%s", opaque="opaque-value"%s' % (
            realm.replace('"', '\\"'), qop, algorithm, nonce, ", stale=true" if stale else "")
        body = b"test server\n"
        if q.get("auth_doc"):
            body = json.dumps({"id": "/auth", "title": "Test Library", "description": "Sign in with your card",
                               "links": [{"rel": "logo", "href": "/logo.png", "type": "image/png"},
                                         {"rel": "register", "href": "https://example.org/join", "type": "text/html"}],
                               "authentication": [{"type": "http://opds-spec.org/auth/basic",
                                                   "labels": {"login": "Card number", "password": "PIN"}}]}).encode()
        self.send_response(401)
        self.send_header("WWW-Authenticate", challenge)
        if q.get("also_basic"):
            self.send_header("WWW-Authenticate", 'Basic realm="fallback"')
        if q.get("auth_doc"):
            self.send_header("Content-Type", "application/opds-authentication+json")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)
        return False

    def record(self, key, status, n=None, **extra):
        entry = {"seq": self.seq, "n": n, "path": self.path, "status": status,
                 "range": self.headers.get("Range"), "if_range": self.headers.get("If-Range"),
                 "authorization": self.headers.get("Authorization"),
                 "user_agent": self.headers.get("User-Agent"), "x_test": self.headers.get("X-Test")}
        entry.update(extra)
        log(key, entry)

    def redirect(self, hops, key, query):
        self.record(key, 302)
        if hops > 0:
            target = "/redirect/%d/%s?%s" % (hops - 1, key, query)
            if hops % 2 == 1:  # alternate absolute and relative Locations
                target = "http://127.0.0.1:%d%s" % (self.server.server_address[1], target)
        else:
            target = "/file/%s?%s" % (key, query)
        self.simple(302, {"Location": target})

    def serve_file(self, key, query):
        q = self.q
        with lock:
            counts[key] = counts.get(key, 0) + 1
            n = counts[key]

        auth = q.get("auth")
        if auth == "digest":
            if not self.digest_ok(q):
                self.record(key, 401, n)
                return
        elif auth:
            if auth == "basic":
                wanted = "Basic " + base64.b64encode(("%s:%s" % (q["user"], q["pass"])).encode()).decode()
            else:
                wanted = "Bearer " + q["token"]
            if self.headers.get("Authorization") != wanted:
                self.record(key, 401, n)
                scheme = 'Basic realm="newsstand"' if auth == "basic" else 'Bearer realm="newsstand"'
                self.simple(401, {"WWW-Authenticate": scheme})
                return

        fail = q.get("fail")
        if fail and n <= int(q.get("fail_times", "1000000")):
            headers = {}
            if "retry_after" in q:
                headers["Retry-After"] = q["retry_after"]
            self.record(key, int(fail), n)
            self.simple(int(fail), headers)
            return

        size = int(q.get("size", "1000"))
        seed = int(q.get("seed", "1"))
        if "change_after" in q and n > int(q["change_after"]):
            seed += 1000
        data = content(seed, size)
        tag = hashlib.sha256(data).hexdigest()[:16]
        etag = ('W/"%s"' if q.get("validators") == "weak" else '"%s"') % tag
        last_modified = formatdate(1700000000 + seed * 1000, usegmt=True)
        kinds = q.get("validators", "both")
        headers = {}
        if "huge_header" in q:
            headers["X-Huge"] = "h" * int(q["huge_header"])
        if kinds in ("both", "etag", "weak"):
            headers["ETag"] = etag
        if kinds in ("both", "lastmod"):
            headers["Last-Modified"] = last_modified

        status, start, end = 200, 0, size
        requested = self.headers.get("Range")
        if requested and q.get("ignore_range") != "1" and requested.startswith("bytes="):
            if_range = self.headers.get("If-Range")
            current = if_range is None or if_range in (headers.get("ETag"), headers.get("Last-Modified"))
            if if_range is not None and if_range.startswith("W/"):
                current = False
            first = int(requested[6:].split("-")[0])
            if current and first >= size:
                headers["Content-Range"] = "bytes */%d" % size
                self.record(key, 416, n)
                self.simple(416, headers, b"")
                return
            if current:
                status, start = 206, first
                if "short_range" in q:
                    end = min(size, start + int(q["short_range"]))
                shown = start + int(q.get("bad_range", "0"))
                headers["Content-Range"] = "bytes %d-%d/%d" % (shown, end - 1, size)
        body = data[start:end]

        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        if q.get("chunked") == "1":
            self.send_header("Transfer-Encoding", "chunked")
        elif q.get("no_length") != "1":
            self.send_header("Content-Length", str(len(body) + int(q.get("length_delta", "0"))))
        self.send_header("Connection", "close")
        self.end_headers()

        drop_after = int(q["drop_after"]) if "drop_after" in q and n <= int(q.get("drops", "1")) else None
        stall_after = int(q["stall_after"]) if "stall_after" in q else None
        piece = int(q.get("chunk", "65536"))
        delay = int(q.get("delay_ms", "0")) / 1000.0
        sent = 0
        try:
            while sent < len(body):
                limit = len(body)
                if drop_after is not None:
                    limit = min(limit, drop_after)
                if stall_after is not None:
                    limit = min(limit, stall_after)
                if sent >= limit:
                    break
                block = body[sent:min(limit, sent + piece)]
                if q.get("chunked") == "1":
                    self.wfile.write(b"%x\r\n" % len(block) + block + b"\r\n")
                else:
                    self.wfile.write(block)
                self.wfile.flush()
                sent += len(block)
                if delay:
                    time.sleep(delay)
            if stall_after is not None and sent >= stall_after:
                time.sleep(int(q.get("stall_ms", "5000")) / 1000.0)
            elif drop_after is not None and sent >= drop_after:
                if q.get("drop_mode") == "reset":
                    self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
                    self.connection.close()
                else:
                    self.connection.shutdown(socket.SHUT_RDWR)
            elif q.get("chunked") == "1":
                self.wfile.write(b"0\r\n\r\n")
        except OSError:
            pass
        self.record(key, status, n, sent=sent)


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def watch_stdin():
    while sys.stdin.buffer.read(1):
        pass
    import shutil
    shutil.rmtree(os.path.dirname(LOG_DIR), ignore_errors=True)  # script, logs, stderr
    os._exit(0)


server = Server(("127.0.0.1", 0), Handler)
if len(sys.argv) > 3:  # certificate and key: serve https
    import ssl
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(sys.argv[2], sys.argv[3])
    server.socket = context.wrap_socket(server.socket, server_side=True)
threading.Thread(target=watch_stdin, daemon=True).start()
print(server.server_address[1], flush=True)
server.serve_forever()
"""#
}
