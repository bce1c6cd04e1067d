#!/usr/bin/env python3
"""Newsstand's search beside recoll's, in one run on the same issues (benchmarks/search/README
in BENCHMARKS.md, "Search"): the index built (`newsstand search --rebuild` vs `recollindex`),
its size against the text it holds, a query's p95 in-process and from the shell (`newsstand
search` vs `recollq`), and recall on needles with known answers. The issues are EPUBs and PDFs
(a folder both tools index) and editions: Newsstand subscribes to a local feed of full-text
articles and its agent makes one edition a day; recoll indexes the same articles as HTML files,
one an edition.

    [NEWSSTAND_BIN=.build/release/newsstand] benchmarks/search/run.py WORKDIR [--runs 20]

WORKDIR/corpus, feed and editions are made by generate.py beside this file when not there. Needs recoll
(Debian `recoll`). Prints one line per figure and writes WORKDIR/results.json.
"""
import argparse
import fcntl
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
RELEASE = os.path.join(ROOT, ".build", "release", "newsstand")
BIN = os.environ.get("NEWSSTAND_BIN", RELEASE if os.path.exists(RELEASE) else os.path.join(ROOT, ".build", "debug", "newsstand"))


def p95(values):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]


def timed(command, env=None):
    start = time.perf_counter()
    done = subprocess.run(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed: {done.stderr.strip()}")
    return elapsed, done.stdout


def the_store_query(db, match, limit=240, shown=60):
    """What `SearchIndex.find` asks SQLite (SearchRows.searchHits, then searchSnippets)."""
    rows = db.execute("""
        WITH scored AS MATERIALIZED (SELECT rowid AS id, bm25(searchText, 1.0, 4.0) AS score FROM searchText WHERE searchText MATCH ?1),
        cut AS (SELECT score FROM scored ORDER BY score LIMIT 1 OFFSET ?2 - 1)
        SELECT searchPart.id, searchPart.issueId, kind, resource, page, position, label, scored.score
        FROM scored JOIN searchPart ON searchPart.id = scored.id JOIN issue ON issue.id = searchPart.issueId
        WHERE scored.score <= coalesce((SELECT score FROM cut), 1e308)
        ORDER BY scored.score, issue.date DESC, issue.id DESC, position LIMIT ?2""", (match, limit)).fetchall()
    ids = ",".join(str(row[0]) for row in rows[:shown])
    db.execute(f"SELECT rowid, snippet(searchText, -1, char(2), char(3), '…', 14) FROM searchText WHERE searchText MATCH ? AND +rowid IN ({ids})",
               (match,)).fetchall()
    return rows


def fts_match(query):
    """SearchQuery.match for the benchmark's queries (words, a prefix, a phrase)."""
    if query.startswith('"'):
        return query
    return " AND ".join(f'"{word[:-1]}" *' if word.endswith("*") else f'"{word}"' for word in query.split())


def wait_for_agent(home, timeout=600):
    """Until the agent `download` started has exited (it holds an exclusive flock on
    state/agent.lock while it runs), so no indexing of its own runs beside the timed rebuild."""
    path = os.path.join(home, "state", "agent.lock")
    deadline = time.monotonic() + timeout
    while os.path.exists(path):
        with open(path) as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                fcntl.flock(lock, fcntl.LOCK_UN)
                return
            except BlockingIOError:
                pass
        if time.monotonic() > deadline:
            raise SystemExit(f"the agent is still running after {timeout} s")
        time.sleep(0.1)


def file_of(name):
    """The corpus file (recoll's answer) of an issue Newsstand names: an own file's URL, or an
    edition's name (edition:PUBLICATION:DAY), whose articles recoll reads as edition-DAY.html."""
    if name.startswith("edition:"):
        return f"edition-{name.rsplit(':', 1)[1]}.html"
    return os.path.basename(name)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("workdir")
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    work = os.path.abspath(args.workdir)
    corpus, editions = os.path.join(work, "corpus"), os.path.join(work, "editions")
    feed = os.path.join(work, "feed", "bench-daily.xml")
    if not (os.path.isdir(corpus) and os.path.isdir(editions) and os.path.exists(feed)):
        subprocess.run([sys.executable, os.path.join(HERE, "generate.py"), work], check=True)
    answers = json.load(open(os.path.join(work, "answers.json")))
    home = os.path.join(work, "home")
    recoll = os.path.join(work, "recoll")
    for folder in (home, recoll):
        shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(recoll)
    with open(os.path.join(recoll, "recoll.conf"), "w") as conf:
        conf.write(f"topdirs = {corpus} {editions}\nloglevel = 1\n")
    env = dict(os.environ, NEWSSTAND_HOME=home)
    results = {"binary": BIN, "issues": len(os.listdir(corpus)) + len(os.listdir(editions)), "textBytes": answers["textBytes"],
               "epubs": answers.get("epubs"), "pdfs": answers.get("pdfs"), "editions": answers.get("editions"),
               "articles": answers.get("articles")}

    # The editions first: queued, then made by the agent that `download` starts (as a reader
    # would), which indexes them as it installs them; it has exited before the own files come in,
    # so the timed rebuild below runs alone.
    start = time.perf_counter()
    timed([BIN, "subscribe", feed], env)
    with sqlite3.connect(os.path.join(home, "data", "library.sqlite")) as db:
        names = [row[0] for row in db.execute("SELECT name FROM issue WHERE contentType = 'application/x-newsstand-edition' ORDER BY date")]
    for name in names:
        timed([BIN, "download", name], env)
    for name in names:
        timed([BIN, "download", name, "--wait"], env)
    wait_for_agent(home)
    with sqlite3.connect(os.path.join(home, "data", "library.sqlite")) as db:
        made = db.execute("SELECT count(*) FROM issue WHERE contentType = 'application/x-newsstand-edition' AND status = 'available'").fetchone()[0]
    results["editionsMade"], results["editionsSeconds"] = made, time.perf_counter() - start
    if made != len(os.listdir(editions)):
        raise SystemExit(f"the agent made {made} editions of {len(os.listdir(editions))}")
    print(f"corpus: {results['issues']} issues ({answers.get('epubs')} EPUBs, {answers.get('pdfs')} PDFs, {made} editions made by the agent "
          f"in {results['editionsSeconds']:.1f} s), {answers.get('articles')} articles")
    timed([BIN, "subscribe", corpus], env)
    results["newsstandBuild"], _ = timed([BIN, "search", "--rebuild"], env)
    results["recollBuild"], _ = timed(["recollindex", "-c", recoll])
    print(f"index build: newsstand search --rebuild {results['newsstandBuild']:.1f} s, recollindex {results['recollBuild']:.1f} s")

    library = os.path.join(home, "data", "library.sqlite")
    db = sqlite3.connect(library)
    sizes = dict(db.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name").fetchall())
    index = sum(sizes.get(name, 0) for name in ("searchText_data", "searchText_idx", "searchText_docsize", "searchText_config",
                                                  "searchPart", "searchPart_by_issue"))
    stored = sizes.get("searchText_content", 0)
    xapian = sum(os.path.getsize(os.path.join(d, f)) for d, _, files in os.walk(os.path.join(recoll, "xapiandb")) for f in files)
    text = answers["textBytes"]
    results.update(newsstandIndexBytes=index, newsstandStoredTextBytes=stored, recollBytes=xapian)
    print(f"index size: newsstand {index / 1e6:.1f} MB ({100 * index / text:.0f} % of {text / 1e6:.1f} MB of text; "
          f"+ {stored / 1e6:.1f} MB of text kept for snippets), recoll {xapian / 1e6:.1f} MB ({100 * xapian / text:.0f} %)")

    queries = [answers["common"], answers["middle"], answers["rare"], answers["middle"][:4] + "*",
               f'{answers["common"]} {answers["middle"]}', '"equinox tide03"', answers["answers"][0]["query"]]
    inprocess, swift, shell, recollq = [], [], [], []
    results["queryP95InProcessByQuery"] = {}
    for query in queries:
        match = fts_match(query)
        # SearchIndex.find itself, timed inside the command (its hidden --time-runs).
        done = subprocess.run([BIN, "search", query, "--json", "--time-runs", str(args.runs)], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=True)
        line = next(line for line in done.stderr.splitlines() if "find-ms:" in line)
        runs = [float(ms) / 1000 for ms in line.split("find-ms:")[1].split()]
        swift += runs
        results["queryP95InProcessByQuery"][query] = p95(runs)
        for _ in range(args.runs):
            start = time.perf_counter()
            the_store_query(db, match)
            inprocess.append(time.perf_counter() - start)
            shell.append(timed([BIN, "search", query, "--json"], env)[0])
            recollq.append(timed(["recollq", "-c", recoll, "-b", "-n", "0-20", query])[0])
    results.update(queryP95InProcess=p95(swift), queryP95StoreSQL=p95(inprocess), queryP95Shell=p95(shell), queryP95Recollq=p95(recollq))
    print(f"query p95 ({len(queries)} queries x {args.runs}): in-process (SearchIndex.find) {1000 * p95(swift):.1f} ms, "
          f"the store's SQL through Python {1000 * p95(inprocess):.1f} ms, "
          f"newsstand search {1000 * p95(shell):.0f} ms, recollq {1000 * p95(recollq):.0f} ms")
    slowest = max(results["queryP95InProcessByQuery"].items(), key=lambda item: item[1])
    print(f"slowest query in-process: {slowest[0]} p95 {1000 * slowest[1]:.1f} ms")

    found = {"newsstand": 0, "recoll": 0}
    wanted = 0
    by_kind = {}  # where the needles are ("any", "pdf" or "edition" only) -> [wanted, newsstand, recoll]
    for answer in answers["answers"]:
        _, out = timed([BIN, "search", answer["query"], "--json", "--limit", "50"], env)
        ours = {file_of(issue["name"]) for issue in json.loads(out)["issues"]}
        _, out = timed(["recollq", "-c", recoll, "-b", "-n", "0-200", answer["query"]])
        theirs = {os.path.basename(line.split("|")[0].strip()) for line in out.splitlines() if line.startswith("file://")}
        wanted += len(answer["files"])
        found["newsstand"] += len(set(answer["files"]) & ours)
        found["recoll"] += len(set(answer["files"]) & theirs)
        tally = by_kind.setdefault(answer.get("only", "any"), [0, 0, 0])
        tally[0] += len(answer["files"])
        tally[1] += len(set(answer["files"]) & ours)
        tally[2] += len(set(answer["files"]) & theirs)
    results["recallByKind"] = by_kind
    results.update(recallNewsstand=found["newsstand"] / wanted, recallRecoll=found["recoll"] / wanted, recallWanted=wanted)
    print(f"recall ({len(answers['answers'])} needles, {wanted} issues): newsstand {found['newsstand']}/{wanted}, recoll {found['recoll']}/{wanted}; "
          + "; ".join(f"only in {kind}s: {n}/{w} and {r}/{w}" for kind, (w, n, r) in sorted(by_kind.items()) if kind != "any"))
    json.dump(results, open(os.path.join(work, "results.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
