#!/usr/bin/env python3
"""Several command-line processes and the agent changing one library at once, for a while:

  subscriber  subscribes to new feeds, one after another (distinct publications)
  refresher   appends an entry to a growing feed, then `refresh`es it
  downloader  queues issues (`download`) that the agent installs meanwhile
  remover     removes issues of a publication of its own from the library (remove --from-library)
  readers     `issues --json` and `read --plain` on whatever is there
  shelf       the shelf in a private tmux server, as a user at the keyboard: opens one
              publication's store, pins and unpins its issues (`p`) and reads two of
              them (Enter, a page, back), round after round
  agent       `agent --watch` for the whole run (installs from 127.0.0.1)

Afterwards: no update lost (every feed subscribed, every appended entry present, every
queued issue installed byte for byte, every removed issue gone, each of the shelf's
issues pinned exactly when the shelf toggled it an odd number of times, and each issue it
opened marked read), every command exited 0, and no output anywhere, the shelf's screen
included, mentions a locked or busy database.

    benchmarks/reliability/concurrency.py [--seconds 180] [--binary .build/debug/newsstand] [--no-shelf]"""
import argparse
import json
import os
import pathlib
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import zipfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import localserver  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]


def atom(title, urn, entries):
    return ('<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom">'
            f'<title>{title}</title><id>{urn}</id><updated>2026-11-01T00:00:00Z</updated>' + "".join(
                f'<entry><id>{name}</id><title>{name}</title><updated>2026-11-01T00:00:{i % 60:02}Z</updated>'
                f'<link rel="http://opds-spec.org/acquisition" type="application/zip" href="{href}"/></entry>'
                for i, (name, href) in enumerate(entries)) + "</feed>")


def mentions_trouble(text):
    """What a user must never see: the library locked or busy."""
    return "locked" in text.lower() or "busy" in text.lower()


# The shelf's publication: two of its issues are installed for reading.
DESK = [f"desk-{k}" for k in range(4)]
DESK_READ = ["desk-1", "desk-0"]


