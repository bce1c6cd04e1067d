#!/usr/bin/env python3
"""Writes the seed corpora for the fuzz targets into Fuzz/.build/seeds/<target>/.

Seeds come from the project itself (sample-feed/, the feed fixtures of FeedsTests) and
from small files generated here, so every format branch has something to start from.
Deterministic: the same files every run."""
import datetime
import io
import json
import os
import pathlib
import plistlib
import shutil
import subprocess
import sys
import zipfile
import zlib

here = pathlib.Path(__file__).resolve().parent
root = here.parent
out = here / ".build" / "seeds"


def target(name):
    path = out / name
    shutil.rmtree(path, ignore_errors=True)
    path.mkdir(parents=True)
    return path


def write(directory, name, data):
    (directory / name).write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))


def feeds():
    d = target("feed")
    for feed in sorted(root.glob("sample-feed/*/feed.xml")):
        write(d, f"sample-{feed.parent.name}.xml", feed.read_bytes())
    for fixture in sorted((root / "Tests/FeedsTests/Fixtures").iterdir()):
        write(d, f"fixture-{fixture.name}", fixture.read_bytes())
    write(d, "rss-min.xml", '<rss version="2.0"><channel><title>T</title><item><title>A</title>'
          '<enclosure url="a.zip" type="application/zip" length="9"/><pubDate>Sun, 22 Nov 2026 07:00:00 GMT</pubDate></item></channel></rss>')
    write(d, "atom-min.xml", '<feed xmlns="http://www.w3.org/2005/Atom" xml:base="http://h/x/"><title type="html">&lt;b&gt;T&lt;/b&gt;</title>'
          '<entry><id>1</id><title>A</title><updated>2026-11-22T07:00:00Z</updated><link rel="enclosure" href="../a.epub"/></entry></feed>')
    write(d, "json-min.json", '{"version":"https://jsonfeed.org/version/1.1","title":"T","items":[{"id":"1","title":"A",'
          '"attachments":[{"url":"a.cbz","mime_type":"application/vnd.comicbook+zip"}]}]}')
    # The tutorial plists in binary form too (the parser reads those through another path).
    for fixture in sorted((root / "Tests/FeedsTests/Fixtures").glob("*.plist")):
        write(d, f"binary-{fixture.name}", plistlib.dumps(plistlib.loads(fixture.read_bytes()), fmt=plistlib.FMT_BINARY))
    structured_feeds(d)


# Dates in the shapes FeedDates reads (RFC 822 with names, offsets and two-digit years,
# ISO 8601 / W3C-DTF down to the year, fractions, lower case) and some it must refuse.
DATES = ["Sun, 22 Nov 2026 07:00:00 GMT", "22 Nov 26 07:00 EST", "Mon, 2 Feb 2026 7:05:09 +0130", "Tue, 3 Mar 2026 10:00:00 PDT",
         "Wed, 04 Mar 2026 10:00:00 Z", "2026-11-22T07:00:00Z", "2026-11-22T07:00:00.123456+05:30", "2026-11-22t07:00:00-0800",
         "2026-11-22 07:00:00", "2026-11-22", "2026-11", "2026", "20261122T070000Z", "Nov 22, 2026", "22 November 2026",
         "2024-03-01 10:00 GMT", "2026-11-22 07:00 pst", "2026/11/22", "22.11.2026", "11/22/2026", "03/04/2026",
         "yesterday", "2026-13-45T99:99:99Z", ""]


