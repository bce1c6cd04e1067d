#!/usr/bin/env python3
"""Writes a scanned-looking page for the crispness benchmark: page N of a text PDF drawn at
200 dpi in grey by pdftoppm, turned by half a degree, given paper grain and a little
blur by ImageMagick, stored as a JPEG and wrapped as a one-page PDF by `mutool create`.

    make_scan.py SOURCE.pdf PAGE OUT.pdf

Needs pdftoppm (poppler-utils), convert (imagemagick) and mutool (mupdf-tools)."""
import subprocess
import sys
import tempfile
import os


def main():
    source, page, out = sys.argv[1], sys.argv[2], sys.argv[3]
    with tempfile.TemporaryDirectory() as work:
        subprocess.run(["pdftoppm", "-gray", "-r", "200", "-f", page, "-l", page, "-singlefile", source,
                        os.path.join(work, "page")], check=True)
        jpeg = os.path.join(work, "scan.jpg")
        subprocess.run(["/usr/bin/convert", os.path.join(work, "page.pgm"), "-background", "white", "-rotate", "0.5",
                        "-gravity", "center", "-extent", "1700x2200", "-attenuate", "0.6", "+noise", "Gaussian",
                        "-blur", "0x0.6", "-level", "8%,92%", "-quality", "80", jpeg], check=True)
        contents = os.path.join(work, "page.txt")
        with open(contents, "w") as f:
            f.write("%%MediaBox 0 0 612 792\n%%Image Im0 scan.jpg\nq 612 0 0 792 0 0 cm /Im0 Do Q\n")
        subprocess.run(["mutool", "create", "-o", os.path.abspath(out), "page.txt"], check=True, cwd=work)


if __name__ == "__main__":
    main()
