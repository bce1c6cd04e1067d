"""A small deterministic PDF writer: pages of text and pictures, an outline, page labels.

Text uses the standard 14 fonts (Helvetica, Times) with WinAnsiEncoding, so no font
file is embedded and every reader has them. Pictures are RGB image XObjects compressed
with FlateDecode and the PNG 'Sub' predictor (the rows `raster` already filters).
Nothing depends on the clock: the same pages give the same bytes.
"""

import zlib

from raster import filtered_rows

FONTS = {
    "sans": "Helvetica",
    "sans-bold": "Helvetica-Bold",
    "serif": "Times-Roman",
    "serif-italic": "Times-Italic",
    "serif-bold": "Times-Bold",
}

# Advance widths per 1000 units of the font size, by kind of character: close to (and
# never much under) the standard fonts' own, which is all that breaking lines needs.
_NARROW = set("iljtfr.,;:'!|()[]I \u2019\u2018")
_WIDE = set("mwMW@%&\u2014")


def text_width(text, font, size):
    """Roughly how wide `text` is set in `font` at `size` points (a slight overestimate)."""
    sans = font.startswith("sans")
    bold = font.endswith("bold")
    total = 0
    for ch in text:
        if ch in _NARROW:
            w = 300 if sans else 290
        elif ch in _WIDE:
            w = 900
        elif ch.isupper() or ch.isdigit() and sans:
            w = 700 if sans else 690
        else:
            w = 540 if sans else 500
        total += w * (1.06 if bold else 1.0)
    return total * size / 1000


def _string(text):
    """A PDF literal string in WinAnsiEncoding, parentheses and backslashes escaped,
    bytes outside printable ASCII written as octal escapes."""
    out = bytearray(b"(")
    for byte in text.encode("cp1252"):
        if byte in b"()\\":
            out += b"\\" + bytes([byte])
        elif 32 <= byte < 127:
            out.append(byte)
        else:
            out += b"\\%03o" % byte
    return bytes(out + b")")


def _text_string(text):
    """A text string for metadata and outline titles: ASCII as is, else UTF-16BE with a BOM."""
    if all(32 <= ord(ch) < 127 for ch in text):
        return _string(text)
    return b"<FEFF" + text.encode("utf-16-be").hex().upper().encode() + b">"


def _number(value):
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


class Page:
    """One page: drawing operations in PDF user space (points, origin at the bottom left)."""

    def __init__(self, width, height):
        self.width, self.height = width, height
        self.ops = []
        self.fonts = set()
        self.images = []

    def text(self, x, y, text, font, size, color=(0, 0, 0)):
        self.fonts.add(font)
        r, g, b = (c / 255 for c in color)
        self.ops.append(f"BT /{_font_name(font)} {_number(size)} Tf {_number(r)} {_number(g)} {_number(b)} rg "
                        f"{_number(x)} {_number(y)} Td ".encode() + _string(text) + b" Tj ET")

    def rect(self, x, y, w, h, color):
        r, g, b = (c / 255 for c in color)
        self.ops.append(f"{_number(r)} {_number(g)} {_number(b)} rg {_number(x)} {_number(y)} {_number(w)} {_number(h)} re f".encode())

    def image(self, canvas, x, y, w, h):
        """Draws a `raster.Canvas` into the box (x, y) to (x + w, y + h)."""
        self.images.append(canvas)
        name = f"Im{len(self.images)}"
        self.ops.append(f"q {_number(w)} 0 0 {_number(h)} {_number(x)} {_number(y)} cm /{name} Do Q".encode())


def _font_name(font):
    return "F" + str(list(FONTS).index(font) + 1)


