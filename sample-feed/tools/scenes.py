"""Pictures for covers, comic panels and article illustrations.

Every scene draws into the rectangle (x, y, w, h) of a Canvas, in coordinates
relative to that rectangle, so one scene serves a 600x900 cover and a 480x320
article picture alike. Scenes are chosen by name from the JSON specs under
sources/; `options` carries a spec's optional colours.
"""

import math

from raster import Rng, mix


class Box:
    def __init__(self, canvas, x, y, w, h):
        self.c, self.x, self.y, self.w, self.h = canvas, x, y, w, h

    def X(self, f):
        return self.x + f * self.w

    def Y(self, f):
        return self.y + f * self.h

    def P(self, fx, fy):
        return (self.X(fx), self.Y(fy))

    def S(self, f):
        """A length relative to the smaller side."""
        return f * min(self.w, self.h)

    def fill(self, top, bottom=None):
        if bottom is None:
            self.c.rect(self.x, self.y, self.x + self.w, self.y + self.h, top)
        else:
            self.c.vgradient(self.x, self.y, self.x + self.w, self.y + self.h, top, bottom)

    def stops(self, y0, y1, stops):
        self.c.vgradient_stops(self.x, self.Y(y0), self.x + self.w, self.Y(y1), stops)

    def band(self, y0, y1, top, bottom=None):
        self.c.vgradient(self.x, self.Y(y0), self.x + self.w, self.Y(y1), top, bottom or top)

    def poly(self, points, color, alpha=1.0):
        self.c.polygon([self.P(fx, fy) for fx, fy in points], color, alpha)

    def stars(self, count, y1, seed, color="#ffffff"):
        rng = Rng(seed)
        for _ in range(count):
            sx, sy = self.X(rng.random()), self.Y(rng.random() * y1)
            size = self.S(0.004 + 0.006 * rng.random())
            self.c.circle(sx, sy, size, color, 0.5 + 0.5 * rng.random())

    def waves(self, y0, y1, count, color, alpha, seed):
        """Horizontal wave crests across the water between y0 and y1."""
        rng = Rng(seed)
        for i in range(count):
            t = (i + 0.5) / count
            wy = self.Y(y0 + (y1 - y0) * t * t)
            length = self.w * (0.08 + 0.12 * t)
            wx = self.X(rng.random())
            thickness = max(2, self.S(0.004 + 0.008 * t))
            self.c.rounded_rect(wx - length / 2, wy, wx + length / 2, wy + thickness, thickness / 2, color, alpha)


# ---------------------------------------------------------------------------
# Magazine scenes (Tidewater)


def lighthouse_night(b, o):
    horizon = 0.64
    b.stops(0, horizon, [(0, o.get("sky_top", "#07122e")), (0.7, o.get("sky_mid", "#23235b")), (1, o.get("sky_low", "#5b2a6e"))])
    b.stars(70, horizon * 0.8, seed=7)
    b.c.circle(b.X(0.80), b.Y(0.24), b.S(0.16), "#fff3c4", 0.12)
    b.c.circle(b.X(0.80), b.Y(0.24), b.S(0.09), "#fff3c4")
    b.band(horizon, 1.0, "#0f4c75", "#04162b")
    b.waves(horizon + 0.01, 1.0, 26, "#3282b8", 0.55, seed=3)
    cx, top, base = 0.36, 0.40, 0.69
    lamp = b.P(cx, top - 0.035)
    beam = o.get("beam", "#fff2a8")
    b.c.polygon([lamp, (b.X(1.05), b.Y(0.20)), (b.X(1.05), b.Y(0.42))], beam, 0.30)
    b.c.polygon([lamp, (b.X(-0.05), b.Y(0.30)), (b.X(-0.05), b.Y(0.38))], beam, 0.22)
    b.c.circle(lamp[0], lamp[1], b.S(0.11), beam, 0.20)
    # Rocks.
    b.poly([(0.02, 0.72), (0.12, 0.66), (0.22, 0.675), (0.30, 0.655), (0.46, 0.66), (0.55, 0.68), (0.68, 0.70), (0.74, 0.74), (0.0, 0.76)], "#14142b")
    # Tower in red and white bands.
    half_base, half_top = 0.085, 0.055
    bands = 6
    for i in range(bands):
        y0 = top + (base - top) * i / bands
        y1 = top + (base - top) * (i + 1) / bands
        hw0 = half_top + (half_base - half_top) * (y0 - top) / (base - top)
        hw1 = half_top + (half_base - half_top) * (y1 - top) / (base - top)
        color = o.get("stripe", "#e63946") if i % 2 == 0 else "#f1faee"
        b.poly([(cx - hw0, y0), (cx + hw0, y0), (cx + hw1, y1), (cx - hw1, y1)], color)
    b.poly([(cx - 0.075, top - 0.008), (cx + 0.075, top - 0.008), (cx + 0.075, top + 0.004), (cx - 0.075, top + 0.004)], "#1d1d35")
    b.poly([(cx - 0.045, top - 0.065), (cx + 0.045, top - 0.065), (cx + 0.045, top - 0.008), (cx - 0.045, top - 0.008)], "#ffd23f")
    for k in (-0.015, 0.015):
        b.poly([(cx + k - 0.003, top - 0.065), (cx + k + 0.003, top - 0.065), (cx + k + 0.003, top - 0.008), (cx + k - 0.003, top - 0.008)], "#c9a227")
    b.poly([(cx - 0.058, top - 0.065), (cx + 0.058, top - 0.065), (cx, top - 0.105)], o.get("stripe", "#e63946"))
    # A keeper's cottage with one lit window.
    b.poly([(0.50, 0.665), (0.64, 0.665), (0.64, 0.70), (0.50, 0.70)], "#f1faee")
    b.poly([(0.49, 0.667), (0.57, 0.63), (0.65, 0.667)], "#e63946")
    b.poly([(0.545, 0.675), (0.575, 0.675), (0.575, 0.69), (0.545, 0.69)], "#ffd23f")


