#!/usr/bin/env python3
"""The editions benchmark's loopback server: DIR over HTTP on 127.0.0.1:PORT, many requests
at once (as `python3 -m http.server`), each picture answered after DELAY_MS milliseconds, as a
remote host would be, so fetching pictures one or two at a time shows.

    serve.py PORT DIR DELAY_MS
Standard library only.
"""

import functools
import sys
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

port, root, delay = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]) / 1000


class Handler(SimpleHTTPRequestHandler):
    def do_GET(self):
        if self.path.startswith("/pictures/") and delay > 0:
            time.sleep(delay)
        super().do_GET()

    def log_message(self, *args):
        pass


class Server(ThreadingHTTPServer):
    # socketserver listens with a backlog of 5: eight connections at once then lose a SYN
    # and wait out TCP's one-second retransmit. Web servers listen with hundreds (nginx 511).
    request_queue_size = 128


Server(("127.0.0.1", port), functools.partial(Handler, directory=root)).serve_forever()
