#!/usr/bin/env python3
"""The shelf with one publication of 20,000 issues: opening its store, what a library
change costs the shelf and the open store (a download's progress is one four times a
second), and `newsstand issues`, for one or more builds side by side.

    benchmarks/shelf/big_store.py [--entries 20000] [--rounds 5] [--newsstand PATH ...]

Each build gets a library of its own: the samples plus a generated Atom feed of ENTRIES
issues (benchmarks/feeds/generate.py) subscribed from a server on 127.0.0.1. Then, in a
private tmux server at 120x40, the shelf is started with NEWSSTAND_FRAME_TIMES; the last
publication (the big one) is selected; four changes are committed to the library from
another process (a publication's lastRefresh, which touches no issue, like a download's
progress) while the shelf shows, the store is opened (Enter), four more changes are
committed, the store is closed (Escape); ROUNDS times. Builds alternate round by round.
Figures are the program's own: `key Enter` from reading the key to its frame written,
and `poll` of the frames a change caused (reading the library again). From outside, for
newsstand and, with --newsboat, for newsboat 2.21 on the same feed (its cache filled by
`newsboat -x reload`): Enter sent with `tmux send-keys` until `tmux capture-pane`
(polled every 5 ms) shows the newest issue's title in the list.
"""

import argparse
import os
import pathlib
import socket
import sqlite3
import statistics
import subprocess
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def open_from_outside(server, marker="Edition 20000"):
    """Ms from sending Enter to the pane showing `marker` (capture-pane every 5 ms)."""
    def capture():
        return subprocess.run(["tmux", "-L", server, "capture-pane", "-p", "-t", "s"], capture_output=True, text=True).stdout
    sent = time.monotonic()
    subprocess.run(["tmux", "-L", server, "send-keys", "-t", "s", "Enter"], capture_output=True)
    while time.monotonic() - sent < 10:
        if marker in capture():
            return (time.monotonic() - sent) * 1000
        time.sleep(0.005)
    return float("nan")


def commit_change(database, publication_title):
    connection = sqlite3.connect(database, timeout=10)
    connection.execute("UPDATE publication SET lastRefresh = strftime('%Y-%m-%d %H:%M:%f', 'now') WHERE title = ?",
                       (publication_title,))
    connection.commit()
    connection.close()


class Build:
    def __init__(self, binary, work, url, index):
        self.binary = binary
        self.home = work / f"home-{index}"
        self.env = {**os.environ, "NEWSSTAND_HOME": str(self.home), "LANG": "C.UTF-8"}
        # The shelf's first interactive start would add the samples after the benchmark's feed
        # (and `End` would choose one of them): the store measured is the benchmark's alone.
        (self.home / "config").mkdir(parents=True, exist_ok=True)
        (self.home / "config" / "config.toml").write_text("samples = false\n")
        subprocess.run([binary, "subscribe", url], env=self.env, check=True, capture_output=True)
        self.database = self.home / "data" / "library.sqlite"
        self.figures = {"open store (key Enter), ms": [], "open store, from outside, ms": [],
                        "change on the shelf (poll), ms": [],
                        "change in the store (poll), ms": [], "`issues`, s": [], "peak memory, MB": []}

    def issues(self):
        started = time.monotonic()
        subprocess.run([self.binary, "issues"], env=self.env, check=True, stdout=subprocess.DEVNULL)
        self.figures["`issues`, s"].append(time.monotonic() - started)

    def shelf_round(self, index):
        server = f"nsbig-{os.getpid()}-{index}"
        times = pathlib.Path(tempfile.mkdtemp()) / "times.txt"

        def tmux(*arguments):
            subprocess.run(["tmux", "-L", server, *arguments], capture_output=True)

        command = f"env NEWSSTAND_FRAME_TIMES={times} TERM=xterm-256color {self.binary}"
        tmux("-f", "/dev/null", "new-session", "-d", "-s", "s", "-x", "120", "-y", "40",
             "-e", f"NEWSSTAND_HOME={self.home}", "-e", "LANG=C.UTF-8", command)
        time.sleep(2.5)
        tmux("send-keys", "-t", "s", "End")
        time.sleep(0.3)
        for _ in range(4):
            commit_change(self.database, "Benchmark Daily")
            time.sleep(0.4)
        self.figures["open store, from outside, ms"].append(open_from_outside(server))
        time.sleep(1.0)
        for _ in range(4):
            commit_change(self.database, "Benchmark Daily")
            time.sleep(0.4)
        tmux("send-keys", "-t", "s", "Escape")
        time.sleep(0.3)
        tmux("send-keys", "-t", "s", "Q")
        for _ in range(200):
            if times.exists():
                break
            time.sleep(0.02)
        tmux("kill-server")
        place = "before"
        for line in times.read_text(errors="replace").splitlines():
            fields = line.split()
            if fields[:2] == ["key", "End"]:
                place = "shelf"
            elif fields[:2] == ["key", "Enter"]:
                place = "store"
                self.figures["open store (key Enter), ms"].append(float(fields[2]))
            elif fields[:2] == ["key", "Esc"]:
                place = "after"
            elif fields[:2] == ["frame", "update"] and place in ("shelf", "store"):
                poll = next(float(f.split("=")[1]) for f in fields if f.startswith("poll="))
                key = "change on the shelf (poll), ms" if place == "shelf" else "change in the store (poll), ms"
                self.figures[key].append(poll)
            elif fields[:1] == ["peak_rss_mb"]:
                self.figures["peak memory, MB"].append(float(fields[1]))