def sunset_sail(b, o):
    horizon = 0.62
    b.stops(0, horizon, [(0, "#2b1055"), (0.45, "#d53369"), (1, "#ffb347")])
    sun_r = b.S(0.30)
    b.c.circle(b.X(0.5), b.Y(horizon), sun_r * 1.25, "#ffe29a", 0.25)
    b.c.circle(b.X(0.5), b.Y(horizon), sun_r, "#ffe066")
    b.band(horizon, 1.0, "#5f2c82", "#120c2c")
    for i in range(12):
        t = i / 12
        y = b.Y(horizon + 0.012 + t * (1 - horizon) * 0.8)
        half = sun_r * (1.0 - 0.7 * t)
        b.c.rounded_rect(b.X(0.5) - half, y, b.X(0.5) + half, y + max(3, b.S(0.012)), 4, "#ffe066", 0.75 - 0.5 * t)
    # Sailboat.
    bx, by = 0.30, 0.72
    b.poly([(bx - 0.14, by), (bx + 0.14, by), (bx + 0.10, by + 0.035), (bx - 0.10, by + 0.035)], "#1b1030")
    b.poly([(bx - 0.004, by - 0.30), (bx + 0.004, by - 0.30), (bx + 0.004, by), (bx - 0.004, by)], "#1b1030")
    b.poly([(bx + 0.01, by - 0.29), (bx + 0.13, by - 0.015), (bx + 0.01, by - 0.015)], o.get("sail", "#fdf0d5"))
    b.poly([(bx - 0.01, by - 0.24), (bx - 0.01, by - 0.015), (bx - 0.11, by - 0.015)], "#f4a261")
    for gx, gy, s in ((0.68, 0.22, 0.035), (0.76, 0.28, 0.025), (0.62, 0.30, 0.02)):
        b.poly([(gx - s, gy - s * 0.4), (gx, gy), (gx + s, gy - s * 0.4), (gx, gy + s * 0.25)], "#1b1030")


def whale_tail(b, o):
    horizon = 0.46
    b.stops(0, horizon, [(0, o.get("sky_top", "#4cc9f0")), (1, "#e0fbfc")])
    b.c.circle(b.X(0.18), b.Y(0.18), b.S(0.10), "#fffbe6")
    b.band(horizon, 1.0, "#0077b6", "#03045e")
    b.waves(horizon + 0.01, 1.0, 30, "#90e0ef", 0.5, seed=11)
    dark, belly = "#22223b", "#4a4e69"
    base_y = 0.80
    b.poly([(0.40, base_y), (0.60, base_y), (0.535, 0.52), (0.465, 0.52)], dark)
    # Flukes: two swept wings meeting at a notch.
    left = [(0.50, 0.53), (0.44, 0.45), (0.30, 0.37), (0.14, 0.33), (0.08, 0.345), (0.20, 0.40), (0.34, 0.47), (0.47, 0.56)]
    b.poly(left, dark)
    b.poly([(1 - x, y) for x, y in left], dark)
    b.poly([(0.50, 0.53), (0.48, 0.50), (0.50, 0.515), (0.52, 0.50)], "#e0fbfc")
    b.poly([(0.44, 0.60), (0.56, 0.60), (0.55, 0.64), (0.45, 0.64)], belly)
    rng = Rng(5)
    for _ in range(40):
        ang = math.pi * (1.05 + 0.9 * rng.random())
        dist = 0.08 + 0.2 * rng.random()
        r = b.S(0.008 + 0.02 * rng.random())
        b.c.circle(b.X(0.5) + math.cos(ang) * b.S(dist) * 1.3, b.Y(base_y) + math.sin(ang) * b.S(dist) * 0.7, r, "#ffffff", 0.8)
    b.c.ellipse(b.X(0.5), b.Y(base_y + 0.005), b.S(0.32), b.S(0.035), "#caf0f8", 0.85)
    for gx, gy, s in ((0.70, 0.14, 0.04), (0.80, 0.20, 0.03)):
        b.poly([(gx - s, gy - s * 0.4), (gx, gy), (gx + s, gy - s * 0.4), (gx, gy + s * 0.25)], "#22223b")


