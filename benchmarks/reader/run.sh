#!/usr/bin/env bash
# Reader benchmark (issue 8): open a 2 MB-text EPUB to its first page, and a page turn.
# Goals: first page <= 150 ms, page turn <= 16 ms. Release build; not part of `swift test`.
#
#   benchmarks/reader/run.sh [RUNS]
#
# Each run is a fresh process (cold: nothing parsed or laid out before), for both shapes
# of the book: one 2 MB chapter, and 40 chapters of 50 KB.
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${1:-3}
BUILD_LOG=$(mktemp)
swift build -c release --product newsstand-bench-reader > "$BUILD_LOG" 2>&1 || { cat "$BUILD_LOG" >&2; exit 1; }
rm -f "$BUILD_LOG"
BENCH=$(swift build -c release --show-bin-path)/newsstand-bench-reader
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
# Page turns start at once after the first page (the worst case: a long article's first
# part runs out before the rest is read), or after 300 ms looking at it.
for shape in one chapters; do
    for pause in 0 300; do
        for run in $(seq 1 "$RUNS"); do
            echo "--- run $run"
            "$BENCH" --shape "$shape" --turns 200 --pause-ms "$pause"
        done
    done
done
