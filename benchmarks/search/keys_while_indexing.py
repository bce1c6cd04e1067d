#!/usr/bin/env python3
"""The shelf's keys while the agent builds the search index of the corpus folder's issues
(generate.py's EPUBs and PDFs, 180 by default; issue 32: "the
shelf's keys stay under 30 ms while the index is built").

    benchmarks/search/keys_while_indexing.py WORKDIR --newsstand PATH [--json FILE]

WORKDIR/corpus is generate.py's EPUB and PDF issues (made when missing). They are subscribed
as two local publications (100 each, so that `l`/`h` move the marker between two covers),
then every issue is marked for the index again (what `newsstand search --rebuild` marks) and
the shelf starts in a private tmux server at 120x40: it starts the agent, which indexes them.
Keys are pressed and timed from outside as benchmarks/shelf/keys_during_work.py does (its
driver is used as is) until no issue waits for the index; the shelf's own timings of each
key (NEWSSTAND_FRAME_TIMES, FrameTimes.swift) are read too.
"""
import argparse
import json
import os
import pathlib
import shutil
import sqlite3
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "shelf"))
import keys_during_work as keys  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("workdir")
    parser.add_argument("--newsstand", required=True)
    parser.add_argument("--json")
    args = parser.parse_args()
    work = pathlib.Path(args.workdir).resolve()
    corpus = work / "corpus"
    if not corpus.is_dir():
        subprocess.run([sys.executable, str(HERE / "generate.py"), str(work)], check=True)
    home = work / "keys-home"
    shutil.rmtree(home, ignore_errors=True)
    env = keys.home_env(home)
    files = sorted(corpus.iterdir())
    for half, chosen in (("first", files[:100]), ("second", files[100:])):
        folder = work / f"keys-{half}"
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
        for file in chosen:
            shutil.copyfile(file, folder / file.name)   # a folder's symlinks are not taken
        keys.run(args.newsstand, env, "subscribe", str(folder))
    keys.stop_agent(home)
    database = home / "data" / "library.sqlite"
    with sqlite3.connect(database) as db:
        db.execute("INSERT OR REPLACE INTO searchPending (issueId, content, stamp) "
                   "SELECT id, status = 'available', random() FROM issue")
        marked = db.execute("SELECT count(*) FROM searchPending WHERE content").fetchone()[0]
    frame_times = work / "keys-frame-times.txt"
    os.environ["KEYS_FRAME_TIMES"] = str(frame_times)
    watch = keys.LibraryWatch(database, "SELECT count(*) FROM searchPending")
    shelf = keys.Shelf(args.newsstand, home, f"nsindex-{os.getpid()}")
    try:
        keys.settle(shelf, "NEWSSTAND", quiet=0.2)
        places = keys.learn_places(shelf)
        watch.start()
        started = time.monotonic()
        done = lambda: watch.first_time(lambda v: v is not None and v[0] == 0, started)
        pressed = keys.press_keys_while(shelf, places, lambda: time.monotonic() - started < 300 and (
            done() is None or time.monotonic() < done() + keys.AFTER_THE_WORK))
        finished = done()
    finally:
        shelf.close()
        if watch.is_alive():
            watch.stop()
        keys.stop_agent(home)
    if finished is None:
        raise SystemExit("the index was not built within 300 s")
    during = keys.latencies([latency for sent, latency in pressed if sent < finished])
    result = {"issues_indexed": marked, "index_s": finished - started, "keys": during,
              "after": keys.latencies([latency for sent, latency in pressed if sent >= finished]),
              "machine": keys.machine()}
    if frame_times.exists():
        result["shelf_frame_times"] = frame_times.read_text()
    print(f"keys while the agent indexed {marked} issues ({result['index_s']:.1f} s): {keys.summary(during)}")
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
