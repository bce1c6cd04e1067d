"""Structural checks on the generated files, run by `build.py --check`.

They guard what the program relies on: every feed parses and its relative links
point at files that exist with the stated length; every EPUB starts with a stored
`mimetype`, names an OPF whose manifest files all exist and parse; every CBZ has
its pages and a ComicInfo.xml that parses.
"""

import io
import os
import plistlib
import posixpath
import re
import zipfile
import xml.etree.ElementTree as ET

ATOM = "{http://www.w3.org/2005/Atom}"
NEWS = "{http://itunes.apple.com/2011/Newsstand}"
NST = "{urn:x-newsstand:1}"
OPF = "{http://www.idpf.org/2007/opf}"
ACQUISITION = "http://opds-spec.org/acquisition"
DC = "{http://purl.org/dc/elements/1.1/}"
CONTENT = "{http://purl.org/rss/1.0/modules/content/}"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"


def verify(root, feeds):
    problems = []
    for feed in feeds:
        check = _plist_feed if feed.endswith(".plist") else _news_feed if _is_rss(root, feed) else _feed
        problems += [f"{feed}: {p}" for p in check(root, feed)]
    return problems


def _feed(root, feed_path):
    base = os.path.dirname(os.path.join(root, feed_path))
    try:
        doc = ET.parse(os.path.join(root, feed_path)).getroot()
    except (OSError, ET.ParseError) as error:
        return [str(error)]
    problems = []
    binding = doc.find(f"{NST}binding")
    if binding is None or binding.get("type") not in ("magazine", "newspaper") or binding.get("edge") not in ("left", "right", "bottom"):
        problems.append("missing or bad nst:binding")
    for tag in ("id", "title", "subtitle", "updated", "logo"):
        if not (doc.findtext(f"{ATOM}{tag}") or "").strip():
            problems.append(f"feed has no <{tag}>")
    logo = doc.findtext(f"{ATOM}logo") or ""
    if not os.path.isfile(os.path.join(base, logo)):
        problems.append(f"logo {logo} does not exist")
    ids, dates = set(), set()
    for entry in doc.findall(f"{ATOM}entry"):
        name = entry.findtext(f"{ATOM}id")
        if name in ids:
            problems.append(f"entry id {name} twice")
        ids.add(name)
        date = entry.findtext(f"{ATOM}published")
        if date in dates:
            problems.append(f"{name}: date {date} used twice")
        dates.add(date)
        icon = entry.find(f"{NEWS}cover_art_icons/{NEWS}cover_art_icon")
        if icon is None or not os.path.isfile(os.path.join(base, icon.get("src", ""))):
            problems.append(f"{name}: cover art icon missing")
        links = [l for l in entry.findall(f"{ATOM}link") if l.get("rel") == ACQUISITION]
        if len(links) != 1:
            problems.append(f"{name}: expected one acquisition link")
            continue
        href = links[0].get("href", "")
        path = os.path.join(base, href)
        if href.startswith("/") or "://" in href:
            problems.append(f"{name}: href {href} is not relative")
        elif not os.path.isfile(path):
            problems.append(f"{name}: {href} does not exist")
        elif os.path.getsize(path) != int(links[0].get("length", "-1")):
            problems.append(f"{name}: length {links[0].get('length')} but {href} has {os.path.getsize(path)} bytes")
        elif href.endswith(".epub"):
            problems += [f"{href}: {p}" for p in _epub(path)]
        else:
            problems += [f"{href}: {p}" for p in _cbz(path)]
    return problems


def _is_rss(root, feed_path):
    try:
        return ET.parse(os.path.join(root, feed_path)).getroot().tag == "rss"
    except (OSError, ET.ParseError):
        return False


def _news_feed(root, feed_path):
    """A plain news feed: articles in two languages, some with full content and some with
    entity-escaped HTML, every picture relative and present (enclosures with their length)."""
    base = os.path.dirname(os.path.join(root, feed_path))
    channel = ET.parse(os.path.join(root, feed_path)).getroot().find("channel")
    problems = []
    for tag in ("title", "description", "language"):
        if not (channel.findtext(tag) or "").strip():
            problems.append(f"channel has no <{tag}>")
    if not os.path.isfile(os.path.join(base, channel.findtext("image/url") or "")):
        problems.append("channel image does not exist")
    ids, languages, kinds = set(), set(), set()
    for item in channel.findall("item"):
        name = item.findtext("guid")
        if not name or name in ids:
            problems.append(f"item id {name} missing or twice")
        ids.add(name)
        for tag in ("title", "pubDate", "category", f"{DC}creator"):
            if not (item.findtext(tag) or "").strip():
                problems.append(f"{name}: no <{tag}>")
        lang = item.get(XML_LANG)
        if lang is None or item.findtext(f"{DC}language") != lang:
            problems.append(f"{name}: xml:lang and dc:language disagree")
        languages.add(lang)
        full = item.findtext(f"{CONTENT}encoded")
        kinds.add("full" if full else "escaped")
        html = full or item.findtext("description") or ""
        if "<p>" not in html:
            problems.append(f"{name}: no HTML paragraphs")
        hrefs = re.findall(r'src="([^"]+)"', html)
        enclosure = item.find("enclosure")
        if enclosure is not None:
            hrefs.append(enclosure.get("url", ""))
            path = os.path.join(base, enclosure.get("url", ""))
            if os.path.isfile(path) and os.path.getsize(path) != int(enclosure.get("length", "-1")):
                problems.append(f"{name}: enclosure length {enclosure.get('length')} but {os.path.getsize(path)} bytes")
        for href in hrefs:
            if href.startswith("/") or "://" in href:
                problems.append(f"{name}: picture {href} is not relative")
            elif not os.path.isfile(os.path.join(base, href)):
                problems.append(f"{name}: picture {href} does not exist")
    if len(languages) < 2 or kinds != {"full", "escaped"}:
        problems.append(f"expected two languages and both kinds of content, got {sorted(languages)}, {sorted(kinds)}")
    return problems


