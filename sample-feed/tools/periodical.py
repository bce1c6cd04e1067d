"""A PDF periodical's issue laid out page by page: a cover picture, a contents page and an
editor's letter (roman page labels), then articles in two columns with headings and
pictures in the columns, a portfolio picture, an almanac table and a look at the next
issue (arabic labels),
running headers and page numbers on every page after the cover, an outline of it all.

Articles are plain text files:

    # Title
    > The standfirst, in italics under the title.
    _By A. Writer_
    [opener picture.png: its caption]      across both columns, above the title
    A paragraph; paragraphs are separated by blank lines.
    ## A subheading
    [picture.png: a caption]               in the column, where it stands in the text
"""

import datetime
import math
import os

from pdf import Document, text_width

WIDTH, HEIGHT = 420, 595          # A5, in points
MARGIN, GUTTER = 40, 16
TOP = HEIGHT - 50                 # first baseline region under the running header
BOTTOM = 52                       # above the page number
COLUMN = (WIDTH - 2 * MARGIN - GUTTER) / 2
INK, GREY, ACCENT = (25, 25, 30), (110, 110, 120), (176, 48, 32)

BODY = ("serif", 10.5, 13.5)
SUBHEAD = ("sans-bold", 11, 15)
CAPTION = ("serif-italic", 8.5, 10.5)


def parse_article(text, source):
    """The blocks of an article file: [(kind, value)], kind one of title, deck, byline,
    opener, picture, heading, paragraph."""
    blocks = []
    for chunk in text.strip().split("\n\n"):
        line = " ".join(chunk.split())
        if line.startswith("# "):
            blocks.append(("title", line[2:]))
        elif line.startswith("## "):
            blocks.append(("heading", line[3:]))
        elif line.startswith("> "):
            blocks.append(("deck", line[2:]))
        elif line.startswith("_") and line.endswith("_"):
            blocks.append(("byline", line[1:-1]))
        elif line.startswith("[") and line.endswith("]") and ":" in line:
            name, caption = line[1:-1].split(":", 1)
            kind = "opener" if not any(k == "title" for k, _ in blocks) else "picture"
            blocks.append((kind, (name.strip(), caption.strip())))
        else:
            blocks.append(("paragraph", line))
    if not blocks or blocks[0][0] not in ("title", "opener") or not any(k == "title" for k, _ in blocks):
        raise SystemExit(f"{source}: an article starts with '# Title' (an opener picture may come first)")
    return blocks


def wrap(text, font, size, width):
    lines, line = [], ""
    for word in text.split():
        candidate = f"{line} {word}" if line else word
        if line and text_width(candidate, font, size) > width:
            lines.append(line)
            line = word
        else:
            line = candidate
    return lines + ([line] if line else [])


