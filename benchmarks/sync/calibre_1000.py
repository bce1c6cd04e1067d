#!/usr/bin/env python3
"""Syncing the places of 1,000 issues against calibre's content server (goal: <= 2 s, <= 50 MB).

    benchmarks/sync/calibre_1000.py [NEWSSTAND_BINARY] [--issues N]

calibre-server (Debian's `calibre`) serves a library of 1,000 books (metadata only, made
with calibre's own API through `calibre-debug`) on 127.0.0.1, with a user signed in by
HTTP Digest. Two libraries (two NEWSSTAND_HOMEs) hold the 1,000 books as taken from its
catalog (each issue's acquisition link `/get/epub/ID/library`); the first has read each to
some place, the second none. Both add the server with `sync add --kind calibre`. Timed, as
whole processes, each with its own peak RSS (wait4):
  push   `sync now` in the first: 1,000 places read from calibre (none there) and sent;
  pull   `sync now` in the second: 1,000 places read and taken;
  again  `sync now` in the first: nothing changed, 1,000 places read.
  curl   the same 1,000 places POSTed by curl, one after another on one kept connection.
  python8, python1  the same 1,000 places POSTed by the cheapest client there is: 8 (then 1)
         Python threads, each with one kept-alive http.client connection, Digest answered by
         hand from one challenge taken beforehand (calibre checks the nonce's hash, its age
         (an hour) and the uri, not nc: src/calibre/srv/auth.py, AuthController.do_http_auth),
         so no request is challenged again: calibre's own floor for sending, 8 at once or one.
  Then a few books' places are read back (/book-get-annotations) to see each step wrote them.
The issues are written into the library's database directly (the schema the program made),
so only syncing is timed. calibre's programs take one lock per user: run no calibre test beside it.
"""
import hashlib
import http.client
import itertools
import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
args = [a for a in sys.argv[1:] if not a.startswith("--") and not a.isdigit()]
binary = args[0] if args else os.path.join(root, ".build/release/newsstand")
count = int(sys.argv[sys.argv.index("--issues") + 1]) if "--issues" in sys.argv else 1000
work = tempfile.mkdtemp(prefix="newsstand-calibre-bench-")
calibre_env = dict(os.environ, QT_QPA_PLATFORM="offscreen", HOME=work, CALIBRE_CONFIG_DIRECTORY=os.path.join(work, "config"),
                   XDG_RUNTIME_DIR=work, LANG="C.UTF-8")


