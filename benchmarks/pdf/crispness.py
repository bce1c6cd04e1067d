#!/usr/bin/env python3
"""How crisp and how fast each PDF engine draws a page at a terminal's picture sizes
(issue #31, "The page engine, chosen by measurement"). Never run by `swift test`.

    crispness.py PAGES.txt [--out DIR] [--sizes 1000x700,1440x860] [--repeat 5] [--json FILE]
                 [--engines a,b,...|all] [--jobs N] [--newsstand BIN]

PAGES.txt: one `FILE.pdf PAGE NAME` a line. For each page and size the page is fitted
inside the size keeping its shape, then drawn by
  - the engines in process, by the small C programs in engines/ (compiled here):
    cairo-app (poppler-glib + cairo as PDFDocument.render drew before #31), cairo-nohint
    (font options: no hinting, no hinted metrics, grey antialiasing), cairo-best (the same
    with CAIRO_ANTIALIAS_BEST), splash (poppler-cpp's page_renderer, antialiasing on, no
    hinting), splash-hint (with FreeType hinting), mupdf (fz_run_page into a draw device),
    app (newsstand's own Sources/CMuPDF/mupdf_pages.c: what `render --output` draws);
  - the tools: pdftoppm -scale-to-x/-y, pdftocairo -scale-to-x/-y, mutool draw -w -h -f;
  - with --newsstand BIN, `BIN render FILE.pdf --page N --output PAGE.png --pixels WxH`: what
    the reader draws (its own 4x is the same command at 4x the box).
Each is scored by SSIM (luma, 11-tap Gaussian window, sigma 1.5) against
  - own: the same engine drawing at 4x, reduced by area averaging (what its hinting and
    resampling lose at this size), and
  - neutral: pdftoppm at 4x, reduced the same way (one reference for every engine).
CPU ms: the median of REPEAT draws in process after the first (thread CPU time, so other
load on the machine counts little); tools: none (see render.sh for whole processes).

Needs numpy, a C compiler, libpoppler-glib-dev, libpoppler-cpp-dev, libmupdf-dev (its static
archives), poppler-utils, mupdf-tools, imagemagick (pdftocairo writes PNG only)."""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ENGINES = os.path.join(HERE, "engines")
CMUPDF = os.path.join(HERE, "..", "..", "Sources", "CMuPDF")
# MuPDF on Debian: static archives, and their dependencies as shared libraries without
# development links.
MUPDF_LIBS = ["-lmupdf", "-lmupdf-third", "-l:libmujs.so.2", "-l:libgumbo.so.1", "-l:libopenjp2.so.7",
              "-l:libjbig2dec.so.0", "-ljpeg", "-lz", "-lm", "-lfreetype", "-l:libharfbuzz.so.0"]


def pkg(*names):
    return subprocess.run(["pkg-config", "--cflags", "--libs", *names], check=True, capture_output=True,
                          text=True).stdout.split()


def build(bin_dir):
    os.makedirs(bin_dir, exist_ok=True)
    jobs = [
        (["cc", "-O2", "-w", "-o", f"{bin_dir}/cairo", f"{ENGINES}/cairo.c"] + pkg("poppler-glib", "cairo")),
        (["c++", "-O2", "-o", f"{bin_dir}/splash", f"{ENGINES}/splash.cpp"] + pkg("poppler-cpp")),
        (["cc", "-O2", "-o", f"{bin_dir}/mupdf", f"{ENGINES}/mupdf.c"] + MUPDF_LIBS),
        (["cc", "-O2", "-o", f"{bin_dir}/app", f"-I{CMUPDF}/include", f"{ENGINES}/app.c", f"{CMUPDF}/mupdf_pages.c"]
         + MUPDF_LIBS),
    ]
    for command in jobs:
        subprocess.run(command, check=True)


def read_ppm(path):
    with open(path, "rb") as f:
        data = f.read()
    fields, position = [], 0
    while len(fields) < 4:
        while data[position:position + 1].isspace():
            position += 1
        if data[position:position + 1] == b"#":
            position = data.index(b"\n", position)
            continue
        end = position
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[position:end])
        position = end
    position += 1
    kind, width, height = fields[0], int(fields[1]), int(fields[2])
    channels = 3 if kind == b"P6" else 1
    pixels = np.frombuffer(data, dtype=np.uint8, count=width * height * channels, offset=position)
    pixels = pixels.reshape(height, width, channels).astype(np.float64)
    return pixels if channels == 3 else np.repeat(pixels, 3, axis=2)


def luma(rgb):
    return rgb[..., 0] * 0.299 + rgb[..., 1] * 0.587 + rgb[..., 2] * 0.114