class Issue:
    """Lays out one issue into a `pdf.Document`."""

    def __init__(self, publication, issue, pictures):
        self.publication, self.issue, self.pictures = publication, issue, pictures
        date = issue["date"]
        self.doc = Document(f"{publication['title']} \u2014 {issue['title']}", ", ".join(issue["creators"]),
                            issue["summary"], "D:" + date[:10].replace("-", "") + date[11:19].replace(":", "") + "Z")
        self.page = None
        self.column = 0
        self.y = 0
        self.top = TOP
        self.running = ""

    # -- pages ---------------------------------------------------------------

    def number(self, index):
        """The page label printed on page `index` (0 is the cover)."""
        front = 3
        if index < front:
            return ["i", "ii", "iii"][index]
        return str(index - front + 1)

    def new_page(self, running):
        self.page = self.doc.new_page(WIDTH, HEIGHT)
        index = len(self.doc.pages) - 1
        masthead = f"{self.publication['title'].upper()}  \u00b7  {self.issue['title']}"
        self.page.text(MARGIN, HEIGHT - 30, masthead, "sans", 7, GREY)
        if running:
            self.page.text(WIDTH - MARGIN - text_width(running, "sans-bold", 7), HEIGHT - 30, running, "sans-bold", 7, GREY)
        self.page.rect(MARGIN, HEIGHT - 36, WIDTH - 2 * MARGIN, 0.6, GREY)
        label = self.number(index)
        self.page.text(WIDTH / 2 - text_width(label, "sans", 8) / 2, 30, label, "sans", 8, INK)
        self.column, self.top, self.y = 0, TOP, TOP
        self.running = running
        return index

    def x(self):
        return MARGIN + self.column * (COLUMN + GUTTER)

    def room(self, height):
        """Moves to the next column or page unless `height` points fit in this one."""
        if self.y - height >= BOTTOM:
            return
        if self.column == 0:
            self.column, self.y = 1, self.top
        else:
            self.new_page(self.running)

    def lines(self, lines, style, color=INK):
        font, size, leading = style
        for line in lines:
            self.room(leading)
            self.y -= leading
            self.page.text(self.x(), self.y + 3, line, font, size, color)

    def picture(self, name, caption):
        canvas = self.pictures[name]
        height = COLUMN * canvas.height / canvas.width
        caption_lines = wrap(caption, CAPTION[0], CAPTION[1], COLUMN)
        self.room(height + 6 + len(caption_lines) * CAPTION[2] + 8)
        self.y -= height + 4
        self.page.image(canvas, self.x(), self.y, COLUMN, height)
        self.lines(caption_lines, CAPTION, GREY)
        self.y -= 8

    # -- the issue -------------------------------------------------------------

    def cover(self, canvas):
        page = self.doc.new_page(WIDTH, HEIGHT)
        page.image(canvas, 0, 0, WIDTH, HEIGHT)
        self.doc.outline.append(("Cover", 0, []))

    def contents(self, entries):
        index = self.new_page("CONTENTS")
        self.page.text(MARGIN, TOP - 30, "In this issue", "serif-bold", 26, INK)
        y = TOP - 70
        for title, deck, page_index in entries:
            label = self.number(page_index)
            self.page.text(MARGIN, y, label, "sans-bold", 12, ACCENT)
            self.page.text(MARGIN + 34, y, title, "sans-bold", 12, INK)
            y -= 15
            for line in wrap(deck, "serif-italic", 10, WIDTH - 2 * MARGIN - 34):
                self.page.text(MARGIN + 34, y, line, "serif-italic", 10, GREY)
                y -= 13
            y -= 14
        masthead = self.publication["masthead_credits"]
        y = BOTTOM + 14 * len(masthead)
        for line in masthead:
            self.page.text(MARGIN, y, line, "sans", 7.5, GREY)
            y -= 11
        self.doc.outline.append(("Contents", index, []))

    def article(self, blocks, running=None):
        """Flows an article from a new page; returns its outline entry."""
        title = next(v for k, v in blocks if k == "title")
        index = self.new_page((running or title).upper())
        self.column, self.y = 0, TOP
        children = []
        full = WIDTH - 2 * MARGIN
        for kind, value in blocks:
            if kind == "opener":
                canvas = self.pictures[value[0]]
                height = full * canvas.height / canvas.width
                self.y -= height
                self.page.image(canvas, MARGIN, self.y, full, height)
                self.y -= 12
                self.page.text(MARGIN, self.y, value[1], CAPTION[0], CAPTION[1], GREY)
                self.y -= 6
            elif kind == "title":
                for line in wrap(value, "sans-bold", 20, full):
                    self.y -= 24
                    self.page.text(MARGIN, self.y, line, "sans-bold", 20, INK)
                self.y -= 4
            elif kind == "deck":
                for line in wrap(value, "serif-italic", 12, full):
                    self.y -= 15
                    self.page.text(MARGIN, self.y, line, "serif-italic", 12, INK)
            elif kind == "byline":
                self.y -= 14
                self.page.text(MARGIN, self.y, value.upper(), "sans-bold", 7.5, ACCENT)
                self.y -= 8
                self.page.rect(MARGIN, self.y, full, 0.6, GREY)
                self.y -= 4
                self.top = self.y   # the columns start under the headline block
            elif kind == "heading":
                self.room(SUBHEAD[2] * 3)
                self.y -= 6
                children.append((value, len(self.doc.pages) - 1, []))
                self.lines(wrap(value, SUBHEAD[0], SUBHEAD[1], COLUMN), SUBHEAD, ACCENT)
            elif kind == "picture":
                self.picture(*value)
            else:
                self.lines(wrap(value, BODY[0], BODY[1], COLUMN), BODY)
                self.y -= 4
        return (title, index, children)

    def picture_page(self, running, name, caption, title, outline):
        """A page of one large picture under a title, with a caption."""
        index = self.new_page(running)
        canvas = self.pictures[name]
        full = WIDTH - 2 * MARGIN
        height = min(TOP - BOTTOM - 80, full * canvas.height / canvas.width)
        self.page.text(MARGIN, TOP - 24, title, "serif-bold", 22, INK)
        self.page.image(canvas, MARGIN, TOP - 40 - height, full, height)
        y = TOP - 56 - height
        for line in wrap(caption, "serif-italic", 10, full):
            self.page.text(MARGIN, y, line, "serif-italic", 10, GREY)
            y -= 13
        self.doc.outline.append((outline, index, []))

    def almanac(self, rows):
        """A table of the quarter's sky and tides: one row per week."""
        index = self.new_page("ALMANAC")
        self.page.text(MARGIN, TOP - 24, "Almanac", "serif-bold", 22, INK)
        self.page.text(MARGIN, TOP - 42, "Sunrise, sunset and high water at Skerry Point, by week (local time).",
                       "serif-italic", 10, GREY)
        headings = ["Week of", "Sunrise", "Sunset", "High water", "Moon"]
        xs = [MARGIN, MARGIN + 80, MARGIN + 140, MARGIN + 200, MARGIN + 280]
        y = TOP - 72
        for x, heading in zip(xs, headings):
            self.page.text(x, y, heading, "sans-bold", 9, ACCENT)
        self.page.rect(MARGIN, y - 5, WIDTH - 2 * MARGIN, 0.6, GREY)
        for number, row in enumerate(rows):
            y -= 16
            if number % 2 == 0:
                self.page.rect(MARGIN, y - 4, WIDTH - 2 * MARGIN, 15, (238, 236, 230))
            for x, cell in zip(xs, row):
                self.page.text(x, y, cell, "sans", 9, INK)
        self.doc.outline.append(("Almanac", index, []))