def structured_feeds(d):
    """One rich seed per structured format, using every key and element its reader looks
    for: mutating bytes seldom builds JSON or a property list with the right keys, so
    without these the fuzzer spends hours finding what a reader would meet in the first
    catalog it reads."""
    language_title = {"fr": "Le titre", "en": "The title", "und": "?"}
    write(d, "opds2-rich.json", json.dumps({
        "metadata": {"title": language_title, "subtitle": ["Sub", "title"], "identifier": 12345, "modified": DATES[5]},
        "_newsstand": {"binding": {"type": "magazine", "edge": "right"}, "push": "/push"},
        "links": [{"rel": "self", "href": "catalog.json", "type": "application/opds+json"},
                  {"rel": ["next", "alternate"], "href": "page2.json"},
                  {"rel": "hub", "href": "/events", "type": "text/event-stream; charset=utf-8"},
                  {"rel": "urn:x-newsstand:push", "href": "https://example.invalid/push"},
                  {"rel": "logo", "href": "logo.png"}, {"rel": "http://opds-spec.org/image", "href": "//cdn/x.jpg"}],
        "navigation": [{"title": "Latest", "href": "latest.json", "rel": ["current"], "type": "application/opds+json"},
                       {"title": {"name": "Named"}, "href": "n.json"}, {"href": "untitled.json"}, {"title": "no href"}],
        "groups": [{"metadata": {"title": "Group"},
                    "publications": [{"metadata": {"title": {"name": "In a group"}, "identifier": "urn:g1", "modified": DATES[7]},
                                      "links": [{"rel": "http://opds-spec.org/acquisition/open-access", "href": "g1.cbz",
                                                 "type": "application/vnd.comicbook+zip", "length": 12345}]}],
                    "navigation": [{"title": "Group nav", "href": "g.json"}]}],
        "publications": [
            {"metadata": {"title": "Issue 1", "identifier": "urn:1", "published": DATES[0], "description": "<p>Hello <b>there</b> &amp; you</p>"},
             "links": [{"rel": "http://opds-spec.org/acquisition", "href": "1.epub", "type": "application/epub+zip",
                        "length": "2048", "properties": {"sha256": "00" * 32, "indirectAcquisition": [{"type": "application/zip"}]}},
                       {"rel": ["http://opds-spec.org/acquisition/buy"], "href": "1.zip", "type": "application/zip",
                        "properties": {"_sha256": "ab" * 32}},
                       {"rel": "http://opds-spec.org/image/thumbnail", "href": "1-small.jpg"},
                       {"rel": "http://opds-spec.org/image", "href": "1.jpg"}, {"rel": "cover", "href": "1-cover.png"}],
             "images": [{"href": "big.jpg", "width": 1400}, {"href": "small.jpg", "width": "120"}, {"href": "mid.jpg"}]},
            {"metadata": {"title": ["Only PDF"], "subtitle": "Sub", "modified": DATES[10]},
             "links": [{"rel": "http://opds-spec.org/acquisition", "href": "only.pdf", "type": "application/pdf"},
                       {"rel": "http://opds-spec.org/acquisition", "href": "only.mobi"}]},
            {"metadata": {"title": None, "identifier": None}, "links": None, "images": "one.jpg"},
            {"metadata": {"title": "No links"}}, "a string", 7, [],
        ]}, indent=1))
    write(d, "jsonfeed-rich.json", json.dumps({
        "version": "https://jsonfeed.org/version/1", "title": "<i>Rich</i> &amp; feed", "description": "About",
        "home_page_url": "https://example.invalid/", "feed_url": "https://example.invalid/feed.json", "icon": "icon.png",
        "next_url": "feed2.json", "_newsstand": {"binding": {"type": "newspaper", "edge": "bottom"}, "push": "push"},
        "items": [
            {"id": "1", "title": "One", "date_published": DATES[6], "summary": "S", "image": "1.png",
             "attachments": [{"url": "1.zip", "mime_type": "application/zip", "size_in_bytes": 4096, "_sha256": "cd" * 32},
                             {"url": "1.mp3", "mime_type": "audio/mpeg"}, {"mime_type": "application/zip"}]},
            {"id": 2, "title": {"en": "Two"}, "date_modified": DATES[9], "content_text": "Text", "banner_image": "2.png",
             "attachments": [{"url": "2.cbz", "size_in_bytes": "77", "sha256": "ef" * 32}]},
            {"id": "3", "content_html": "<p>HTML only</p>", "attachments": {"url": "3.epub"}},
            {"title": "No id, no attachments"}, None,
        ]}, indent=1))
    issues = [{"Name": "issue-1", "Title": "One", "Date": datetime.datetime(2026, 11, 22, 7, 0), "Summary": "S",
               "Cover": "1.png", "Content": [{"URL": "1.zip", "Type": "application/zip", "Length": 1234, "sha256": "12" * 32}]},
              {"name": "issue-2", "title": "Two", "date": DATES[1], "description": "D",
               "covers": {"small": "2s.png", "large": "2l.png", "SOURCE": "2.png"}, "content": ["2.epub", {"href": "2b.cbz", "size": 9.5}]},
              {"name": "issue-3", "covers": {"b": "3b.png", "a": "3a.png"}, "content": {"Url": "3.zip", "type": "zip"}},
              {"Name": 4, "Title": True, "Date": 1.5, "Content": b"bytes"}, "not a dictionary"]
    rich = {"Title": "Plist", "Subtitle": "Sub", "Cover": "c.png", "BindingType": "magazine", "BindingEdge": "left",
            "Push": "push", "Issues": issues, "flags": [True, False, 0, -1, 2.25]}
    write(d, "plist-rich.plist", plistlib.dumps(rich, fmt=plistlib.FMT_XML))
    write(d, "binary-plist-rich.plist", plistlib.dumps(rich, fmt=plistlib.FMT_BINARY))
    write(d, "plist-items.plist", plistlib.dumps({"title": "Items", "binding_type": "newspaper", "binding_edge": "top",
                                                  "items": issues[1:3]}, fmt=plistlib.FMT_XML))
    write(d, "rss-rich.xml", f"""<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:content="http://purl.org/rss/1.0/modules/content/"
 xmlns:media="http://search.yahoo.com/mrss/" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
 xmlns:atom="http://www.w3.org/2005/Atom" xmlns:news="http://itunes.apple.com/2011/Newsstand">
<channel><title>Rich &amp; RSS</title><description>About</description><link>https://example.invalid/</link>
<lastBuildDate>{DATES[2]}</lastBuildDate><dc:date>{DATES[5]}</dc:date>
<atom:link rel="next" href="page2.xml"/><atom:link rel="hub" href="/events" type="text/event-stream"/>
<image><url>logo.png</url></image><itunes:image href="art.jpg"/>
""" + "".join(f"""<item><title>Item {i}</title><dc:title>DC {i}</dc:title><guid isPermaLink="false">g{i}</guid>
<pubDate>{date}</pubDate><dc:date>{DATES[5]}</dc:date><atom:published>{DATES[6]}</atom:published><atom:updated>{DATES[7]}</atom:updated>
<description><![CDATA[<p>Hello <img src="x.png"> world<script>alert("x")</script><style>p {{}}</style><SCRIPT>never closed</p>]]></description><content:encoded>&lt;b&gt;bold&lt;/b&gt;</content:encoded>
<news:end_date>{DATES[9]}</news:end_date>
<enclosure url="{i}.zip" type="application/zip" length="{i * 100}" sha256="{'a' * 64}"/><enclosure url="{i}.jpg" type="image/jpeg"/>
<media:content url="{i}.cbz" type="application/vnd.comicbook+zip" fileSize="99"/><media:content url="{i}m.jpg" medium="image"/>
<media:thumbnail url="{i}t.jpg"/><itunes:image href="{i}i.jpg"/>
<atom:link rel="enclosure" href="{i}.epub" type="application/epub+zip" length="5"/>
<atom:link rel="http://opds-spec.org/acquisition" href="{i}b.zip"/><atom:link rel="alternate" href="{i}.html"/></item>
""" for i, date in enumerate(DATES)) + "</channel></rss>")
    write(d, "rss1-rich.rdf", f"""<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"
 xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:enc="http://purl.oclc.org/net/rss_2.0/enc#">
<channel rdf:about="https://example.invalid/"><title>RDF</title><dc:date>{DATES[5]}</dc:date></channel>
<item rdf:about="urn:r1"><title>R1</title><dc:date>{DATES[11]}</dc:date>
<enc:enclosure rdf:resource="r1.zip" enc:type="application/zip" enc:length="10"/></item></rdf:RDF>""")
    write(d, "atom-rich.xml", f"""<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:opds="http://opds-spec.org/2010/catalog" xmlns:dc="http://purl.org/dc/terms/"
 xmlns:news="http://itunes.apple.com/2011/Newsstand" xmlns:nst="urn:x-newsstand:1" xml:base="https://example.invalid/a/b/">
<id>urn:rich</id><title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">Rich <b>Atom</b></div></title>
<subtitle type="html">&lt;i&gt;sub&lt;/i&gt;</subtitle><updated>{DATES[6]}</updated><icon>icon.png</icon><logo>logo.png</logo>
<link rel="next" href="?page=2"/><link rel="push hub" href="../events" type="text/event-stream"/>
<link rel="subsection" href="sub.xml" type="application/atom+xml;profile=opds-catalog;kind=acquisition" title="Sub"/>
<link rel="http://opds-spec.org/image" href="cover.jpg"/><link rel="x-stanza-cover-image" href="stanza.jpg"/>
<news:cover_art_icons><news:cover_art_icon size="SOURCE" src="source.png"/></news:cover_art_icons>
<nst:binding type="newspaper" edge="bottom"/>
""" + "".join(f"""<entry xml:base="e{i}/"><id>urn:e{i}</id><title type="html">E&amp;lt;{i}&amp;gt;</title><updated>{date}</updated>
<published>{DATES[(i + 3) % len(DATES)]}</published><dc:issued>{DATES[(i + 5) % len(DATES)]}</dc:issued>
<summary type="text">Sum {i}</summary><content type="html">&lt;p&gt;Content&lt;/p&gt;</content>
<link rel="enclosure" href="{i}.zip" type="application/zip" length="{i}" sha256="{'b' * 64}"/>
<link rel="http://opds-spec.org/acquisition/open-access" href="{i}.epub" type="application/epub+zip"/>
<link rel="http://opds-spec.org/acquisition" href="{i}.pdf" type="application/pdf"/>
<link rel="http://opds-spec.org/image/thumbnail" href="{i}t.png"/><link rel="http://opds-spec.org/image" href="{i}.png"/>
<link rel="x-stanza-cover-image-thumbnail" href="{i}st.png"/><link href="{i}.html"/>
<news:end_date>{DATES[9]}</news:end_date><news:cover_art_icons><news:cover_art_icon size="SOURCE" src="{i}src.png"/></news:cover_art_icons>
</entry>
""" for i, date in enumerate(DATES)) + """<entry xml:base="urn:isbn:0451450523"><id>urn:src</id><title>Content by reference</title>
<content src="issue.zip" type="application/zip"/></entry></feed>""")
    # A web page that announces its feeds (one clear error naming them), and one that does not.
    write(d, "html-announces.html", '<!DOCTYPE html><html><head><base href="/site/"><title>Site</title>'
          '<link rel="alternate" type="application/rss+xml" href="feed.xml"><link rel="Alternate feed" '
          'type="Application/Atom+XML; charset=utf-8" href="atom.xml"><link rel="alternate" type="application/rss+xml" '
          'href="feed.xml"><link rel="alternate" type="text/html" href="fr.html"><link rel="stylesheet" href="s.css">'
          '</head><body><p>Hi</p></body></html>')
    write(d, "html-plain.html", "<html><body><p>No feed here.</p></body></html>")
    # Elements nested past Markup's limit, inside an item; a UTF-16 declaration on ASCII bytes.
    write(d, "rss-deep.xml", '<rss version="2.0"><channel><title>Deep</title><item><title>A</title><description>'
          + "<b>" * 300 + "x" + "</b>" * 300 + '</description><enclosure url="a.zip" type="application/zip"/></item></channel></rss>')
    write(d, "rss-utf16-declared.xml", '<?xml version="1.0" encoding="UTF-16"?><rss version="2.0"><channel><title>T</title>'
          '<item><title>A</title><enclosure url="a.zip"/></item></channel></rss>')
    # A binary property list nested past the reader's depth limit.
    nested = {"issues": [{"Name": "n", "Content": "n.zip"}]}
    for _ in range(40):
        nested = {"issues": [nested]}
    write(d, "binary-plist-deep.plist", plistlib.dumps(nested, fmt=plistlib.FMT_BINARY))