class Document:
    def __init__(self, title, author, subject="", date="D:20260101000000Z"):
        self.title, self.author, self.subject, self.date = title, author, subject, date
        self.pages = []
        self.outline = []   # [(title, page index, [children])]
        self.labels = []    # [(first page index, style "r" | "D" | None, prefix or None, start)]

    def new_page(self, width, height):
        page = Page(width, height)
        self.pages.append(page)
        return page

    def bytes(self):
        objects = {}  # number -> bytes

        def reserve():
            objects[len(objects) + 1] = None
            return len(objects)

        catalog, pages_root, info = reserve(), reserve(), reserve()
        font_ids = {}
        for font in FONTS:
            if any(font in p.fonts for p in self.pages):
                font_ids[font] = reserve()
                objects[font_ids[font]] = (f"<< /Type /Font /Subtype /Type1 /BaseFont /{FONTS[font]} "
                                           "/Encoding /WinAnsiEncoding >>").encode()
        page_ids = []
        for page in self.pages:
            page_id, content_id = reserve(), reserve()
            page_ids.append(page_id)
            xobjects = []
            for index, canvas in enumerate(page.images, 1):
                image_id = reserve()
                objects[image_id] = _image(canvas)
                xobjects.append(f"/Im{index} {image_id} 0 R")
            fonts = " ".join(f"/{_font_name(f)} {font_ids[f]} 0 R" for f in FONTS if f in page.fonts)
            resources = f"/Font << {fonts} >>" + (f" /XObject << {' '.join(xobjects)} >>" if xobjects else "")
            objects[page_id] = (f"<< /Type /Page /Parent {pages_root} 0 R /MediaBox [0 0 {_number(page.width)} "
                                f"{_number(page.height)}] /Resources << {resources} >> /Contents {content_id} 0 R >>").encode()
            objects[content_id] = _stream(b"\n".join(page.ops), compress=True)
        kids = " ".join(f"{p} 0 R" for p in page_ids)
        objects[pages_root] = f"<< /Type /Pages /Kids [{kids}] /Count {len(page_ids)} >>".encode()

        outline_root = reserve() if self.outline else None
        if outline_root:
            top = self._outline(self.outline, outline_root, objects, reserve, page_ids)
            objects[outline_root] = f"<< /Type /Outlines /First {top[0]} 0 R /Last {top[-1]} 0 R /Count {len(top)} >>".encode()
        nums = []
        for first, style, prefix, start in self.labels:
            entry = ([f"/S /{style}"] if style else []) + ([f"/P {_string(prefix).decode()}"] if prefix else [])
            entry += [f"/St {start}"] if start and start != 1 else []
            nums.append(f"{first} << {' '.join(entry)} >>")
        labels = f" /PageLabels << /Nums [{' '.join(nums)}] >>" if nums else ""
        outlines = f" /Outlines {outline_root} 0 R /PageMode /UseOutlines" if outline_root else ""
        objects[catalog] = (f"<< /Type /Catalog /Pages {pages_root} 0 R{outlines}{labels} "
                            "/ViewerPreferences << /DisplayDocTitle true >> >>").encode()
        objects[info] = (b"<< /Title " + _text_string(self.title) + b" /Author " + _text_string(self.author)
                         + b" /Subject " + _text_string(self.subject) + b" /Creator (Newsstand sample-feed/build.py)"
                         + b" /Producer (sample-feed/tools/pdf.py) /CreationDate " + _string(self.date)
                         + b" /ModDate " + _string(self.date) + b" >>")

        out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
        offsets = []
        for number in range(1, len(objects) + 1):
            offsets.append(len(out))
            out += f"{number} 0 obj\n".encode() + objects[number] + b"\nendobj\n"
        xref = len(out)
        out += f"xref\n0 {len(objects) + 1}\n".encode() + b"0000000000 65535 f\r\n"
        out += b"".join(b"%010d 00000 n\r\n" % offset for offset in offsets)
        out += (f"trailer\n<< /Size {len(objects) + 1} /Root {catalog} 0 R /Info {info} 0 R >>\n"
                f"startxref\n{xref}\n%%EOF\n").encode()
        return bytes(out)

    def _outline(self, items, parent, objects, reserve, page_ids):
        """Writes `items` as the children of outline object `parent`; returns their object numbers."""
        ids = [reserve() for _ in items]
        for index, (title, page, children) in enumerate(items):
            fields = [b"/Title " + _text_string(title), f"/Parent {parent} 0 R".encode(),
                      f"/Dest [{page_ids[page]} 0 R /XYZ null null null]".encode()]
            if index > 0:
                fields.append(f"/Prev {ids[index - 1]} 0 R".encode())
            if index + 1 < len(ids):
                fields.append(f"/Next {ids[index + 1]} 0 R".encode())
            if children:
                child_ids = self._outline(children, ids[index], objects, reserve, page_ids)
                fields.append(f"/First {child_ids[0]} 0 R /Last {child_ids[-1]} 0 R /Count {len(child_ids)}".encode())
            objects[ids[index]] = b"<< " + b" ".join(fields) + b" >>"
        return ids


def _stream(data, compress, extra=""):
    if compress:
        data = zlib.compress(data, 9)
        extra = " /Filter /FlateDecode" + extra
    return f"<< /Length {len(data)}{extra} >>\nstream\n".encode() + data + b"\nendstream"


def _image(canvas):
    data = zlib.compress(filtered_rows(canvas.width, canvas.height, canvas.px), 9)
    head = (f"<< /Type /XObject /Subtype /Image /Width {canvas.width} /Height {canvas.height} /ColorSpace /DeviceRGB "
            f"/BitsPerComponent 8 /Filter /FlateDecode /DecodeParms << /Predictor 15 /Colors 3 /BitsPerComponent 8 "
            f"/Columns {canvas.width} >> /Length {len(data)} >>\nstream\n")
    return head.encode() + data + b"\nendstream"
