#!/usr/bin/env python3
"""Reads libFuzzer's output on stdin, writes it with elapsed seconds to the log named by
argv[1], and prints the coverage/time curve: the first line reaching each new coverage
count, thinned to at most ~30 rows, and how long the last stretch went without news."""
import re
import sys
import time

start = time.monotonic()
rows = []          # (seconds, execs, cov, features, corpus)
crashed = None
# `#123 NEW cov: ...`, or with -fork=N `#123: cov: ...`.
pattern = re.compile(r"^#(\d+):?\s+(?:\w+\s+)?cov: (\d+) ft: (\d+) corp: (\d+)")
with open(sys.argv[1], "w") as log:
    for line in sys.stdin:
        elapsed = time.monotonic() - start
        log.write(f"{elapsed:8.1f} {line}")
        log.flush()
        match = pattern.match(line)
        if match:
            execs, cov, ft, corp = map(int, match.groups())
            if not rows or ft > rows[-1][3] or cov > rows[-1][2]:
                rows.append((elapsed, execs, cov, ft, corp))
        if "ERROR: " in line or "Fatal error" in line or "==ERROR" in line or "artifact_prefix" in line:
            crashed = line.strip()
            sys.stdout.write(line)
        elif line.startswith("stat::") or line.startswith("Done"):
            sys.stdout.write(line)
end = time.monotonic() - start
step = max(1, len(rows) // 30)
print(f"{'seconds':>8} {'execs':>10} {'cov':>6} {'ft':>7} {'corpus':>7}")
for i, (t, e, c, f, n) in enumerate(rows):
    if i % step == 0 or i == len(rows) - 1:
        print(f"{t:8.0f} {e:10d} {c:6d} {f:7d} {n:7d}")
if rows:
    last_cov = max(r[0] for r in rows if r[2] == rows[-1][2])
    first_cov = min(r[0] for r in rows if r[2] == rows[-1][2])
    print(f"final cov {rows[-1][2]} reached at {first_cov:.0f}s; last new feature at {rows[-1][0]:.0f}s; ran {end:.0f}s")
if crashed:
    print("CRASH:", crashed)
