"""A tiny RGB rasterizer: flat fills, gradients, polygons, ellipses, bitmap text.

Everything is drawn into one bytearray (3 bytes per pixel) and written out as a
PNG with zlib + struct, so the sample covers need nothing beyond the standard
library. Spans are filled with slice assignment and blended with
bytes.translate, which keeps a 600x900 cover to a fraction of a second.
"""

import math
import struct
import zlib

from font import GLYPHS, GLYPH_HEIGHT, GLYPH_WIDTH


def rgb(value):
    """'#rrggbb' or (r, g, b) -> (r, g, b)."""
    if isinstance(value, str):
        value = value.lstrip("#")
        return (int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16))
    return tuple(int(c) for c in value)


def mix(a, b, t):
    a, b = rgb(a), rgb(b)
    return tuple(round(a[i] + (b[i] - a[i]) * t) for i in range(3))


class Rng:
    """A fixed linear congruential generator, so stars and rain fall the same way on every Python."""

    def __init__(self, seed):
        self.state = (seed * 2654435761 + 12345) & 0xFFFFFFFF

    def random(self):
        self.state = (self.state * 1664525 + 1013904223) & 0xFFFFFFFF
        return self.state / 4294967296.0

    def uniform(self, lo, hi):
        return lo + (hi - lo) * self.random()