def reduce4(rgb):
    h, w = rgb.shape[0] // 4, rgb.shape[1] // 4
    return rgb[:h * 4, :w * 4].reshape(h, 4, w, 4, 3).mean(axis=(1, 3))


def gaussian_filter(image, sigma=1.5, radius=5):
    taps = np.exp(-0.5 * (np.arange(-radius, radius + 1) / sigma) ** 2)
    taps /= taps.sum()
    padded = np.pad(image, radius, mode="reflect")
    rows = sum(t * padded[:, i:i + image.shape[1]] for i, t in enumerate(taps))
    return sum(t * rows[i:i + image.shape[0], :] for i, t in enumerate(taps))


def ssim(a, b):
    """Mean SSIM of two RGB pictures of one size, on their luma (Wang et al. 2004 constants)."""
    x, y = luma(a), luma(b)
    c1, c2 = (0.01 * 255) ** 2, (0.03 * 255) ** 2
    mx, my = gaussian_filter(x), gaussian_filter(y)
    sxx = gaussian_filter(x * x) - mx * mx
    syy = gaussian_filter(y * y) - my * my
    sxy = gaussian_filter(x * y) - mx * my
    value = ((2 * mx * my + c1) * (2 * sxy + c2)) / ((mx * mx + my * my + c1) * (sxx + syy + c2))
    return float(value.mean())


def page_size(pdf, page):
    out = subprocess.run(["pdfinfo", "-f", str(page), "-l", str(page), pdf], check=True, capture_output=True,
                         text=True).stdout
    for line in out.splitlines():
        if line.startswith(f"Page {page:4d} size:") or (line.startswith("Page") and " size:" in line):
            words = line.split(":", 1)[1].split()
            width, height = float(words[0]), float(words[2])
        if line.startswith(f"Page {page:4d} rot:") and int(line.split()[-1]) % 180 == 90:
            width, height = height, width
    return width, height


def fitted(size, box):
    """As PDFDocument.render fits a page: the smaller scale, each side rounded."""
    scale = min(box[0] / size[0], box[1] / size[1])
    return max(1, round(size[0] * scale)), max(1, round(size[1] * scale))


def draw(engine, pdf, page, width, height, out, bin_dir, repeat=0):
    """Writes out.ppm of exactly width x height; returns the median CPU ms of `repeat` draws or None."""
    programs = {"cairo-app": ("cairo", "app"), "cairo-nohint": ("cairo", "nohint"), "cairo-best": ("cairo", "best"),
                "splash": ("splash", ""), "splash-hint": ("splash", "hint"), "mupdf": ("mupdf", ""),
                "app": ("app", "")}
    if engine in programs:
        program, variant = programs[engine]
        result = subprocess.run([f"{bin_dir}/{program}", pdf, str(page), str(width), str(height), out, str(repeat),
                                 variant], check=True, capture_output=True, text=True)
        return float(result.stdout.split()[1]) if repeat else None
    stem = out[:-4]
    if engine == "newsstand":
        # What the reader draws into that box, the page fitted inside it: rounding may leave
        # a side a pixel short of the size asked (another scale), then a pixel more of room
        # on the other side gives exactly that size.
        for box in [(width, height), (width, height + 1), (width + 1, height)]:
            subprocess.run([NEWSSTAND, "render", pdf, "--page", str(page), "--output", stem + ".png", "--pixels",
                            f"{box[0]}x{box[1]}"], check=True)
            subprocess.run(["/usr/bin/convert", stem + ".png", "-alpha", "remove", out], check=True)
            if read_ppm(out).shape[:2] == (height, width):
                break
    elif engine == "pdftoppm":
        subprocess.run(["pdftoppm", "-f", str(page), "-l", str(page), "-singlefile", "-scale-to-x", str(width),
                        "-scale-to-y", str(height), pdf, stem], check=True)
    elif engine == "pdftocairo":
        subprocess.run(["pdftocairo", "-png", "-f", str(page), "-l", str(page), "-singlefile", "-scale-to-x",
                        str(width), "-scale-to-y", str(height), pdf, stem], check=True)
        subprocess.run(["/usr/bin/convert", stem + ".png", "-alpha", "remove", out], check=True)
    elif engine == "mutool":
        subprocess.run(["mutool", "draw", "-q", "-w", str(width), "-h", str(height), "-f", "-o", out, pdf, str(page)],
                       check=True, capture_output=True)
    return None


ENGINE_ORDER = ["cairo-app", "cairo-nohint", "cairo-best", "splash", "splash-hint", "mupdf", "app",
                "pdftoppm", "pdftocairo", "mutool", "newsstand"]
# `render --output` of this build (--newsstand BIN), for the "newsstand" engine.
NEWSSTAND = None
# What one run measures by default (--engines all for every one above).
DEFAULT_ENGINES = ["cairo-app", "cairo-nohint", "splash", "mupdf", "app", "pdftoppm", "pdftocairo", "mutool"]