class Newsboat:
    """newsboat on the same feed: its feed list, then Enter on the feed."""
    binary = "newsboat"

    def __init__(self, work, url):
        self.directory = work / "newsboat"
        self.directory.mkdir()
        (self.directory / "urls").write_text(url + "\n")
        self.command = ["newsboat", "-u", str(self.directory / "urls"), "-c", str(self.directory / "cache.db"), "-C", "/dev/null"]
        subprocess.run(self.command + ["-x", "reload"], check=True, capture_output=True)
        self.figures = {"open store, from outside, ms": []}

    def issues(self):
        pass

    def shelf_round(self, index):
        server = f"nsbig-nb-{os.getpid()}-{index}"
        subprocess.run(["tmux", "-L", server, "-f", "/dev/null", "new-session", "-d", "-s", "s", "-x", "120", "-y", "40",
                        "-e", "LANG=C.UTF-8", " ".join(self.command)], capture_output=True)
        for _ in range(500):
            pane = subprocess.run(["tmux", "-L", server, "capture-pane", "-p", "-t", "s"], capture_output=True, text=True).stdout
            if "Benchmark Daily" in pane:
                break
            time.sleep(0.01)
        time.sleep(0.5)
        self.figures["open store, from outside, ms"].append(open_from_outside(server))
        subprocess.run(["tmux", "-L", server, "kill-server"], capture_output=True)


def summary(values):
    if not values:
        return "–"
    return f"{statistics.median(values):.3g} ({min(values):.3g}–{max(values):.3g})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--newsboat", action="store_true", help="also newsboat opening the same feed's article list")
    parser.add_argument("--newsstand", action="append",
                        help="a newsstand binary (repeat to compare builds; default: the release build)")
    args = parser.parse_args()
    binaries = args.newsstand or [str(ROOT / ".build" / "release" / "newsstand")]
    work = pathlib.Path(tempfile.mkdtemp(prefix="big-store-"))
    subprocess.run(["python3", str(ROOT / "benchmarks" / "feeds" / "generate.py"), str(work / "feed.xml"), str(args.entries)],
                   check=True)
    port = free_port()
    server = subprocess.Popen(["python3", "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(work)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(0.5)
        url = f"http://127.0.0.1:{port}/feed.xml"
        builds = [Build(binary, work, url, index) for index, binary in enumerate(binaries)]
        if args.newsboat:
            builds.append(Newsboat(work, url))
        for round_index in range(args.rounds):
            for index, build in enumerate(builds):
                build.issues()
                build.shelf_round(round_index * len(builds) + index)
    finally:
        server.terminate()
    print(f"a store of {args.entries} issues, 120x40, {args.rounds} rounds; median (min–max)")
    rows = list(builds[0].figures)
    print("| what | " + " | ".join(build.binary for build in builds) + " |")
    print("|---|" + "---|" * len(builds))
    for row in rows:
        print(f"| {row} | " + " | ".join(summary(build.figures.get(row, [])) for build in builds) + " |")
    subprocess.run(["rm", "-rf", str(work)])


if __name__ == "__main__":
    main()
