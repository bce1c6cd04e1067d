#!/usr/bin/env python3
"""The shelf benchmark: start to first frame and to every cover drawn, key press to the
next frame, and peak memory, for the library make_library.py built.

    benchmarks/shelf/run.py OUT [--size 120x40] [--runs 3] [--cold] [--outside] [--details] [--newsstand PATH]

Each run starts the release binary in a private tmux server and sends it 49 keys, 150 ms
apart. Figures come from the program's own timing hook (NEWSSTAND_FRAME_TIMES: from the
start of the shelf to its first frame and to the first frame with every cover; from
reading a key to its frame written; process CPU time; process age from /proc) and, with
--outside, from a poller reading `tmux capture-pane` (start of the tmux command to the
first frame and to the last change of the screen; key sent to screen changed). --cold
removes the rendered-cover cache before each run, as on a first start.
"""

import argparse
import os
import pathlib
import shutil
import statistics
import subprocess
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent

# Moves on the shelf, into a store and through it, back, and a help screen: every key
# draws a different frame.
KEYS = (["l"] * 8 + ["j"] * 4 + ["G", "g", "Enter"] + ["j"] * 12 + ["G", "g", "q", "?", "q"]
        + ["h"] * 4 + ["k"] * 2 + ["n", "n", "Enter"] + ["j"] * 6 + ["q"])


def tmux(server, *arguments):
    return subprocess.run(["tmux", "-L", server, *arguments], capture_output=True, text=True)


def capture(server):
    return tmux(server, "capture-pane", "-p", "-t", "s").stdout


def run_once(args, out, index):
    server = f"nsbench-{os.getpid()}-{index}"
    times = pathlib.Path(tempfile.mkdtemp()) / "times.txt"
    if args.cold:
        shutil.rmtree(out / "home" / "cache" / "rendered", ignore_errors=True)
    width, height = args.size.split("x")
    command = (f"env NEWSSTAND_HOME={out / 'home'} NEWSSTAND_RESOURCES={out / 'resources'} "
               f"NEWSSTAND_FRAME_TIMES={times} TERM=xterm-256color LANG=C.UTF-8 {args.newsstand}")
    started = time.monotonic()
    tmux(server, "-f", "/dev/null", "new-session", "-d", "-s", "s", "-x", width, "-y", height, command)
    first = settled = None
    outside = []
    if args.outside:
        # Every capture-pane is a tmux client process: this poller costs CPU the program
        # would otherwise have, so its figures are taken in runs of their own.
        last = ""
        while time.monotonic() - started < 15:
            screen = capture(server)
            now = time.monotonic() - started
            if first is None and "NEWSSTAND" in screen:
                first = now
            if first is not None:
                if screen != last:
                    settled = now
                elif now - settled > 0.5:
                    break
            last = screen
            time.sleep(0.005)
    else:
        time.sleep(2.5)
    for key in KEYS:
        if args.outside:
            # The time until the screen changes (poll every 2 ms).
            before = capture(server)
            sent = time.monotonic()
            tmux(server, "send-keys", "-t", "s", key)
            while time.monotonic() - sent < 1:
                if capture(server) != before:
                    outside.append((time.monotonic() - sent) * 1000)
                    break
                time.sleep(0.002)
        else:
            tmux(server, "send-keys", "-t", "s", key)
        time.sleep(0.15)
    tmux(server, "send-keys", "-t", "s", "Q")
    for _ in range(200):
        if times.exists():
            break
        time.sleep(0.02)
    tmux(server, "kill-server")
    lines = times.read_text().splitlines() if times.exists() else []
    figures = dict(line.split() for line in lines if len(line.split()) == 2)
    if args.details:
        print("\n".join(line for line in lines if len(line.split()) != 2))
    outside_figures = {
        "outside_first_frame_ms": (first or -1) * 1000,
        "outside_settled_ms": (settled or -1) * 1000,
        "outside_key_median_ms": statistics.median(outside) if outside else -1,
    } if args.outside else {}
    return {**outside_figures, **{key: float(value) for key, value in figures.items()}}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=pathlib.Path)
    parser.add_argument("--size", default="120x40")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cold", action="store_true")
    parser.add_argument("--outside", action="store_true",
                        help="also time from outside: tmux capture-pane polling (slows the program it watches)")
    parser.add_argument("--details", action="store_true", help="print each key's phases (handle, poll, render, draw)")
    parser.add_argument("--newsstand", default=str(ROOT / ".build" / "release" / "newsstand"))
    args = parser.parse_args()
    out = args.out.resolve()
    results = [run_once(args, out, index) for index in range(args.runs)]
    print(f"shelf benchmark: {args.size}, {'cold' if args.cold else 'warm'} cover cache, {args.runs} runs")
    for key in results[0]:
        values = [result[key] for result in results]
        print(f"  {key:28} {'  '.join(f'{v:8.1f}' for v in values)}")


if __name__ == "__main__":
    main()