def aurora(b, o):
    b.stops(0, 1.0, [(0, "#020816"), (0.6, "#0b2545"), (1, "#13315c")])
    b.stars(80, 0.6, seed=19)
    for i, (color, alpha, y, amp, phase) in enumerate((
            ("#2ee59d", 0.45, 0.26, 0.06, 0.0),
            ("#9d4edd", 0.35, 0.20, 0.05, 1.7),
            ("#57cc99", 0.40, 0.34, 0.05, 3.1))):
        top = [(x / 40, y + amp * math.sin(x / 40 * 2 * math.pi * 1.3 + phase)) for x in range(41)]
        bottom = [(x / 40, y + 0.12 + amp * 0.6 * math.sin(x / 40 * 2 * math.pi * 1.1 + phase + 0.8)) for x in range(40, -1, -1)]
        b.poly(top + bottom, color, alpha)
        b.poly(top + [(fx, fy + 0.04) for fx, fy in reversed(top)], color, alpha * 0.8)
    peaks = [(0.0, 0.78), (0.18, 0.52), (0.34, 0.70), (0.55, 0.46), (0.78, 0.66), (0.92, 0.55), (1.0, 0.62), (1.0, 1.0), (0.0, 1.0)]
    b.poly(peaks, "#1b263b")
    for (px, py), (lx, ly), (rx, ry) in (((0.18, 0.52), (0.13, 0.58), (0.23, 0.58)), ((0.55, 0.46), (0.49, 0.53), (0.61, 0.53)), ((0.92, 0.55), (0.88, 0.59), (0.96, 0.59))):
        b.poly([(px, py), (rx, ry), (px + 0.01, ry - 0.015), (px - 0.015, ry), (lx, ly)], "#e8f1f2")
    b.c.ellipse(b.X(0.5), b.Y(0.98), b.w * 0.9, b.h * 0.28, "#dbe9ee")
    b.poly([(0.60, 0.68), (0.74, 0.68), (0.74, 0.745), (0.60, 0.745)], "#7f5539")
    b.poly([(0.585, 0.685), (0.67, 0.635), (0.755, 0.685)], "#3d2b1f")
    b.poly([(0.64, 0.695), (0.67, 0.695), (0.67, 0.72), (0.64, 0.72)], "#ffd23f")
    b.c.circle(b.X(0.655), b.Y(0.707), b.S(0.07), "#ffd23f", 0.18)


def compass_emblem(b, o):
    """The default Tidewater cover: a compass rose over the sea."""
    b.fill(o.get("background", "#0a9396"), "#005f73")
    cx, cy, r = b.X(0.5), b.Y(0.55), b.S(0.36)
    b.c.circle(cx, cy, r * 1.05, "#e9d8a6")
    b.c.circle(cx, cy, r * 0.95, "#005f73")
    b.c.ring(cx, cy, r * 0.80, b.S(0.015), "#e9d8a6")
    for k in range(8):
        a = -math.pi / 2 + k * math.pi / 4
        length = r * (0.92 if k % 2 == 0 else 0.55)
        tip = (cx + length * math.cos(a), cy + length * math.sin(a))
        side = r * 0.12
        l = (cx + side * math.cos(a - math.pi / 2), cy + side * math.sin(a - math.pi / 2))
        rt = (cx + side * math.cos(a + math.pi / 2), cy + side * math.sin(a + math.pi / 2))
        b.c.polygon([tip, l, (cx, cy)], "#ee9b00" if k % 2 == 0 else "#e9d8a6")
        b.c.polygon([tip, rt, (cx, cy)], "#ca6702" if k % 2 == 0 else "#94d2bd")
    b.c.circle(cx, cy, r * 0.08, "#ae2012")
    for i in range(3):
        b.c.wave_fill(b.Y(0.86 + i * 0.04), b.S(0.015), b.w / 3, i * 1.3, b.Y(1.0) + 1, "#94d2bd" if i % 2 == 0 else "#0a9396", 0.8)


# ---------------------------------------------------------------------------
# Newspaper photographs (Ferrybridge Courier)


def bridge_storm(b, o):
    b.stops(0, 0.60, [(0, "#2b2d42"), (1, "#8d99ae")])
    b.poly([(0.70, 0.02), (0.64, 0.20), (0.69, 0.20), (0.62, 0.40), (0.75, 0.16), (0.70, 0.16), (0.76, 0.02)], "#ffd60a")
    b.poly([(0.0, 0.42), (1.0, 0.42), (1.0, 0.60), (0.0, 0.60)], "#a68a64")
    b.poly([(0.0, 0.40), (1.0, 0.40), (1.0, 0.43), (0.0, 0.43)], "#7f5539")
    for i in range(4):
        b.c.ellipse(b.X(0.125 + i * 0.25), b.Y(0.60), b.w * 0.09, b.h * 0.11, "#1b263b")
    b.band(0.60, 1.0, "#3d5a80", "#1d2d44")
    for i in range(4):
        b.c.ellipse(b.X(0.125 + i * 0.25), b.Y(0.60), b.w * 0.09, b.h * 0.06, "#1b263b", 0.5)
    b.waves(0.64, 1.0, 22, "#98c1d9", 0.45, seed=23)
    rng = Rng(29)
    for _ in range(90):
        x, y = rng.random(), rng.random() * 0.95
        b.c.line(b.X(x), b.Y(y), b.X(x) - b.S(0.03), b.Y(y) + b.S(0.08), max(1.5, b.S(0.005)), "#e0e1dd", 0.45)


