"""Cover layouts (magazine, newspaper, comic) and comic pages, from JSON specs.

A cover spec names a scene and the words printed over it; the layout decides
where the masthead, the issue line and the cover lines go. Shapes are large and
colours strong on purpose: the shelf shows covers about 24 columns wide.
"""

import textwrap

from raster import Canvas
from scenes import Box, badger, comic_background, draw_scene, moon, parcel, rocket, teacup, wren, asteroid, ringed_planet


def magazine_cover(spec):
    w, h = spec.get("width", 600), spec.get("height", 900)
    c = Canvas(w, h)
    draw_scene(c, spec["scene"], 0, 0, w, h, spec.get("options"))
    masthead = spec["masthead"]
    scale = spec.get("masthead_scale", 10)
    c.rect(0, 0, w, 150, "#000000", 0.35)
    c.text_centered(w / 2, 30, masthead, scale, spec.get("masthead_color", "#ffd23f"), shadow="#000000", shadow_offset=5)
    kicker_y = 30 + c.text_height(scale) + 18
    c.text_centered(w / 2, kicker_y, spec.get("kicker", ""), 3, "#ffffff")
    lines = spec.get("headline", [])
    line_h = c.text_height(6) + 14
    y = h - 40 - len(lines) * line_h
    if lines:
        c.rect(0, y - 22, w, h, "#000000", 0.35)
    for line in lines:
        c.text_styled(30, y, line, 6, spec.get("headline_color", "#ffffff"), shadow="#000000", shadow_offset=4)
        y += line_h
    return c


def newspaper_cover(spec):
    w, h = spec.get("width", 900), spec.get("height", 600)
    c = Canvas(w, h, spec.get("paper", "#f5f0e1"))
    ink = spec.get("ink", "#111111")
    accent = spec.get("accent", "#c1121f")
    c.rect(0, 0, w, 96, ink)
    c.text_centered(w / 2, 24, spec["masthead"], 7, spec.get("paper", "#f5f0e1"))
    c.rect(0, 96, w, 128, accent)
    c.text(20, 105, spec.get("dateline", ""), 2, "#ffffff")
    right = spec.get("edition", "")
    c.text(w - 20 - c.text_width(right, 2), 105, right, 2, "#ffffff")
    c.text(20, 142, spec.get("headline", ""), 4, ink)
    c.rect(20, 178, w - 20, 181, ink)
    photo = (20, 192, 540, 388)
    c.rect(photo[0] - 3, photo[1] - 3, photo[0] + photo[2] + 3, photo[1] + photo[3] + 3, ink)
    draw_scene(c, spec["scene"], *photo, spec.get("options"))
    x0 = photo[0] + photo[2] + 24
    y = 192
    for line in spec.get("sidebar", []):
        c.text(x0, y, line, 2, ink)
        y += 22
    y += 8
    c.rect(x0, y, w - 20, y + 3, accent)
    y += 16
    # Columns of body text, drawn as grey bars of varying length.
    lengths = [1.0, 0.94, 1.0, 0.88, 0.97, 0.62, 1.0, 0.91, 1.0, 0.85, 0.99, 0.7]
    col_w = (w - 20 - x0 - 16) / 2
    for col in range(2):
        cx = x0 + col * (col_w + 16)
        for i, yy in enumerate(range(int(y), 560, 13)):
            c.rect(cx, yy, cx + col_w * lengths[(i + col * 5) % len(lengths)], yy + 6, "#8d8d8d")
    c.rect(x0, 566, w - 20, 580, accent, 0.85)
    return c


def comic_cover(spec):
    w, h = spec.get("width", 600), spec.get("height", 900)
    c = Canvas(w, h)
    draw_scene(c, spec["scene"], 0, 0, w, h, spec.get("options"))
    fill, outline, shadow = spec.get("masthead_color", "#ffe14d"), "#111111", spec.get("masthead_shadow", "#d00000")
    y = 30
    for word in spec["masthead"].split():
        c.text_centered(w / 2, y, word, 14, fill, outline=outline, outline_width=6, shadow=shadow, shadow_offset=12)
        y += c.text_height(14) + 18
    number = spec.get("number")
    if number:
        c.circle(w - 82, h - 90, 64, "#111111")
        c.circle(w - 82, h - 90, 57, "#ffffff")
        c.text_centered(w - 82, h - 90 - 21, number, 6, "#111111")
    lines = spec.get("headline", [])
    if lines:
        box_h = 24 + len(lines) * 34
        c.rounded_rect(20, h - 30 - box_h, w - 170, h - 30, 16, "#111111")
        for i, line in enumerate(lines):
            c.text(38, h - 30 - box_h + 16 + i * 34, line, 3, "#ffe14d")
    return c


COVER_LAYOUTS = {"magazine": magazine_cover, "newspaper": newspaper_cover, "comic": comic_cover}


def cover(spec):
    layout = spec.get("layout")
    if layout not in COVER_LAYOUTS:
        raise SystemExit(f"unknown cover layout {layout!r}; known: {', '.join(sorted(COVER_LAYOUTS))}")
    return COVER_LAYOUTS[layout](spec)


