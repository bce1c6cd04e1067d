#!/usr/bin/env python3
"""The search benchmark's corpus: ISSUES issues of ARTICLES articles each (200 x 50 = 10,000
articles, ~180 words each) of three kinds, as #32 asks ("EPUBs, PDFs, editions"): EPUBs, PDFs
(one article a page, written here with the standard Helvetica font) and editions (a local RSS
feed of full-text articles over EDITIONS days, which the agent makes into one edition a day).
Words are drawn from a made-up vocabulary by a Zipf law; NEEDLES, words and phrases put into a
few known articles (some only in PDFs, some only in editions), let recall be counted.

    benchmarks/search/generate.py OUT [--issues 200] [--pdfs 30] [--editions 20] [--articles 50] [--seed 7]

Writes OUT/corpus/issue-NNN.epub and issue-NNN.pdf (the folder both tools index),
OUT/feed/bench-daily.xml (the feed Newsstand subscribes to), OUT/editions/edition-DATE.html
(the same articles, one file an edition, for recoll) and OUT/answers.json: each needle's query
and the files that hold it. Every PDF is read back with pdftotext and must give its words.
Deterministic for a seed.
"""
import argparse
import datetime
import html
import json
import pathlib
import random
import subprocess
import sys
import zlib
import struct

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / "sample-feed" / "tools"))
sys.dont_write_bytecode = True
import package  # noqa: E402  (the sample feed's deterministic EPUB writer)

SYLLABLES = ["ka", "lo", "mer", "tin", "sa", "ve", "dor", "ith", "an", "bel", "cro", "fu", "gan", "hel", "is", "jor",
             "ken", "lum", "mo", "nar", "os", "pel", "qui", "ras", "sol", "tar", "ul", "vin", "wes", "yor", "zen"]
FIRST_EDITION = datetime.date(2026, 3, 2)


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


def pdf_string(text):
    return b"(" + text.encode("cp1252").replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"


def wrapped(text, width=84):
    """Lines of at most WIDTH characters (84 Helvetica letters at 10 pt fit in 512 pt)."""
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return lines + [line] if line else lines


def pdf_bytes(title, pages):
    """A PDF of one page per (heading, paragraphs): Helvetica in WinAnsiEncoding, text shown by
    Tj and T*, no compression, so pdftotext (and poppler-cpp) read it as written."""
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", None,
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
               b"<< /Title " + pdf_string(title) + b" /Producer (Newsstand search benchmark) >>"]
    kids = []
    for heading, paragraphs in pages:
        stream = [b"BT /F1 14 Tf 50 742 Td 17 TL " + pdf_string(heading) + b" Tj T* /F1 10 Tf 12 TL"]
        for paragraph in paragraphs:
            stream += [pdf_string(line) + b" Tj T*" for line in wrapped(paragraph)] + [b"T*"]
        stream.append(b"ET")
        content = b"\n".join(stream)
        objects.append(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream")
        objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> "
                       b"/Contents %d 0 R >>" % len(objects))
        kids.append(len(objects))
    objects[1] = b"<< /Type /Pages /Kids [" + b" ".join(b"%d 0 R" % kid for kid in kids) + b"] /Count %d >>" % len(kids)
    out, offsets = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n"), []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1) + b"".join(b"%010d 00000 n \n" % at for at in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R /Info 4 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def check_pdf(path, pages):
    """pdftotext must give back every page's words, in order (needles included)."""
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(path), "-"], check=True, stdout=subprocess.PIPE).stdout.decode()
    read = text.split("\f")[:len(pages)]
    for number, ((heading, paragraphs), got) in enumerate(zip(pages, read)):
        wanted = " ".join([heading] + paragraphs).split()
        if got.split() != wanted:
            raise SystemExit(f"{path}: pdftotext reads page {number + 1} differently:\n{got[:300]}\nwanted\n{' '.join(wanted)[:300]}")
    if len(read) != len(pages):
        raise SystemExit(f"{path}: pdftotext read {len(read)} pages of {len(pages)}")


