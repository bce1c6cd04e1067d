#!/usr/bin/env python3
"""Every path a user takes into a PDF, with hostile PDFs (issue 31's containment goal).

Writes the hostile PDFs below (and, with --fuzz, adds Fuzz/corpus/pdf) and runs each through
  read --plain FILE               render FILE --page 1 --size 80x24
  render FILE --output x.png      inspect archive FILE --text
and then `subscribe` of a folder holding them all, then `issues`, each in a fresh
NEWSSTAND_HOME. A run passes when it exits 0, or 1 with at most one line on standard error;
never a signal or a trace, never longer than LIMIT seconds (the worker's own wall clock, 20 s; a run over 5 s is marked ~), and (outside `render` to the
terminal, which draws with escapes) no raw control byte in what it prints.

    benchmarks/reliability/pdf_paths.py [--bin .build/debug/newsstand] [--fuzz] [--limit 5]

Prints one row per file and a summary; exits 1 if any run escaped."""
import argparse
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import time
import zlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
FORBIDDEN = re.compile(rb"[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]")


def pdf(objects, trailer_extra=b"", xref=True):
    """A PDF of the given object bodies, numbered from 1; object 1 is the catalog."""
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    start = len(out)
    if xref:
        out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
        out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R %s>>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, trailer_extra, start)
    return bytes(out)


def stream(data, extra=b"", compress=False):
    if compress:
        data = zlib.compress(data, 9)
        extra += b" /Filter /FlateDecode"
    return b"<< /Length %d%s >>\nstream\n" % (len(data), extra) + data + b"\nendstream"


FONT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"


def one_page(content, media=b"[0 0 420 595]", page_extra=b"", more=()):
    """Catalog, pages, one page (object 3), its content (4), Helvetica (5), then `more`."""
    return [b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox " + media + b" /Contents 4 0 R "
            b"/Resources << /Font << /F1 5 0 R >> /XObject << /Im1 6 0 R >> >> " + page_extra + b">>",
            content, FONT, *more]


TEXT = stream(b"BT /F1 24 Tf 40 500 Td (A hostile page) Tj ET")