def png(image, **options):
    buffer = io.BytesIO()
    image.save(buffer, "PNG", **options)
    return buffer.getvalue()


def jpeg(image, **options):
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", **options)
    return buffer.getvalue()


def images():
    from PIL import Image
    d = target("image")
    gradient = Image.new("RGB", (17, 11))
    gradient.putdata([(x * 15, y * 23, (x + y) * 9) for y in range(11) for x in range(17)])
    write(d, "rgb.png", png(gradient))
    write(d, "rgba.png", png(gradient.convert("RGBA")))
    write(d, "grey.png", png(gradient.convert("L")))
    write(d, "palette.png", png(gradient.convert("P")))
    write(d, "bilevel.png", png(gradient.convert("1")))
    write(d, "grey16.png", png(gradient.convert("I;16")))
    write(d, "baseline.jpg", jpeg(gradient, quality=70))
    write(d, "progressive.jpg", jpeg(gradient, quality=70, progressive=True))
    write(d, "grey.jpg", jpeg(gradient.convert("L")))
    write(d, "cmyk.jpg", jpeg(gradient.convert("CMYK")))
    write(d, "subsampled.jpg", jpeg(gradient, subsampling=2, quality=40))
    # EXIF Orientation: a JPEG's APP1 segment (little-endian TIFF) and a PNG's eXIf chunk.
    exif = Image.Exif()
    exif[0x0112] = 6
    write(d, "exif-right.jpg", jpeg(gradient, quality=70, exif=exif.tobytes()))
    exif[0x0112] = 8
    write(d, "exif-left.png", png(gradient, exif=exif.tobytes()))
    covers = sorted(root.glob("sample-feed/*/covers/*.png"), key=lambda p: p.stat().st_size)
    write(d, "sample-cover.png", covers[0].read_bytes())


