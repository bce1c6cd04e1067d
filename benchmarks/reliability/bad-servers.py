#!/usr/bin/env python3
"""Every misbehaving server of badserver.py against the real program: `subscribe` to each
path (feed fetch), then the agent downloading issues whose links misbehave. Prints a table
of outcome, time, and what the user was told; checks each case ended in bounded time with
one line, exit status 1, and left no partial file. Takes about 8 minutes (the stalling
cases wait out 3 attempts of the 20 s timeout).

    benchmarks/reliability/bad-servers.py [--binary .build/debug/newsstand] [--quick]"""
import argparse
import fcntl
import os
import pathlib
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
FAST = ["endless", "endless-chunked", "endless-feed", "huge-length", "huge-headers", "many-headers",
        "loop", "ping", "chain/12", "html", "garbage", "feed-as-png"]
SLOW = ["stall", "stall-body", "drip-headers?interval=5", "drip-body?interval=5"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=str(ROOT / ".build" / "debug" / "newsstand"))
    parser.add_argument("--quick", action="store_true", help="leave out the stalling cases and the 2 GB download")
    args = parser.parse_args()
    server = subprocess.Popen([sys.executable, str(pathlib.Path(__file__).with_name("badserver.py"))],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    port = int(server.stdout.readline())
    work = pathlib.Path(tempfile.mkdtemp(prefix="newsstand-badservers-"))
    failures = []
    try:
        print(f"{'case':<28} {'exit':>4} {'seconds':>7}  message")
        for path in FAST + ([] if args.quick else SLOW):
            home = work / path.replace("/", "-").replace("?", "-")
            env = dict(os.environ, NEWSSTAND_HOME=str(home), NEWSSTAND_RESOURCES="/nonexistent")
            started = time.monotonic()
            result = subprocess.run([args.binary, "subscribe", f"http://127.0.0.1:{port}/{path}"], env=env,
                                    capture_output=True, text=True, timeout=600)
            seconds = time.monotonic() - started
            lines = (result.stdout + result.stderr).strip().splitlines()
            print(f"subscribe {path:<18} {result.returncode:>4} {seconds:7.1f}  {' / '.join(lines)[:160]}")
            expected = 0 if path == "feed-as-png" else 1
            if result.returncode != expected or len(lines) != 1 or seconds > 120:
                failures.append(f"subscribe {path}: status {result.returncode}, {len(lines)} lines, {seconds:.0f} s")
            leftovers = list((home / "cache" / "partial").glob("*")) if (home / "cache" / "partial").exists() else []
            if leftovers:
                failures.append(f"subscribe {path}: left {leftovers}")

        # Downloads: one library subscribed to the feed whose issue links misbehave.
        home = work / "downloads"
        env = dict(os.environ, NEWSSTAND_HOME=str(home), NEWSSTAND_RESOURCES="/nonexistent")
        feed = f"http://127.0.0.1:{port}/feed" + ("?quick=1" if args.quick else "")
        subprocess.run([args.binary, "subscribe", feed], env=env, check=True, capture_output=True)
        (home / "state").mkdir(parents=True, exist_ok=True)
        with open(home / "state" / "agent.lock", "a+") as lock:   # queue without starting an agent
            fcntl.flock(lock, fcntl.LOCK_EX)
            listing = subprocess.run([args.binary, "issues"], env=env, capture_output=True, text=True).stdout
            names = [line.split("\t")[1] for line in listing.splitlines() if "\tbad-" in line]
            for name in names:
                subprocess.run([args.binary, "download", name], env=env, check=True, capture_output=True)
        started = time.monotonic()
        agent = subprocess.run([args.binary, "agent"], env=env, capture_output=True, text=True, timeout=900)
        seconds = time.monotonic() - started
        print(f"agent over {len(names)} misbehaving issue links: exit {agent.returncode}, {seconds:.1f} s")
        db = sqlite3.connect(f"file:{home / 'data' / 'library.sqlite'}?mode=ro", uri=True)
        for name, status, error in db.execute("SELECT name, status, lastError FROM issue WHERE name LIKE 'bad-%' ORDER BY name"):
            print(f"download {name:<24} {status:>9}  {(error or '')[:150]}")
            if status != "none" or not error or "\n" in error:
                failures.append(f"download {name}: {status}, {error!r}")
        for folder in ("partial", "issues"):
            left = os.listdir(home / "cache" / folder) if (home / "cache" / folder).exists() else []
            if left:
                failures.append(f"downloads left {folder}: {left}")
    finally:
        server.stdin.close()
        server.wait()
        shutil.rmtree(work, ignore_errors=True)
    for failure in failures:
        print("PROBLEM:", failure)
    print("all cases bounded, reported in one line, harmless" if not failures else f"{len(failures)} problem(s)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
