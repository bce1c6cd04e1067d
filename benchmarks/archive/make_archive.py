#!/usr/bin/env python3
"""Writes a ~100 MB zip of ~200 files: half prose-like text (compressible), half random bytes
(incompressible), deflated, the way issue archives mix articles and pictures."""
import os
import random
import sys
import zipfile

out = sys.argv[1]
rng = random.Random(2026)
words = ("harbour tide ledger morning column letter editor weather market story print page issue "
         "reader kiosk paper ink cover fold staple headline byline").split()
with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=6) as z:
    for i in range(100):
        lines = []
        size = 0
        while size < 450_000:
            line = " ".join(rng.choice(words) for _ in range(14)) + ".\n"
            lines.append(line)
            size += len(line)
        z.writestr(f"articles/article {i + 1}.html", "<p>" + "".join(lines) + "</p>")
    for i in range(100):
        z.writestr(f"images/plate {i + 1}.jpg", os.urandom(920_000), compress_type=zipfile.ZIP_STORED if i % 2 else zipfile.ZIP_DEFLATED)
print(out, os.path.getsize(out))