def ferry_morning(b, o):
    horizon = 0.55
    b.stops(0, horizon, [(0, "#48cae4"), (1, "#fef9e7")])
    b.c.circle(b.X(0.82), b.Y(0.20), b.S(0.12), "#ffd166")
    b.poly([(0.0, 0.55), (0.15, 0.42), (0.32, 0.50), (0.50, 0.38), (0.72, 0.52), (0.9, 0.45), (1.0, 0.50), (1.0, 0.56), (0.0, 0.56)], "#52b788")
    b.band(horizon, 1.0, "#168aad", "#184e77")
    b.waves(horizon + 0.02, 1.0, 24, "#d9ed92", 0.35, seed=31)
    fx, fy = 0.42, 0.72
    for k, (sx, sy, r) in enumerate(((0.50, 0.40, 0.05), (0.55, 0.32, 0.06), (0.61, 0.24, 0.07))):
        b.c.circle(b.X(sx), b.Y(sy), b.S(r), "#dee2e6", 0.8)
    b.poly([(fx - 0.30, fy), (fx + 0.30, fy), (fx + 0.25, fy + 0.10), (fx - 0.26, fy + 0.10)], o.get("hull", "#d62828"))
    b.poly([(fx - 0.30, fy + 0.06), (fx + 0.27, fy + 0.06), (fx + 0.255, fy + 0.10), (fx - 0.26, fy + 0.10)], "#1d3557")
    b.poly([(fx - 0.20, fy - 0.12), (fx + 0.18, fy - 0.12), (fx + 0.20, fy), (fx - 0.22, fy)], "#f8f9fa")
    b.poly([(fx - 0.12, fy - 0.20), (fx + 0.06, fy - 0.20), (fx + 0.07, fy - 0.12), (fx - 0.13, fy - 0.12)], "#f8f9fa")
    for i in range(7):
        wx = fx - 0.18 + i * 0.05
        b.poly([(wx, fy - 0.09), (wx + 0.03, fy - 0.09), (wx + 0.03, fy - 0.05), (wx, fy - 0.05)], "#1d3557")
    b.poly([(fx + 0.02, fy - 0.34), (fx + 0.08, fy - 0.34), (fx + 0.09, fy - 0.20), (fx + 0.01, fy - 0.20)], "#fcbf49")
    b.poly([(fx + 0.02, fy - 0.34), (fx + 0.08, fy - 0.34), (fx + 0.082, fy - 0.30), (fx + 0.018, fy - 0.30)], "#14213d")


def market_lights(b, o):
    b.stops(0, 1.0, [(0, "#10002b"), (0.7, "#3c096c"), (1, "#5a189a")])
    rng = Rng(37)
    x = 0.0
    while x < 1.0:
        bw = 0.08 + 0.10 * rng.random()
        top = 0.15 + 0.25 * rng.random()
        b.poly([(x, top), (x + bw, top), (x + bw, 1.0), (x, 1.0)], "#240046")
        for wy in range(int((0.7 - top) / 0.07)):
            for wx in range(int(bw / 0.04)):
                if rng.random() < 0.45:
                    px, py = x + 0.012 + wx * 0.04, top + 0.03 + wy * 0.07
                    b.poly([(px, py), (px + 0.018, py), (px + 0.018, py + 0.035), (px, py + 0.035)], "#ffd166", 0.85)
        x += bw + 0.01
    colors = ["#ff595e", "#ffca3a", "#8ac926", "#1982c4", "#ff924c"]
    for strand, (y0, sag) in enumerate(((0.18, 0.12), (0.30, 0.10))):
        b.c.line(b.X(0), b.Y(y0), b.X(0.5), b.Y(y0 + sag), 2, "#e0e1dd")
        b.c.line(b.X(0.5), b.Y(y0 + sag), b.X(1.0), b.Y(y0), 2, "#e0e1dd")
        for i in range(15):
            t = i / 14
            y = y0 + sag * (1 - (2 * t - 1) ** 2)
            color = colors[(i + strand) % len(colors)]
            b.c.circle(b.X(t), b.Y(y) + 6, b.S(0.035), color, 0.3)
            b.c.circle(b.X(t), b.Y(y) + 6, b.S(0.016), color)
    for i, x0 in enumerate((0.03, 0.36, 0.69)):
        b.poly([(x0, 0.70), (x0 + 0.28, 0.70), (x0 + 0.28, 1.0), (x0, 1.0)], "#6c584c")
        for k in range(7):
            sx = x0 + k * 0.04
            color = ("#e63946", "#2a9d8f", "#f4a261")[i] if k % 2 == 0 else "#f1faee"
            b.poly([(sx, 0.62), (sx + 0.04, 0.62), (sx + 0.04, 0.70), (sx, 0.70)], color)
        b.poly([(x0 + 0.03, 0.76), (x0 + 0.25, 0.76), (x0 + 0.25, 0.80), (x0 + 0.03, 0.80)], "#ffb703")


