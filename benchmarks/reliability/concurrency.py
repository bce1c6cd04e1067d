#!/usr/bin/env python3
"""Several command-line processes and the agent changing one library at once, for a while:

  subscriber  subscribes to new feeds, one after another (distinct publications)
  refresher   appends an entry to a growing feed, then `refresh`es it
  downloader  queues issues (`download`) that the agent installs meanwhile
  remover     removes issues of a publication of its own
  readers     `issues --json` and `read --plain` on whatever is there
  agent       `agent --watch` for the whole run (installs from 127.0.0.1)

Afterwards: no update lost (every feed subscribed, every appended entry present, every
queued issue installed byte for byte, every removed issue gone), every command exited 0,
and no output anywhere mentions a locked or busy database.

    benchmarks/reliability/concurrency.py [--seconds 180] [--binary .build/debug/newsstand]"""
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
        with self.lock:
            self.counts[role] = self.counts.get(role, 0) + 1
            if result.returncode != 0 or "locked" in text.lower() or "busy" in text.lower():
                self.failures.append(f"{role}: newsstand {' '.join(arguments)} → {result.returncode}: {text.strip()[:300]}")
        return result

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

    def downloader(self):
        self.queued = []
        k = 0
        while self.running():
            name = f"dl-{k}"
            k += 1
            self.queued.append(name)
            self.cli("downloader", "download", name)
            time.sleep(0.2)

    def remover(self):
        self.removed = []
        names = [f"rm-{k}" for k in range(200)]
        for name in names:
            if not self.running():
                break
            self.cli("remover", "remove", name)
            self.removed.append(name)

    def reader(self):
        while self.running():
            result = self.cli("reader", "issues", "--json")
            try:
                listed = json.loads(result.stdout)
            except ValueError:
                listed = []
                with self.lock:
                    self.failures.append(f"reader: issues --json printed invalid JSON: {result.stdout[:200]!r}")
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
            # Issues for the downloader (base) and the remover, and the growing feed.
            (self.work / "base.xml").write_text(atom("Base", "urn:base",
                [(f"dl-{k}", f"{self.base}/issue.zip?d{k}") for k in range(500)] + [("base-0", f"{self.base}/issue.zip?b")]))
            (self.work / "removable.xml").write_text(atom("Removable", "urn:rm", [(f"rm-{k}", f"{self.base}/issue.zip?r{k}") for k in range(200)]))
            (self.work / "growing.xml").write_text(atom("Growing", "urn:growing", []))
            for feed in ("base.xml", "removable.xml", "growing.xml"):
                self.cli("setup", "subscribe", str(self.work / feed))
            self.cli("setup", "download", "base-0")
            agent = subprocess.Popen([self.args.binary, "agent", "--watch"], env=self.env,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            time.sleep(0.5)
            self.deadline = time.monotonic() + self.args.seconds
            roles = [self.subscriber, self.refresher, self.downloader, self.remover] + [self.reader] * self.args.readers
            threads = [threading.Thread(target=role) for role in roles]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            # Let the agent catch up, then stop it the polite way and let a plain agent finish.
            agent.send_signal(signal.SIGTERM)
            agent_output, _ = agent.communicate(timeout=60)
            if "locked" in agent_output.lower() or "busy" in agent_output.lower():
                self.failures.append(f"agent: {agent_output[-500:]}")
            self.cli("final", "agent")
            return self.verify(payload)
        finally:
            server.stop()

    def verify(self, payload):
        db = sqlite3.connect(f"file:{self.home / 'data' / 'library.sqlite'}?mode=ro", uri=True)
        titles = {t for (t,) in db.execute("SELECT title FROM publication")}
        issues = {name: (i, status) for i, name, status in db.execute("SELECT id, name, status FROM issue")}
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
        return {
            "subscribed": self.subscribed, "appended": self.appended, "queued": len(self.queued),
            "installed": len(self.queued) - len(not_installed), "removed": len(self.removed),
        }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=180)
    parser.add_argument("--readers", type=int, default=2)
    parser.add_argument("--binary", default=str(ROOT / ".build" / "debug" / "newsstand"))
    parser.add_argument("--summary", help="also write the JSON summary to this file")
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