def zipped(entries, stored=False):
    buffer = io.BytesIO()
    method = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
    with zipfile.ZipFile(buffer, "w", method) as z:
        for name, data, *rest in entries:
            z.writestr(zipfile.ZipInfo(name, (2026, 11, 22, 7, 0, 0)),
                       data, compress_type=rest[0] if rest else method)
    return buffer.getvalue()


def archives():
    from PIL import Image
    d = target("archive")
    page = png(Image.new("RGB", (4, 6), (200, 30, 30)))
    container = ('<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">'
                 '<rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>')
    opf = ('<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">'
           '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>T</dc:title><dc:identifier id="id">x</dc:identifier>'
           '<dc:creator>C</dc:creator><meta property="dcterms:modified">2026-11-22T07:00:00Z</meta></metadata>'
           '<manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>'
           '<item id="a" href="a.xhtml" media-type="application/xhtml+xml"/>'
           '<item id="c" href="c.png" media-type="image/png" properties="cover-image"/></manifest>'
           '<spine page-progression-direction="rtl"><itemref idref="a"/></spine></package>')
    nav = ('<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body>'
           '<nav epub:type="toc"><ol><li><a href="a.xhtml#s">A</a></li></ol></nav></body></html>')
    article = '<html xmlns="http://www.w3.org/1999/xhtml"><body><h1 id="s">A</h1><p>x <img src="c.png" alt="c"/></p></body></html>'
    write(d, "epub.zip", zipped([("mimetype", "application/epub+zip", zipfile.ZIP_STORED),
                                 ("META-INF/container.xml", container), ("OEBPS/content.opf", opf),
                                 ("OEBPS/nav.xhtml", nav), ("OEBPS/a.xhtml", article), ("OEBPS/c.png", page)]))
    comic_info = '<ComicInfo><Title>T</Title><Series>S</Series><Number>1</Number><Manga>YesAndRightToLeft</Manga></ComicInfo>'
    write(d, "comic.zip", zipped([("ComicInfo.xml", comic_info), ("p10.png", page), ("p2.png", page)], stored=True))
    write(d, "plain.zip", zipped([("index.html", "<h1>T</h1><p>x</p>"), ("notes.md", "# N\n\n*x*"),
                                  ("dir/b.txt", "b")]))
    write(d, "empty.zip", zipped([]))
    smallest = min(root.glob("sample-feed/*/issues/*.epub"), key=lambda p: p.stat().st_size)
    write(d, "sample.epub", smallest.read_bytes())


