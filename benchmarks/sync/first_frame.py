#!/usr/bin/env python3
"""What syncing on opening adds to the reader's first frame (goal: <= 5 ms).

    benchmarks/sync/first_frame.py [BIN_DIR] [--runs N]

One library made by the reader benchmark's driver (`newsstand-bench-reader --install-only`:
a 2 MB-text EPUB in 40 chapters, issue `bench-1`), copied twice: one with no sync server, one
with the kosync test server (Tests/Servers/kosync_server.py, 127.0.0.1) added and a place
from another reader waiting on it. Each run starts `newsstand read bench-1` in tmux with
NEWSSTAND_FRAME_TIMES and takes `first_frame_ms` (process start to the first frame drawn),
the two libraries in turn, the place cleared before each run. Prints each library's median
and the difference of the medians.
"""
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
args = [a for a in sys.argv[1:] if not a.startswith("--")]
bin_dir = args[0] if args else os.path.join(root, ".build/release")
runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 10
work = tempfile.mkdtemp(prefix="newsstand-first-frame-")
socket = f"newsstand-ff-{os.getpid()}"


def env(home, **more):
    return dict(os.environ, NEWSSTAND_HOME=home, NEWSSTAND_KEYRING="off", TERM="xterm-256color", LANG="C.UTF-8", **more)


def first_frame(home):
    db = sqlite3.connect(os.path.join(home, "data", "library.sqlite"))
    db.execute("UPDATE issue SET locator = NULL")
    db.execute("DELETE FROM placeOffer")
    db.execute("UPDATE syncPlace SET seenTimestamp = NULL, document = NULL")
    db.commit()
    db.close()
    times = os.path.join(work, "times.txt")
    if os.path.exists(times):
        os.remove(times)
    subprocess.run(["tmux", "-L", socket, "kill-server"], stderr=subprocess.DEVNULL)
    command = " ".join(f"{k}='{v}'" for k, v in
                       (("NEWSSTAND_HOME", home), ("NEWSSTAND_KEYRING", "off"), ("NEWSSTAND_FRAME_TIMES", times))) \
        + f" '{bin_dir}/newsstand' read bench-1"
    subprocess.run(["tmux", "-L", socket, "new-session", "-d", "-s", "s", "-x", "120", "-y", "40", "env " + command], check=True)
    deadline = time.time() + 60
    while time.time() < deadline:
        screen = subprocess.run(["tmux", "-L", socket, "capture-pane", "-p", "-t", "s"], capture_output=True, text=True).stdout
        if "Chapter 1" in screen:
            break
        time.sleep(0.02)
    offered = False
    while time.time() < deadline and home.endswith("/on") and not offered:  # the sync's answer: the offer
        offered = "Enter to go" in subprocess.run(["tmux", "-L", socket, "capture-pane", "-p", "-t", "s"],
                                                  capture_output=True, text=True).stdout
        time.sleep(0.02)
    subprocess.run(["tmux", "-L", socket, "send-keys", "-t", "s", "Q"])
    while time.time() < deadline and not os.path.exists(times):
        time.sleep(0.02)
    time.sleep(0.1)
    subprocess.run(["tmux", "-L", socket, "kill-server"], stderr=subprocess.DEVNULL)
    values = dict(line.split()[:2] for line in open(times) if len(line.split()) >= 2)
    if "first_frame_ms" not in values:
        raise SystemExit("no first frame recorded")
    return float(values["first_frame_ms"]), float(values["cpu_at_first_frame_ms"])


server = None
try:
    off = os.path.join(work, "off")
    subprocess.run([os.path.join(bin_dir, "newsstand-bench-reader"), "--shape", "chapters", "--install-only", off],
                   check=True, capture_output=True)
    on = os.path.join(work, "on")
    shutil.copytree(off, on)
    other = os.path.join(work, "other")
    shutil.copytree(off, other)
    # As the agent records it when it downloads an archive: KOReader's id of the file.
    for home in (on, other):
        db = sqlite3.connect(os.path.join(home, "data", "library.sqlite"))
        db.execute("INSERT INTO syncDocument (issueId, partialMD5, fileName) SELECT id, '0123456789abcdef0123456789abcdef', "
                   "'bench-1.epub' FROM issue WHERE name = 'bench-1'")
        db.commit()
        db.close()
    server_dir = os.path.join(work, "server")
    os.makedirs(server_dir)
    server = subprocess.Popen([sys.executable, os.path.join(root, "Tests/Servers/kosync_server.py"), server_dir],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    port = int(server.stdout.readline())
    for home in (on, other):
        subprocess.run([f"{bin_dir}/newsstand", "sync", "add", "kobo", f"http://127.0.0.1:{port}", "--user", "ann", "--password-stdin"],
                       env=env(home), input="pa55\n", text=True, check=True, capture_output=True)
    subprocess.run([f"{bin_dir}/newsstand", "place", "bench-1", "--set", "60%"], env=env(other), check=True, capture_output=True)
    subprocess.run([f"{bin_dir}/newsstand", "sync", "now"], env=env(other), check=True, capture_output=True)
    with open("/proc/loadavg") as f:
        print("load average:", " ".join(f.read().split()[:3]))
    frames = {"off": [], "on": []}
    for run in range(runs):
        for name, home in (("off", off), ("on", on)):
            frames[name].append(first_frame(home))
    wall = {name: [w for w, _ in values] for name, values in frames.items()}
    cpu = {name: [c for _, c in values] for name, values in frames.items()}
    for name in ("off", "on"):
        print(f"sync {name:3}: first frame median {statistics.median(wall[name]):7.1f} ms wall, "
              f"{statistics.median(cpu[name]):6.1f} ms CPU  (wall runs: {' '.join(f'{v:.0f}' for v in wall[name])})")
    print(f"added by sync on opening: {statistics.median(wall['on']) - statistics.median(wall['off']):+.1f} ms wall, "
          f"{statistics.median(cpu['on']) - statistics.median(cpu['off']):+.1f} ms CPU (differences of medians)")
finally:
    if server:
        server.stdin.close()
        server.wait()
    subprocess.run(["tmux", "-L", socket, "kill-server"], stderr=subprocess.DEVNULL)
    shutil.rmtree(work, ignore_errors=True)
