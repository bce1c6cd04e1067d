#!/usr/bin/env python3
"""Key latency on the shelf measured from outside while the library works: (a) `R` refreshes
a 20,000-entry feed that changed on the server, (b) the agent downloads and installs a
150 MB issue.

    benchmarks/shelf/keys_during_work.py --newsstand PATH [--rounds 3] [--entries 20000]
        [--issue-mb 150] [--scenario refresh|install|both] [--json FILE|-]

Nothing is built here: PATH is a (release) binary. Every round gets a private
NEWSSTAND_HOME and a private tmux server at 120x40; feeds and the issue are served by an
HTTP server inside this process on 127.0.0.1 (nothing reaches any other address).

The shelf is driven through one tmux control-mode client (`tmux -C`), so a `send-keys` or a
`capture-pane` costs ~0.1 ms instead of a process start. A key is `l` or `h` in turn, which
moves the selection marker (▶) between the first two publications; its latency is from
writing `send-keys` to the first `capture-pane` (polled back to back) that shows the marker
at its new place. Progress bars and status lines change the screen too, so only the
marker counts. The next key goes 50 ms after the previous one, or at once when the
previous one took longer (keys alternate, so two keys in one frame would cancel out).

(a) refresh: the library is subscribed to benchmarks/feeds/generate.py's feed of ENTRIES
issues (as benchmarks/shelf/big_store.py does); then the feed changes on the server (100
more entries, every tenth title rewritten). Each round takes a fresh copy of that library,
starts the shelf, presses `R` and keys follow. The refresh ends when the status line says how many new issues
it found (seen in the captures the keys make); when its write transaction committed is
recorded too: the publication's lastRefresh changes in the library, read every 2 ms from
this process (SQLite's WAL lets it read beside the writer).
(b) install: a one-issue feed whose issue is a stored zip of ISSUE_MB × 10^6 random bytes;
`newsstand download` queues it and starts the agent; the work ends when the issue's
status is `available` in the library (and the installed bytes are checked).

Keys go on for a second after the work; only keys sent while the work ran count for the
figures (their number is reported), the others are reported apart.
"""

import argparse
import datetime
import functools
import http.server
import json
import os
import pathlib
import re
import select
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import zipfile

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
KEY_INTERVAL = 0.05
KEY_TIMEOUT = 10.0
AFTER_THE_WORK = 1.0
MARKER = "▶"
GOAL = {"worst_ms": 50.0, "median_ms": 10.0}


# MARK: the loopback server