def picture(spec):
    """An article illustration: one scene at its own size."""
    c = Canvas(spec.get("width", 480), spec.get("height", 320))
    draw_scene(c, spec["scene"], 0, 0, c.width, c.height, spec.get("options"))
    return c


# ---------------------------------------------------------------------------
# Comic pages


def _item(b, item):
    kind = item["kind"]
    x, y, s = b.X(item.get("x", 0.5)), b.Y(item.get("y", 0.5)), b.S(item.get("s", 0.3))
    if kind == "badger":
        badger(b.c, x, y, s, scarf=item.get("scarf", "#e63946"))
    elif kind == "wren":
        wren(b.c, x, y, s)
    elif kind == "rocket":
        rocket(b.c, x, y, s, tilt=item.get("tilt", 0.0), flame=item.get("flame", True), pilot=item.get("pilot", False))
    elif kind == "moon":
        moon(b.c, x, y, s)
    elif kind == "teacup":
        teacup(b.c, x, y, s)
    elif kind == "parcel":
        parcel(b.c, x, y, s, color=item.get("color", "#ddb892"))
    elif kind == "asteroid":
        asteroid(b.c, x, y, s, seed=item.get("seed", 3))
    elif kind == "planet":
        ringed_planet(b.c, x, y, s, body=item.get("body", "#2a9d8f"))
    else:
        raise SystemExit(f"unknown comic item {kind!r}")


def _bubble(b, bubble, scale=3):
    c = b.c
    # The widest text whose balloon (1.25x the text plus padding) or caption still fits the panel.
    fit = (b.w - 48) / 1.25 if not bubble.get("caption") else b.w - 44
    cols = max(6, int(min(b.w * bubble.get("w", 0.6), fit + scale) / (6 * scale)))
    lines = textwrap.wrap(bubble["text"].upper(), cols)
    text_w = max(c.text_width(line, scale) for line in lines)
    text_h = len(lines) * (7 * scale + 6) - 6
    cx, cy = b.X(bubble.get("x", 0.5)), b.Y(bubble.get("y", 0.2))
    # Keep the balloon or caption inside its panel, whatever the spec says.
    half_w = text_w / 2 + (18 if bubble.get("caption") else text_w / 2 * 0.25 + 20)
    half_h = text_h / 2 + (14 if bubble.get("caption") else text_h / 2 * 0.3 + 20)
    cx = min(max(cx, b.x + half_w + 4), b.x + b.w - half_w - 4)
    cy = min(max(cy, b.y + half_h + 4), b.y + b.h - half_h - 4)
    if bubble.get("caption"):
        x0, y0 = cx - text_w / 2 - 12, cy - text_h / 2 - 10
        c.rect(x0 - 3, y0 - 3, x0 + text_w + 27, y0 + text_h + 23, "#111111")
        c.rect(x0, y0, x0 + text_w + 24, y0 + text_h + 20, bubble.get("color", "#ffe066"))
    else:
        rx, ry = text_w / 2 * 1.25 + 14, text_h / 2 * 1.3 + 16
        tail = bubble.get("tail")
        if tail:
            tx, ty = b.X(tail[0]), b.Y(tail[1])
            c.polygon([(cx - rx * 0.25, cy), (cx + rx * 0.25, cy), (tx, ty)], "#111111")
        c.ellipse(cx, cy, rx + 4, ry + 4, "#111111")
        c.ellipse(cx, cy, rx, ry, "#ffffff")
        if tail:
            c.polygon([(cx - rx * 0.25 + 5, cy), (cx + rx * 0.25 - 5, cy), (tx + (cx - tx) * 0.08, ty + (cy - ty) * 0.08)], "#ffffff")
    y = cy - text_h / 2
    for line in lines:
        c.text_centered(cx, y, line, scale, "#111111")
        y += 7 * scale + 6


def comic_page(spec, number, width=600, height=900):
    c = Canvas(width, height, "#fffdf5")
    margin, gutter = 22, 14
    inner_w, inner_h = width - 2 * margin, height - 2 * margin - 20
    for panel in spec["panels"]:
        fx0, fy0, fx1, fy1 = panel["box"]
        x0 = margin + fx0 * inner_w + (gutter / 2 if fx0 > 0 else 0)
        y0 = margin + fy0 * inner_h + (gutter / 2 if fy0 > 0 else 0)
        x1 = margin + fx1 * inner_w - (gutter / 2 if fx1 < 1 else 0)
        y1 = margin + fy1 * inner_h - (gutter / 2 if fy1 < 1 else 0)
        c.rect(x0 - 5, y0 - 5, x1 + 5, y1 + 5, "#111111")
        saved = c.clip
        c.clip = (int(x0), int(y0), int(x1), int(y1))
        b = Box(c, x0, y0, x1 - x0, y1 - y0)
        comic_background(b, panel.get("background", "plain"), panel.get("options", {}))
        for item in panel.get("items", []):
            _item(b, item)
        for bubble in panel.get("bubbles", []):
            _bubble(b, bubble)
        c.clip = saved
    c.text_centered(width / 2, height - 30, str(number), 2, "#111111")
    return c
