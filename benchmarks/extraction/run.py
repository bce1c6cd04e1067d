#!/usr/bin/env python3
"""Article extraction, side by side: newsstand's extractor, trafilatura and readability-lxml
on the same pages of scrapinghub/article-extraction-benchmark, scored the same way.

Scoring (the same function for all three): the extracted text and the ground truth's
`articleBody` are split into tokens with the regular expression \\w+ (Unicode word
characters, case kept, as the benchmark's own evaluate.py tokenizes); each side is a bag
(multiset) of tokens; true positives are the tokens both bags share (min of counts),
precision = shared / extracted tokens, recall = shared / ground-truth tokens,
F1 = 2PR / (P + R), 0 when nothing is shared. The mean is over pages. The benchmark's own
4-gram "shingle" F1 (micro over pages, as evaluate.py computes it) is printed beside it.

The suite stays outside the repository: pass its git directory (as the search tool's
fetch leaves it) with --suite. trafilatura and readability-lxml are benchmark tools,
installed with pip in a virtual environment, not dependencies of newsstand.

    python3 benchmarks/extraction/run.py --suite /work/.mirror/scrapinghub+article-extraction-benchmark/repo \
        --newsstand .build/release/newsstand
"""
import argparse
import gzip
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter

TOKEN = re.compile(r"\w+", re.UNICODE)


def tokens(text):
    return TOKEN.findall(text or "")


def token_scores(truth, predicted):
    """Precision, recall and F1 of the bags of tokens."""
    t, p = Counter(tokens(truth)), Counter(tokens(predicted))
    shared = sum((t & p).values())
    if not t and not p:
        return 1.0, 1.0, 1.0
    precision = shared / sum(p.values()) if p else 0.0
    recall = shared / sum(t.values()) if t else 0.0
    f1 = 2 * precision * recall / (precision + recall) if shared else 0.0
    return precision, recall, f1


def shingle_counts(truth, predicted, n=4):
    """evaluate.py's normalized (tp, fp, fn) over 4-gram shingles."""
    def shingles(text):
        words = tokens(text)
        return Counter(tuple(words[i:i + n]) for i in range(0, max(1, len(words) - n + 1)) if words[i:i + n])
    t, p = shingles(truth), shingles(predicted)
    tp = sum((t & p).values())
    fp = sum((p - t).values())
    fn = sum((t - p).values())
    s = tp + fp + fn
    return (tp / s, fp / s, fn / s) if s else (0.0, 0.0, 0.0)


def shingle_f1(counts):
    def precision(tp, fp, fn):
        return 1.0 if fp == fn == 0 else 0.0 if tp == fp == 0 else tp / (tp + fp)

    def recall(tp, fp, fn):
        return 1.0 if fp == fn == 0 else 0.0 if tp == fn == 0 else tp / (tp + fn)
    p = statistics.mean(precision(*c) for c in counts if c[0] + c[1] > 0)
    r = statistics.mean(recall(*c) for c in counts if c[0] + c[2] > 0)
    return 2 * p * r / (p + r)


def load_suite(git_dir, work):
    """The ground truth and the pages, read from the suite's git directory into `work`."""
    def show(path):
        return subprocess.run(["git", "--git-dir", git_dir, "show", "HEAD:" + path], check=True, capture_output=True).stdout
    truth = json.loads(show("ground-truth.json"))
    pages = {}
    for key in sorted(truth):
        html = gzip.decompress(show(f"html/{key}.html.gz")).decode("utf8")
        path = os.path.join(work, key + ".html")
        with open(path, "w", encoding="utf8") as f:
            f.write(html)
        pages[key] = (path, html)
    return truth, pages


def newsstand(binary):
    def extract(path, html, url):
        done = subprocess.run([binary, "inspect", "article", path, "--json"], capture_output=True, text=True)
        if done.returncode != 0:
            return ""
        return json.loads(done.stdout)["text"]
    return extract


def trafilatura_extractor():
    import trafilatura

    def extract(path, html, url):
        return trafilatura.extract(html, url=url) or ""
    return extract, trafilatura.__version__


def readability_extractor():
    import lxml.html
    from readability import Document
    from importlib.metadata import version

    def extract(path, html, url):
        summary = Document(html, url=url).summary(html_partial=True)
        return lxml.html.fromstring(summary).text_content()
    return extract, version("readability-lxml")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--suite", required=True, help="git directory of scrapinghub/article-extraction-benchmark")
    parser.add_argument("--newsstand", default=".build/release/newsstand")
    parser.add_argument("--limit", type=int, help="only the first N pages")
    parser.add_argument("--quiet", action="store_true", help="no per-page lines")
    args = parser.parse_args()
    import trafilatura  # noqa: F401 (fail early when the tools are missing)
    traf, traf_version = trafilatura_extractor()
    read, read_version = readability_extractor()
    extractors = [("newsstand", newsstand(os.path.abspath(args.newsstand))), (f"trafilatura {traf_version}", traf),
                  (f"readability-lxml {read_version}", read)]
    with tempfile.TemporaryDirectory() as work:
        truth, pages = load_suite(args.suite, work)
        keys = sorted(pages)[: args.limit] if args.limit else sorted(pages)
        scores = {name: [] for name, _ in extractors}
        shingles = {name: [] for name, _ in extractors}
        seconds = {name: 0.0 for name, _ in extractors}
        if not args.quiet:
            print("page              " + "".join(f"{name.split()[0]:>14}" for name, _ in extractors))
        for key in keys:
            path, html = pages[key]
            expected = truth[key].get("articleBody", "")
            row = []
            for name, extract in extractors:
                start = time.perf_counter()
                try:
                    text = extract(path, html, truth[key].get("url"))
                except Exception:  # an extractor that fails on a page scores 0 there
                    text = ""
                seconds[name] += time.perf_counter() - start
                scores[name].append(token_scores(expected, text))
                shingles[name].append(shingle_counts(expected, text))
                row.append(scores[name][-1][2])
            if not args.quiet:
                print(f"{key[:16]}  " + "".join(f"{f1:>14.3f}" for f1 in row))
        print(f"\n{len(keys)} pages; token F1 per page, then the mean (and the benchmark's 4-gram shingle F1)")
        print(f"{'extractor':<26}{'F1':>8}{'precision':>11}{'recall':>8}{'shingle F1':>12}{'seconds':>9}")
        for name, _ in extractors:
            p = statistics.mean(s[0] for s in scores[name])
            r = statistics.mean(s[1] for s in scores[name])
            f1 = statistics.mean(s[2] for s in scores[name])
            print(f"{name:<26}{f1:>8.3f}{p:>11.3f}{r:>8.3f}{shingle_f1(shingles[name]):>12.3f}{seconds[name]:>9.1f}")


if __name__ == "__main__":
    sys.exit(main())