def almanac_rows(date, weeks=13):
    """Made-up but plausible weekly figures, computed from the issue's date."""
    start = datetime.date.fromisoformat(date[:10])
    phases = ["New", "Waxing crescent", "First quarter", "Waxing gibbous", "Full", "Waning gibbous", "Last quarter", "Waning crescent"]
    rows = []
    for week in range(weeks):
        day = start + datetime.timedelta(days=7 * week)
        season = (day.timetuple().tm_yday - 172) / 365.25 * 2 * 3.14159
        rise = 6 * 60 + 45 + round(95 * math.cos(season + 3.14159))
        sets = 18 * 60 + 30 - round(120 * math.cos(season + 3.14159))
        tide = (7 * 60 + 20 + week * 50 * 7) % (12 * 60 + 25)
        rows.append([day.strftime("%d %b"), f"{rise // 60:02d}:{rise % 60:02d}", f"{sets // 60:02d}:{sets % 60:02d}",
                     f"{tide // 60:02d}:{tide % 60:02d}", phases[(day.toordinal() * 8 // 30) % 8]])
    return rows


def build(publication, issue, folder, cover, pictures):
    """The issue's PDF bytes. `pictures`: {name: raster.Canvas}; `cover`: the cover's Canvas."""
    layout = Issue(publication, issue, pictures)
    articles = []
    for name in issue["articles"]:
        path = os.path.join(folder, name)
        with open(path, encoding="utf-8") as f:
            articles.append(parse_article(f.read(), path))
    with open(os.path.join(folder, issue["letter"]), encoding="utf-8") as f:
        letter = parse_article(f.read(), issue["letter"])

    # Two passes: the contents page names the pages the articles start on.
    starts = []
    for attempt in range(2):
        layout = Issue(publication, issue, pictures)
        layout.cover(cover)
        entries = [(next(v for k, v in blocks if k == "title"), next((v for k, v in blocks if k == "deck"), ""), start)
                   for blocks, start in zip(articles, starts or [3] * len(articles))]
        layout.contents(entries)
        layout.doc.outline.append(layout.article(letter, running="From the editor"))
        starts = []
        for blocks in articles:
            entry = layout.article(blocks)
            starts.append(entry[1])
            layout.doc.outline.append(entry)
        portfolio, coming = issue["portfolio"], issue["next"]
        layout.picture_page("PORTFOLIO", portfolio["picture"], portfolio["caption"], portfolio["title"],
                            "Portfolio: " + portfolio["title"])
        layout.almanac(almanac_rows(issue["date"]))
        layout.picture_page("NEXT ISSUE", coming["picture"], coming["caption"], coming["title"], "Next issue")
    layout.doc.labels = [(0, "r", None, 1), (3, "D", None, 1)]
    return layout.doc.bytes(), len(layout.doc.pages)
