#!/usr/bin/env python3
"""Builds the shelf benchmark's library: 50 publications of 20 issues (1,000 issues), each
issue with its own cover, the newest issue of every publication downloaded.

    benchmarks/shelf/make_library.py OUT [--newsstand PATH] [--publications 50] [--issues 20]

OUT/resources/sample-feed/ holds the feeds (Newsstand Atom, file:// covers and EPUBs);
OUT/home is the NEWSSTAND_HOME. The library is made through the real program: `newsstand
subscribe` of each feed listed in publications.txt (a build from before #30 subscribes them
on its first run), `newsstand download` queues the newest issues and the agent it starts
installs them.
"""

import argparse
import colorsys
import json
import os
import pathlib
import shutil
import subprocess
import sys
import time
import zlib
import struct

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(ROOT / "sample-feed" / "tools"))
import raster  # noqa: E402  (the sample feed's own rasterizer)
import package  # noqa: E402

WORDS = ["Harbour", "Quarterly", "Signal", "Meridian", "Lantern", "Orchard", "Atlas", "Compass", "Ledger",
         "Almanac", "Beacon", "Chronicle", "Dispatch", "Review", "Gazette", "Tribune", "Herald", "Journal"]


def png(canvas):
    """PNG without per-byte filtering (fast in pure Python; zlib does the work)."""
    stride = canvas.width * 3
    raw = b"".join(b"\x00" + bytes(canvas.px[y * stride:(y + 1) * stride]) for y in range(canvas.height))
    return raster.png_chunks(canvas.width, canvas.height, zlib.compress(raw, 6))


def cover(title, number, hue):
    c = raster.Canvas(400, 600)
    top = tuple(int(v * 255) for v in colorsys.hsv_to_rgb(hue, 0.55, 0.95))
    bottom = tuple(int(v * 255) for v in colorsys.hsv_to_rgb((hue + 0.12) % 1, 0.8, 0.35))
    c.vgradient(0, 0, 400, 600, top, bottom)
    c.rect(0, 0, 400, 110, (250, 246, 236))
    c.text_centered(200, 30, title.upper()[:14], 6, (30, 30, 40))
    c.circle(200, 330, 90 + (number * 7) % 60, (255, 255, 255), alpha=0.35)
    c.text_centered(200, 300, f"NO. {number}", 8, (255, 255, 255), shadow=(0, 0, 0), shadow_offset=4)
    return png(c)


def publication_feed(index, issues, directory):
    slug = f"bench-{index:02d}"
    title = f"{WORDS[index % len(WORDS)]} {WORDS[(index * 7 + 3) % len(WORDS)]} {index}"
    hue = (index * 0.618) % 1
    (directory / "covers").mkdir(parents=True, exist_ok=True)
    (directory / "issues").mkdir(parents=True, exist_ok=True)
    (directory / "covers" / "default.png").write_bytes(cover(title, 0, hue))
    entries = []
    for number in range(issues, 0, -1):
        name = f"{slug}-{number:03d}"
        (directory / "covers" / f"{name}.png").write_bytes(cover(title, number, hue))
        article = f"<h1>{title} No. {number}</h1>" + "<p>Benchmark text. " * 40 + "</p>"
        epub = package.zip_bytes([("index.html", f"<html><body>{article}</body></html>".encode(), False)])
        (directory / "issues" / f"{name}.zip").write_bytes(epub)
        month = (number - 1) % 12 + 1
        year = 2020 + (number - 1) // 12
        entries.append(f"""  <entry>
    <id>{name}</id>
    <title>No. {number} · {year}-{month:02d}</title>
    <published>{year}-{month:02d}-01T07:00:00Z</published>
    <updated>{year}-{month:02d}-01T07:00:00Z</updated>
    <summary>Issue {number} of {title}: a benchmark issue with a cover of its own.</summary>
    <link rel="http://opds-spec.org/acquisition" type="application/zip" href="issues/{name}.zip" length="{len(epub)}"/>
    <link rel="http://opds-spec.org/image" type="image/png" href="covers/{name}.png"/>
  </entry>""")
    (directory / "feed.xml").write_text(f"""<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:news="http://itunes.apple.com/2011/Newsstand" xmlns:nst="urn:x-newsstand:1">
  <id>urn:x-newsstand:bench:{slug}</id>
  <title>{title}</title>
  <updated>2026-11-01T07:00:00Z</updated>
  <logo>covers/default.png</logo>
  <nst:binding type="magazine" edge="left"/>
{chr(10).join(entries)}
</feed>
""", encoding="utf-8")
    return slug, f"{slug}-{issues:03d}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=pathlib.Path)
    parser.add_argument("--newsstand", default=str(ROOT / ".build" / "release" / "newsstand"))
    parser.add_argument("--publications", type=int, default=50)
    parser.add_argument("--issues", type=int, default=20)
    args = parser.parse_args()

    out = args.out.resolve()
    if out.exists():
        shutil.rmtree(out)
    feeds = out / "resources" / "sample-feed"
    feeds.mkdir(parents=True)
    (out / "resources" / "themes").symlink_to(ROOT / "themes")
    started = time.time()
    newest = []
    slugs = []
    for index in range(args.publications):
        slug, name = publication_feed(index, args.issues, feeds / f"bench-{index:02d}")
        slugs.append(slug)
        newest.append(name)
    (feeds / "publications.txt").write_text("".join(f"{slug}/feed.xml\n" for slug in slugs))
    print(f"feeds and covers written in {time.time() - started:.1f} s")

    env = dict(os.environ, NEWSSTAND_HOME=str(out / "home"), NEWSSTAND_RESOURCES=str(out / "resources"))

    def newsstand(*arguments):
        return subprocess.run([args.newsstand, *arguments], env=env, check=True, capture_output=True, text=True).stdout

    started = time.time()
    library = json.loads(newsstand("issues", "--json"))   # before #30: the first run subscribes the feeds
    issues = library if isinstance(library, list) else library.get("issues", [])
    if not issues:
        # Since #30 the samples come only with the shelf's first interactive start: subscribe
        # the same feeds, in the same order, by command; and say no to the samples, or the
        # first measured start would subscribe them again.
        (out / "home" / "config").mkdir(parents=True, exist_ok=True)
        (out / "home" / "config" / "config.toml").write_text("samples = false\n")
        for slug in slugs:
            newsstand("subscribe", (feeds / slug / "feed.xml").as_uri())
        library = json.loads(newsstand("issues", "--json"))
        issues = library if isinstance(library, list) else library.get("issues", [])
    print(f"subscribed: {len(issues)} issues in {time.time() - started:.1f} s")
    for name in newest:
        newsstand("download", name)
    deadline = time.time() + 300
    while time.time() < deadline:
        library = json.loads(newsstand("issues", "--json"))
        issues = library if isinstance(library, list) else library.get("issues", [])
        available = sum(1 for issue in issues if issue.get("status") == "available")
        if available >= len(newest):
            break
        time.sleep(0.5)
    print(f"downloaded: {available} of {len(issues)} issues available")
    if available < len(newest):
        sys.exit("the agent did not finish the downloads")


if __name__ == "__main__":
    main()