def rss_item(day, number, title, paragraphs):
    at = datetime.datetime.combine(day, datetime.time(11, 30)) + datetime.timedelta(minutes=number)
    body = "\n".join(f"<p>{html.escape(p)}</p>" for p in paragraphs)
    return (f"<item><title>{html.escape(title)}</title><guid isPermaLink=\"false\">bench-{day}-{number:03d}</guid>"
            f"<pubDate>{at.strftime('%a, %d %b %Y %H:%M:%S +0000')}</pubDate><dc:creator>Bench Writer</dc:creator>"
            f"<description>{html.escape(paragraphs[0][:120])}</description>"
            f"<content:encoded><![CDATA[{body}]]></content:encoded></item>")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--issues", type=int, default=200)
    parser.add_argument("--pdfs", type=int, default=30)
    parser.add_argument("--editions", type=int, default=20)
    parser.add_argument("--articles", type=int, default=50)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    words = vocabulary(rng, 6000)
    weights = [1 / (rank + 1) for rank in range(len(words))]
    out = pathlib.Path(args.out)
    corpus, feed, editions = out / "corpus", out / "feed", out / "editions"
    for folder in (corpus, feed, editions):
        folder.mkdir(parents=True, exist_ok=True)
    epubs = args.issues - args.pdfs - args.editions
    kinds = ["epub"] * epubs + ["pdf"] * args.pdfs + ["edition"] * args.editions

    def file_name(issue):
        if kinds[issue] == "edition":
            return f"edition-{FIRST_EDITION + datetime.timedelta(days=issue - epubs - args.pdfs)}.html"
        return f"issue-{issue:03d}.{kinds[issue]}"

    # Needles: single made-up words, an accented word found without its accents, and phrases;
    # every fifth of each sort only in PDFs, the next only in editions, so both count in recall.
    needles = [{"text": f"zq{n:03d}xirth", "query": f"zq{n:03d}xirth", "n": n} for n in range(30)]
    needles += [{"text": f"pétrël{n:02d}", "query": f"petrel{n:02d}", "n": n} for n in range(10)]
    needles += [{"text": f"equinox tide{n:02d}", "query": f'"equinox tide{n:02d}"', "n": n} for n in range(10)]
    pools = {"pdf": [i for i in range(args.issues) if kinds[i] == "pdf"],
             "edition": [i for i in range(args.issues) if kinds[i] == "edition"], "any": list(range(args.issues))}
    placements = {}  # (issue, article) -> [needle text]
    answers = []
    for needle in needles:
        where = {1: "pdf", 2: "edition"}.get(needle["n"] % 5, "any") if pools["pdf"] and pools["edition"] else "any"
        issues = rng.sample(pools[where], rng.randint(1, 3))
        for issue in issues:
            placements.setdefault((issue, rng.randrange(args.articles)), []).append(needle["text"])
        answers.append({"query": needle["query"], "only": where, "files": sorted(file_name(i) for i in issues),
                        "kinds": sorted({kinds[i] for i in issues})})
    # The phrase's words also appear apart elsewhere: a phrase search must not find those.
    text_bytes = 0
    cover = tiny_png()
    items = []
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
            text_bytes += len(title.encode()) + sum(len(p.encode()) + 1 for p in paragraphs)
            articles.append((title, [f"{p}." for p in paragraphs]))
        name = f"Search Bench No. {issue + 1}"
        if kinds[issue] == "epub":
            meta = {"identifier": f"urn:bench:search:{issue}", "title": name,
                    "creators": ["Bench Writer"], "publisher": "Bench", "language": "en",
                    "date": f"20{20 + issue // 100:02d}-{1 + issue % 12:02d}-{1 + issue % 28:02d}T00:00:00Z",
                    "summary": f"Issue {issue + 1} of the search benchmark."}
            xhtml = [{"file": f"a{n:03d}.xhtml", "title": title, "lang": "en",
                      "xhtml": f"<h1>{title}</h1>\n" + "\n".join(f"<p>{p}</p>" for p in paragraphs)}
                     for n, (title, paragraphs) in enumerate(articles)]
            (corpus / file_name(issue)).write_bytes(package.epub_bytes(meta, cover, xhtml, {}))
        elif kinds[issue] == "pdf":
            path = corpus / file_name(issue)
            path.write_bytes(pdf_bytes(name, articles))
            check_pdf(path, articles)
        else:
            day = FIRST_EDITION + datetime.timedelta(days=issue - epubs - args.pdfs)
            items += [rss_item(day, n, title, paragraphs) for n, (title, paragraphs) in enumerate(articles)]
            page = "\n".join(f"<h1>{html.escape(title)}</h1>\n" + "\n".join(f"<p>{html.escape(p)}</p>" for p in paragraphs)
                             for title, paragraphs in articles)
            (editions / file_name(issue)).write_text(
                f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Bench Daily, {day}</title></head>"
                f"<body>\n{page}\n</body></html>\n", encoding="utf-8")
    (feed / "bench-daily.xml").write_text(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\" xmlns:content=\"http://purl.org/rss/1.0/modules/content/\" "
        "xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><channel><title>Bench Daily</title><link>bench-daily.xml</link>"
        "<description>The search benchmark's daily paper</description><language>en</language>\n"
        + "\n".join(reversed(items)) + "\n</channel></rss>\n", encoding="utf-8")
    (out / "answers.json").write_text(json.dumps({"answers": answers, "textBytes": text_bytes, "epubs": epubs, "pdfs": args.pdfs,
                                                  "editions": args.editions, "articles": args.issues * args.articles,
                                                  "common": words[0], "middle": words[300], "rare": words[4000]}, indent=1))
    only = {where: sum(answer["only"] == where for answer in answers) for where in ("any", "pdf", "edition")}
    print(f"{args.issues} issues ({epubs} EPUBs, {args.pdfs} PDFs, {args.editions} editions), {args.issues * args.articles} articles, "
          f"{text_bytes / 1e6:.1f} MB of text; {len(answers)} needles ({only['pdf']} only in PDFs, {only['edition']} only in editions, "
          f"{only['any']} anywhere) in {out}")


if __name__ == "__main__":
    main()