def ferry_emblem(b, o):
    """The Courier's default front: a ferry on two waves in a round seal."""
    b.fill(o.get("background", "#1d3557"))
    cx, cy, r = b.X(0.5), b.Y(0.5), b.S(0.45)
    b.c.circle(cx, cy, r, "#f1faee")
    b.c.circle(cx, cy, r * 0.88, o.get("background", "#1d3557"))
    inner = Box(b.c, cx - r * 0.7, cy - r * 0.6, r * 1.4, r * 1.1)
    inner.poly([(0.1, 0.62), (0.9, 0.62), (0.82, 0.78), (0.16, 0.78)], "#e63946")
    inner.poly([(0.25, 0.45), (0.72, 0.45), (0.76, 0.62), (0.22, 0.62)], "#f1faee")
    inner.poly([(0.52, 0.22), (0.62, 0.22), (0.64, 0.45), (0.50, 0.45)], "#ffb703")
    for i in range(2):
        b.c.wave_fill(cy + r * (0.28 + 0.14 * i), r * 0.05, r * 0.5, i * 2.0, cy + r * (0.36 + 0.14 * i), "#a8dadc", 1.0)


# ---------------------------------------------------------------------------
# Comic (Rocket Badger)


def badger_face(c, cx, cy, r):
    c.circle(cx - r * 0.78, cy - r * 0.72, r * 0.30, "#2b2d42")
    c.circle(cx + r * 0.78, cy - r * 0.72, r * 0.30, "#2b2d42")
    c.circle(cx - r * 0.78, cy - r * 0.72, r * 0.15, "#ffafcc")
    c.circle(cx + r * 0.78, cy - r * 0.72, r * 0.15, "#ffafcc")
    c.circle(cx, cy, r * 1.04, "#111111")
    c.circle(cx, cy, r, "#adb5bd")
    c.polygon([(cx - r * 0.22, cy - r * 0.98), (cx + r * 0.22, cy - r * 0.98), (cx + r * 0.30, cy + r * 0.65), (cx - r * 0.30, cy + r * 0.65)], "#f8f9fa")
    c.ellipse(cx, cy + r * 0.55, r * 0.55, r * 0.40, "#f8f9fa")
    for side in (-1, 1):
        c.ellipse(cx + side * r * 0.50, cy - r * 0.05, r * 0.22, r * 0.34, "#212529")
        c.circle(cx + side * r * 0.47, cy - r * 0.10, r * 0.10, "#ffffff")
        c.circle(cx + side * r * 0.45, cy - r * 0.08, r * 0.05, "#111111")
    c.ellipse(cx, cy + r * 0.45, r * 0.16, r * 0.11, "#111111")
    c.line(cx - r * 0.15, cy + r * 0.72, cx + r * 0.15, cy + r * 0.72, max(2, r * 0.05), "#111111")


def badger(c, cx, cy, s, scarf="#e63946"):
    """A standing badger in a flight jacket; (cx, cy) is the middle of the body."""
    c.ellipse(cx, cy + s * 0.55, s * 0.55, s * 0.75, "#111111")
    c.ellipse(cx, cy + s * 0.55, s * 0.50, s * 0.70, "#6c757d")
    c.ellipse(cx, cy + s * 0.70, s * 0.28, s * 0.45, "#dee2e6")
    c.line(cx - s * 0.45, cy + s * 0.35, cx - s * 0.80, cy + s * 0.05, s * 0.16, "#495057")
    c.line(cx + s * 0.45, cy + s * 0.35, cx + s * 0.80, cy + s * 0.65, s * 0.16, "#495057")
    c.polygon([(cx - s * 0.45, cy - s * 0.05), (cx + s * 0.45, cy - s * 0.05), (cx + s * 0.35, cy + s * 0.12), (cx - s * 0.35, cy + s * 0.12)], scarf)
    c.polygon([(cx + s * 0.25, cy + s * 0.05), (cx + s * 0.60, cy + s * 0.30), (cx + s * 0.45, cy + s * 0.38), (cx + s * 0.18, cy + s * 0.12)], scarf)
    badger_face(c, cx, cy - s * 0.45, s * 0.48)
    c.rect(cx - s * 0.52, cy - s * 0.70, cx + s * 0.52, cy - s * 0.60, "#8d6e63")
    for side in (-1, 1):
        c.circle(cx + side * s * 0.24, cy - s * 0.65, s * 0.14, "#111111")
        c.circle(cx + side * s * 0.24, cy - s * 0.65, s * 0.10, "#90e0ef")


