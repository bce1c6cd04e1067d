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
  curl   the same 1,000 places POSTed by curl (calibre's floor for sending: one POST a book).
The issues are written into the library's database directly (the schema the program made),
so only syncing is timed. calibre's programs take one lock per user: run no calibre test beside it.
"""
import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
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
finally:
    if server is not None:
        server.terminate()
        server.wait()
    shutil.rmtree(work, ignore_errors=True)
