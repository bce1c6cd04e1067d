#!/usr/bin/env python3
"""A catalog page in the shelf: from the key to the frame showing the fetched page, and to
the last frame its covers caused, against server.py on 127.0.0.1 (issue #25).

    benchmarks/catalogs/shelf.py [--runs 3] [--pages 10] [--books 1000] [--per-page 50]
                                 [--size 120x40] [--newsstand PATH]

Each run, on a fresh NEWSSTAND_HOME with the catalog kept (`newsstand catalog add`), the
release binary starts in a private tmux server; `c` opens the catalogs, Enter the catalog
(its navigation page), Enter "By Newest" (an acquisition page of PER_PAGE books), then `]`
walks to the next page, PAGES pages in all, each with PER_PAGE covers not fetched before.
Keys go 1.5 s apart, so each page's covers are in before the next key.

Figures come from the program's own timing hook (NEWSSTAND_FRAME_TIMES): for a key that
set a fetch going, the time from reading the key to the first frame drawn after the page
arrived (`page`), and to the last frame drawn before nothing it set going was left: every
cover fetched into the cover cache and none still rendering (`covers`). The navigation
page is left out: only acquisition pages count.
"""

import argparse
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent


def tmux(server, *arguments):
    return subprocess.run(["tmux", "-L", server, *arguments], capture_output=True, text=True)


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))] if ordered else float("nan")


def run_once(args, base, index):
    work = pathlib.Path(tempfile.mkdtemp(prefix="catalog-shelf."))
    home, times = work / "home", work / "times.txt"
    environment = {**os.environ, "NEWSSTAND_HOME": str(home), "NEWSSTAND_RESOURCES": str(work / "resources")}
    (work / "resources").mkdir()
    added = subprocess.run([args.newsstand, "catalog", "add", f"{base}/opds"], env=environment, capture_output=True, text=True)
    if added.returncode != 0:
        sys.exit(f"catalog add failed: {added.stdout}{added.stderr}")
    server = f"nscatalog-{os.getpid()}-{index}"
    width, height = args.size.split("x")
    command = (f"env NEWSSTAND_HOME={home} NEWSSTAND_RESOURCES={work / 'resources'} "
               f"NEWSSTAND_FRAME_TIMES={times} TERM=xterm-256color LANG=C.UTF-8 {args.newsstand}")
    tmux(server, "-f", "/dev/null", "new-session", "-d", "-s", "s", "-x", width, "-y", height, command)
    time.sleep(2.5)
    keys = ["c", "Enter", "Enter"] + ["]"] * (args.pages - 1)
    screen = ""
    for key in keys:
        tmux(server, "send-keys", "-t", "s", key)
        time.sleep(1.5)
    screen = tmux(server, "capture-pane", "-p", "-t", "s").stdout
    tmux(server, "send-keys", "-t", "s", "Q")
    for _ in range(200):
        if times.exists():
            break
        time.sleep(0.02)
    tmux(server, "kill-server")
    if f"{args.per_page} books" not in screen:
        sys.exit(f"run {index}: the last page does not show {args.per_page} books:\n{screen}")
    lines = times.read_text().splitlines() if times.exists() else []
    fetches = [dict(part.split("=") for part in line.split()[2:]) for line in lines if line.startswith("fetch ")]
    # The first fetch is the catalog's navigation page; the rest are acquisition pages.
    pages = fetches[1:]
    if len(pages) != args.pages:
        sys.exit(f"run {index}: {len(pages)} acquisition pages timed, {args.pages} walked:\n" + "\n".join(lines))
    return [(float(page["page"]), float(page["settled"])) for page in pages]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pages", type=int, default=10)
    parser.add_argument("--books", type=int, default=1000)
    parser.add_argument("--per-page", type=int, default=50)
    parser.add_argument("--size", default="120x40")
    parser.add_argument("--newsstand", default=str(ROOT / ".build" / "release" / "newsstand"))
    args = parser.parse_args()
    catalog = subprocess.Popen([sys.executable, str(ROOT / "benchmarks" / "catalogs" / "server.py"), str(args.books), str(args.per_page)],
                               stdout=subprocess.PIPE, text=True)
    try:
        base = f"http://127.0.0.1:{catalog.stdout.readline().strip()}"
        samples = [sample for index in range(args.runs) for sample in run_once(args, base, index)]
    finally:
        catalog.terminate()
        catalog.wait()
    page = [s[0] for s in samples]
    covers = [s[1] for s in samples]
    load = " ".join(pathlib.Path("/proc/loadavg").read_text().split()[:3])
    print(f"catalog page in the shelf: {args.runs} runs × {args.pages} acquisition pages of {args.per_page} books, "
          f"{args.size}, load {load}")
    print(f"  key to page shown:     median {statistics.median(page):7.1f} ms   p95 {percentile(page, 0.95):7.1f} ms   max {max(page):7.1f} ms")
    print(f"  key to covers drawn:   median {statistics.median(covers):7.1f} ms   p95 {percentile(covers, 0.95):7.1f} ms   max {max(covers):7.1f} ms")


if __name__ == "__main__":
    main()