def wren(c, cx, cy, s):
    """Wren, the navigator: a small round yellow bird."""
    c.circle(cx, cy, s * 1.05, "#111111")
    c.circle(cx, cy, s, "#ffd60a")
    c.ellipse(cx - s * 0.2, cy + s * 0.35, s * 0.55, s * 0.4, "#ffc300")
    c.polygon([(cx + s * 0.85, cy - s * 0.15), (cx + s * 1.45, cy), (cx + s * 0.85, cy + s * 0.18)], "#fb8500")
    c.circle(cx + s * 0.40, cy - s * 0.30, s * 0.16, "#111111")
    c.polygon([(cx - s * 0.9, cy - s * 0.2), (cx - s * 1.5, cy - s * 0.6), (cx - s * 1.3, cy)], "#ffc300")
    c.polygon([(cx - s * 0.2, cy - s * 0.95), (cx, cy - s * 1.4), (cx + s * 0.15, cy - s * 0.9)], "#fb8500")


def rocket(c, cx, cy, s, body="#f8f9fa", trim="#e63946", tilt=0.0, flame=True, pilot=True):
    """A round-nosed rocket, nose up (tilt in radians, clockwise)."""
    def rot(px, py):
        ca, sa = math.cos(tilt), math.sin(tilt)
        return (cx + px * ca - py * sa, cy + px * sa + py * ca)

    def shape(points, color, alpha=1.0):
        c.polygon([rot(px * s, py * s) for px, py in points], color, alpha)

    if flame:
        shape([(-0.22, 0.95), (0.22, 0.95), (0.0, 1.75)], "#fb8500")
        shape([(-0.13, 0.95), (0.13, 0.95), (0.0, 1.45)], "#ffd60a")
    shape([(-0.30, 0.55), (-0.62, 1.05), (-0.30, 0.95)], trim)
    shape([(0.30, 0.55), (0.62, 1.05), (0.30, 0.95)], trim)
    nose = [(0.38 * math.sin(math.pi / 2 * k / 10), -0.30 - 0.75 * math.cos(math.pi / 2 * k / 10)) for k in range(11)]
    outline = nose + [(0.38, 0.95), (-0.38, 0.95)] + [(-x, y) for x, y in reversed(nose[1:])]
    shape([(x * 1.18 + (0.0 if x == 0 else 0.02 * (1 if x > 0 else -1)), y * 1.06 + 0.03) for x, y in outline], "#111111")
    shape(outline, body)
    shape([(-0.38, 0.70), (0.38, 0.70), (0.38, 0.95), (-0.38, 0.95)], trim)
    wx, wy = rot(0.0, -0.25 * s)
    c.circle(wx, wy, s * 0.27, "#111111")
    c.circle(wx, wy, s * 0.23, "#90e0ef")
    if pilot:
        badger_face(c, wx, wy + s * 0.03, s * 0.14)
    c.circle(wx - s * 0.08, wy - s * 0.09, s * 0.05, "#ffffff", 0.7)


def moon(c, cx, cy, r, color="#f1faee"):
    c.circle(cx, cy, r * 1.25, color, 0.15)
    c.circle(cx, cy, r, color)
    for dx, dy, k in ((-0.35, -0.2, 0.22), (0.3, 0.25, 0.16), (0.1, -0.45, 0.12), (-0.2, 0.45, 0.1)):
        c.circle(cx + dx * r, cy + dy * r, r * k, mix(color, "#6c757d", 0.35))


def asteroid(c, cx, cy, r, seed=3):
    rng = Rng(seed)
    pts = []
    for k in range(14):
        a = 2 * math.pi * k / 14
        rr = r * (0.8 + 0.3 * rng.random())
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    c.polygon([(x + (x - cx) * 0.06, y + (y - cy) * 0.06) for x, y in pts], "#111111")
    c.polygon(pts, "#9c6644")
    for dx, dy, k in ((-0.3, -0.2, 0.2), (0.25, 0.3, 0.15), (0.3, -0.35, 0.1)):
        c.circle(cx + dx * r, cy + dy * r, r * k, "#7f5539")
    # A tiny carrot patch: the allotment.
    for i in range(3):
        x = cx - r * 0.3 + i * r * 0.3
        c.polygon([(x - r * 0.05, cy - r * 0.75), (x + r * 0.05, cy - r * 0.75), (x, cy - r * 0.55)], "#fb8500")
        c.polygon([(x - r * 0.08, cy - r * 0.95), (x, cy - r * 0.75), (x + r * 0.08, cy - r * 0.95)], "#2d6a4f")


