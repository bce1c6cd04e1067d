#!/usr/bin/env python3
"""A misbehaving HTTP server on 127.0.0.1 for the reliability tests and scripts. Prints its
port on the first line of standard output and exits when standard input closes.

Paths (query `interval=S` sets drip pauses, default 1 s):
  /endless          200, no Content-Length, an endless body (close-delimited)
  /endless-chunked  200, chunked, chunks for ever
  /endless-feed     200, a feed that never ends: <feed> then entries for ever
  /huge-length      200, Content-Length: 10 TB, then an endless body
  /stall            reads the request, never answers
  /stall-body       Content-Length 1 MB, 1000 bytes, then silence
  /drip-headers     the status line, then one header byte per interval, for ever
  /drip-body        Content-Length 1 MB, then one body byte per interval
  /huge-headers     one 1 MB header line
  /many-headers     200 000 short header lines
  /loop             302 to itself
  /ping, /pong      302 to each other
  /chain/N          302 to /chain/N-1 ... /chain/0 serves /feed
  /html             200 text/html, a web page where a feed or a zip was expected
  /feed-as-png      a valid Atom feed served as image/png
  /garbage          200 application/zip, random bytes
  /feed             an Atom feed whose issues point at the paths above (for downloads);
                    `?quick=1` leaves out the endless one (2 GB before the cap stops it)
"""
import os
import random
import socket
import socketserver
import sys
import threading
import time
import urllib.parse


FEED_ENTRY = ('<entry><id>{name}</id><title>{name}</title><updated>2026-11-0{day}T00:00:00Z</updated>'
              '<link rel="http://opds-spec.org/acquisition" type="application/zip" href="{href}"/></entry>')
ISSUE_PATHS = ["endless-chunked", "huge-length", "huge-headers", "loop", "ping", "html", "garbage", "chain/12"]


def feed_bytes(quick=False):
    paths = [p for p in ISSUE_PATHS if not (quick and p.startswith("endless"))]
    entries = "".join(FEED_ENTRY.format(name=f"bad-{p.replace('/', '-')}", day=i % 9 + 1, href="/" + p)
                      for i, p in enumerate(paths))
    return ('<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom">'
            '<title>Bad Server Gazette</title><id>urn:bad</id><updated>2026-11-01T00:00:00Z</updated>'
            + entries + "</feed>").encode()


class Handler(socketserver.StreamRequestHandler):
    def send(self, data):
        self.wfile.write(data if isinstance(data, bytes) else data.encode())
        self.wfile.flush()

    def head(self, status, headers, reason="OK"):
        self.send(f"HTTP/1.1 {status} {reason}\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers) + "\r\n")

    def handle(self):
        try:
            request = self.rfile.readline(65536).decode("latin-1")
            while self.rfile.readline(65536) not in (b"\r\n", b"\n", b""):
                pass
            url = urllib.parse.urlsplit(request.split(" ")[1] if " " in request else "/")
            query = urllib.parse.parse_qs(url.query)
            interval = float(query.get("interval", ["1"])[0])
            self.quick = "quick" in query
            self.route(url.path, interval)
        except (BrokenPipeError, ConnectionResetError, socket.timeout, OSError):
            pass

    def route(self, path, interval):
        block = random.Random(7).randbytes(64 << 10)
        if path == "/endless":
            self.head(200, [("Content-Type", "application/zip"), ("Connection", "close")])
            while True:
                self.send(block)
        elif path == "/endless-chunked":
            self.head(200, [("Content-Type", "application/zip"), ("Transfer-Encoding", "chunked")])
            while True:
                self.send(b"%x\r\n" % len(block) + block + b"\r\n")
        elif path == "/endless-feed":
            self.head(200, [("Content-Type", "application/atom+xml"), ("Connection", "close")])
            self.send('<feed xmlns="http://www.w3.org/2005/Atom"><title>Endless</title>')
            entry = "".join(FEED_ENTRY.format(name=f"e{i}", day=1, href="/x.zip") for i in range(200)).encode()
            while True:
                self.send(entry)
        elif path == "/huge-length":
            self.head(200, [("Content-Type", "application/zip"), ("Content-Length", str(10 << 40))])
            while True:
                self.send(block)
        elif path == "/stall":
            self.wait_for_close(600)
        elif path == "/stall-body":
            self.head(200, [("Content-Type", "application/zip"), ("Content-Length", str(1 << 20))])
            self.send(block[:1000])
            self.wait_for_close(600)
        elif path == "/drip-headers":
            self.send("HTTP/1.1 200 OK\r\nX-Drip: ")
            while True:
                time.sleep(interval)
                self.send("x")
        elif path == "/drip-body":
            self.head(200, [("Content-Type", "application/zip"), ("Content-Length", str(1 << 20))])
            while True:
                time.sleep(interval)
                self.send(b"x")
        elif path == "/huge-headers":
            self.send("HTTP/1.1 200 OK\r\nX-Huge: " + "h" * (1 << 20) + "\r\n\r\n")
        elif path == "/many-headers":
            self.send("HTTP/1.1 200 OK\r\n" + "X-A: b\r\n" * 200_000 + "Content-Length: 0\r\n\r\n")
        elif path == "/loop":
            self.redirect("/loop")
        elif path in ("/ping", "/pong"):
            self.redirect("/pong" if path == "/ping" else "/ping")
        elif path.startswith("/chain/"):
            hops = int(path.split("/")[2])
            self.redirect(f"/chain/{hops - 1}" if hops > 0 else "/feed")
        elif path == "/html":
            self.body(200, "text/html", b"<!doctype html><html><body><h1>Welcome!</h1><p>Not a feed.</p></body></html>")
        elif path == "/feed-as-png":
            self.body(200, "image/png", feed_bytes(self.quick))
        elif path == "/garbage":
            self.body(200, "application/zip", block[:5000])
        elif path == "/feed":
            self.body(200, "application/atom+xml", feed_bytes(self.quick))
        else:
            self.body(404, "text/plain", b"not found\n", reason="Not Found")

    def body(self, status, kind, data, reason="OK"):
        self.head(status, [("Content-Type", kind), ("Content-Length", str(len(data))), ("Connection", "close")], reason)
        self.send(data)

    def redirect(self, location):
        self.head(302, [("Location", location), ("Content-Length", "0"), ("Connection", "close")], "Found")

    def wait_for_close(self, seconds):
        self.request.settimeout(seconds)
        try:
            self.request.recv(1)
        except OSError:
            pass


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    server = Server(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(server.server_address[1], flush=True)
    sys.stdin.read()   # until the parent closes it
    os._exit(0)


if __name__ == "__main__":
    main()