def layouts():
    # The first byte picks the reader (0 HTML, 1 Markdown, 2 plain) and the width.
    d = target("layout")
    for i, article in enumerate(sorted(root.glob("sample-feed/sources/*/issues/*/*.xhtml"))[:12]):
        write(d, f"sample-{i:02}.html", bytes([4 * (30 + i) + 0]) + article.read_bytes())
    write(d, "html-mix.html", bytes([4 * 40]) + (
        '<h2>H</h2><ul><li>a<ol><li>b</li></ol></li></ul><blockquote><p>q</p></blockquote>'
        '<pre>  x\ty</pre><table><tr><td>1</td><td>2</td></tr></table><ruby>漢<rt>kan</rt></ruby>'
        '<a href="http://x/">l</a> &amp;&#x1F600;&nbsp;<img src="i.png" alt="i" width="10" height="20">'
        '<figure><img src="j.png"><figcaption>c</figcaption></figure><hr><mark>m</mark><s>s</s>').encode())
    write(d, "markdown.md", bytes([4 * 30 + 1]) + (
        "# T\n\nSome *em* and **strong** and `code` and [link](http://x/ \"t\").\n\n"
        "> quote\n> more\n\n- a\n  - b\n1. c\n\n```\ncode\n```\n\n---\n\n![alt](p.png)\n\n| a | b |\n|---|---|\n| 1 | 2 |\n").encode())
    write(d, "plain.txt", bytes([4 * 20 + 2]) + "Plain text\twith tabs\n\nand 日本語 wide text and e\u0301.\n".encode())