class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(directory):
    """A threading HTTP server for `directory` on 127.0.0.1 at a free port."""
    handler = functools.partial(QuietHandler, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


# MARK: tmux, through one control-mode client

class Shelf:
    """The shelf in a private tmux server, driven through a control-mode client."""

    def __init__(self, binary, home, name):
        self.server = name
        self.tmux("-f", "/dev/null", "new-session", "-d", "-s", "s", "-x", "120", "-y", "40",
                  "-e", f"NEWSSTAND_HOME={home}", "-e", f"NEWSSTAND_RESOURCES={ROOT}", "-e", "LANG=C.UTF-8",
                  # KEYS_FRAME_TIMES=FILE: the shelf also writes its own timings of each key there.
                  *(["-e", "NEWSSTAND_FRAME_TIMES=" + os.environ["KEYS_FRAME_TIMES"]] if os.environ.get("KEYS_FRAME_TIMES") else []),
                  f"env TERM=xterm-256color {binary}")
        self.client = subprocess.Popen(["tmux", "-L", name, "-C", "attach", "-t", "s"],
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
        self.output = self.client.stdout
        self.pending = b""
        self.reply()  # the attach's own
        self.command("refresh-client -f no-output")  # only command replies on the pipe

    def tmux(self, *arguments):
        return subprocess.run(["tmux", "-L", self.server, *arguments], capture_output=True, text=True)

    def readline(self):
        while b"\n" not in self.pending:
            select.select([self.output], [], [], 5)
            chunk = os.read(self.output.fileno(), 1 << 16)
            if not chunk:
                raise RuntimeError("the tmux control client went away")
            self.pending += chunk
        line, self.pending = self.pending.split(b"\n", 1)
        return line.decode(errors="replace")

    def reply(self):
        """The lines of the next reply block; notifications (%session-changed…) between
        blocks are skipped."""
        line = self.readline()
        while not line.startswith("%begin"):
            line = self.readline()
        number = line.split()[2]
        lines = []
        line = self.readline()
        while not (line.startswith(("%end", "%error")) and line.split()[2:3] == [number]):
            lines.append(line)
            line = self.readline()
        return lines

    def command(self, text):
        """Runs one tmux command; returns its output lines."""
        self.client.stdin.write((text + "\n").encode())
        return self.reply()

    def screen(self):
        return self.command("capture-pane -p -t s")

    def send(self, key):
        self.command(f"send-keys -t s {key}")

    def close(self):
        try:
            if os.environ.get("KEYS_FRAME_TIMES"):   # the shelf writes its timings as it quits
                self.tmux("send-keys", "-t", "s", "Q")
                time.sleep(0.5)
            self.client.stdin.close()
            self.client.wait(timeout=5)
        except Exception:
            self.client.kill()
        self.tmux("kill-server")


def marker(screen):
    """Where the selection marker is (row, column), the status line excluded."""
    for row, line in enumerate(screen[:-1]):
        column = line.find(MARKER)
        if column >= 0:
            return row, column
    return None


def wait_until(condition, timeout, shelf):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        screen = shelf.screen()
        if condition(screen):
            return screen
        time.sleep(0.01)
    raise RuntimeError("timed out; the screen was:\n" + "\n".join(shelf.screen()))


def settle(shelf, title, quiet=1.0, timeout=60):
    """Waits for `title` and the marker, then for the screen to stay the same `quiet` s."""
    wait_until(lambda s: any(title in line for line in s) and marker(s) is not None, timeout, shelf)
    last, since, deadline = shelf.screen(), time.monotonic(), time.monotonic() + timeout
    while time.monotonic() - since < quiet and time.monotonic() < deadline:
        time.sleep(0.02)
        now = shelf.screen()
        if now != last:
            last, since = now, time.monotonic()


def learn_places(shelf):
    """The marker's place on the first publication and on the second (after one `l`)."""
    first = marker(shelf.screen())
    shelf.send("l")
    second = marker(wait_until(lambda s: marker(s) not in (None, first), 10, shelf))
    shelf.send("h")
    wait_until(lambda s: marker(s) == first, 10, shelf)
    return first, second


def press_keys_while(shelf, places, running, look=None):
    """Presses l/h every 50 ms while `running()`; returns (sent at, latency s) per key.
    Every screen captured is shown to `look`."""
    keys = []
    first, second = places
    next_send = time.monotonic()
    index = 0
    while running():
        now = time.monotonic()
        if now < next_send:
            if look:  # between keys too, every 10 ms, so `look` sees changes when they come
                look(shelf.screen())
            time.sleep(min(next_send - now, 0.01 if look else 0.005))
            continue
        key, place = ("l", second) if index % 2 == 0 else ("h", first)
        sent = time.monotonic()
        shelf.send(key)
        seen = None
        while time.monotonic() - sent < KEY_TIMEOUT:
            screen = shelf.screen()
            if look:
                look(screen)
            if marker(screen) == place:
                seen = time.monotonic()
                break
        if seen is None:
            raise RuntimeError(f"key {key} never moved the marker; the screen was:\n" + "\n".join(shelf.screen()))
        keys.append((sent, seen - sent))
        index += 1
        next_send = sent + KEY_INTERVAL
    # Back on the first publication for the next round's start, untimed.
    if index % 2 == 1:
        shelf.send("h")
        wait_until(lambda s: marker(s) == first, KEY_TIMEOUT, shelf)
    return keys


# MARK: watching the library

class LibraryWatch(threading.Thread):
    """Reads `query` every 2 ms and records when each new value was first seen."""

    def __init__(self, database, query, arguments=()):
        super().__init__(daemon=True)
        self.database, self.query, self.arguments = database, query, arguments
        self.changes = []  # (monotonic time, value)
        self.stopping = threading.Event()

    def read(self, connection):
        # fetchall, not fetchone: a statement left unfinished keeps its read snapshot open.
        rows = connection.execute(self.query, self.arguments).fetchall()
        return rows[0] if rows else None

    def value(self):
        connection = sqlite3.connect(f"file:{self.database}?mode=ro", uri=True, timeout=10)
        try:
            return self.read(connection)
        finally:
            connection.close()

    def run(self):
        connection = sqlite3.connect(f"file:{self.database}?mode=ro", uri=True, timeout=10)
        last = object()
        while not self.stopping.is_set():
            try:
                value = self.read(connection)
            except sqlite3.OperationalError:
                value = last
            if value != last:
                self.changes.append((time.monotonic(), value))
                last = value
            time.sleep(0.002)
        connection.close()

    def first_time(self, predicate, after=0.0):
        return next((t for t, value in self.changes if t >= after and predicate(value)), None)

    def stop(self):
        self.stopping.set()
        self.join()


# MARK: scenarios

def run(binary, env, *arguments):
    return subprocess.run([binary, *arguments], env=env, check=True, capture_output=True, text=True)


def home_env(home):
    # The samples come from this checkout whichever binary runs, wherever it lies.
    return {**os.environ, "NEWSSTAND_HOME": str(home), "NEWSSTAND_RESOURCES": str(ROOT), "LANG": "C.UTF-8"}


def change_the_feed(work, entries):
    """The big feed as the server has it after the subscription: 100 more entries, and
    every tenth title rewritten. Every round refreshes a fresh copy of the subscribed
    library, so every round meets the same change."""
    generated = work / "generated.xml"
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "feeds" / "generate.py"), str(generated),
                    str(entries + 100)], check=True)
    text = re.sub(r"<title>Edition (\d+0) &#8212; harbour", r"<title>Edition \1 &#8212; changed: harbour",
                  generated.read_text(encoding="utf-8"))
    (work / "feed.tmp").write_text(text, encoding="utf-8")
    os.replace(work / "feed.tmp", work / "feed.xml")
    # Last-Modified has whole seconds: make sure the server never answers 304.
    stamp = time.time() + 10
    os.utime(work / "feed.xml", (stamp, stamp))
    generated.unlink()


