#!/usr/bin/env python3
"""Writes the reader benchmark's magazine: a PDF of PAGES A4 pages (350 unless told) as a
magazine is set — a running header and a page number, two columns of 9-point text, an
article's title every fourth page, a picture on every page — with an outline of the
articles. Only the last page holds the word "zanzibar". Deterministic: the same bytes
every time. Uses sample-feed/tools/pdf.py (the standard-library PDF writer).

    benchmarks/pdf/magazine.py OUT.pdf [PAGES]
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "sample-feed", "tools"))

from pdf import Document, text_width  # noqa: E402
from raster import Canvas, Rng  # noqa: E402

WIDTH, HEIGHT = 595, 842
MARGIN, GUTTER = 48, 18
COLUMN = (WIDTH - 2 * MARGIN - GUTTER) / 2
TOP, BOTTOM = HEIGHT - 60, 56
LEADING = 11
WORDS = ("harbour morning boats quiet tide fishermen nets gulls lighthouse weather the a of and came early "
         "before fog rolled over water while ropes creaked against pier keeper lamp island market salt quay").split()


def picture(number):
    """A small landscape, coloured by the page: sky, sea, a sun and a boat."""
    rng = Rng(number)
    canvas = Canvas(240, 150)
    hue = number * 37 % 255
    canvas.vgradient(0, 0, 240, 90, (40 + hue // 3, 90, 200 - hue // 2), (220, 200 - hue // 4, 160))
    canvas.vgradient(0, 90, 240, 150, (20, 60 + hue // 4, 110), (10, 30, 60))
    canvas.circle(40 + rng.uniform(0, 160), 40, 14, (250, 220, 120))
    x = rng.uniform(20, 180)
    canvas.polygon([(x, 100), (x + 50, 100), (x + 42, 112), (x + 8, 112)], (70, 40, 30))
    canvas.polygon([(x + 24, 60), (x + 24, 98), (x + 44, 98)], (240, 240, 230))
    return canvas


class Words:
    """An endless deterministic stream of prose, broken into lines of a width."""

    def __init__(self, seed):
        self.rng = Rng(seed)
        self.count = 0

    def word(self):
        self.count += 1
        word = WORDS[int(self.rng.random() * len(WORDS))]
        return word + ("." if self.count % 13 == 0 else "")

    def line(self, width, size=9):
        line = self.word()
        while True:
            word = self.word()
            if text_width(line + " " + word, "serif", size) > width:
                return line
            line += " " + word


def main():
    out = sys.argv[1]
    pages = int(sys.argv[2]) if len(sys.argv) > 2 else 350
    doc = Document("Benchmark Monthly \u2014 November", "The Benchmark Press", "A magazine for the reader benchmark")
    words = Words(8)
    for number in range(pages):
        page = doc.new_page(WIDTH, HEIGHT)
        article = number // 4 + 1
        page.text(MARGIN, HEIGHT - 30, "BENCHMARK MONTHLY  \u00b7  November", "sans", 7, (110, 110, 110))
        running = f"Article {article}"
        page.text(WIDTH - MARGIN - text_width(running, "sans-bold", 7), HEIGHT - 30, running, "sans-bold", 7, (110, 110, 110))
        page.rect(MARGIN, HEIGHT - 36, WIDTH - 2 * MARGIN, 0.6, (110, 110, 110))
        label = str(number + 1)
        page.text(WIDTH / 2 - text_width(label, "sans", 8) / 2, 30, label, "sans", 8, (0, 0, 0))
        top = TOP
        if number % 4 == 0:
            title = f"Article {article}: The {WORDS[article % len(WORDS)]} at dawn"
            page.text(MARGIN, TOP - 14, title, "serif-bold", 20, (0, 0, 0))
            doc.outline.append((title, number, []))
            top = TOP - 40
        for column in range(2):
            x = MARGIN + column * (COLUMN + GUTTER)
            y = top
            # The picture sits at the top of the first column on odd pages, the second on even.
            if column == number % 2:
                height = COLUMN * 150 / 240
                page.image(picture(number), x, y - height, COLUMN, height)
                y -= height + 6
                page.text(x, y - 8, f"Figure {number + 1}: the {WORDS[number % len(WORDS)]} seen from the pier.",
                          "serif-italic", 8, (90, 90, 90))
                y -= 20
            paragraph = 0
            while y - LEADING >= BOTTOM:
                y -= LEADING
                paragraph += 1
                if paragraph % 12 == 0:
                    if column == 1 and number % 4 == 2:
                        page.text(x, y, f"Section {number}", "sans-bold", 10, (0, 0, 0))
                        continue
                    y -= LEADING / 2
                    continue
                page.text(x, y, words.line(COLUMN), "serif", 9)
            if number == pages - 1 and column == 1:
                page.text(x, BOTTOM - 8, "The last word is zanzibar.", "serif", 9)
    with open(out, "wb") as file:
        file.write(doc.bytes())


if __name__ == "__main__":
    main()
