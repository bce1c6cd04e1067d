#!/usr/bin/env python3
"""The download agent killed with SIGKILL at random moments across download, verify and
install; after every kill the library must be consistent, and every issue that finished
must be byte-identical to its source archive.

    benchmarks/reliability/crash-kills.py [--kills 50] [--binary .build/debug/newsstand]

Serves a few MB over 127.0.0.1, keeps everything under a temporary NEWSSTAND_HOME, prints
one line per kill and a summary; `--json` prints the summary as JSON (the test suite's
short version reads it). Exit status 1 when any check failed."""
import argparse
import fcntl
import hashlib
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
import time
import zipfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import localserver  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]


class Run:
    def __init__(self, args):
        self.args = args
        self.rng = random.Random(args.seed)
        self.work = pathlib.Path(tempfile.mkdtemp(prefix="newsstand-kills-"))
        self.home = self.work / "home"
        self.served = self.work / "served"
        self.served.mkdir()
        self.env = dict(os.environ, NEWSSTAND_HOME=str(self.home), NEWSSTAND_RESOURCES="/nonexistent")
        self.problems = []
        self.kills = []          # (phase, seconds after start)
        self.cycles = 0
        self.issues = {}         # name → source archive
        self.sources = {}        # source archive → {entry name: bytes}

    # -- fixtures -----------------------------------------------------------------------
    def make_sources(self):
        for i in range(self.args.issues):
            path = self.served / f"issue-{i}.zip"
            payload = self.rng.randbytes(int(self.args.size_mb * (1 << 20)))
            text = ("<h1>Issue %d</h1>" % i + "<p>The quick brown fox.</p>" * 2000).encode()
            with zipfile.ZipFile(path, "w") as z:
                z.writestr(zipfile.ZipInfo("index.html", (2026, 11, 22, 7, 0, 0)), text, zipfile.ZIP_DEFLATED)
                z.writestr(zipfile.ZipInfo("data/payload.bin", (2026, 11, 22, 7, 0, 0)), payload,
                           zipfile.ZIP_DEFLATED if i % 2 else zipfile.ZIP_STORED)
            with zipfile.ZipFile(path) as z:
                self.sources[path.name] = {n: z.read(n) for n in z.namelist()}

    def write_feed(self, base):
        entries = []
        for name, source in sorted(self.issues.items()):
            data = (self.served / source).read_bytes()
            entries.append(
                f'<entry><id>{name}</id><title>{name}</title><updated>2026-11-01T00:00:00Z</updated>'
                f'<link rel="http://opds-spec.org/acquisition" type="application/zip" href="{base}/{source}?{name}"'
                f' length="{len(data)}" sha256="{hashlib.sha256(data).hexdigest()}"/></entry>')
        (self.work / "feed.xml").write_text(
            '<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom">'
            '<title>Kill Weekly</title><id>urn:kills</id><updated>2026-11-01T00:00:00Z</updated>'
            + "".join(entries) + "</feed>")

    # -- the program --------------------------------------------------------------------
    def newsstand(self, *arguments, check=True):
        result = subprocess.run([self.args.binary, *arguments], env=self.env, capture_output=True, text=True, timeout=120)
        if check and result.returncode != 0:
            raise RuntimeError(f"newsstand {' '.join(arguments)} failed: {result.stdout}{result.stderr}")
        return result

    def queue(self, names):
        """Queues without letting `download` start an agent: this script holds the agent
        lock meanwhile, so the only agents are the ones it starts and kills."""
        lock_path = self.home / "state" / "agent.lock"
        lock_path.parent.mkdir(parents=True, exist_ok=True)
        with open(lock_path, "a+") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            for name in names:
                self.newsstand("download", name)

    # -- observation --------------------------------------------------------------------
    def phase(self):
        issues = self.home / "cache" / "issues"
        if issues.is_dir() and any(n.startswith(".") for n in os.listdir(issues)):
            return "install"
        partial = self.home / "cache" / "partial"
        sizes = []
        for part in partial.glob("*.part") if partial.is_dir() else []:
            try:
                sizes.append(part.stat().st_size)
            except FileNotFoundError:
                pass  # installed or removed by the agent since the listing
        full = {len((self.served / s).read_bytes()) for s in self.sources}
        if any(s in full for s in sizes):
            return "verify"
        return "download" if sizes else "idle"

    def database(self):
        connection = sqlite3.connect(f"file:{self.home / 'data' / 'library.sqlite'}?mode=ro", uri=True, timeout=10)
        try:
            issues = connection.execute("SELECT id, name, status FROM issue").fetchall()
            assets = connection.execute("SELECT identifier, issueId, state FROM assetDownload").fetchall()
        finally:
            connection.close()
        return issues, assets

    def check(self, finished):
        """Consistency after a kill (`finished` False) or after an agent that exited on its
        own (`finished` True, stricter: nothing may be left in flight)."""
        issues, assets = self.database()
        by_id = {i: (name, status) for i, name, status in issues}
        content = self.home / "cache" / "issues"
        directories = [n for n in os.listdir(content)] if content.is_dir() else []
        problems = []
        for name in directories:
            if name.startswith("."):
                if finished:
                    problems.append(f"install leftover {name} after the agent finished")
                continue
            prefix = name.split("-", 1)[0]
            if not prefix.isdigit() or int(prefix) not in by_id:
                problems.append(f"content {name} belongs to no issue")
            elif by_id[int(prefix)][1] == "none":
                problems.append(f"content {name} for issue {by_id[int(prefix)][0]} marked 'none'")
        for issue_id, (name, status) in by_id.items():
            directory = [d for d in directories if d.split("-", 1)[0] == str(issue_id)]
            if status == "available":
                if not directory:
                    problems.append(f"{name} is available without content")
                    continue
                problems += self.compare(name, content / directory[0])
            if finished and status == "downloading":
                problems.append(f"{name} stuck 'downloading' after the agent finished")
        if finished:
            open_assets = [a for a in assets if a[2] in ("queued", "active")]
            if open_assets:
                problems.append(f"downloads still open after the agent finished: {open_assets}")
            partial = self.home / "cache" / "partial"
            if partial.is_dir() and os.listdir(partial):
                problems.append(f"partial files left: {os.listdir(partial)}")
        return problems

    def compare(self, name, directory):
        expected = self.sources[self.issues[name]]
        problems = []
        for entry, data in expected.items():
            path = directory / entry
            if not path.is_file():
                problems.append(f"{name}: {entry} missing")
            elif path.read_bytes() != data:
                problems.append(f"{name}: {entry} differs from its source")
        return problems

    # -- the run ------------------------------------------------------------------------
    def new_cycle(self, base):
        self.cycles += 1
        names = [f"kill-{self.cycles:02}-{i}" for i in range(self.args.issues)]
        for i, name in enumerate(names):
            self.issues[name] = f"issue-{i}.zip"
        self.write_feed(base)
        self.newsstand("refresh")
        self.queue(names)
        return names

    def pending(self, names):
        issues, _ = self.database()
        status = {name: s for _, name, s in issues}
        return [n for n in names if status.get(n) != "available"]

    def kill_once(self, number):
        # Three quarters of the kills wait for a phase (the verify and install windows are
        # short), then strike at once; the rest land at a random moment.
        aim = self.rng.choice(["time", "download", "verify", "install"])
        deadline_after = self.rng.uniform(0.05, self.args.horizon)
        agent = subprocess.Popen([self.args.binary, "agent"], env=self.env, stdout=subprocess.DEVNULL,
                                 stderr=open(self.work / "agent.log", "a"), start_new_session=True)
        start = time.monotonic()
        phase = "idle"
        while agent.poll() is None:
            elapsed = time.monotonic() - start
            phase = self.phase()
            if aim == "time" and elapsed >= deadline_after:
                break
            if aim != "time" and (phase == aim or elapsed >= 4 * self.args.horizon):
                break
            time.sleep(0.0005 if aim != "time" else 0.005)
        exited = agent.poll() is not None
        if not exited:
            os.kill(agent.pid, signal.SIGKILL)
        agent.wait()
        elapsed = time.monotonic() - start
        self.kills.append({"phase": phase if not exited else "exited", "aim": aim, "seconds": round(elapsed, 3)})
        problems = self.check(finished=exited)
        self.problems += [f"kill {number}: {p}" for p in problems]
        print(f"kill {number:3}: {'agent had finished' if exited else 'SIGKILL during ' + phase:28} "
              f"after {elapsed:6.3f}s  {'OK' if not problems else '; '.join(problems)}", file=sys.stderr)
        return exited

    def finish(self):
        result = self.newsstand("agent", check=False)
        if result.returncode != 0:
            self.problems.append(f"final agent failed: {result.stderr.strip()[-300:]}")
        self.problems += [f"final: {p}" for p in self.check(finished=True)]

    def run(self):
        self.make_sources()
        server = localserver.Server(str(self.served), chunk=32 << 10, pause=self.args.pause).start()
        try:
            self.write_feed(server.base)
            self.newsstand("subscribe", str(self.work / "feed.xml"))
            names = self.new_cycle(server.base)
            done = 0
            while done < self.args.kills:
                exited = self.kill_once(len(self.kills) + 1)
                if not exited:
                    done += 1
                if not self.pending(names):
                    self.problems += [f"cycle {self.cycles}: {p}" for p in self.check(finished=False)]
                    names = self.new_cycle(server.base)
            self.finish()
        finally:
            server.stop()
        phases = {}
        for kill in self.kills:
            phases[kill["phase"]] = phases.get(kill["phase"], 0) + 1
        issues, _ = self.database()
        issues = [i for i in issues if i[1] in self.issues]
        return {
            "kills": sum(1 for k in self.kills if k["phase"] != "exited"),
            "phases": phases,
            "cycles": self.cycles,
            "issues": len(issues),
            "available": sum(1 for i in issues if i[2] == "available"),
            "identical": sum(1 for i in issues if i[2] == "available" and not self.compare(i[1], self.content_of(i[0]))),
            "requests": server.requests,
            "problems": self.problems,
        }

    def content_of(self, issue_id):
        content = self.home / "cache" / "issues"
        return content / next(d for d in os.listdir(content) if d.split("-", 1)[0] == str(issue_id))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kills", type=int, default=50)
    parser.add_argument("--issues", type=int, default=3, help="issues per cycle")
    parser.add_argument("--size-mb", type=float, default=1.5, help="payload of each issue")
    parser.add_argument("--pause", type=float, default=0.01, help="server pause per 32 KiB")
    parser.add_argument("--horizon", type=float, default=1.5, help="latest random kill, seconds")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--binary", default=str(ROOT / ".build" / "debug" / "newsstand"))
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--summary", help="also write the JSON summary to this file")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    args = parser.parse_args()
    if args.seed is None:
        args.seed = random.randrange(1 << 30)
    run = Run(args)
    if args.keep:
        print(f"work directory: {run.work}", file=sys.stderr)
    try:
        summary = run.run()
    finally:
        if not args.keep:
            shutil.rmtree(run.work, ignore_errors=True)
    summary["seed"] = args.seed
    if args.summary:
        pathlib.Path(args.summary).write_text(json.dumps(summary, indent=1))
    if args.json:
        print(json.dumps(summary, indent=1))
    else:
        print(f"{summary['kills']} kills {summary['phases']}, {summary['cycles']} cycles, "
              f"{summary['available']}/{summary['issues']} issues available, {summary['identical']} byte-identical, "
              f"{summary['requests']} requests, seed {args.seed}")
        for problem in summary["problems"]:
            print("PROBLEM:", problem)
    sys.exit(1 if summary["problems"] else 0)


if __name__ == "__main__":
    main()
