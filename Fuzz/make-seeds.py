#!/usr/bin/env python3
"""Writes the seed corpora for the fuzz targets into Fuzz/.build/seeds/<target>/.

Seeds come from the project itself (sample-feed/, the feed fixtures of FeedsTests) and
from small files generated here, so every format branch has something to start from.
Deterministic: the same files every run."""
import io
import os
import pathlib
import plistlib
import shutil
import sys
import zipfile

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


if __name__ == "__main__":
    wanted = sys.argv[1:] or ["feed", "archive", "image", "layout"]
    makers = {"feed": feeds, "archive": archives, "image": images, "layout": layouts}
    for name in wanted:
        makers[name]()
        print(f"{name}: {len(os.listdir(out / name))} seeds in {out / name}")