def refresh_round(binary, work, base_home, round_index):
    home = work / f"refresh-home-{round_index}"
    shutil.copytree(base_home, home)
    database = home / "data" / "library.sqlite"
    watch = LibraryWatch(database, "SELECT lastRefresh FROM publication WHERE title = 'Benchmark Daily'")
    before = watch.value()
    shelf = Shelf(binary, home, f"nskeys-{os.getpid()}-a{round_index}")
    try:
        settle(shelf, " publications")  # the sample ones and the big one (below the first row)
        places = learn_places(shelf)
        watch.start()
        started = time.monotonic()
        shelf.send("R")
        committed = lambda: watch.first_time(lambda v: v != before, started)
        said = {}

        def look(screen):  # the refresh's end as the user sees it: its line in the status bar
            line = next((line.strip() for line in screen[-2:] if "new issue" in line or "Up to date" in line), None)
            if line and "at" not in said:
                said.update(at=time.monotonic(), line=line)
        # On for a second after the end: the shelf reads the changed library then.
        keys = press_keys_while(shelf, places, lambda: time.monotonic() - started < 300 and (
            "at" not in said or time.monotonic() < said["at"] + AFTER_THE_WORK), look)
        finished = committed()
    finally:
        shelf.close()
        if watch.is_alive():
            watch.stop()
    shutil.rmtree(home, ignore_errors=True)
    if finished is None or "at" not in said:
        raise RuntimeError("the refresh did not end")
    return {"timeline": timeline(keys, started),
            "keys": [latency for sent, latency in keys if sent < said["at"]],
            "keys_in_transaction": [latency for sent, latency in keys if sent < finished],
            "keys_after": [latency for sent, latency in keys if sent >= said["at"]],
            "work_s": said["at"] - started, "transaction_s": finished - started, "status": said["line"]}


def write_issue(directory, megabytes):
    """A one-issue feed and its stored zip: an index page and MEGABYTES (10^6 bytes) of
    random bytes."""
    archive = directory / "bulk.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_STORED) as z:
        z.writestr("index.html", "<h1>Bulk</h1><p>Bytes follow.</p>")
        with z.open("payload.bin", "w", force_zip64=True) as payload:
            for _ in range(megabytes):
                payload.write(os.urandom(1_000_000))
    (directory / "bulk.xml").write_text(
        '<?xml version="1.0" encoding="utf-8"?>\n'
        '<feed xmlns="http://www.w3.org/2005/Atom"><title>Bulk Weekly</title><id>urn:bulk</id>'
        '<updated>2026-11-01T00:00:00Z</updated>\n'
        '<entry><id>bulk-1</id><title>Bulk</title><updated>2026-11-01T00:00:00Z</updated>'
        '<link rel="http://opds-spec.org/acquisition" type="application/zip" href="bulk.zip"/></entry></feed>\n',
        encoding="utf-8")
    return archive.stat().st_size