def ringed_planet(c, cx, cy, r, body="#f4a261", ring="#e9c46a"):
    c.ellipse(cx, cy, r * 2.0, r * 0.5, ring)
    c.ellipse(cx, cy, r * 1.6, r * 0.32, mix(ring, "#000000", 0.3))
    c.circle(cx, cy, r, body)
    c.circle(cx - r * 0.3, cy - r * 0.3, r * 0.5, "#ffffff", 0.15)
    # The front half of the ring passes over the planet.
    for y in range(int(cy), int(cy + r * 0.5) + 1):
        t = (y + 0.5 - cy) / (r * 0.5)
        if t >= 1:
            continue
        half = r * 2.0 * math.sqrt(1 - t * t)
        inner = r * 1.6 * math.sqrt(max(0.0, 1 - ((y + 0.5 - cy) / (r * 0.32)) ** 2)) if abs(y + 0.5 - cy) < r * 0.32 else 0
        c.span(y, round(cx - half), round(cx - inner), ring)
        c.span(y, round(cx + inner), round(cx + half), ring)


def parcel(c, cx, cy, s, color="#ddb892"):
    c.rect(cx - s * 1.06, cy - s * 0.76, cx + s * 1.06, cy + s * 0.76, "#111111")
    c.rect(cx - s, cy - s * 0.7, cx + s, cy + s * 0.7, color)
    c.rect(cx - s * 0.12, cy - s * 0.7, cx + s * 0.12, cy + s * 0.7, "#e63946")
    c.rect(cx - s, cy - s * 0.1, cx + s, cy + s * 0.1, "#e63946")


def teacup(c, cx, cy, s):
    c.ring(cx + s * 0.85, cy - s * 0.1, s * 0.35, s * 0.12, "#111111")
    c.polygon([(cx - s, cy - s * 0.6), (cx + s, cy - s * 0.6), (cx + s * 0.7, cy + s * 0.6), (cx - s * 0.7, cy + s * 0.6)], "#111111")
    c.polygon([(cx - s * 0.9, cy - s * 0.52), (cx + s * 0.9, cy - s * 0.52), (cx + s * 0.62, cy + s * 0.52), (cx - s * 0.62, cy + s * 0.52)], "#f1faee")
    c.rect(cx - s * 0.9, cy - s * 0.52, cx + s * 0.9, cy - s * 0.35, "#9c6644")
    c.ellipse(cx, cy + s * 0.65, s * 1.3, s * 0.18, "#111111")
    for k in (-0.4, 0.0, 0.4):
        c.line(cx + k * s, cy - s * 0.8, cx + k * s + s * 0.1, cy - s * 1.3, s * 0.08, "#ffffff", 0.7)


def comic_background(b, kind, o):
    if kind == "space":
        b.fill(o.get("top", "#03071e"), o.get("bottom", "#240046"))
        b.stars(int(60 * b.w * b.h / (560 * 400)) + 10, 1.0, seed=o.get("seed", 41))
    elif kind == "sky":
        b.fill(o.get("top", "#48cae4"), o.get("bottom", "#caf0f8"))
        for cx, cy, r in ((0.2, 0.25, 0.08), (0.28, 0.22, 0.1), (0.75, 0.35, 0.07), (0.82, 0.32, 0.09)):
            b.c.circle(b.X(cx), b.Y(cy), b.S(r), "#ffffff")
        b.band(0.82, 1.0, "#80b918", "#55a630")
    elif kind == "moon":
        b.fill(o.get("top", "#10002b"), o.get("bottom", "#3c096c"))
        b.stars(40, 0.6, seed=o.get("seed", 43))
        b.c.circle(b.X(0.85), b.Y(0.2), b.S(0.1), "#4cc9f0")
        b.c.circle(b.X(0.83), b.Y(0.18), b.S(0.04), "#80ed99")
        b.c.ellipse(b.X(0.5), b.Y(1.25), b.w * 0.9, b.h * 0.55, "#ced4da")
        for cx, cy, r in ((0.2, 0.82, 0.05), (0.6, 0.9, 0.07), (0.8, 0.78, 0.04)):
            b.c.ellipse(b.X(cx), b.Y(cy), b.S(r) * 1.6, b.S(r) * 0.6, "#adb5bd")
    elif kind == "kitchen":
        b.fill(o.get("top", "#ffe8d6"), o.get("bottom", "#ffd6a5"))
        for i in range(0, 12):
            b.poly([(i / 12, 0.0), (i / 12 + 1 / 24, 0.0), (i / 12 + 1 / 24, 0.62), (i / 12, 0.62)], "#fec89a", 0.6)
        b.band(0.62, 1.0, "#9c6644", "#7f5539")
        b.poly([(0.62, 0.12), (0.9, 0.12), (0.9, 0.42), (0.62, 0.42)], "#111111")
        b.poly([(0.64, 0.14), (0.88, 0.14), (0.88, 0.40), (0.64, 0.40)], "#03071e")
        b.stars(12, 0.35, seed=47)
    elif kind == "burst":
        b.fill(o.get("a", "#ffb703"))
        b.c.burst(b.X(0.5), b.Y(0.5), 20, math.hypot(b.w, b.h), o.get("a", "#ffb703"), o.get("b", "#fb8500"))
    else:
        b.fill(o.get("top", "#ffffff"))


