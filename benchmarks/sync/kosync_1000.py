#!/usr/bin/env python3
"""Syncing the places of 1,000 issues against the kosync test server (goal: <= 1 s).

    benchmarks/sync/kosync_1000.py [NEWSSTAND_BINARY] [--issues N]

Two libraries (two NEWSSTAND_HOMEs) hold the same 1,000 files of their own (2 KiB each, all
different); the first has read each to some place, the second none. Both add the same kosync
test server (Tests/Servers/kosync_server.py, on 127.0.0.1). Timed, as whole processes:
  push   `sync now` in the first: 1,000 places read from the server (none there) and sent;
  pull   `sync now` in the second: 1,000 places read and taken;
  again  `sync now` in the first: nothing changed, 1,000 places read.
The issues are written into the library's database directly (the schema the program made),
so only syncing is timed. Prints one line per step with wall time and peak RSS of the process.
"""
import json
import os
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
args = [a for a in sys.argv[1:] if not a.startswith("--")]
binary = args[0] if args else os.path.join(root, ".build/release/newsstand")
count = int(sys.argv[sys.argv.index("--issues") + 1]) if "--issues" in sys.argv else 1000
work = tempfile.mkdtemp(prefix="newsstand-sync-bench-")


def run(home, *arguments, stdin=None):
    env = dict(os.environ, NEWSSTAND_HOME=home, NEWSSTAND_KEYRING="off", NEWSSTAND_RESOURCES=os.path.join(work, "none"))
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    done = subprocess.run([binary, *arguments], env=env, input=stdin, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"{' '.join(arguments)} failed: {done.stderr.strip()}")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return elapsed, max(peak, before) / 1024, done.stdout.strip()


def fill(home, books, with_places):
    run(home, "sync", "list")  # makes the library
    db = sqlite3.connect(os.path.join(home, "data", "library.sqlite"))
    db.execute("INSERT INTO publication (feedURL, title, addedAt) VALUES ('file:///bench', 'Bench', '2026-01-01 00:00:00.000')")
    publication = db.execute("SELECT id FROM publication WHERE feedURL = 'file:///bench'").fetchone()[0]
    for i, book in enumerate(books):
        locator = json.dumps({"resource": "", "progression": 1, "totalProgression": round((i % 97) / 100, 2),
                              "page": i % 300, "updated": "2026-11-01T10:00:00Z"}) if with_places else None
        db.execute("INSERT INTO issue (publicationId, name, date, title, contentURL, status, locator) VALUES (?, ?, ?, ?, ?, 'available', ?)",
                   (publication, f"book-{i}", "2026-01-01 00:00:00.000", f"Book {i}", "file://" + book, locator))
    db.commit()
    db.close()


try:
    books_dir = os.path.join(work, "books")
    os.makedirs(books_dir)
    books = []
    for i in range(count):
        path = os.path.join(books_dir, f"book-{i}.pdf")
        with open(path, "wb") as f:
            f.write(i.to_bytes(4, "big") * 512)
        books.append(path)
    first, second = os.path.join(work, "a"), os.path.join(work, "b")
    fill(first, books, True)
    fill(second, books, False)
    server_dir = os.path.join(work, "server")
    os.makedirs(server_dir)
    server = subprocess.Popen([sys.executable, os.path.join(root, "Tests/Servers/kosync_server.py"), server_dir],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    port = int(server.stdout.readline())
    try:
        for home in (first, second):
            run(home, "sync", "add", "kobo", f"http://127.0.0.1:{port}", "--user", "ann", "--password-stdin", stdin="pa55\n")
        print(f"{count} issues, {binary}")
        for step, home in (("push", first), ("pull", second), ("again", first)):
            elapsed, peak, said = run(home, "sync", "now")
            print(f"{step:6} {elapsed * 1000:7.0f} ms  peak {peak:5.0f} MB  {said}")
    finally:
        server.stdin.close()
        server.wait()
finally:
    shutil.rmtree(work, ignore_errors=True)
