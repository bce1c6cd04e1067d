#!/usr/bin/env python3
"""A KOReader sync (kosync) server for tests and benchmarks, written from the published API
(KOReader's kosync plugin and koreader-sync-server's routes, status codes and error bodies),
on 127.0.0.1 only. No kosync server is packaged for Debian or PyPI.

    kosync_server.py STATE_DIR [--port P]

Prints the port it listens on as its first line and serves until its standard input closes.
Users and places are kept in STATE_DIR/state.json when it stops, so a server stopped and
started again on the same directory and port is "the same server, back up".
Each request is counted in STATE_DIR/requests.txt (one line: the count), for tests.
Its clock is the system's plus STATE_DIR/clock-offset.txt's seconds, when that file exists:
tests move it forward rather than sleep past the second places are stamped to, or fix it
(STATE_DIR/clock-fixed.txt: that second for every place). Each answer
waits STATE_DIR/answer-delay.txt's seconds first, when that file exists (a slow server).

Routes (every one needs `Accept: application/vnd.koreader.v1+json`, else 406):
  POST /users/create            {"username", "password"}  201 {"username"}; 402 code 2002 taken;
                                                           403 code 2003 empty or ':' in a field
  GET  /users/auth              x-auth-user, x-auth-key    200 {"authorized": "OK"}; 401 code 2001
  PUT  /syncs/progress          {"document", "progress", "percentage", "device", "device_id"?}
                                                           200 {"document", "timestamp"};
                                                           403 code 2004 no document, 2003 a field missing
  GET  /syncs/progress/DOCUMENT                            200 the place, or {} when none
"""
import json
import os
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

ACCEPT = "application/vnd.koreader.v1+json"
ERRORS = {
    2000: (502, "Unknown server error."),
    2001: (401, "Unauthorized"),
    2002: (402, "Username is already registered."),
    2003: (403, "Invalid request"),
    2004: (403, "Field 'document' not provided."),
}

state_dir = sys.argv[1]


def now():
    """Whole seconds, as the real server stamps places, moved by the tests' offset; or the
    second in STATE_DIR/clock-fixed.txt, when that file exists (every place in one second)."""
    try:
        with open(os.path.join(state_dir, "clock-fixed.txt")) as fixed:
            return int(fixed.read().strip())
    except (FileNotFoundError, ValueError):
        pass
    try:
        with open(os.path.join(state_dir, "clock-offset.txt")) as offset:
            return int(time.time()) + int(offset.read().strip() or 0)
    except FileNotFoundError:
        return int(time.time())

port = int(sys.argv[sys.argv.index("--port") + 1]) if "--port" in sys.argv else 0
state_file = os.path.join(state_dir, "state.json")
lock = threading.Lock()
state = {"users": {}, "documents": {}}
requests = 0
# Opened once: the count only grows, so writing it over the old one never leaves a shorter
# number's tail, and a reader never finds the file empty. (Opened, truncated, written and
# closed each request, it took more than half the server's CPU.)
requests_file = os.open(os.path.join(state_dir, "requests.txt"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
if os.path.exists(state_file):
    with open(state_file) as f:
        state = json.load(f)


def save():
    staging = state_file + ".new"
    with open(staging, "w") as f:
        json.dump(state, f)
    os.replace(staging, state_file)


def valid(field):
    return isinstance(field, str) and len(field) > 0


def valid_key(field):
    return valid(field) and ":" not in field


class Refusal(Exception):
    def __init__(self, code):
        self.code = code


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def setup(self):
        super().setup()
        # Answers go out whole at once: no wait on the client's delayed acknowledgement.
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def answer(self, status, body):
        try:
            with open(os.path.join(state_dir, "answer-delay.txt")) as delay:
                time.sleep(float(delay.read().strip() or 0))
        except (OSError, ValueError):
            pass
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self._headers_buffer.append(b"\r\n")
        self.wfile.write(b"".join(self._headers_buffer) + data)
        self._headers_buffer = []

    def body(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            parsed = json.loads(raw or b"{}")
        except ValueError:
            raise Refusal(2003)
        if not isinstance(parsed, dict):
            raise Refusal(2003)
        return parsed

    def user(self):
        name, key = self.headers.get("x-auth-user"), self.headers.get("x-auth-key")
        if valid_key(name) and valid(key) and state["users"].get(name) == key:
            return name
        raise Refusal(2001)

    def route(self, method):
        global requests
        with lock:
            requests += 1
            os.pwrite(requests_file, str(requests).encode(), 0)
        if ACCEPT not in (self.headers.get("Accept") or ""):
            self.answer(406, {"code": 100, "message": "Accept header not set or not version 1."})
            return
        try:
            with lock:
                status, body = self.act(method, self.path.split("?")[0])
        except Refusal as refusal:
            status, message = ERRORS[refusal.code]
            body = {"code": refusal.code, "message": message}
        self.answer(status, body)

    def act(self, method, path):
        if method == "POST" and path == "/users/create":
            body = self.body()
            name, key = body.get("username"), body.get("password")
            if not valid_key(name) or not valid(key):
                raise Refusal(2003)
            if name in state["users"]:
                raise Refusal(2002)
            state["users"][name] = key
            return 201, {"username": name}
        if method == "GET" and path == "/users/auth":
            self.user()
            return 200, {"authorized": "OK"}
        if method == "PUT" and path == "/syncs/progress":
            name = self.user()
            body = self.body()
            document = body.get("document")
            if not valid_key(document):
                raise Refusal(2004)
            percentage, progress, device = body.get("percentage"), body.get("progress"), body.get("device")
            if not isinstance(percentage, (int, float)) or progress is None or device is None:
                raise Refusal(2003)
            timestamp = now()
            place = {"percentage": percentage, "progress": str(progress), "device": device, "timestamp": timestamp}
            if body.get("device_id") is not None:
                place["device_id"] = body["device_id"]
            state["documents"].setdefault(name, {})[document] = place
            return 200, {"document": document, "timestamp": timestamp}
        if method == "GET" and path.startswith("/syncs/progress/"):
            name = self.user()
            document = path[len("/syncs/progress/"):]
            if not valid_key(document):
                raise Refusal(2004)
            place = state["documents"].get(name, {}).get(document)
            return 200, dict(place, document=document) if place else {}
        return 404, {"code": 404, "message": "Not found"}

    def do_GET(self):
        self.route("GET")

    def do_POST(self):
        self.route("POST")

    def do_PUT(self):
        self.route("PUT")


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


server = Server(("127.0.0.1", port), Handler)
print(server.server_address[1], flush=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
sys.stdin.read()
server.shutdown()
with lock:
    save()