def install_round(binary, work, url, megabytes, round_index):
    home = work / f"install-home-{round_index}"
    env = home_env(home)
    run(binary, env, "subscribe", url)
    database = home / "data" / "library.sqlite"
    # The issue's status and its transfer's state, for the timeline in the JSON.
    watch = LibraryWatch(database, "SELECT issue.status, (SELECT state FROM assetDownload WHERE issueId = issue.id "
                                   "ORDER BY id DESC LIMIT 1) FROM issue WHERE name = 'bulk-1'")
    shelf = Shelf(binary, home, f"nskeys-{os.getpid()}-b{round_index}")
    try:
        settle(shelf, " publications")
        places = learn_places(shelf)
        watch.start()
        started = time.monotonic()
        queued = subprocess.Popen([binary, "download", "bulk-1"], env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        installed = lambda: watch.first_time(lambda v: v is not None and v[0] == "available", started)
        failed = lambda: watch.first_time(lambda v: v is not None and v[1] == "failed", started)
        keys = press_keys_while(shelf, places, lambda: failed() is None and time.monotonic() - started < 300 and (
            installed() is None or time.monotonic() < installed() + AFTER_THE_WORK))
        if queued.wait(timeout=60) != 0 or installed() is None:
            raise RuntimeError(f"the issue was not installed: {queued.stderr.read().decode()} {watch.changes}")
        finished = installed()
    finally:
        shelf.close()
        if watch.is_alive():
            watch.stop()
        stop_agent(home)
    payloads = list((home / "cache" / "issues").glob("*/payload.bin"))
    if len(payloads) != 1 or payloads[0].stat().st_size != megabytes * 1_000_000:
        raise RuntimeError(f"the installed issue is not the one served: {payloads}")
    shutil.rmtree(home, ignore_errors=True)
    return {"timeline": timeline(keys, started),
            "keys": [latency for sent, latency in keys if sent < finished],
            "keys_after": [latency for sent, latency in keys if sent >= finished],
            "work_s": finished - started,
            "states": [(round(t - started, 3), list(v) if v else None) for t, v in watch.changes]}


def stop_agent(home):
    """The agent leaves by itself when its queue is empty; wait for that (its lock goes)."""
    lock = home / "state" / "agent.lock"
    deadline = time.monotonic() + 30
    while lock.exists() and time.monotonic() < deadline:
        try:
            pid = int(lock.read_text().strip())
            os.kill(pid, 0)
        except (ValueError, ProcessLookupError, FileNotFoundError):
            return
        time.sleep(0.05)


# MARK: figures

def timeline(keys, started):
    """Every key as [s from the start of the work to it being sent, ms it took]."""
    return [[round(sent - started, 3), round(latency * 1000, 2)] for sent, latency in keys]


def latencies(values):
    """Count, median, p95 (nearest rank) and worst of latencies in seconds, in ms."""
    keys = sorted(v * 1000 for v in values)
    if not keys:
        return {"keys_measured": 0, "median_ms": None, "p95_ms": None, "worst_ms": None}
    return {"keys_measured": len(keys), "median_ms": statistics.median(keys),
            "p95_ms": keys[max(0, -(-95 * len(keys) // 100) - 1)], "worst_ms": keys[-1]}


def summary(figures):
    if not figures["keys_measured"]:
        return "no keys"
    return (f"{figures['keys_measured']} keys, median {figures['median_ms']:.1f} ms, p95 {figures['p95_ms']:.1f} ms, "
            f"worst {figures['worst_ms']:.1f} ms")


def figures(rounds):
    during = latencies([v for r in rounds for v in r["keys"]])
    during["meets_goal"] = during["keys_measured"] > 0 and during["worst_ms"] <= GOAL["worst_ms"] \
        and during["median_ms"] <= GOAL["median_ms"]
    return {**during, "keys_per_round": [len(r["keys"]) for r in rounds],
            "worst_per_round_ms": [max(r["keys"]) * 1000 if r["keys"] else None for r in rounds],
            "work_s_per_round": [r["work_s"] for r in rounds],
            **({"in_the_transaction": {**latencies([v for r in rounds for v in r["keys_in_transaction"]]),
                                       "transaction_s_per_round": [r["transaction_s"] for r in rounds]}}
               if "keys_in_transaction" in rounds[0] else {}),
            "in_the_second_after": latencies([v for r in rounds for v in r["keys_after"]]),
            "keys_per_round_timeline": [r["timeline"] for r in rounds]}


def measure(name, count, one_round):
    """`count` rounds of one scenario, each said on standard error as it ends."""
    rounds = []
    for index in range(count):
        rounds.append(one_round(index))
        keys = rounds[-1]["keys"]
        print(f"{name} round {index + 1}: {len(keys)} keys during the work, worst "
              f"{max(keys, default=0) * 1000:.1f} ms; work {rounds[-1]['work_s']:.2f} s {rounds[-1].get('status', '')}",
              file=sys.stderr)
    return rounds


def machine():
    model = next((line.split(":", 1)[1].strip() for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines()
                  if line.startswith("model name")), "unknown")
    return {"nproc": os.cpu_count(), "cpu": model,
            "load_average": os.getloadavg()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--newsstand", required=True, help="the newsstand binary to measure (a release build)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--entries", type=int, default=20000, help="entries in the big feed (a)")
    parser.add_argument("--issue-mb", type=int, default=150, help="size of the installed issue in MB (b)")
    parser.add_argument("--scenario", choices=["refresh", "install", "both"], default="both")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON ('-': standard output)")
    args = parser.parse_args()
    binary = str(pathlib.Path(args.newsstand).resolve())
    work = pathlib.Path(tempfile.mkdtemp(prefix="keys-during-work-"))
    server = serve(work)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    report = {"binary": binary, "machine": machine(), "rounds": args.rounds,
              "started": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
              "goal": GOAL, "scenarios": {}}
    try:
        if args.scenario in ("refresh", "both"):
            subprocess.run([sys.executable, str(ROOT / "benchmarks" / "feeds" / "generate.py"),
                            str(work / "feed.xml"), str(args.entries)], check=True)
            base_home = work / "refresh-base"
            run(binary, home_env(base_home), "subscribe", f"{base}/feed.xml")
            change_the_feed(work, args.entries)
            rounds = measure("refresh", args.rounds, lambda index: refresh_round(binary, work, base_home, index))
            report["scenarios"]["refresh"] = {
                "what": f"R on the shelf: a {args.entries}-entry feed that changed (100 more entries, every "
                        "tenth title rewritten) refreshed from 127.0.0.1; work = R sent to the status line saying "
                        "how many new issues; in_the_transaction = R sent to its write transaction committed",
                **figures(rounds), "status_per_round": [r["status"] for r in rounds]}
        if args.scenario in ("install", "both"):
            size = write_issue(work, args.issue_mb)
            rounds = measure("install", args.rounds,
                             lambda index: install_round(binary, work, f"{base}/bulk.xml", args.issue_mb, index))
            report["scenarios"]["install"] = {
                "what": f"`newsstand download` of a {size / 1e6:.0f} MB stored zip from 127.0.0.1 while the shelf "
                        "shows; work = command started to the issue available",
                **figures(rounds), "states_per_round": [r["states"] for r in rounds]}
    finally:
        server.shutdown()
        shutil.rmtree(work, ignore_errors=True)
    report["machine"]["load_average_at_the_end"] = os.getloadavg()
    print(f"{binary} on {report['machine']['nproc']} × {report['machine']['cpu']}, {args.rounds} rounds")
    for name, result in report["scenarios"].items():
        print(f"{name}: {summary(result)} (keys per round {result['keys_per_round']}, worst per round "
              f"{', '.join(f'{w:.0f}' for w in result['worst_per_round_ms'] if w is not None)} ms); "
              f"work {', '.join(f'{w:.2f}' for w in result['work_s_per_round'])} s; "
              f"goal (worst ≤ 50, median ≤ 10 ms) {'met' if result['meets_goal'] else 'NOT met'}")
        if "in_the_transaction" in result:
            transaction = result["in_the_transaction"]
            print(f"  of those, sent before the transaction committed: {summary(transaction)}; transaction "
                  f"{', '.join(f'{w:.2f}' for w in transaction['transaction_s_per_round'])} s")
        print(f"  in the second after the work: {summary(result['in_the_second_after'])}")
    if args.json:
        text = json.dumps(report, indent=2)
        if args.json == "-":
            print(text)
        else:
            pathlib.Path(args.json).write_text(text + "\n")


if __name__ == "__main__":
    main()