def pdf_file(objects):
    """A PDF of the given object bodies (numbered from 1; object 1 is the catalog), with a
    correct cross-reference table."""
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root 1 0 R /Info %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, len(objects), xref)
    return bytes(out)


def stream(data, dictionary=b"", compress=False):
    if compress:
        data = zlib.compress(data)
        dictionary += b" /Filter /FlateDecode"
    return b"<< /Length %d%s >>\nstream\n" % (len(data), dictionary) + data + b"\nendstream"


def magazine_pdf(pages=2, picture=True, compress=False):
    """Pages with a heading and two columns of text (base-14 fonts), a small RGB picture,
    an outline of two entries (one nested), page labels i, ii… and an info dictionary."""
    objects = [None, None]  # catalog, page tree: filled in below
    font = len(objects) + 1
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    image = len(objects) + 1
    pixels = b"".join(bytes((x * 32, y * 32, ((x ^ y) * 32) & 255)) for y in range(8) for x in range(8))
    objects.append(stream(pixels, b" /Type /XObject /Subtype /Image /Width 8 /Height 8 /ColorSpace /DeviceRGB"
                          b" /BitsPerComponent 8", compress=compress))
    page_numbers = []
    for page in range(pages):
        content = b"BT /F1 24 Tf 40 780 Td (Heading %d) Tj ET\n" % (page + 1)
        for line in range(6):
            content += b"BT /F1 10 Tf 40 %d Td (left column line %d) Tj ET\n" % (740 - line * 14, line)
            content += b"BT /F1 10 Tf 300 %d Td (right column line %d) Tj ET\n" % (740 - line * 14, line)
        if picture:
            content += b"q 120 0 0 90 40 500 cm /Im1 Do Q\n"
        content += b"0 0 0 rg 300 500 120 90 re f\n"
        objects.append(stream(content, compress=compress))
        contents = len(objects)
        objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents %d 0 R"
                       b" /Resources << /Font << /F1 %d 0 R >> /XObject << /Im1 %d 0 R >> >> >>"
                       % (contents, font, image))
        page_numbers.append(len(objects))
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (
        b" ".join(b"%d 0 R" % n for n in page_numbers), pages)
    outlines = len(objects) + 1
    first, second, child = outlines + 1, outlines + 2, outlines + 3
    objects.append(b"<< /Type /Outlines /First %d 0 R /Last %d 0 R /Count 3 >>" % (first, second))
    objects.append(b"<< /Title (Cover) /Parent %d 0 R /Next %d 0 R /Dest [%d 0 R /Fit] >>"
                   % (outlines, second, page_numbers[0]))
    objects.append(b"<< /Title (Second article) /Parent %d 0 R /Prev %d 0 R /First %d 0 R /Last %d 0 R /Count 1"
                   b" /Dest [%d 0 R /XYZ 0 842 0] >>" % (outlines, first, child, child, page_numbers[-1]))
    objects.append(b"<< /Title (Letters) /Parent %d 0 R /Dest [%d 0 R /Fit] >>" % (second, page_numbers[-1]))
    objects[0] = (b"<< /Type /Catalog /Pages 2 0 R /Outlines %d 0 R /PageLabels << /Nums [0 << /S /r >>] >> >>"
                  % outlines)
    objects.append(b"<< /Title (The Fuzz Monthly) /Author (Ada Writer) >>")
    return pdf_file(objects)