class Canvas:
    def __init__(self, width, height, background=(255, 255, 255)):
        self.width = width
        self.height = height
        self.px = bytearray(bytes(rgb(background)) * (width * height))
        self._tables = {}
        self.clip = None  # (x0, y0, x1, y1) or None: nothing is drawn outside it

    # -- spans -------------------------------------------------------------

    def _blend_tables(self, color, alpha):
        key = (color, round(alpha * 255))
        tables = self._tables.get(key)
        if tables is None:
            a = key[1] / 255.0
            tables = tuple(
                bytes(round(v * (1 - a) + c * a) for v in range(256)) for c in color
            )
            self._tables[key] = tables
        return tables

    def span(self, y, x0, x1, color, alpha=1.0):
        """Fill pixels x0..x1-1 of row y."""
        if self.clip is not None:
            cx0, cy0, cx1, cy1 = self.clip
            if y < cy0 or y >= cy1:
                return
            x0, x1 = max(x0, cx0), min(x1, cx1)
        if y < 0 or y >= self.height:
            return
        x0 = max(0, int(x0))
        x1 = min(self.width, int(x1))
        if x1 <= x0 or alpha <= 0:
            return
        color = rgb(color)
        start = (y * self.width + x0) * 3
        end = (y * self.width + x1) * 3
        if alpha >= 1:
            self.px[start:end] = bytes(color) * (x1 - x0)
            return
        tr, tg, tb = self._blend_tables(color, alpha)
        self.px[start:end:3] = self.px[start:end:3].translate(tr)
        self.px[start + 1:end:3] = self.px[start + 1:end:3].translate(tg)
        self.px[start + 2:end:3] = self.px[start + 2:end:3].translate(tb)

    def pixel(self, x, y, color, alpha=1.0):
        self.span(y, x, x + 1, color, alpha)

    # -- shapes ------------------------------------------------------------

    def rect(self, x0, y0, x1, y1, color, alpha=1.0):
        for y in range(max(0, int(y0)), min(self.height, int(y1))):
            self.span(y, x0, x1, color, alpha)

    def frame(self, x0, y0, x1, y1, thickness, color):
        self.rect(x0, y0, x1, y0 + thickness, color)
        self.rect(x0, y1 - thickness, x1, y1, color)
        self.rect(x0, y0, x0 + thickness, y1, color)
        self.rect(x1 - thickness, y0, x1, y1, color)

    def vgradient(self, x0, y0, x1, y1, top, bottom, alpha=1.0):
        top, bottom = rgb(top), rgb(bottom)
        rows = max(1, int(y1) - int(y0) - 1)
        for y in range(int(y0), int(y1)):
            self.span(y, x0, x1, mix(top, bottom, (y - int(y0)) / rows), alpha)

    def vgradient_stops(self, x0, y0, x1, y1, stops):
        """stops: [(fraction, color), ...] from top to bottom."""
        stops = [(f, rgb(c)) for f, c in stops]
        height = max(1, int(y1) - int(y0) - 1)
        for y in range(int(y0), int(y1)):
            t = (y - int(y0)) / height
            for i in range(len(stops) - 1):
                (fa, ca), (fb, cb) = stops[i], stops[i + 1]
                if t <= fb or i == len(stops) - 2:
                    local = 0 if fb == fa else min(1, max(0, (t - fa) / (fb - fa)))
                    self.span(y, x0, x1, mix(ca, cb, local))
                    break

    def polygon(self, points, color, alpha=1.0):
        """Even-odd scanline fill sampled at pixel centres."""
        if len(points) < 3:
            return
        ys = [p[1] for p in points]
        edges = list(zip(points, points[1:] + points[:1]))
        for y in range(max(0, int(math.floor(min(ys)))), min(self.height, int(math.ceil(max(ys))) + 1)):
            cy = y + 0.5
            xs = []
            for (ax, ay), (bx, by) in edges:
                if (ay <= cy < by) or (by <= cy < ay):
                    xs.append(ax + (cy - ay) * (bx - ax) / (by - ay))
            xs.sort()
            for i in range(0, len(xs) - 1, 2):
                self.span(y, math.ceil(xs[i] - 0.5), math.floor(xs[i + 1] - 0.5) + 1, color, alpha)

    def line(self, x0, y0, x1, y1, width, color, alpha=1.0):
        dx, dy = x1 - x0, y1 - y0
        length = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / length * width / 2, dx / length * width / 2
        self.polygon([(x0 + nx, y0 + ny), (x1 + nx, y1 + ny), (x1 - nx, y1 - ny), (x0 - nx, y0 - ny)], color, alpha)

    def ellipse(self, cx, cy, rx, ry, color, alpha=1.0):
        """Filled ellipse; edge pixels get partial coverage along each row."""
        if rx <= 0 or ry <= 0:
            return
        for y in range(max(0, int(cy - ry)), min(self.height, int(cy + ry) + 1)):
            t = (y + 0.5 - cy) / ry
            if abs(t) >= 1:
                continue
            half = rx * math.sqrt(1 - t * t)
            left, right = cx - half, cx + half
            inner0, inner1 = math.ceil(left), math.floor(right)
            if inner1 > inner0:
                self.span(y, inner0, inner1, color, alpha)
                self.span(y, inner0 - 1, inner0, color, alpha * (inner0 - left))
                self.span(y, inner1, inner1 + 1, color, alpha * (right - inner1))
            else:
                self.span(y, math.floor(left), math.floor(left) + 1, color, alpha * (right - left))

    def circle(self, cx, cy, r, color, alpha=1.0):
        self.ellipse(cx, cy, r, r, color, alpha)

    def ring(self, cx, cy, r, width, color, alpha=1.0):
        """An annulus: per row, the spans between the outer and the inner circle."""
        inner_r = r - width
        for y in range(max(0, int(cy - r)), min(self.height, int(cy + r) + 1)):
            t = y + 0.5 - cy
            if abs(t) >= r:
                continue
            ho = math.sqrt(r * r - t * t)
            if abs(t) < inner_r:
                hi = math.sqrt(inner_r * inner_r - t * t)
                self.span(y, round(cx - ho), round(cx - hi), color, alpha)
                self.span(y, round(cx + hi), round(cx + ho), color, alpha)
            else:
                self.span(y, round(cx - ho), round(cx + ho), color, alpha)

    def rounded_rect(self, x0, y0, x1, y1, radius, color, alpha=1.0):
        radius = min(radius, (x1 - x0) / 2, (y1 - y0) / 2)
        for y in range(max(0, int(y0)), min(self.height, int(y1))):
            cy = y + 0.5
            inset = 0.0
            if cy < y0 + radius:
                d = y0 + radius - cy
                inset = radius - math.sqrt(max(0.0, radius * radius - d * d))
            elif cy > y1 - radius:
                d = cy - (y1 - radius)
                inset = radius - math.sqrt(max(0.0, radius * radius - d * d))
            self.span(y, round(x0 + inset), round(x1 - inset), color, alpha)

    def star(self, cx, cy, outer, inner, points, color, rotation=-math.pi / 2, alpha=1.0):
        vertices = []
        for i in range(points * 2):
            r = outer if i % 2 == 0 else inner
            a = rotation + math.pi * i / points
            vertices.append((cx + r * math.cos(a), cy + r * math.sin(a)))
        self.polygon(vertices, color, alpha)

    def burst(self, cx, cy, rays, radius, color_a, color_b, rotation=0.0):
        """Alternating wedges around a centre: the comic-book sunburst."""
        for i in range(rays):
            a0 = rotation + 2 * math.pi * i / rays
            a1 = rotation + 2 * math.pi * (i + 1) / rays
            color = color_a if i % 2 == 0 else color_b
            self.polygon([(cx, cy), (cx + radius * math.cos(a0), cy + radius * math.sin(a0)),
                          (cx + radius * math.cos(a1), cy + radius * math.sin(a1))], color)

    def wave_fill(self, y_mid, amplitude, wavelength, phase, y_bottom, color, alpha=1.0):
        """Fill from a sine curve across the whole width down to y_bottom."""
        self.polygon(
            [(x, y_mid + amplitude * math.sin(2 * math.pi * x / wavelength + phase)) for x in range(-4, self.width + 8, 4)]
            + [(self.width + 8, y_bottom), (-4, y_bottom)],
            color, alpha)

    # -- text --------------------------------------------------------------

    @staticmethod
    def text_width(text, scale, spacing=1):
        if not text:
            return 0
        return len(text) * (GLYPH_WIDTH + spacing) * scale - spacing * scale

    def text(self, x, y, text, scale, color, spacing=1, alpha=1.0):
        """Draw text in the blocky 5x7 font; returns the width drawn."""
        cursor = x
        for ch in text:
            glyph = GLYPHS.get(ch.upper(), GLYPHS["?"])
            for row, bits in enumerate(glyph):
                yy = y + row * scale
                col = 0
                while col < GLYPH_WIDTH:
                    if bits[col] == "#":
                        run = col
                        while run < GLYPH_WIDTH and bits[run] == "#":
                            run += 1
                        self.rect(cursor + col * scale, yy, cursor + run * scale, yy + scale, color, alpha)
                        col = run
                    else:
                        col += 1
            cursor += (GLYPH_WIDTH + spacing) * scale
        return cursor - x - spacing * scale

    def text_styled(self, x, y, text, scale, color, outline=None, outline_width=0, shadow=None, shadow_offset=0, spacing=1):
        if shadow is not None:
            self.text(x + shadow_offset, y + shadow_offset, text, scale, shadow, spacing)
        if outline is not None and outline_width > 0:
            for dx in (-outline_width, 0, outline_width):
                for dy in (-outline_width, 0, outline_width):
                    if dx or dy:
                        self.text(x + dx, y + dy, text, scale, outline, spacing)
        return self.text(x, y, text, scale, color, spacing)

    def text_centered(self, cx, y, text, scale, color, **style):
        width = self.text_width(text, scale, style.get("spacing", 1))
        return self.text_styled(round(cx - width / 2), y, text, scale, color, **style)

    @staticmethod
    def text_height(scale):
        return GLYPH_HEIGHT * scale

    # -- output ------------------------------------------------------------

    def png(self):
        return encode_png(self.width, self.height, self.px)


def encode_png(width, height, pixels):
    """8-bit RGB PNG, filter 'Sub' on every row (flat shapes become runs of zeros)."""
    return png_chunks(width, height, zlib.compress(filtered_rows(width, height, pixels), 9))


def filtered_rows(width, height, pixels):
    """The rows of RGB pixels, each as its filter byte (1, 'Sub') and each byte minus the one
    3 to its left (mod 256): what PNG compresses, and PDF's FlateDecode with predictor 15 reads."""
    stride = width * 3
    raw = bytearray()
    for y in range(height):
        row = pixels[y * stride:(y + 1) * stride]
        shifted = bytes(3) + bytes(row[:-3])
        filtered = bytes((a - b) & 0xFF for a, b in zip(row, shifted))
        raw.append(1)
        raw += filtered
    return bytes(raw)


def png_chunks(width, height, idat):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")