def rocket_badger_cover(b, o):
    """Comic cover art below the masthead: sunburst, a rocket, and the issue's guest object."""
    b.c.burst(b.X(0.5), b.Y(0.55), 24, math.hypot(b.w, b.h), o.get("burst_a", "#ffb703"), o.get("burst_b", "#fb8500"), rotation=0.13)
    b.c.circle(b.X(0.5), b.Y(0.58), b.S(0.42), o.get("halo", "#fff3b0"), 0.35)
    guest = o.get("guest")
    if guest == "moon":
        moon(b.c, b.X(0.78), b.Y(0.43), b.S(0.17))
        teacup(b.c, b.X(0.78), b.Y(0.43), b.S(0.07))
    elif guest == "asteroid":
        asteroid(b.c, b.X(0.22), b.Y(0.45), b.S(0.17))
    elif guest == "planet":
        ringed_planet(b.c, b.X(0.76), b.Y(0.40), b.S(0.12), body=o.get("planet", "#2a9d8f"))
    rocket(b.c, b.X(0.5), b.Y(0.58), b.S(0.30), body=o.get("rocket", "#f8f9fa"), trim=o.get("trim", "#e63946"), tilt=o.get("tilt", 0.25))
    if o.get("wren", True):
        wren(b.c, b.X(0.20), b.Y(0.78), b.S(0.06))


def rocket_badger_emblem(b, o):
    b.c.burst(b.X(0.5), b.Y(0.5), 24, math.hypot(b.w, b.h), o.get("burst_a", "#e63946"), o.get("burst_b", "#d62828"))
    badger_face(b.c, b.X(0.5), b.Y(0.55), b.S(0.30))


# ---------------------------------------------------------------------------
# Article illustrations


def tide_chart(b, o):
    """A day of tides at Gull Rock: the water line and the hourly heights as bars."""
    b.fill("#fdfcdc")
    b.c.rect(b.X(0.08), b.Y(0.88), b.X(0.96), b.Y(0.885) + 2, "#001219")
    b.c.rect(b.X(0.08), b.Y(0.08), b.X(0.08) + 2, b.Y(0.885) + 2, "#001219")
    heights = [0.5 + 0.42 * math.cos(2 * math.pi * (h - 3) / 12.4) for h in range(25)]
    for h, v in enumerate(heights):
        x0 = b.X(0.10 + h * 0.035)
        b.c.rect(x0, b.Y(0.88 - 0.75 * v), x0 + b.w * 0.025, b.Y(0.88), "#0a9396" if v > 0.5 else "#94d2bd")
    b.c.rect(b.X(0.08), b.Y(0.88 - 0.75 * 0.5), b.X(0.96), b.Y(0.88 - 0.75 * 0.5) + 2, "#ae2012")
    b.c.text(b.X(0.11), b.Y(0.02), "GULL ROCK  TIDES  1 NOV", max(2, int(b.S(0.008))), "#001219")


def crossings_chart(b, o):
    """Ferry crossings per day, the week before the new timetable."""
    b.fill("#f8f9fa")
    days = o.get("values", [38, 41, 40, 44, 52, 61, 47])
    labels = "MTWTFSS"
    top = max(days)
    for i, v in enumerate(days):
        x0 = b.X(0.08 + i * 0.125)
        b.c.rect(x0, b.Y(0.85 - 0.68 * v / top), x0 + b.w * 0.09, b.Y(0.85), "#d62828" if v == top else "#1d3557")
        scale = max(2, int(b.S(0.01)))
        b.c.text(x0 + b.w * 0.045 - 2.5 * scale, b.Y(0.88), labels[i], scale, "#1d3557")
        b.c.text(x0 + b.w * 0.045 - 5.5 * scale, b.Y(0.85 - 0.68 * v / top) - 10 * scale, str(v), scale, "#1d3557")
    b.c.rect(b.X(0.05), b.Y(0.85), b.X(0.97), b.Y(0.85) + 3, "#1d3557")


SCENES = {
    "lighthouse_night": lighthouse_night,
    "sunset_sail": sunset_sail,
    "whale_tail": whale_tail,
    "aurora": aurora,
    "compass_emblem": compass_emblem,
    "bridge_storm": bridge_storm,
    "ferry_morning": ferry_morning,
    "market_lights": market_lights,
    "ferry_emblem": ferry_emblem,
    "rocket_badger_cover": rocket_badger_cover,
    "rocket_badger_emblem": rocket_badger_emblem,
    "tide_chart": tide_chart,
    "crossings_chart": crossings_chart,
}


def draw_scene(canvas, name, x, y, w, h, options=None):
    if name not in SCENES:
        raise SystemExit(f"unknown scene {name!r}; known: {', '.join(sorted(SCENES))}")
    saved = canvas.clip
    canvas.clip = (int(x), int(y), int(x + w), int(y + h))
    try:
        SCENES[name](Box(canvas, x, y, w, h), options or {})
    finally:
        canvas.clip = saved
