"""Deterministic archives (EPUB 3, CBZ) and Newsstand Atom feeds.

Every zip entry gets the same timestamp, permissions and compression level, and
entries are written in a fixed order, so rebuilding gives byte-identical files.
"""

import html
import datetime
import io
import plistlib
import re
import zipfile
from xml.sax.saxutils import escape, quoteattr

ZIP_TIME = (2026, 1, 1, 0, 0, 0)


def zip_bytes(entries):
    """entries: [(name, bytes, stored?)] in archive order."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data, stored in entries:
            info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
            info.create_system = 3
            info.external_attr = 0o100644 << 16
            info.compress_type = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
            archive.writestr(info, data, compresslevel=None if stored else 9)
    return buffer.getvalue()


def plain_text(fragment):
    return html.unescape(re.sub(r"<[^>]+>", "", fragment)).strip()


def article_title(fragment, source):
    match = re.search(r"<h1[^>]*>(.*?)</h1>", fragment, re.S)
    if not match:
        raise SystemExit(f"{source}: an article needs an <h1> title")
    return plain_text(match.group(1))


CONTAINER = """<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles>
    <rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/>
  </rootfiles>
</container>
"""

STYLESHEET = """body { font-family: serif; line-height: 1.5; margin: 0 5%; }
h1 { font-family: sans-serif; font-size: 1.6em; margin-bottom: 0.2em; }
h2 { font-family: sans-serif; font-size: 1.2em; }
p.byline { font-style: italic; color: #555; margin-top: 0; }
blockquote { margin: 1em 2em; font-style: italic; }
figure { margin: 1em 0; text-align: center; }
figure img { max-width: 100%; }
figcaption { font-size: 0.85em; color: #555; }
"""


def article_document(fragment, title, lang):
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="{lang}" xml:lang="{lang}">
<head>
<meta charset="UTF-8"/>
<title>{escape(title)}</title>
<link rel="stylesheet" type="text/css" href="../css/issue.css"/>
</head>
<body>
<article>
{fragment.strip()}
</article>
</body>
</html>
"""


def nav_document(title, lang, articles):
    items = "\n".join(f'      <li><a href="text/{a["file"]}">{escape(a["title"])}</a></li>' for a in articles)
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="{lang}" xml:lang="{lang}">
<head>
<meta charset="UTF-8"/>
<title>{escape(title)}</title>
</head>
<body>
  <nav epub:type="toc" id="toc">
    <h1>Contents</h1>
    <ol>
{items}
    </ol>
  </nav>
</body>
</html>
"""


def ncx_document(identifier, title, articles):
    points = "\n".join(
        f"""    <navPoint id="nav-{i}" playOrder="{i}">
      <navLabel><text>{escape(a["title"])}</text></navLabel>
      <content src="text/{a["file"]}"/>
    </navPoint>""" for i, a in enumerate(articles, 1))
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1">
  <head>
    <meta name="dtb:uid" content={quoteattr(identifier)}/>
    <meta name="dtb:depth" content="1"/>
    <meta name="dtb:totalPageCount" content="0"/>
    <meta name="dtb:maxPageNumber" content="0"/>
  </head>
  <docTitle><text>{escape(title)}</text></docTitle>
  <navMap>
{points}
  </navMap>
</ncx>
"""


def package_document(meta, articles, images):
    creators = "\n".join(f"    <dc:creator id=\"creator-{i}\">{escape(name)}</dc:creator>" for i, name in enumerate(meta["creators"], 1))
    manifest = [
        '    <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>',
        '    <item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>',
        '    <item id="css" href="css/issue.css" media-type="text/css"/>',
        '    <item id="cover-image" href="images/cover.png" media-type="image/png" properties="cover-image"/>',
    ]
    for name in images:
        manifest.append(f'    <item id="img-{name.rsplit(".", 1)[0]}" href="images/{name}" media-type="image/png"/>')
    for i, a in enumerate(articles, 1):
        manifest.append(f'    <item id="article-{i}" href="text/{a["file"]}" media-type="application/xhtml+xml"/>')
    spine = "\n".join(f'    <itemref idref="article-{i}"/>' for i in range(1, len(articles) + 1))
    manifest_xml = "\n".join(manifest)
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="book-id" xml:lang="{meta["language"]}">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:identifier id="book-id">{escape(meta["identifier"])}</dc:identifier>
    <dc:title>{escape(meta["title"])}</dc:title>
{creators}
    <dc:publisher>{escape(meta["publisher"])}</dc:publisher>
    <dc:date>{meta["date"]}</dc:date>
    <dc:language>{meta["language"]}</dc:language>
    <dc:description>{escape(meta["summary"])}</dc:description>
    <meta property="dcterms:modified">{meta["date"]}</meta>
    <meta name="cover" content="cover-image"/>
  </metadata>
  <manifest>
{manifest_xml}
  </manifest>
  <spine toc="ncx">
{spine}
  </spine>
</package>
"""


def epub_bytes(meta, cover_png, articles, images):
    """articles: [{file, title, lang, xhtml}]; images: {name: png bytes}."""
    entries = [
        ("mimetype", b"application/epub+zip", True),
        ("META-INF/container.xml", CONTAINER.encode(), False),
        ("OEBPS/content.opf", package_document(meta, articles, sorted(images)).encode(), False),
        ("OEBPS/nav.xhtml", nav_document(meta["title"], meta["language"], articles).encode(), False),
        ("OEBPS/toc.ncx", ncx_document(meta["identifier"], meta["title"], articles).encode(), False),
        ("OEBPS/css/issue.css", STYLESHEET.encode(), False),
        ("OEBPS/images/cover.png", cover_png, False),
    ]
    entries += [(f"OEBPS/images/{name}", images[name], False) for name in sorted(images)]
    entries += [(f"OEBPS/text/{a['file']}", article_document(a["xhtml"], a["title"], a["lang"]).encode(), False) for a in articles]
    return zip_bytes(entries)


def comic_info(meta, pages):
    year, month, day = meta["date"][:10].split("-")
    front = ' Type="FrontCover"'
    page_rows = "\n".join(
        f'    <Page Image="{i}"{front if i == 0 else ""} ImageSize="{len(data)}" ImageWidth="{w}" ImageHeight="{h}"/>'
        for i, (_, data, w, h) in enumerate(pages))
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<ComicInfo xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <Title>{escape(meta["story"])}</Title>
  <Series>{escape(meta["series"])}</Series>
  <Number>{meta["number"]}</Number>
  <Count>{meta["count"]}</Count>
  <Summary>{escape(meta["summary"])}</Summary>
  <Year>{int(year)}</Year>
  <Month>{int(month)}</Month>
  <Day>{int(day)}</Day>
  <Writer>{escape(meta["writer"])}</Writer>
  <Penciller>{escape(meta["artist"])}</Penciller>
  <Publisher>{escape(meta["publisher"])}</Publisher>
  <Genre>Adventure, Science Fiction, Humour</Genre>
  <LanguageISO>{meta["language"]}</LanguageISO>
  <BlackAndWhite>No</BlackAndWhite>
  <Manga>No</Manga>
  <PageCount>{len(pages)}</PageCount>
  <Pages>
{page_rows}
  </Pages>
</ComicInfo>
"""


def cbz_bytes(meta, pages):
    """pages: [(file name, png bytes, width, height)] in reading order."""
    entries = [(name, data, False) for name, data, _, _ in pages]
    entries.append(("ComicInfo.xml", comic_info(meta, pages).encode(), False))
    return zip_bytes(entries)


def atom_feed(publication, entries):
    """entries: newest first, each {id, title, date, summary, cover, archive, length, type}."""
    updated = max(e["date"] for e in entries)
    binding = publication["binding"]
    rows = []
    for e in entries:
        rows.append(f"""  <entry>
    <id>{escape(e["id"])}</id>
    <title>{escape(e["title"])}</title>
    <published>{e["date"]}</published>
    <updated>{e["date"]}</updated>
    <summary>{escape(e["summary"])}</summary>
    <news:cover_art_icons>
      <news:cover_art_icon size="SOURCE" src={quoteattr(e["cover"])}/>
    </news:cover_art_icons>
    <link rel="http://opds-spec.org/acquisition" type="{e["type"]}" href={quoteattr(e["archive"])} length="{e["length"]}"/>
    <link rel="http://opds-spec.org/image" type="image/png" href={quoteattr(e["cover"])}/>
  </entry>""")
    body = "\n".join(rows)
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:news="http://itunes.apple.com/2011/Newsstand" xmlns:nst="urn:x-newsstand:1">
  <id>{escape(publication["feed_id"])}</id>
  <title>{escape(publication["title"])}</title>
  <subtitle>{escape(publication["subtitle"])}</subtitle>
  <updated>{updated}</updated>
  <author><name>{escape(publication["publisher"])}</name></author>
  <logo>covers/default.png</logo>
  <link rel="self" type="application/atom+xml" href="feed.xml"/>
  <nst:binding type="{binding["type"]}" edge="{binding["edge"]}"/>
{body}
</feed>
"""


def plist_feed(publication, logo, entries):
    """The Newsstand tutorial's feed: a property list of issues (`Name`, `Title`, `Date`,
    `Summary`, `Cover`, `Content`), under a dictionary naming the publication, its cover
    and its binding. entries: newest first, dates as ISO 8601 strings."""
    def date(text):
        return datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ")
    root = {
        "title": publication["title"],
        "subtitle": publication["subtitle"],
        "cover": logo,
        "binding_type": publication["binding"]["type"],
        "binding_edge": publication["binding"]["edge"],
        "issues": [dict(e, Date=date(e["Date"])) for e in entries],
    }
    return plistlib.dumps(root, sort_keys=True)


def rss_news_feed(publication, items):
    """A plain news feed (RSS 2.0), the kind most sites publish: articles, not issues.
    items: newest first, each {id, title, date (ISO 8601), lang, category, author, html,
    encoding ("full": content:encoded with a plain summary; "escaped": entity-escaped HTML
    in <description>), enclosure (a picture, or None)}. Links are relative to the feed."""
    def rfc822(text):
        return datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").strftime("%a, %d %b %Y %H:%M:%S +0000")
    binding = publication["binding"]
    rows = []
    for item in items:
        if item["encoding"] == "full":
            body = (f"      <description>{escape(item['summary'])}</description>\n"
                    f"      <content:encoded><![CDATA[{item['html']}]]></content:encoded>\n")
        else:
            body = f"      <description>{escape(item['html'])}</description>\n"
        enclosure = item.get("enclosure")
        if enclosure:
            body += f"      <enclosure url={quoteattr(enclosure['href'])} type=\"image/png\" length=\"{enclosure['length']}\"/>\n"
        rows.append(f"""    <item xml:lang="{item["lang"]}">
      <title>{escape(item["title"])}</title>
      <guid isPermaLink="false">{escape(item["id"])}</guid>
      <pubDate>{rfc822(item["date"])}</pubDate>
      <dc:creator>{escape(item["author"])}</dc:creator>
      <dc:language>{item["lang"]}</dc:language>
      <category>{escape(item["category"])}</category>
{body}    </item>""")
    items_xml = "\n".join(rows)
    newest = rfc822(items[0]["date"])
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:nst="urn:x-newsstand:1">
  <channel>
    <title>{escape(publication["title"])}</title>
    <link>feed.xml</link>
    <description>{escape(publication["subtitle"])}</description>
    <language>{publication["language"]}</language>
    <lastBuildDate>{newest}</lastBuildDate>
    <image><url>covers/default.png</url><title>{escape(publication["title"])}</title><link>feed.xml</link></image>
    <nst:binding type="{binding["type"]}" edge="{binding["edge"]}"/>
{items_xml}
  </channel>
</rss>
"""
