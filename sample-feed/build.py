#!/usr/bin/env python3
"""Rebuild every sample publication from sample-feed/sources/.

    python3 sample-feed/build.py           write feeds, covers and issue archives
    python3 sample-feed/build.py --check   rebuild in memory; exit 1 if a file on disk differs
                                           or a feed or archive fails the structural checks

Standard library only. The output is deterministic: running it twice gives
byte-identical files. See sample-feed/README.md for the source layout.
"""

import json
import os
import re
import sys

sys.dont_write_bytecode = True
ROOT = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(ROOT, "tools"))

import layouts  # noqa: E402
import package  # noqa: E402
import periodical  # noqa: E402
import verify  # noqa: E402

SOURCES = os.path.join(ROOT, "sources")


def load_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as error:
        raise SystemExit(f"{os.path.relpath(path, ROOT)}: {error}")


def read_text(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def issue_sources(slug):
    """Each issue of a publication's sources, in name order: its folder and its issue.json
    (whose id must be the folder's name)."""
    issues_dir = os.path.join(SOURCES, slug, "issues")
    for name in sorted(os.listdir(issues_dir)):
        folder = os.path.join(issues_dir, name)
        issue = load_json(os.path.join(folder, "issue.json"))
        if issue["id"] != name:
            raise SystemExit(f"sources/{slug}/issues/{name}: issue.json says id {issue['id']!r}; the folder must be named after the id")
        yield folder, issue


def merged(base, override):
    spec = dict(base)
    spec.update(override)
    return spec


def build_epub(publication, issue, folder, cover_png):
    articles = []
    for entry in issue["articles"]:
        entry = {"file": entry} if isinstance(entry, str) else entry
        source = os.path.join(folder, entry["file"])
        fragment = read_text(source)
        articles.append({
            "file": entry["file"],
            "lang": entry.get("lang", publication["language"]),
            "title": package.article_title(fragment, os.path.relpath(source, ROOT)),
            "xhtml": fragment,
        })
    images = {name: layouts.picture(spec).png() for name, spec in issue.get("images", {}).items()}
    meta = {
        "identifier": f"urn:x-newsstand:sample:{issue['id']}",
        "title": f"{publication['title']} \u2014 {issue['title']}",
        "creators": issue.get("creators", [publication["publisher"]]),
        "publisher": publication["publisher"],
        "date": issue["date"],
        "language": publication["language"],
        "summary": issue["summary"],
    }
    return package.epub_bytes(meta, cover_png, articles, images)


def build_cbz(publication, issue, cover):
    pages = [("page-01.png", cover.png(), cover.width, cover.height)]
    for number, page in enumerate(issue["pages"], 2):
        canvas = layouts.comic_page(page, number)
        pages.append((f"page-{number:02d}.png", canvas.png(), canvas.width, canvas.height))
    meta = {
        "series": publication["title"],
        "story": issue["story"],
        "number": issue["number"],
        "count": publication.get("issue_count", 0),
        "summary": issue["summary"],
        "date": issue["date"],
        "writer": publication["writer"],
        "artist": publication["artist"],
        "publisher": publication["publisher"],
        "language": publication["language"],
    }
    return package.cbz_bytes(meta, pages)


def build_pdf_publication(slug, publication, outputs):
    """A PDF periodical with the Newsstand tutorial's feed: `issues.plist`, whose `Content`
    is each issue's PDF. An issue whose `feed_cover` is false has no `Cover` in the feed:
    its first page is its cover."""
    default = layouts.cover(merged(publication["cover"], publication["default_cover"]))
    outputs[f"{slug}/covers/default.png"] = default.png()
    entries = []
    for folder, issue in issue_sources(slug):
        cover = layouts.cover(merged(publication["cover"], issue["cover"]))
        pictures = {n: layouts.picture(spec) for n, spec in issue["images"].items()}
        document, pages = periodical.build(publication, issue, folder, cover, pictures)
        if pages < 12:
            raise SystemExit(f"sources/{slug}/issues/{name}: {pages} pages; an issue has at least 12")
        content_path = f"issues/{issue['id']}.pdf"
        outputs[f"{slug}/{content_path}"] = document
        entry = {"Name": issue["id"], "Title": issue["title"], "Date": issue["date"], "Summary": issue["summary"],
                 "Content": content_path}
        if issue.get("feed_cover", True):
            entry["Cover"] = f"covers/{issue['id']}.png"
            outputs[f"{slug}/{entry['Cover']}"] = cover.png()
        entries.append(entry)
    entries.sort(key=lambda e: e["Date"], reverse=True)
    outputs[f"{slug}/issues.plist"] = package.plist_feed(publication, "covers/default.png", entries)
    return f"{slug}/issues.plist"


def build_news_publication(slug, publication, outputs):
    """A plain news feed (RSS 2.0) of articles in two languages, which Newsstand gathers
    into daily editions. Some articles carry their full HTML in content:encoded, the others
    entity-escaped HTML in <description>; pictures are PNGs beside the feed, referenced by
    relative URLs, from the article text or an enclosure."""
    source_dir = os.path.join(SOURCES, slug)
    default = layouts.cover(merged(publication["cover"], publication["default_cover"]))
    outputs[f"{slug}/covers/default.png"] = default.png()
    pictures = {}
    for name, spec in publication["pictures"].items():
        pictures[name] = layouts.picture(spec).png()
        outputs[f"{slug}/pictures/{name}"] = pictures[name]
    items = []
    for article in load_json(os.path.join(source_dir, "articles.json")):
        source = os.path.join(source_dir, "articles", f"{article['id']}.html")
        fragment = read_text(source).strip()
        for name in re.findall(r'src="pictures/([^"]+)"', fragment) + ([article["enclosure"]] if "enclosure" in article else []):
            if name not in pictures:
                raise SystemExit(f"{os.path.relpath(source, ROOT)}: picture {name!r} is not in publication.json")
        paragraphs = re.findall(r"<p>(?!<img)(.*?)</p>", fragment, re.S)
        item = dict(article, html=fragment, encoding=article["body"],
                    summary=package.plain_text(paragraphs[0]) if paragraphs else article["title"])
        if "enclosure" in article:
            name = article["enclosure"]
            item["enclosure"] = {"href": f"pictures/{name}", "length": len(pictures[name])}
        items.append(item)
    if len({i["id"] for i in items}) != len(items):
        raise SystemExit(f"sources/{slug}/articles.json: two articles share an id")
    items.sort(key=lambda i: i["date"], reverse=True)
    outputs[f"{slug}/feed.xml"] = package.rss_news_feed(publication, items).encode()
    return f"{slug}/feed.xml"


def build_publication(slug, outputs):
    source_dir = os.path.join(SOURCES, slug)
    publication = load_json(os.path.join(source_dir, "publication.json"))
    if publication["format"] == "pdf":
        return build_pdf_publication(slug, publication, outputs)
    if publication["format"] == "news":
        return build_news_publication(slug, publication, outputs)
    comic = publication["format"] == "cbz"
    default = layouts.cover(merged(publication["cover"], publication["default_cover"]))
    outputs[f"{slug}/covers/default.png"] = default.png()
    entries = []
    for folder, issue in issue_sources(slug):
        cover = layouts.cover(merged(publication["cover"], issue["cover"]))
        cover_png = cover.png()
        cover_path = f"covers/{issue['id']}.png"
        outputs[f"{slug}/{cover_path}"] = cover_png
        if comic:
            archive_path, media_type = f"issues/{issue['id']}.cbz", "application/vnd.comicbook+zip"
            archive = build_cbz(publication, issue, cover)
        else:
            archive_path, media_type = f"issues/{issue['id']}.epub", "application/epub+zip"
            archive = build_epub(publication, issue, folder, cover_png)
        outputs[f"{slug}/{archive_path}"] = archive
        entries.append({
            "id": issue["id"], "title": issue["title"], "date": issue["date"], "summary": issue["summary"],
            "cover": cover_path, "archive": archive_path, "length": len(archive), "type": media_type,
        })
    dates = [e["date"] for e in entries]
    if len(set(dates)) != len(dates):
        raise SystemExit(f"sources/{slug}: two issues share a date")
    entries.sort(key=lambda e: e["date"], reverse=True)
    outputs[f"{slug}/feed.xml"] = package.atom_feed(publication, entries).encode()
    return f"{slug}/feed.xml"


def main(argv):
    check = "--check" in argv[1:]
    unknown = [a for a in argv[1:] if a != "--check"]
    if unknown:
        raise SystemExit(f"unknown argument {unknown[0]!r}; usage: build.py [--check]")
    outputs = {}
    feeds = [build_publication(slug, outputs) for slug in load_json(os.path.join(SOURCES, "publications.json"))]
    outputs["publications.txt"] = ("".join(f"{feed}\n" for feed in feeds)).encode()

    # Generated folders hold only what this run produced.
    expected = set(outputs)
    stale = []
    for slug in {path.split("/")[0] for path in outputs if "/" in path}:
        for sub in ("covers", "issues", "pictures"):
            folder = os.path.join(ROOT, slug, sub)
            if os.path.isdir(folder):
                stale += [f"{slug}/{sub}/{n}" for n in os.listdir(folder) if f"{slug}/{sub}/{n}" not in expected]

    if check:
        differing = [p for p, data in sorted(outputs.items()) if not _same(os.path.join(ROOT, p), data)]
        for path in differing + stale:
            print(f"out of date: sample-feed/{path}", file=sys.stderr)
        problems = verify.verify(ROOT, feeds)
        for problem in problems:
            print(f"invalid: sample-feed/{problem}", file=sys.stderr)
        return 1 if differing or stale or problems else 0

    for path in stale:
        os.remove(os.path.join(ROOT, path))
    for path, data in sorted(outputs.items()):
        target = os.path.join(ROOT, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if not _same(target, data):
            with open(target, "wb") as f:
                f.write(data)
    problems = verify.verify(ROOT, feeds)
    for problem in problems:
        print(f"invalid: sample-feed/{problem}", file=sys.stderr)
    if problems:
        return 1
    total = sum(len(d) for d in outputs.values())
    print(f"built {len(outputs)} files, {total / 1024:.0f} KiB, feeds: {', '.join(feeds)}")
    return 0


def _same(path, data):
    try:
        with open(path, "rb") as f:
            return f.read() == data
    except OSError:
        return False


if __name__ == "__main__":
    sys.exit(main(sys.argv))