def run(home, *arguments, stdin=None):
    env = dict(os.environ, NEWSSTAND_HOME=home, NEWSSTAND_KEYRING="off", NEWSSTAND_RESOURCES=os.path.join(work, "none"))
    start = time.perf_counter()
    process = subprocess.Popen([binary, *arguments], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = process.communicate(stdin)
    elapsed = time.perf_counter() - start
    if process.returncode != 0:
        sys.exit(f"{' '.join(arguments)} failed: {err.strip()}")
    return elapsed, out.strip(), err.strip()


def run_measured(home, *arguments):
    """Like run, with the process's own peak RSS (MB) from wait4."""
    env = dict(os.environ, NEWSSTAND_HOME=home, NEWSSTAND_KEYRING="off", NEWSSTAND_RESOURCES=os.path.join(work, "none"))
    out_path = os.path.join(work, "out.txt")
    with open(out_path, "w") as out:
        start = time.perf_counter()
        pid = os.posix_spawn(binary, [binary, *arguments], env, file_actions=[(os.POSIX_SPAWN_DUP2, out.fileno(), 1),
                                                                            (os.POSIX_SPAWN_DUP2, out.fileno(), 2)])
        _, status, usage = os.wait4(pid, 0)
        elapsed = time.perf_counter() - start
    said = open(out_path).read().strip()
    if status != 0:
        sys.exit(f"{' '.join(arguments)} failed: {said}")
    return elapsed, usage.ru_maxrss / 1024, said


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fill(home, port, ids, with_places):
    run(home, "sync", "list")  # makes the library
    db = sqlite3.connect(os.path.join(home, "data", "library.sqlite"))
    db.execute("INSERT INTO publication (feedURL, title, addedAt) VALUES (?, 'calibre', '2026-01-01 00:00:00.000')",
               (f"http://127.0.0.1:{port}/opds/navcatalog/4f6e6577657374?library_id=library",))
    publication = db.execute("SELECT id FROM publication").fetchone()[0]
    for i, book in enumerate(ids):
        locator = json.dumps({"resource": "", "progression": 0, "totalProgression": round((i % 97) / 100, 2),
                              "updated": "2026-11-01T10:00:00Z"}) if with_places else None
        db.execute("INSERT INTO issue (publicationId, name, date, title, contentURL, status, locator) VALUES (?, ?, ?, ?, ?, 'available', ?)",
                   (publication, f"book-{i}", "2026-01-01 00:00:00.000", f"Book {i}", f"http://127.0.0.1:{port}/get/epub/{book}/library", locator))
    db.commit()
    db.close()


class Digest:
    """Digest answered by hand (qop=auth, MD5) from one challenge: each request gets the next nc."""

    def __init__(self, port, user, password):
        connection = http.client.HTTPConnection("127.0.0.1", port)
        connection.request("GET", "/book-get-annotations/library/0-EPUB")
        response = connection.getresponse()
        response.read()
        connection.close()
        challenge = response.getheader("WWW-Authenticate", "")
        if response.status != 401 or not challenge.startswith("Digest "):
            sys.exit(f"expected a Digest challenge, got {response.status} {challenge!r}")
        fields = dict((k.strip(), v.strip().strip('"')) for k, _, v in (part.partition("=") for part in challenge[7:].split(",")))
        if fields.get("qop") != "auth" or fields.get("algorithm", "MD5") != "MD5":
            sys.exit(f"unexpected Digest challenge {challenge!r}")
        self.user, self.realm, self.nonce = user, fields["realm"], fields["nonce"]
        self.ha1 = hashlib.md5(f"{user}:{self.realm}:{password}".encode()).hexdigest()
        self.counter = itertools.count(1)  # next() is atomic under the GIL
        self.cnonce = os.urandom(8).hex()

    def authorization(self, method, uri):
        nc = f"{next(self.counter):08x}"
        ha2 = hashlib.md5(f"{method}:{uri}".encode()).hexdigest()
        response = hashlib.md5(f"{self.ha1}:{self.nonce}:{nc}:{self.cnonce}:auth:{ha2}".encode()).hexdigest()
        return (f'Digest username="{self.user}", realm="{self.realm}", nonce="{self.nonce}", uri="{uri}", algorithm=MD5, '
                f'qop=auth, nc={nc}, cnonce="{self.cnonce}", response="{response}"')


def post_places(port, digest, ids, threads, device, pos_frac):
    """POSTs one place a book on `threads` kept-alive connections; returns seconds. Any 401 or other failure ends the run."""
    body = json.dumps({"device": device, "cfi": "epubcfi(/2)", "pos_frac": pos_frac}).encode()
    books = iter(ids)
    lock = threading.Lock()
    failures = []

    def worker():
        connection = http.client.HTTPConnection("127.0.0.1", port)
        try:
            while not failures:
                with lock:
                    book = next(books, None)
                if book is None:
                    return
                uri = f"/book-set-last-read-position/library/{book}/EPUB"
                # Head and body in one send(), as curl does: http.client's request() sends them
                # in two, and calibre then took 6.4 s for python1 against 2.3 s in one (one run each).
                head = (f"POST {uri} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
                        f"Content-Length: {len(body)}\r\nAuthorization: {digest.authorization('POST', uri)}\r\n\r\n")
                if connection.sock is None:
                    connection.connect()
                connection.sock.sendall(head.encode() + body)
                response = connection.response_class(connection.sock, method="POST")
                response.begin()
                response.read()
                if response.will_close:
                    failures.append(f"{uri}: calibre closed the kept connection")
                if response.status != 200:
                    failures.append(f"{uri}: {response.status} {response.reason}"
                                    + (" (challenged again after the first 401)" if response.status == 401 else ""))
        except Exception as error:
            failures.append(f"{type(error).__name__}: {error}")
        finally:
            connection.close()

    workers = [threading.Thread(target=worker) for _ in range(threads)]
    start = time.perf_counter()
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    elapsed = time.perf_counter() - start
    if failures:
        sys.exit(f"python{threads} failed ({len(failures)} requests): {failures[0]}")
    return elapsed


def read_places(port, digest, books):
    """The places calibre holds for `books` (EPUB), by device: {book: {device: pos_frac}}."""
    uri = "/book-get-annotations/library/" + "_".join(f"{book}-EPUB" for book in books)
    connection = http.client.HTTPConnection("127.0.0.1", port)
    connection.request("GET", uri, headers={"Authorization": digest.authorization("GET", uri)})
    response = connection.getresponse()
    data = response.read()
    connection.close()
    if response.status != 200:
        sys.exit(f"reading places back: {response.status} {response.reason}")
    answer = json.loads(data)
    return {book: {p["device"]: p["pos_frac"] for p in answer[f"{book}:EPUB"]["last_read_positions"]} for book in books}


server = None
try:
    library = os.path.join(work, "library")
    os.makedirs(library)
    made = subprocess.run(["calibre-debug", "-c", f"""
from calibre.library import db
from calibre.ebooks.metadata.book.base import Metadata
api = db({library!r}).new_api
made = []
for i in range({count}):
    made.append(api.create_book_entry(Metadata('Book %d' % i, ['Bench'])))
print(' '.join(map(str, made)))
"""], env=calibre_env, capture_output=True, text=True)
    if made.returncode != 0:
        sys.exit(f"calibre-debug failed: {made.stderr.strip()}")
    ids = [int(x) for x in made.stdout.split()]
    users = os.path.join(work, "users.sqlite")
    subprocess.run(["calibre-server", "--userdb", users, "--manage-users", "--", "add", "reader", "pa55"], env=calibre_env,
                   check=True, capture_output=True)
    port = free_port()
    server = subprocess.Popen(["calibre-server", "--listen-on", "127.0.0.1", "--port", str(port), "--enable-auth", "--userdb", users,
                               "--disable-use-bonjour", library], env=calibre_env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 90
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            if time.time() > deadline:
                sys.exit("calibre-server did not listen")
            time.sleep(0.2)
    first, second = os.path.join(work, "a"), os.path.join(work, "b")
    fill(first, port, ids, True)
    fill(second, port, ids, False)
    for home in (first, second):
        run(home, "sync", "add", "calibre", f"http://127.0.0.1:{port}", "--kind", "calibre", "--user", "reader", "--password-stdin", stdin="pa55\n")
    print(f"{count} issues, {binary}, calibre-server on 127.0.0.1:{port}")
    for step, home in (("push", first), ("pull", second), ("again", first)):
        elapsed, peak, said = run_measured(home, "sync", "now")
        print(f"{step:6} {elapsed * 1000:7.0f} ms  peak {peak:5.0f} MB  {said}")
    # calibre's own floor for the sending: curl POSTing the same 1,000 places (Digest, one
    # kept-alive connection, one request after another), the tool a script would otherwise use.
    config = os.path.join(work, "curl.conf")
    with open(config, "w") as f:
        f.write('digest\nuser = "reader:pa55"\nsilent\nheader = "Content-Type: application/json"\n')
        f.write('data = "{\\"device\\": \\"curl\\", \\"cfi\\": \\"epubcfi(/2)\\", \\"pos_frac\\": 0.5}"\n')
        for book in ids:
            f.write(f'url = "http://127.0.0.1:{port}/book-set-last-read-position/library/{book}/EPUB"\noutput = "/dev/null"\n')
    start = time.perf_counter()
    subprocess.run(["curl", "--config", config], check=True)
    print(f"curl   {(time.perf_counter() - start) * 1000:7.0f} ms  the same {count} places POSTed by curl, one after another")
    # The cheapest client: one challenge (one 401) taken here, before the timing, then every
    # request answered by hand; a second 401 fails the step (post_places).
    digest = Digest(port, "reader", "pa55")
    for threads, pos_frac in ((8, 0.25), (1, 0.75)):
        elapsed = post_places(port, digest, ids, threads, f"python{threads}", pos_frac)
        what = "8 Python threads on kept connections (calibre's floor with 8 at once)" if threads > 1 else \
               "1 Python thread on one kept connection (calibre's floor, one at a time)"
        print(f"python{threads} {elapsed * 1000:6.0f} ms  the same {count} places POSTed by {what}")
    sample = sorted({ids[0], ids[len(ids) // 2], ids[-1]})
    for book, places in read_places(port, digest, sample).items():
        want = {"curl": 0.5, "python8": 0.25, "python1": 0.75}
        if any(places.get(device) != frac for device, frac in want.items()):
            sys.exit(f"book {book}: calibre holds {places}, expected {want} among them")
    print(f"read back: books {', '.join(map(str, sample))} hold the places curl, python8 and python1 sent")
finally:
    if server is not None:
        server.terminate()
        server.wait()
    shutil.rmtree(work, ignore_errors=True)
