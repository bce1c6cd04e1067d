"""Structural checks on the generated files, run by `build.py --check`.

They guard what the program relies on: every feed parses and its relative links
point at files that exist with the stated length; every EPUB starts with a stored
`mimetype`, names an OPF whose manifest files all exist and parse; every CBZ has
its pages and a ComicInfo.xml that parses.
"""

import io
import os
import posixpath
import zipfile
import xml.etree.ElementTree as ET

ATOM = "{http://www.w3.org/2005/Atom}"
NEWS = "{http://itunes.apple.com/2011/Newsstand}"
NST = "{urn:x-newsstand:1}"
OPF = "{http://www.idpf.org/2007/opf}"
ACQUISITION = "http://opds-spec.org/acquisition"


def verify(root, feeds):
    problems = []
    for feed in feeds:
        problems += [f"{feed}: {p}" for p in _feed(root, feed)]
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
