#!/usr/bin/env python3
"""Writes a magazine-like PDF for the PDF benchmarks, from nothing but generated text and a
generated picture: `mutool create` assembles the pages (content streams written here, a PNG
photograph written here with zlib), `pdftocairo -pdf` rewrites the result the way most
published PDFs are, with subsetted embedded fonts.

    make_magazine.py OUT.pdf [--pages N]

Each A4 page: a 28 pt heading, two columns of 9.5 pt justified-looking text, a photograph
(a 400x300 colour gradient) in the left column, a running header and a page number.
Needs mutool (mupdf-tools) and pdftocairo (poppler-utils)."""
import argparse
import os
import random
import struct
import subprocess
import tempfile
import zlib

WORDS = ("the of harbour light keeper winter tide north island boat weather long night "
         "lamp storm morning coast season fish market village road river mountain paper "
         "letters reader history quiet station signal evening window garden").split()


def png(path, width, height):
    """A colour gradient with a little texture, as an 8-bit RGB PNG."""
    rows = bytearray()
    for y in range(height):
        rows.append(0)
        for x in range(width):
            rows += bytes(((x * 255) // width, (y * 255) // height, ((x ^ y) * 7) & 255))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(bytes(rows), 6)) + chunk(b"IEND", b""))


def escape(text):
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def page(number, picture, rng):
    lines = ["%%MediaBox 0 0 595 842", "%%Font Body Times-Roman", "%%Font Head Helvetica-Bold",
             "%%Image Photo " + picture]
    def text(font, size, x, y, words):
        lines.append("BT /%s %g Tf %g %g Td (%s) Tj ET" % (font, size, x, y, escape(words)))
    text("Body", 8, 50, 810, "THE HARBOUR REVIEW  -  WINTER ISSUE")
    text("Head", 28, 50, 760, "Heading of article %d" % number)
    for column, x in enumerate((50, 310)):
        y = 720
        while y > 70:
            if column == 0 and 430 < y < 620:
                y -= 14
                continue
            text("Body", 9.5, x, y, " ".join(rng.choice(WORDS) for _ in range(9)))
            y -= 12
    lines.append("q 235 0 0 176 50 440 cm /Photo Do Q")
    text("Body", 8, 290, 40, str(number))
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--pages", type=int, default=12)
    args = parser.parse_args()
    rng = random.Random(22)
    with tempfile.TemporaryDirectory() as work:
        picture = os.path.join(work, "photo.png")
        png(picture, 400, 300)
        pages = []
        for number in range(1, args.pages + 1):
            path = os.path.join(work, "page%d.txt" % number)
            with open(path, "w") as f:
                f.write(page(number, picture, rng))
            pages.append(path)
        plain = os.path.join(work, "plain.pdf")
        subprocess.run(["mutool", "create", "-o", plain] + pages, check=True)
        subprocess.run(["pdftocairo", "-pdf", plain, args.out], check=True)


if __name__ == "__main__":
    main()