def _plist_feed(root, feed_path):
    """The tutorial's property list: issues with a name, a date, a PDF `Content` that exists."""
    base = os.path.dirname(os.path.join(root, feed_path))
    try:
        with open(os.path.join(root, feed_path), "rb") as f:
            doc = plistlib.load(f)
    except (OSError, plistlib.InvalidFileException, ValueError) as error:
        return [str(error)]
    problems = []
    for key in ("title", "cover", "issues"):
        if not doc.get(key):
            problems.append(f"no {key}")
    if not os.path.isfile(os.path.join(base, doc.get("cover", ""))):
        problems.append(f"cover {doc.get('cover')} does not exist")
    names = set()
    for issue in doc.get("issues", []):
        name = issue.get("Name")
        if not name or name in names:
            problems.append(f"issue name {name!r} missing or used twice")
        names.add(name)
        if "Date" not in issue:
            problems.append(f"{name}: no Date")
        cover = issue.get("Cover")
        if cover is not None and not os.path.isfile(os.path.join(base, cover)):
            problems.append(f"{name}: cover {cover} does not exist")
        content = issue.get("Content", "")
        if not content.endswith(".pdf") or not os.path.isfile(os.path.join(base, content)):
            problems.append(f"{name}: content {content!r} is not a PDF beside the feed")
        else:
            problems += [f"{content}: {p}" for p in _pdf(os.path.join(base, content))]
    return problems


def _pdf(path):
    """Header, every xref offset pointing at its object, a catalog with an outline and labels."""
    with open(path, "rb") as f:
        data = f.read()
    if not data.startswith(b"%PDF-1.") or not data.rstrip().endswith(b"%%EOF"):
        return ["no PDF header or %%EOF"]
    start = int(re.search(rb"startxref\n(\d+)\n%%EOF", data).group(1))
    if not data[start:].startswith(b"xref\n"):
        return ["startxref does not point at the xref table"]
    count = int(re.match(rb"xref\n0 (\d+)", data[start:]).group(1))
    table = data[start:].split(b"\n", 2)[2]
    problems = []
    for number in range(1, count):
        offset = int(table[number * 20:number * 20 + 10])
        if not data[offset:].startswith(b"%d 0 obj" % number):
            problems.append(f"xref entry {number} points at byte {offset}, not at its object")
    for needed in (b"/Outlines", b"/PageLabels", b"/Title", b"/Author"):
        if needed not in data:
            problems.append(f"no {needed.decode()}")
    return problems


def _epub(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[30:38] != b"mimetype" or data[38:58] != b"application/epub+zip":
        return ["mimetype is not the first, stored entry"]
    archive = zipfile.ZipFile(io.BytesIO(data))
    first = archive.infolist()[0]
    if first.compress_type != zipfile.ZIP_STORED or first.extra:
        return ["mimetype is compressed or has extra fields"]
    names = set(archive.namelist())
    container = ET.fromstring(archive.read("META-INF/container.xml"))
    rootfile = container.find(".//{urn:oasis:names:tc:opendocument:xmlns:container}rootfile").get("full-path")
    opf = ET.fromstring(archive.read(rootfile))
    problems = []
    folder = posixpath.dirname(rootfile)
    items = opf.findall(f"{OPF}manifest/{OPF}item")
    for item in items:
        member = posixpath.join(folder, item.get("href"))
        if member not in names:
            problems.append(f"manifest names {member}, not in the archive")
        elif item.get("media-type") == "application/xhtml+xml":
            ET.fromstring(archive.read(member))
    if not any("cover-image" in (i.get("properties") or "") for i in items):
        problems.append("no cover-image item")
    if not any("nav" in (i.get("properties") or "").split() for i in items):
        problems.append("no nav document")
    if not opf.findall(f"{OPF}spine/{OPF}itemref"):
        problems.append("empty spine")
    return problems


def _cbz(path):
    archive = zipfile.ZipFile(path)
    if archive.testzip() is not None:
        return ["CRC error"]
    pages = [n for n in archive.namelist() if n.endswith(".png")]
    info = ET.fromstring(archive.read("ComicInfo.xml"))
    if int(info.findtext("PageCount") or 0) != len(pages):
        return [f"ComicInfo says {info.findtext('PageCount')} pages, archive has {len(pages)}"]
    return []