class Run:
    def __init__(self, args):
        self.args = args
        self.work = pathlib.Path(tempfile.mkdtemp(prefix="newsstand-concurrency-"))
        self.home = self.work / "home"
        self.env = dict(os.environ, NEWSSTAND_HOME=str(self.home), NEWSSTAND_RESOURCES="/nonexistent")
        self.lock = threading.Lock()
        self.failures = []
        self.counts = {}
        self.deadline = 0.0

    def cli(self, role, *arguments):
        result = subprocess.run([self.args.binary, *arguments], env=self.env, capture_output=True, text=True, timeout=120)
        text = result.stdout + result.stderr
        self.count(role)
        if result.returncode != 0 or mentions_trouble(text):
            self.fail(f"{role}: newsstand {' '.join(arguments)} → {result.returncode}: {text.strip()[:300]}")
        return result

    def count(self, role):
        with self.lock:
            self.counts[role] = self.counts.get(role, 0) + 1

    def fail(self, message):
        with self.lock:
            self.failures.append(message)

    def query(self, sql, arguments=()):
        """Rows of the library, read-only, as another process would read them."""
        db = sqlite3.connect(f"file:{self.home / 'data' / 'library.sqlite'}?mode=ro", uri=True, timeout=10)
        try:
            return db.execute(sql, arguments).fetchall()
        finally:
            db.close()

    def running(self):
        return time.monotonic() < self.deadline

    # -- roles -------------------------------------------------------------------------
    def subscriber(self):
        n = 0
        while self.running():
            feed = self.work / f"sub-{n}.xml"
            feed.write_text(atom(f"Sub {n}", f"urn:sub:{n}", [(f"sub-{n}-{k}", f"{self.base}/issue.zip?s{n}{k}") for k in range(3)]))
            self.cli("subscriber", "subscribe", str(feed))
            n += 1
        self.subscribed = n

    def refresher(self):
        feed = self.work / "growing.xml"
        entries = []
        while self.running():
            entries.append((f"grow-{len(entries)}", f"{self.base}/issue.zip?g{len(entries)}"))
            feed.write_text(atom("Growing", "urn:growing", entries))
            self.cli("refresher", "refresh", "Growing")
        self.appended = len(entries)

    # The downloader queues one issue every 0.2 s at most: Base holds enough for the run.
    DOWNLOAD_PAUSE = 0.2

    def downloader(self):
        self.queued = []
        k = 0
        while self.running():
            name = f"dl-{k}"
            k += 1
            self.queued.append(name)
            self.cli("downloader", "download", name)
            time.sleep(self.DOWNLOAD_PAUSE)

    def remover(self):
        self.removed = []
        names = [f"rm-{k}" for k in range(200)]
        for name in names:
            if not self.running():
                break
            self.cli("remover", "remove", "--from-library", name)
            self.removed.append(name)

    def shelf(self):
        """The shelf, driven by keys: Desk's store, `p` on its issue i of round i, Enter on an
        installed issue every third round."""
        self.toggles = {name: 0 for name in DESK}
        self.opened = set()
        # Desk's two queued issues are installed by the agent in the first seconds.
        marks = ",".join("?" * len(DESK_READ))
        while self.running() and len(self.query(
                f"SELECT id FROM issue WHERE status = 'available' AND name IN ({marks})", DESK_READ)) < len(DESK_READ):
            time.sleep(0.1)
        # The shelf's order (subscription order: the samples, subscribed by the first
        # command, then Desk; later subscriptions come after it) and the store's (newest first).
        shelf = [title for (title,) in self.query("SELECT title FROM publication ORDER BY addedAt, id")]
        store = [name for (name,) in self.query("SELECT name FROM issue WHERE name LIKE 'desk-%' ORDER BY date DESC, id DESC")]
        to_desk = ["Home"] + ["Right"] * shelf.index("Desk")
        server = f"newsstand-concurrency-{os.getpid()}"

        def tmux(*arguments):
            return subprocess.run(["tmux", "-L", server, *arguments], capture_output=True, text=True)

        def screen(after):
            pane = tmux("capture-pane", "-p", "-t", "s").stdout
            # The shelf shows a library error on its status line as "library: …", others as
            # the error itself ("SQLite error …").
            if mentions_trouble(pane) or "library:" in pane.lower() or "sqlite" in pane.lower():
                self.fail(f"shelf screen after {after}: {pane.strip()[-400:]}")
            return pane

        tmux("-f", "/dev/null", "new-session", "-d", "-s", "s", "-x", "120", "-y", "40",
             "-e", f"NEWSSTAND_HOME={self.home}", "-e", f"NEWSSTAND_RESOURCES={self.env['NEWSSTAND_RESOURCES']}",
             "-e", "LANG=C.UTF-8", f"env TERM=xterm-256color {self.args.binary}")
        try:
            pane = ""
            while "NEWSSTAND" not in pane and self.running():
                pane = screen("start")
                time.sleep(0.1)
            if "NEWSSTAND" not in pane:
                self.fail(f"the shelf never showed: {pane.strip()[:300]!r}")
            round_number = 0
            while self.running():
                index = round_number % len(store)
                tmux("send-keys", "-t", "s", *to_desk, "Enter", "Home", *["Down"] * index, "p")
                self.toggles[store[index]] += 1
                self.count("shelf pin")
                time.sleep(0.15)
                screen("a pin")
                if round_number % 3 == 0:
                    name = DESK_READ[round_number // 3 % len(DESK_READ)]
                    tmux("send-keys", "-t", "s", "Home", *["Down"] * store.index(name), "Enter", "Space", "Space")
                    self.opened.add(name)
                    self.count("shelf read")
                    time.sleep(0.3)
                    screen("a reading")
                    tmux("send-keys", "-t", "s", "q")
                tmux("send-keys", "-t", "s", "Escape")
                time.sleep(0.1)
                round_number += 1
            # Q quits from any screen once every key before it is handled.
            tmux("send-keys", "-t", "s", "Q")
            for _ in range(300):
                if tmux("has-session", "-t", "s").returncode != 0:
                    break
                time.sleep(0.1)
            else:
                self.fail("the shelf did not quit within 30 s of Q")
        finally:
            tmux("kill-server")

    def reader(self):
        while self.running():
            result = self.cli("reader", "issues", "--json")
            try:
                listed = json.loads(result.stdout)
            except ValueError:
                listed = []
                self.fail(f"reader: issues --json printed invalid JSON: {result.stdout[:200]!r}")
            # Only what the listing called available: an issue still downloading is
            # rightly refused with an error.
            available = [row["name"] for row in listed
                         if row["status"] == "available" and row["name"] in ("dl-0", "dl-1", "base-0")]
            if available:
                self.cli("reader", "read", "--plain", random.choice(available))
            else:
                time.sleep(0.05)

    # -- the run -----------------------------------------------------------------------
    def run(self):
        served = self.work / "served"
        served.mkdir()
        payload = random.Random(3).randbytes(200_000)
        with zipfile.ZipFile(served / "issue.zip", "w") as z:
            z.writestr("index.html", "<h1>Concurrent</h1><p>Hello.</p>")
            z.writestr("payload.bin", payload, zipfile.ZIP_STORED)
        server = localserver.Server(str(served)).start()
        self.base = server.base
        try:
            # Issues for the downloader (base) and the remover, and the growing feed. A fast
            # build queues a download about every 0.3 s; 500 issues ran out in 180 s.
            downloads = int(self.args.seconds / self.DOWNLOAD_PAUSE) + 1
            (self.work / "base.xml").write_text(atom("Base", "urn:base",
                [(f"dl-{k}", f"{self.base}/issue.zip?d{k}") for k in range(downloads)] + [("base-0", f"{self.base}/issue.zip?b")]))
            (self.work / "removable.xml").write_text(atom("Removable", "urn:rm", [(f"rm-{k}", f"{self.base}/issue.zip?r{k}") for k in range(200)]))
            (self.work / "growing.xml").write_text(atom("Growing", "urn:growing", []))
            (self.work / "desk.xml").write_text(atom("Desk", "urn:desk", [(name, f"{self.base}/issue.zip?{name}") for name in DESK]))
            for feed in ("desk.xml", "base.xml", "removable.xml", "growing.xml"):
                self.cli("setup", "subscribe", str(self.work / feed))
            for name in ["base-0"] + DESK_READ:
                self.cli("setup", "download", name)
            agent = subprocess.Popen([self.args.binary, "agent", "--watch"], env=self.env,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            time.sleep(0.5)
            self.deadline = time.monotonic() + self.args.seconds
            roles = [self.subscriber, self.refresher, self.downloader, self.remover] + [self.reader] * self.args.readers
            if self.args.shelf:
                roles.append(self.shelf)
            threads = [threading.Thread(target=role) for role in roles]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            # Let the agent catch up, then stop it the polite way and let a plain agent finish.
            agent.send_signal(signal.SIGTERM)
            agent_output, _ = agent.communicate(timeout=60)
            if mentions_trouble(agent_output):
                self.fail(f"agent: {agent_output[-500:]}")
            self.cli("final", "agent")
            return self.verify(payload)
        finally:
            server.stop()

    def verify(self, payload):
        titles = {t for (t,) in self.query("SELECT title FROM publication")}
        issues = {name: (i, status) for i, name, status in self.query("SELECT id, name, status FROM issue")}
        missing_subs = [n for n in range(self.subscribed) if f"Sub {n}" not in titles]
        if missing_subs:
            self.failures.append(f"lost subscriptions: {missing_subs}")
        missing_subs_issues = [f"sub-{n}-{k}" for n in range(self.subscribed) for k in range(3) if f"sub-{n}-{k}" not in issues]
        if missing_subs_issues:
            self.failures.append(f"lost issues of subscriptions: {missing_subs_issues[:10]}")
        missing_growth = [f"grow-{k}" for k in range(self.appended) if f"grow-{k}" not in issues]
        if missing_growth:
            self.failures.append(f"lost refreshed entries: {missing_growth}")
        not_installed = [n for n in self.queued if issues.get(n, (0, ""))[1] != "available"]
        if not_installed:
            self.failures.append(f"queued but not installed: {not_installed[:10]} ({len(not_installed)})")
        content = self.home / "cache" / "issues"
        folders = {d.split("-", 1)[0]: d for d in os.listdir(content)} if content.is_dir() else {}
        corrupt = [n for n in self.queued if n in issues and (
            str(issues[n][0]) not in folders or (content / folders[str(issues[n][0])] / "payload.bin").read_bytes() != payload)]
        if corrupt:
            self.failures.append(f"installed content differs or is missing: {corrupt[:10]}")
        still_there = [n for n in self.removed if n in issues]
        if still_there:
            self.failures.append(f"removed issues came back: {still_there[:10]}")
        summary = {
            "subscribed": self.subscribed, "appended": self.appended, "queued": len(self.queued),
            "installed": len(self.queued) - len(not_installed), "removed": len(self.removed),
        }
        if self.args.shelf:
            desk = {name: (pinned, unread) for name, pinned, unread in
                    self.query("SELECT name, pinned, unread FROM issue WHERE name LIKE 'desk-%'")}
            wrong_pins = [(name, toggles, desk.get(name)) for name, toggles in self.toggles.items()
                          if desk.get(name, (None, None))[0] != toggles % 2]
            if wrong_pins:
                self.failures.append(f"the shelf's pins were lost (name, toggles, (pinned, unread)): {wrong_pins}")
            still_unread = [name for name in sorted(self.opened) if desk.get(name, (None, None))[1] != 0]
            if still_unread:
                self.failures.append(f"issues opened on the shelf but still unread: {still_unread}")
            summary["shelf"] = {"pin toggles": sum(self.toggles.values()), "issues opened": sorted(self.opened)}
        return summary


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=180)
    parser.add_argument("--readers", type=int, default=2)
    parser.add_argument("--binary", default=str(ROOT / ".build" / "debug" / "newsstand"))
    parser.add_argument("--summary", help="also write the JSON summary to this file")
    parser.add_argument("--no-shelf", dest="shelf", action="store_false", help="leave the shelf out (it needs tmux)")
    args = parser.parse_args()
    run = Run(args)
    started = time.monotonic()
    try:
        summary = run.run()
    finally:
        shutil.rmtree(run.work, ignore_errors=True)
    summary.update(commands=run.counts, seconds=round(time.monotonic() - started, 1), failures=run.failures)
    if args.summary:
        pathlib.Path(args.summary).write_text(json.dumps(summary, indent=1))
    print(json.dumps(summary, indent=1))
    sys.exit(1 if run.failures else 0)


if __name__ == "__main__":
    main()
