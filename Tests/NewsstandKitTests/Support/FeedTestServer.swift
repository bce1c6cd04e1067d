import Foundation
import TestSupport

/// A Python 3 server on 127.0.0.1 for feed and push tests, one per test (call `stop()`).
/// It serves the files of `root` (written by the test) with an ETag and Last-Modified and
/// answers 304 to a matching `If-None-Match` / `If-Modified-Since`. `/status/CODE` answers
/// CODE. A file ending in `.sse` is a server-sent-events stream: its events (blocks
/// separated by a blank line, read again every 50 ms so a test can append) are sent from
/// the one after `Last-Event-ID` (from the first with `?ignore_last_event_id=1`, as careless
/// servers do); `?per_connection=N` closes the connection after N events.
/// Every request is logged (path, validators, Last-Event-ID, status) and `requests()`
/// returns them in order of arrival.
// @unchecked: every property is a `let` set at init; the process and its pipe (not Sendable) are touched after that only by `stop()`.
final class FeedTestServer: @unchecked Sendable {
    struct LoggedRequest: Decodable, Equatable {
        var seq: Int
        var path: String
        var status: Int
        var if_none_match: String?
        var if_modified_since: String?
        var last_event_id: String?
        var accept: String?
    }

    let port: Int
    let root: URL
    private let directory: URL
    private let server: ChildServer

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("newsstand-feed-server-\(UUID().uuidString)")
        root = directory.appendingPathComponent("root")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let script = directory.appendingPathComponent("server.py")
        try Data(FeedTestServer.script.utf8).write(to: script)
        server = try ChildServer(python: script.path, [root.path, directory.appendingPathComponent("log.jsonl").path], name: "feed")
        port = server.port
    }

    func stop() {
        server.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)/\(path)")! }

    /// Writes `text` as the file served at `/path`.
    func put(_ path: String, _ text: String) throws {
        let file = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file, options: .atomic)
    }

    /// Appends one event block to a `.sse` stream.
    func appendEvent(_ path: String, _ block: String) throws {
        let file = root.appendingPathComponent(path)
        let old = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        try Data((old + block + "\n\n").utf8).write(to: file, options: .atomic)
    }

    /// The logged requests, once at least `atLeast` are there: the server logs a request
    /// as its response ends, so the log may lag the client by a moment.
    func requests(path: String? = nil, atLeast: Int = 0) -> [LoggedRequest] {
        requests(where: { path == nil || $0.path == "/" + path! }, atLeast: atLeast)
    }

    /// The logged requests `included`, once at least `atLeast` of them are there (30 s at most).
    func requests(where included: (LoggedRequest) -> Bool, atLeast: Int) -> [LoggedRequest] {
        var found: [LoggedRequest] = []
        waitUntil {
            let text = (try? String(contentsOf: directory.appendingPathComponent("log.jsonl"), encoding: .utf8)) ?? ""
            found = text.split(separator: "\n")
                .compactMap { try? JSONDecoder().decode(LoggedRequest.self, from: Data($0.utf8)) }
                .filter(included)
                .sorted { $0.seq < $1.seq }
            return found.count >= atLeast
        }
        return found
    }

    static let script = #"""
# Newsstand's feed test server (127.0.0.1 only): prints its port, exits when stdin closes.
import hashlib, json, os, sys, threading, time
from email.utils import formatdate, parsedate_to_datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

ROOT, LOG = sys.argv[1], sys.argv[2]
lock = threading.Lock()
seq = [0]
stopping = threading.Event()


def log(record):
    with lock:
        with open(LOG, "a") as f:
            f.write(json.dumps(record) + "\n")


def events(path):
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return []
    return [block for block in text.split("\n\n") if block.strip()]


def event_id(block):
    for line in block.split("\n"):
        if line.startswith("id:"):
            return line[3:].lstrip(" ")
    return None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def log_message(self, *args):
        pass

    def do_GET(self):
        with lock:
            seq[0] += 1
            n = seq[0]
        parts = urlsplit(self.path)
        query = parse_qs(parts.query)
        record = {"seq": n, "path": parts.path, "status": 200,
                  "if_none_match": self.headers.get("If-None-Match"),
                  "if_modified_since": self.headers.get("If-Modified-Since"),
                  "last_event_id": self.headers.get("Last-Event-ID"),
                  "accept": self.headers.get("Accept")}
        try:
            if parts.path.startswith("/status/"):
                record["status"] = int(parts.path.split("/")[2])
                self.send_response(record["status"])
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            file = os.path.normpath(os.path.join(ROOT, parts.path.lstrip("/")))
            if not file.startswith(ROOT) or not os.path.isfile(file):
                record["status"] = 404
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            if file.endswith(".sse"):
                self.stream(file, query, record)
                return
            with open(file, "rb") as f:
                body = f.read()
            etag = '"' + hashlib.sha1(body).hexdigest()[:16] + '"'
            mtime = int(os.stat(file).st_mtime)
            last_modified = formatdate(mtime, usegmt=True)
            inm = self.headers.get("If-None-Match")
            ims = self.headers.get("If-Modified-Since")
            unchanged = False
            if inm is not None:
                unchanged = etag in [t.strip() for t in inm.split(",")]
            elif ims is not None:
                try:
                    unchanged = parsedate_to_datetime(ims).timestamp() >= mtime
                except (TypeError, ValueError):
                    unchanged = False
            if unchanged:
                record["status"] = 304
                self.send_response(304)
                self.send_header("ETag", etag)
                self.end_headers()
                return
            self.send_response(200)
            self.send_header("Content-Type", "application/xml")
            self.send_header("Content-Length", str(len(body)))
            if "no_etag" not in query:
                self.send_header("ETag", etag)
            self.send_header("Last-Modified", last_modified)
            self.end_headers()
            self.wfile.write(body)
        finally:
            if not record.get("logged"):
                log(record)

    def stream(self, file, query, record):
        per_connection = int(query.get("per_connection", ["0"])[0])
        log(record)  # at once: a stream may stay open for the whole test
        record["logged"] = True
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        self.wfile.flush()
        last = self.headers.get("Last-Event-ID")
        blocks = events(file)
        start = 0
        if last and "ignore_last_event_id" not in query:
            for i, block in enumerate(blocks):
                if event_id(block) == last:
                    start = i + 1
        sent = 0
        quiet = 0.0
        while not stopping.is_set():
            blocks = events(file)
            while start < len(blocks):
                self.wfile.write((blocks[start] + "\n\n").encode("utf-8"))
                self.wfile.flush()
                start += 1
                sent += 1
                if per_connection and sent >= per_connection:
                    return
            time.sleep(0.05)
            quiet += 0.05
            if quiet >= 1:
                self.wfile.write(b": keep-alive\n\n")
                self.wfile.flush()
                quiet = 0


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass


server = Server(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
sys.stdin.read()
stopping.set()
server.shutdown()
"""#
}
