#!/usr/bin/env python3
"""The search benchmark's corpus: ISSUES EPUB issues of ARTICLES articles each (200 x 50 =
10,000 articles, ~180 words each), words drawn from a made-up vocabulary by a Zipf law, and
NEEDLES words and phrases put into a few known articles, so recall can be counted.

    benchmarks/search/generate.py OUT [--issues 200] [--articles 50] [--seed 7]

Writes OUT/corpus/issue-NNN.epub and OUT/answers.json: each needle's query and the
issue files that hold it. Deterministic for a seed.
"""
import argparse
import json
import pathlib
import random
import sys
import zlib
import struct

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / "sample-feed" / "tools"))
sys.dont_write_bytecode = True
import package  # noqa: E402  (the sample feed's deterministic EPUB writer)

SYLLABLES = ["ka", "lo", "mer", "tin", "sa", "ve", "dor", "ith", "an", "bel", "cro", "fu", "gan", "hel", "is", "jor",
             "ken", "lum", "mo", "nar", "os", "pel", "qui", "ras", "sol", "tar", "ul", "vin", "wes", "yor", "zen"]


def tiny_png():
    raw = b"\x00\xff\xff\xff"
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)) \
        + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


def vocabulary(rng, size):
    words = set()
    while len(words) < size:
        words.add("".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))))
    return sorted(words)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--issues", type=int, default=200)
    parser.add_argument("--articles", type=int, default=50)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    words = vocabulary(rng, 6000)
    weights = [1 / (rank + 1) for rank in range(len(words))]
    out = pathlib.Path(args.out)
    corpus = out / "corpus"
    corpus.mkdir(parents=True, exist_ok=True)

    # Needles: single made-up words, an accented word found without its accents, and phrases.
    needles = [{"text": f"zq{n:03d}xirth", "query": f"zq{n:03d}xirth"} for n in range(30)]
    needles += [{"text": f"pétrël{n:02d}", "query": f"petrel{n:02d}"} for n in range(10)]
    needles += [{"text": f"equinox tide{n:02d}", "query": f'"equinox tide{n:02d}"'} for n in range(10)]
    placements = {}  # (issue, article) -> [needle text]
    answers = []
    for needle in needles:
        issues = rng.sample(range(args.issues), rng.randint(1, 3))
        for issue in issues:
            placements.setdefault((issue, rng.randrange(args.articles)), []).append(needle["text"])
        answers.append({"query": needle["query"], "files": sorted(f"issue-{i:03d}.epub" for i in issues)})
    # The phrase's words also appear apart elsewhere: a phrase search must not find those.
    text_bytes = 0
    cover = tiny_png()
    for issue in range(args.issues):
        articles = []
        for number in range(args.articles):
            paragraphs = []
            for _ in range(6):
                paragraphs.append(" ".join(rng.choices(words, weights, k=30)))
            for needle in placements.get((issue, number), []):
                paragraphs[rng.randrange(len(paragraphs))] += " " + needle + " " + rng.choice(words)
            if number % 17 == 0:
                paragraphs[0] += " tide equinox"
            title = " ".join(rng.choices(words, weights, k=4)).capitalize()
            body = "\n".join(f"<p>{p}.</p>" for p in paragraphs)
            text_bytes += len(title.encode()) + sum(len(p.encode()) + 1 for p in paragraphs)
            articles.append({"file": f"a{number:03d}.xhtml", "title": title, "lang": "en",
                             "xhtml": f"<h1>{title}</h1>\n{body}"})
        meta = {"identifier": f"urn:bench:search:{issue}", "title": f"Search Bench No. {issue + 1}",
                "creators": ["Bench Writer"], "publisher": "Bench", "language": "en",
                "date": f"20{20 + issue // 100:02d}-{1 + issue % 12:02d}-{1 + issue % 28:02d}T00:00:00Z",
                "summary": f"Issue {issue + 1} of the search benchmark."}
        (corpus / f"issue-{issue:03d}.epub").write_bytes(package.epub_bytes(meta, cover, articles, {}))
    (out / "answers.json").write_text(json.dumps({"answers": answers, "textBytes": text_bytes,
                                                  "common": words[0], "middle": words[300], "rare": words[4000]}, indent=1))
    print(f"{args.issues} issues, {args.issues * args.articles} articles, {text_bytes / 1e6:.1f} MB of text in {corpus}")


if __name__ == "__main__":
    main()
