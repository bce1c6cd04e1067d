#!/usr/bin/env python3
"""A loopback OPDS catalog for the catalogs benchmark (issue #25), written for it.

Serves on 127.0.0.1 (port 0: the chosen port is printed on the first line):
  /opds            an OPDS 1.2 navigation feed: one entry, "By Newest"
  /opds/new?page=N an acquisition feed of BOOKS books, PER_PAGE a page, `next` links
  /covers/N.png    a small PNG cover for every book
  /get/N.epub      never fetched by the benchmark (subscribing lists issues; it downloads nothing)
Usage: server.py [BOOKS] [PER_PAGE]
"""
import struct
import sys
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

BOOKS = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
PER_PAGE = int(sys.argv[2]) if len(sys.argv) > 2 else 50
ACQ = "application/atom+xml;profile=opds-catalog;kind=acquisition"


def png(width, height, rgb):
    raw = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


COVER = png(60, 90, (40, 90, 160))


def root():
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><id>urn:bench:root</id><title>Benchmark Catalog</title>
<updated>2026-03-01T00:00:00Z</updated>
<link rel="search" type="application/atom+xml" href="/opds/search/{{searchTerms}}"/>
<entry><title>By Newest</title><id>urn:bench:new</id><updated>2026-03-01T00:00:00Z</updated>
<link rel="http://opds-spec.org/sort/new" href="/opds/new" type="{ACQ}"/></entry></feed>"""


def page(number):
    first = number * PER_PAGE
    entries = []
    for n in range(first, min(first + PER_PAGE, BOOKS)):
        day = 1 + n % 28
        entries.append(f"""<entry><title>Book {n}: a story of the harbour</title><id>urn:bench:book:{n}</id>
<author><name>Writer {n % 37}</name></author><updated>2026-02-{day:02d}T00:00:00Z</updated>
<summary>The {n}th book of the benchmark catalog, with a summary of a line or two as servers give.</summary>
<link rel="http://opds-spec.org/image" href="/covers/{n}.png" type="image/png"/>
<link rel="http://opds-spec.org/image/thumbnail" href="/covers/{n}.png" type="image/png"/>
<link rel="http://opds-spec.org/acquisition" href="/get/{n}.epub" type="application/epub+zip" length="{100000 + n}"/></entry>""")
    pages = (BOOKS + PER_PAGE - 1) // PER_PAGE
    nxt = f'<link rel="next" href="/opds/new?page={number + 1}" type="{ACQ}"/>' if number + 1 < pages else ""
    prev = f'<link rel="previous" href="/opds/new?page={number - 1}" type="{ACQ}"/>' if number > 0 else ""
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><id>urn:bench:new</id><title>By Newest</title>
<updated>2026-03-01T00:00:00Z</updated>{nxt}{prev}
{"".join(entries)}</feed>"""


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out as two writes: without this, delayed ACKs hold each
    # response on a kept-alive connection ~40 ms.
    disable_nagle_algorithm = True

    def do_GET(self):
        url = urlparse(self.path)
        if url.path == "/opds":
            self.send(root().encode(), "application/atom+xml;profile=opds-catalog;kind=navigation")
        elif url.path == "/opds/new" or url.path.startswith("/opds/search/"):
            number = int(parse_qs(url.query).get("page", ["0"])[0])
            self.send(page(number).encode(), ACQ)
        elif url.path.startswith("/covers/"):
            self.send(COVER, "image/png")
        else:
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()

    def send(self, body, kind):
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
