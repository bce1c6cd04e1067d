#!/usr/bin/env python3
"""preview.py ANSI_FILE OUT.png [CELL_WIDTH] - draws what a terminal would show for an
ANSI half-block picture (block elements exactly, other glyphs with Pillow's default
font), so covers and adornments can be looked at without a terminal."""
import sys

from PIL import Image, ImageDraw, ImageFont

sys.path.insert(0, "/work/shared/tools")
import halfblock_quality as hq  # noqa: E402

text = open(sys.argv[1], "rb").read().decode("utf-8", errors="replace")
cell_w = int(sys.argv[3]) if len(sys.argv) > 3 else 8
cell_h = cell_w * 2
grid = hq.parse_ansi(text, [tuple(c) for c in hq.XTERM16])
rows = max(y for y, _ in grid) + 1
cols = max(x for _, x in grid) + 1
img = Image.new("RGB", (cols * cell_w, rows * cell_h), (30, 30, 30))
draw = ImageDraw.Draw(img)
font = ImageFont.load_default()
default_fg, default_bg = (192, 192, 192), (30, 30, 30)
for (y, x), cell in grid.items():
    fg = tuple(int(v) for v in cell.fg) if cell.fg not in (None, "DEFBG", "DEFFG") else default_fg
    bg = tuple(int(v) for v in cell.bg) if cell.bg not in (None, "DEFBG", "DEFFG") else default_bg
    x0, y0 = x * cell_w, y * cell_h
    bitmap, known = hq.glyph_bitmap(cell.ch, 0.0)
    for by in range(8):
        for bx in range(8):
            colour = fg if known and bitmap[by, bx] >= 0.5 else bg
            draw.rectangle([x0 + bx * cell_w // 8, y0 + by * cell_h // 8,
                            x0 + (bx + 1) * cell_w // 8 - 1, y0 + (by + 1) * cell_h // 8 - 1], fill=colour)
    if not known:
        draw.text((x0 + 1, y0 + cell_h // 4), cell.ch, fill=fg, font=font)
img.save(sys.argv[2])
