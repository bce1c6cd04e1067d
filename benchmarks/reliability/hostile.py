#!/usr/bin/env python3
"""Hostile fixtures for terminal-safety checks, written into DIR:
  feed.atom   Atom feed: titles, summaries, publication title with raw ESC, CSI, OSC 52,
              OSC 8, BEL, C1 (U+009B), RLO and isolates, also as numeric references;
              issues link to the archives below (file URLs)
  feed.json   the same strings through JSON Feed's \\u escapes
  issue.epub  an EPUB whose metadata, table of contents and article carry them
  names.zip   a plain zip whose entry names carry them
  <ESC>.zip   an archive whose own file name carries them
and checks output files for raw control bytes:  hostile.py check FILE...
(exit 1 and the offsets when any is found)."""
import json
import pathlib
import re
import sys
import zipfile

ESC, BEL = "\x1b", "\x07"
HOSTILE = (f"Evil{ESC}]52;c;UFdORUQ={BEL} {ESC}]8;;http://evil.invalid/{ESC}\\Link{ESC}]8;;{ESC}\\ "
           f"{ESC}[2J{ESC}[21t \x9b31m {ESC}]0;PWNED{BEL} \u202egnp.exe {BEL}bell \x85nel \u2066iso\u2069 Daily")
# Numeric character references of the same (XML 1.0 forbids most of them; a tolerant
# parser may still let them through).
REFERENCED = "Refs&#27;]52;c;UFdORUQ=&#7; &#x9b;31m &#x202e;cba &#27;[2J Weekly"
FORBIDDEN = re.compile(rb"[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xa8-\xae]|\xe2\x81[\xa6-\xa9]")


def xml_text(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def write(out):
    out.mkdir(parents=True, exist_ok=True)
    container = ('<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">'
                 '<rootfiles><rootfile full-path="content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>')
    opf = ('<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">'
           f'<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>{xml_text(HOSTILE)}</dc:title>'
           f'<dc:identifier id="id">x</dc:identifier><dc:creator>{xml_text(HOSTILE)}</dc:creator>'
           f'<dc:description>{xml_text(HOSTILE)}</dc:description></metadata>'
           '<manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>'
           '<item id="a" href="a.xhtml" media-type="application/xhtml+xml"/></manifest>'
           '<spine><itemref idref="a"/></spine></package>')
    nav = ('<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body>'
           f'<nav epub:type="toc"><ol><li><a href="a.xhtml">{xml_text(HOSTILE)}</a></li></ol></nav></body></html>')
    article = ('<html xmlns="http://www.w3.org/1999/xhtml"><head><title>t</title></head><body>'
               f'<h1>{xml_text(HOSTILE)}</h1><p>Before {xml_text(HOSTILE)} after.</p>'
               f'<p><a href="http://evil.invalid/{ESC}]8;;x">{xml_text(HOSTILE)}</a></p>'
               f'<pre>{xml_text(HOSTILE)}</pre><img src="none.png" alt="{xml_text(HOSTILE)}"/></body></html>')
    with zipfile.ZipFile(out / "issue.epub", "w") as z:
        z.writestr("mimetype", "application/epub+zip", zipfile.ZIP_STORED)
        z.writestr("META-INF/container.xml", container)
        z.writestr("content.opf", opf)
        z.writestr("nav.xhtml", nav)
        z.writestr("a.xhtml", article)
    with zipfile.ZipFile(out / "names.zip", "w") as z:
        z.writestr(f"{ESC}]52;c;UFdORUQ={BEL}.html", f"<h1>{xml_text(HOSTILE)}</h1>")
        z.writestr("\u202elmth.txt", HOSTILE)
        z.writestr(f"notes{ESC}[2J\x9b31m.md", f"# {HOSTILE}\n\n{HOSTILE}\n")
    (out / f"evil{ESC}]0;PWNED{BEL}.zip").write_bytes((out / "names.zip").read_bytes())

    entries = []
    for i, (title, archive) in enumerate([(HOSTILE, "issue.epub"), (REFERENCED, "names.zip")]):
        entries.append(f'<entry><id>hostile-{i}</id><title>{xml_text(title) if i == 0 else title}</title>'
                       f'<summary>{xml_text(HOSTILE)}</summary><updated>2026-11-0{i + 1}T00:00:00Z</updated>'
                       f'<link rel="http://opds-spec.org/acquisition" type="application/zip" href="{(out / archive).as_uri()}"/></entry>')
    entries.append(f'<entry><id>{xml_text(HOSTILE)}</id><title>id</title><updated>2026-11-04T00:00:00Z</updated>'
                   f'<link rel="enclosure" type="application/zip" href="{(out / "names.zip").as_uri()}?{ESC}[2J"/></entry>')
    (out / "feed.atom").write_text(
        '<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom">'
        f'<title>{xml_text(HOSTILE)}</title><subtitle>{xml_text(HOSTILE)}</subtitle><id>urn:hostile</id>'
        '<updated>2026-11-01T00:00:00Z</updated>' + "".join(entries) + "</feed>", encoding="utf-8")
    (out / "feed.json").write_text(json.dumps({
        "version": "https://jsonfeed.org/version/1.1", "title": HOSTILE + " JSON", "description": HOSTILE,
        "items": [{"id": "hostile-json", "title": HOSTILE, "summary": HOSTILE, "content_html": f"<p>{xml_text(HOSTILE)}</p>",
                   "date_published": "2026-11-03T00:00:00Z",
                   "attachments": [{"url": (out / "issue.epub").as_uri(), "mime_type": "application/epub+zip"}]}],
    }), encoding="utf-8")


def check(paths):
    bad = 0
    for path in paths:
        data = pathlib.Path(path).read_bytes()
        for match in FORBIDDEN.finditer(data):
            bad += 1
            start = max(0, match.start() - 20)
            print(f"{path}: raw control {match.group()!r} at byte {match.start()}: {data[start:match.end() + 20]!r}")
    return bad


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "check":
        sys.exit(1 if check(sys.argv[2:]) else 0)
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    write(pathlib.Path(sys.argv[1]))