def worker_frame(reply, payload=b""):
    """A frame as the PDF worker sends it (WorkerFraming), marked for the harness's frame mode."""
    header = json.dumps(reply, separators=(",", ":")).encode()
    return (b"NSWF" + len(header).to_bytes(4, "little") + header + len(payload).to_bytes(4, "little") + payload)


def pdfs():
    d = target("pdf")
    write(d, "magazine.pdf", magazine_pdf())
    write(d, "compressed.pdf", magazine_pdf(pages=3, compress=True))
    write(d, "text-only.pdf", magazine_pdf(pages=1, picture=False))
    # The same pages as cairo writes them (subsetted embedded fonts, its own object layout),
    # when poppler-utils is installed.
    source = out / "pdf-source.pdf"
    source.write_bytes(magazine_pdf(pages=1, compress=True))
    if shutil.which("pdftocairo"):
        subprocess.run(["pdftocairo", "-pdf", str(source), str(d / "cairo.pdf")], check=True)
    source.unlink()
    write(d, "truncated.pdf", magazine_pdf()[:700])
    info = {"title": "T", "author": "A", "pageCount": 2,
            "pageSizes": [{"width": 595, "height": 842}, {"width": 100, "height": 50}],
            "pageLabels": ["i", "ii"],
            "outline": [{"title": "Cover", "page": 0, "children": [{"title": "c", "children": []}]}]}
    write(d, "frame-info", worker_frame({"info": {"_0": info}}))
    write(d, "frame-image", worker_frame({"image": {"width": 2, "height": 1}}, bytes(range(8))))
    write(d, "frame-failure", worker_frame({"failure": {"_0": {"kind": "crashed", "description": "page 1: crashed"}}}))
    write(d, "frame-texts", worker_frame({"pageTexts": {"_0": ["one", "two"]}}))
    text = {"text": "Ab", "boxes": [1, 2, 3, 4, 5, 6, 7, 8], "runs": [{"count": 2, "size": 10, "font": "Helvetica"}],
            "size": {"width": 595, "height": 842}, "figures": [{"x0": 0, "y0": 0, "x1": 10, "y1": 10}]}
    write(d, "frame-text", worker_frame({"text": {"_0": text}}))


if __name__ == "__main__":
    wanted = sys.argv[1:] or ["feed", "archive", "image", "layout", "pdf"]
    makers = {"feed": feeds, "archive": archives, "image": images, "layout": layouts, "pdf": pdfs}
    for name in wanted:
        makers[name]()
        print(f"{name}: {len(os.listdir(out / name))} seeds in {out / name}")
