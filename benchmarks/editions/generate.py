#!/usr/bin/env python3
"""A news feed for the editions benchmark: COUNT articles, each with one picture, as RSS 2.0.

    generate.py DIR BASE_URL [COUNT]

Writes DIR/feed.xml and DIR/pictures/pNN.png (drawn by sample-feed's rasterizer, 640x400,
a different scene and caption for each). Articles are dated in the last hours (calibre's
recipes skip old articles), text is a few paragraphs of made-up prose, and each article's
full HTML is in <content:encoded> with an <img> whose src is absolute on BASE_URL (both
tools build from it; calibre's recipes take embedded content only from there, and only for
an item with a link, which neither fetches: each item links to a page the server lacks).
Standard library only.
"""

import datetime
import os
import random
import sys
from xml.sax.saxutils import escape

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "sample-feed", "tools"))
sys.dont_write_bytecode = True

import layouts  # noqa: E402
from scenes import SCENES  # noqa: E402

WORDS = ("harbour ferry council river market weather tide bridge school library storm lamp keeper "
         "crossing timetable season winter boat quay valley town night morning festival choir "
         "regatta crew union agreement lighthouse estuary minke whale vote budget road works").split()


def paragraph(rng):
    sentences = []
    for _ in range(rng.randint(3, 6)):
        words = [rng.choice(WORDS) for _ in range(rng.randint(8, 18))]
        sentences.append(" ".join(words).capitalize() + ".")
    return " ".join(sentences)


def main(argv):
    folder, base = argv[1], argv[2].rstrip("/")
    count = int(argv[3]) if len(argv) > 3 else 50
    rng = random.Random(23)
    os.makedirs(os.path.join(folder, "pictures"), exist_ok=True)
    scenes = sorted(name for name in SCENES if "badger" not in name)
    now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    items = []
    for n in range(1, count + 1):
        canvas = layouts.picture({"scene": scenes[n % len(scenes)], "width": 640, "height": 400})
        canvas.text(12, 12, f"PICTURE {n}", 3, "#ffffff")
        name = f"p{n:02d}.png"
        with open(os.path.join(folder, "pictures", name), "wb") as f:
            f.write(canvas.png())
        title = f"Story {n}: the {rng.choice(WORDS)} and the {rng.choice(WORDS)}"
        body = f'<p><img src="{base}/pictures/{name}" alt="Picture {n}"/></p>'
        body += "".join(f"<p>{paragraph(rng)}</p>" for _ in range(rng.randint(4, 8)))
        date = (now - datetime.timedelta(minutes=5 * n)).strftime("%a, %d %b %Y %H:%M:%S +0000")
        items.append(f"""<item><title>{escape(title)}</title><link>{base}/stories/{n}.html</link><guid isPermaLink="false">story-{n}</guid>
<pubDate>{date}</pubDate><category>{escape(rng.choice(["Town", "River", "Weather", "Sport"]))}</category>
<description>{escape(title)}</description>
<content:encoded><![CDATA[{body}]]></content:encoded></item>""")
    feed = f"""<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel><title>Loopback Daily</title><link>{base}/</link>
<description>{count} articles with pictures, for a benchmark</description><language>en</language>
{chr(10).join(items)}
</channel></rss>
"""
    with open(os.path.join(folder, "feed.xml"), "w", encoding="utf-8") as f:
        f.write(feed)


if __name__ == "__main__":
    main(sys.argv)