def measure(pdf, page, name, box, repeat, engines, out_dir, bin_dir):
    """The rows of one page at one size, one an engine."""
    width, height = fitted(page_size(pdf, page), box)
    stem = os.path.join(out_dir, f"{name}-{box[0]}x{box[1]}")
    draw("pdftoppm", pdf, page, width * 4, height * 4, f"{stem}-pdftoppm-4x.ppm", bin_dir)
    neutral = reduce4(read_ppm(f"{stem}-pdftoppm-4x.ppm"))[:height, :width]
    rows = []
    for engine in engines:
        ms = draw(engine, pdf, page, width, height, f"{stem}-{engine}.ppm", bin_dir, repeat)
        if engine != "pdftoppm":
            draw(engine, pdf, page, width * 4, height * 4, f"{stem}-{engine}-4x.ppm", bin_dir)
        # pdftocairo's -scale-to rounds up (861 rows for 860): every picture is cut to the size asked.
        picture = read_ppm(f"{stem}-{engine}.ppm")[:height, :width]
        own = reduce4(read_ppm(f"{stem}-{engine}-4x.ppm")[:height * 4, :width * 4])
        # `render --pixels` fits the page inside the box: at 4x a side may round one pixel short.
        picture = picture[:own.shape[0], :own.shape[1]]
        os.remove(f"{stem}-{engine}-4x.ppm") if engine != "pdftoppm" else None
        row = {"page": name, "size": f"{box[0]}x{box[1]}", "pixels": f"{width}x{height}", "engine": engine,
               "own": ssim(picture, own), "neutral": ssim(picture, neutral[:own.shape[0], :own.shape[1]]), "cpu_ms": ms}
        rows.append(row)
        print("%-22s %-9s %-9s %-13s own %.4f neutral %.4f %s" % (
            name, row["size"], row["pixels"], engine, row["own"], row["neutral"],
            "" if ms is None else "%.1f ms" % ms), file=sys.stderr, flush=True)
    return rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("pages")
    parser.add_argument("--out", default="/tmp/pdf-crispness")
    parser.add_argument("--sizes", default="1000x700,1440x860")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json")
    parser.add_argument("--engines", default=",".join(DEFAULT_ENGINES))
    parser.add_argument("--jobs", type=int, default=2, help="pages and sizes measured at once")
    parser.add_argument("--newsstand", help="a newsstand binary (newsstand-pdf beside it): adds the engine 'newsstand'")
    args = parser.parse_args()
    global NEWSSTAND
    NEWSSTAND = args.newsstand
    engines = ENGINE_ORDER[:-1] if args.engines == "all" else args.engines.split(",")
    if NEWSSTAND and "newsstand" not in engines:
        engines.append("newsstand")
    bin_dir = os.path.join(args.out, "bin")
    build(bin_dir)
    boxes = [tuple(int(v) for v in s.split("x")) for s in args.sizes.split(",")]
    tasks = []
    for line in open(args.pages):
        if not line.strip() or line.startswith("#"):
            continue
        pdf, page, name = line.split()
        tasks += [(pdf, int(page), name, box, args.repeat if box == boxes[0] else 0) for box in boxes]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda task: measure(*task, engines, args.out, bin_dir), tasks))
    rows = [row for result in results for row in result]
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    print_tables(rows)


def print_tables(rows):
    engines = [e for e in ENGINE_ORDER if any(r["engine"] == e for r in rows)]
    keys = sorted({(r["page"], r["size"]) for r in rows}, key=lambda k: (k[1], [r["page"] for r in rows].index(k[0])))
    for column in ("own", "neutral"):
        print(f"\nSSIM against {'each engine at 4x' if column == 'own' else 'pdftoppm at 4x'}, area-reduced")
        print("| page | size | " + " | ".join(engines) + " |")
        print("|---|---|" + "---:|" * len(engines))
        for page, size in keys:
            cells = {r["engine"]: r[column] for r in rows if r["page"] == page and r["size"] == size}
            print(f"| {page} | {size} | " + " | ".join("%.4f" % cells[e] for e in engines) + " |")
    timed = [e for e in engines if any(r["engine"] == e and r["cpu_ms"] is not None for r in rows)]
    print("\nCPU ms a page in process (median), first size")
    print("| page | " + " | ".join(timed) + " |")
    print("|---|" + "---:|" * len(timed))
    for page in dict.fromkeys(r["page"] for r in rows):
        cells = {r["engine"]: r["cpu_ms"] for r in rows if r["page"] == page and r["cpu_ms"] is not None}
        print(f"| {page} | " + " | ".join("%.1f" % cells[e] for e in timed) + " |")


if __name__ == "__main__":
    main()