def hostile():
    ESC, BEL = b"\x1b", b"\x07"
    files = {}
    files["empty.pdf"] = b""
    files["garbage.pdf"] = bytes((i * 7919 + 13) % 256 for i in range(4096))
    files["header-only.pdf"] = b"%PDF-1.7\n%%EOF\n"
    files["truncated.pdf"] = pdf(one_page(TEXT))[:200]
    # The page tree's only kid is the tree itself.
    files["looping-tree.pdf"] = pdf([b"<< /Type /Catalog /Pages 2 0 R >>",
                                     b"<< /Type /Pages /Kids [2 0 R] /Count 1 >>"])
    # A tree that claims two billion pages and lists one page 100,000 times.
    kids = b" ".join([b"3 0 R"] * 100_000)
    many = one_page(TEXT)
    many[1] = b"<< /Type /Pages /Kids [" + kids + b"] /Count 2147483647 >>"
    files["count-two-billion.pdf"] = pdf(many)
    files["zero-mediabox.pdf"] = pdf(one_page(TEXT, media=b"[0 0 0 0]"))
    files["huge-mediabox.pdf"] = pdf(one_page(TEXT, media=b"[0 0 14400000 14400000]"))
    files["inverted-mediabox.pdf"] = pdf(one_page(TEXT, media=b"[0 0 -1e38 1e38]"))
    # 64 MB of drawing operators behind 100 KB of deflate.
    bomb = b"0 0 m 420 595 l S\n" * (64 * 1024 * 1024 // 18)
    files["flate-bomb.pdf"] = pdf(one_page(stream(bomb, compress=True)))
    # An image claiming 100,000 × 100,000 pixels with 16 bytes behind it.
    image = stream(b"\x00" * 16, b" /Type /XObject /Subtype /Image /Width 100000 /Height 100000"
                   b" /ColorSpace /DeviceRGB /BitsPerComponent 8")
    files["image-bomb.pdf"] = pdf(one_page(stream(b"q 420 0 0 595 0 0 cm /Im1 Do Q"), more=[image]))
    # 200,000 saves never restored, and an array nested 100,000 deep in the page.
    nested = b"[" * 100_000 + b"]" * 100_000
    files["deep-nesting.pdf"] = pdf(one_page(stream(b"q " * 200_000 + b"BT /F1 9 Tf (deep) Tj ET"),
                                             page_extra=b"/Deep " + nested + b" "))
    # A content stream whose /Length is itself, an xref whose /Prev is itself, no real xref.
    loop = pdf(one_page(b"<< /Length 4 0 R >>\nstream\nBT ET\nendstream"), trailer_extra=b"/Prev 9 ", xref=False)
    files["self-references.pdf"] = loop.replace(b"startxref\n", b"startxref\n9\n%%EOF\n", 1)
    files["unknown-encryption.pdf"] = pdf(one_page(TEXT, more=[b"<< /Filter /NoSuchHandler /V 9 /R 9 >>"]),
                                          trailer_extra=b"/Encrypt 6 0 R /ID [<00><00>] ")
    # Escapes in the title, the outline and the page's own text.
    evil = ESC + b"]52;c;UFdORUQ=" + BEL + ESC + b"[2J" + b"\x9b31m" + ESC + b"]0;PWNED" + BEL
    text = stream(b"BT /F1 14 Tf 30 500 Td (" + evil.replace(b"\\", b"\\\\") + b" text) Tj ET")
    escapes = one_page(text, more=[b"<< /Title (" + evil + b") /Author (" + evil + b") >>"])
    files["escapes.pdf"] = pdf(escapes, trailer_extra=b"/Info 6 0 R ")
    return files


def run(binary, args, home, limit):
    env = dict(os.environ, NEWSSTAND_HOME=str(home), TERM="xterm-256color", COLUMNS="80", LINES="24")
    start = time.monotonic()
    try:
        done = subprocess.run([str(binary), *args], env=env, stdin=subprocess.DEVNULL,
                              capture_output=True, timeout=max(limit * 6, 30))
        code, out, err = done.returncode, done.stdout, done.stderr
    except subprocess.TimeoutExpired as e:
        code, out, err = "hung", e.stdout or b"", e.stderr or b""
    return code, out, err, time.monotonic() - start


def verdict(code, out, err, seconds, limit, check_output=True):
    lines = [l for l in err.decode("utf-8", "replace").splitlines() if l.strip()]
    problems = []
    if code not in (0, 1):
        problems.append(f"exit {code}")
    if code == 1 and len(lines) != 1:
        problems.append(f"{len(lines)} error lines")
    if code == 0 and lines:
        problems.append(f"{len(lines)} lines on stderr")
    if seconds > limit:
        problems.append(f"{seconds:.1f} s")
    if FORBIDDEN.search(err) or (check_output and FORBIDDEN.search(out)):
        problems.append("control bytes")
    return problems, (lines[0] if lines else "")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=str(ROOT / ".build/debug/newsstand"))
    parser.add_argument("--fuzz", action="store_true", help="also every input of Fuzz/corpus/pdf")
    parser.add_argument("--limit", type=float, default=20.0, help="the worker's wall clock (PDFWorker.Limits)")
    parser.add_argument("--verbose", action="store_true", help="print each failing run's first error line")
    options = parser.parse_args()
    work = pathlib.Path(tempfile.mkdtemp(prefix="pdf-paths-"))
    folder = work / "hostile"
    folder.mkdir()
    for name, data in hostile().items():
        (folder / name).write_bytes(data)
    files = sorted(folder.iterdir())
    if options.fuzz:
        fuzz = work / "fuzz"
        fuzz.mkdir()
        for seed in sorted((ROOT / "Fuzz/corpus/pdf").iterdir()):
            (fuzz / (seed.name[:12] + ".pdf")).write_bytes(seed.read_bytes())
        files += sorted(fuzz.iterdir())

    paths = [("read --plain", lambda f: ["read", "--plain", str(f)], True),
             ("render 80x24", lambda f: ["render", str(f), "--page", "1", "--size", "80x24"], False),
             ("render png", lambda f: ["render", str(f), "--output", str(work / "x.png")], True),
             ("inspect --text", lambda f: ["inspect", "archive", str(f), "--text"], True)]
    print(f"{'file':<26}" + "".join(f"{name:>20}" for name, _, _ in paths))
    escaped, slowest, runs = [], 0.0, 0
    for index, file in enumerate(files):
        row = f"{file.name[:25]:<26}"
        for name, arguments, check in paths:
            home = work / f"home-{index}-{name.replace(' ', '')}"
            code, out, err, seconds = run(options.bin, arguments(file), home, options.limit)
            problems, line = verdict(code, out, err, seconds, options.limit, check)
            runs += 1
            slowest = max(slowest, seconds)
            cell = f"{code} {seconds:.2f}s" + (" !" if problems else " ~" if seconds > 5 else "")
            row += f"{cell:>20}"
            if problems:
                escaped.append((file.name, name, problems, line))
        print(row, flush=True)

    for label, source in [("hostile", folder)] + ([("fuzz", work / "fuzz")] if options.fuzz else []):
        home = work / f"home-subscribe-{label}"
        code, out, err, seconds = run(options.bin, ["subscribe", str(source)], home, options.limit * 2)
        problems, line = verdict(code, out, err, seconds, options.limit * 2)
        runs += 1
        print(f"subscribe {label} folder: exit {code}, {seconds:.2f} s, {len(out.splitlines())} lines out, "
              f"{len(err.splitlines())} on stderr" + (f" ! {problems}" if problems else ""))
        if problems:
            escaped.append((label, "subscribe", problems, line))
        code, out, err, seconds = run(options.bin, ["issues"], home, options.limit)
        problems, line = verdict(code, out, err, seconds, options.limit)
        runs += 1
        print(f"issues after it: exit {code}, {seconds:.2f} s, {len(out.splitlines())} lines" + (f" ! {problems}" if problems else ""))
        if options.verbose:
            sys.stdout.write(out.decode("utf-8", "replace"))
        if problems:
            escaped.append((label, "issues", problems, line))

    print(f"{len(files)} files, {runs} runs, slowest {slowest:.2f} s; escaped: {len(escaped)}")
    for file, name, problems, line in escaped:
        print(f"  {file} / {name}: {', '.join(problems)}: {line[:120]}")
    subprocess.run(["rm", "-rf", str(work)])
    return 1 if escaped else 0


if __name__ == "__main__":
    sys.exit(main())
