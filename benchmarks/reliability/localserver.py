"""A small HTTP/1.1 server on 127.0.0.1 for the reliability scripts: serves files from a
directory with Range support at a chosen pace, and misbehaves on request (see
`MISBEHAVIOURS`). Never listens on any other address."""
import http.server
import os
import re
import socketserver
import threading
import time


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, root, chunk=64 << 10, pause=0.0):
        self.root = root
        self.chunk = chunk
        self.pause = pause
        self.requests = 0
        super().__init__(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.serve_forever, daemon=True)

    @property
    def base(self):
        return f"http://127.0.0.1:{self.server_address[1]}"

    def start(self):
        self.thread.start()
        return self

    def stop(self):
        self.shutdown()
        self.server_close()


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        self.server.requests += 1
        name = self.path.split("?")[0].lstrip("/")
        path = os.path.join(self.server.root, name)
        if "/" in name or not os.path.isfile(path):
            body = b"not found\n"
            self.send_response(404)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        size = os.path.getsize(path)
        start, end = 0, size - 1
        match = re.fullmatch(r"bytes=(\d+)-(\d*)", self.headers.get("Range", ""))
        if match and int(match.group(1)) < size:
            start = int(match.group(1))
            if match.group(2):
                end = min(end, int(match.group(2)))
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{end}/{size}")
        else:
            self.send_response(200)
        self.send_header("Content-Type", "application/zip")
        self.send_header("Content-Length", str(end - start + 1))
        self.send_header("ETag", f'"{int(os.path.getmtime(path))}-{size}"')
        self.end_headers()
        try:
            with open(path, "rb") as f:
                f.seek(start)
                left = end - start + 1
                while left > 0:
                    data = f.read(min(self.server.chunk, left))
                    if not data:
                        break
                    self.wfile.write(data)
                    left -= len(data)
                    if self.server.pause:
                        time.sleep(self.server.pause)
        except (BrokenPipeError, ConnectionResetError):
            pass
