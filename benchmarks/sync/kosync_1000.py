#!/usr/bin/env python3
"""Syncing the places of 1,000 issues against the kosync test server (goal: <= 1 s).

    benchmarks/sync/kosync_1000.py [NEWSSTAND_BINARY] [--issues N]

Two libraries (two NEWSSTAND_HOMEs) hold the same 1,000 files of their own (2 KiB each, all
different); the first has read each to some place, the second none. Both add the same kosync
test server (Tests/Servers/kosync_server.py, on 127.0.0.1). Timed, as whole processes:
  push   `sync now` in the first: 1,000 places read from the server (none there) and sent;
  pull   `sync now` in the second: 1,000 places read and taken;
  again  `sync now` in the first: nothing changed, 1,000 places read.
  floor  the push's requests (a GET and a PUT a document, 1,000 other documents) made by 8
         Python threads on kept connections: what the test server itself can answer.
Each step also gives the CPU time of the client and of the server.
The issues are written into the library's database directly (the schema the program made),
so only syncing is timed. Prints one line per step: wall time, peak RSS, CPU time of the
process and of the server.
"""
import http.client
import json
import os
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
args = [a for a in sys.argv[1:] if not a.startswith("--")]
binary = args[0] if args else os.path.join(root, ".build/release/newsstand")
count = int(sys.argv[sys.argv.index("--issues") + 1]) if "--issues" in sys.argv else 1000
work = tempfile.mkdtemp(prefix="newsstand-sync-bench-")


def run(home, *arguments, stdin=None):
    env = dict(os.environ, NEWSSTAND_HOME=home, NEWSSTAND_KEYRING="off", NEWSSTAND_RESOURCES=os.path.join(work, "none"))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([binary, *arguments], env=env, input=stdin, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"{' '.join(arguments)} failed: {done.stderr.strip()}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return elapsed, max(after.ru_maxrss, before.ru_maxrss) / 1024, cpu, done.stdout.strip()


def cpu_of(pid):
    """User and system seconds a process has used (/proc/PID/stat)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def floor(port, documents, user="floor", key="5f4dcc3b5aa765d61d8327deb882cf99"):
    """The test server's own floor for the push's requests: a GET and a PUT a document, made
    by 8 Python threads on kept connections (the fewest costs a client can add)."""
    headers = {"Accept": "application/vnd.koreader.v1+json", "Content-Type": "application/json"}
    connection = http.client.HTTPConnection("127.0.0.1", port)
    connection.request("POST", "/users/create", json.dumps({"username": user, "password": key}), headers)
    connection.getresponse().read()
    headers = dict(headers, **{"x-auth-user": user, "x-auth-key": key})
    queue = list(documents)
    lock = threading.Lock()

    def worker():
        connection = http.client.HTTPConnection("127.0.0.1", port)
        while True:
            with lock:
                if not queue:
                    return
                document = queue.pop()
            connection.request("GET", f"/syncs/progress/{document}", headers=headers)
            connection.getresponse().read()
            body = json.dumps({"document": document, "progress": "1", "percentage": 0.5, "device": "floor"})
            connection.request("PUT", "/syncs/progress", body, headers)
            connection.getresponse().read()

    threads = [threading.Thread(target=worker) for _ in range(8)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.perf_counter() - start


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
        print(f"{'step':6} {'wall':>7}     {'peak':>8}  {'CPU':>6}  {'server CPU':>10}")
        for step, home in (("push", first), ("pull", second), ("again", first)):
            served = cpu_of(server.pid)
            elapsed, peak, cpu, said = run(home, "sync", "now")
            served = cpu_of(server.pid) - served
            print(f"{step:6} {elapsed * 1000:7.0f} ms  {peak:5.0f} MB  {cpu * 1000:4.0f} ms  {served * 1000:7.0f} ms  {said}")
        served = cpu_of(server.pid)
        before = time.process_time()
        elapsed = floor(port, [f"floor-{i:032x}" for i in range(count)])
        cpu, served = time.process_time() - before, cpu_of(server.pid) - served
        print(f"{'floor':6} {elapsed * 1000:7.0f} ms  {'':8}  {cpu * 1000:4.0f} ms  {served * 1000:7.0f} ms  "
              f"the push's {2 * count} requests from 8 Python threads on kept connections")
    finally:
        server.stdin.close()
        server.wait()
finally:
    shutil.rmtree(work, ignore_errors=True)
