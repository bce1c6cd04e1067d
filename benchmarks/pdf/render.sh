#!/usr/bin/env bash
# One PDF page as a whole process, side by side in one hyperfine run: `newsstand render
# FILE.pdf --page 1 --size 120x40` (a 120×80-pixel picture drawn as half blocks) against
# `pdftoppm -scale-to 80` and `mutool draw -w 120 -h 80` making the same picture size
# (their default raw PPM, no compression), with ratios to the fastest. Never run by
# `swift test`.
#
#   benchmarks/pdf/render.sh [FILE.pdf]     (default: a 12-page magazine made by make_magazine.py)
#   RUNS=50 NEWSSTAND=path/to/newsstand benchmarks/pdf/render.sh
#   BASELINE=path/to/older/newsstand …     (adds it as `before`, in the same interleaved run)
#
# Needs: hyperfine, poppler-utils, mupdf-tools (apt-get install hyperfine poppler-utils
# mupdf-tools); `newsstand-pdf-draw` must sit beside NEWSSTAND (a release build puts it there).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
runs="${RUNS:-30}"
for tool in hyperfine pdftoppm mutool; do
    command -v "$tool" >/dev/null || { echo "$tool is missing: apt-get install hyperfine poppler-utils mupdf-tools" >&2; exit 1; }
done

if [ -z "${NEWSSTAND:-}" ]; then
    (cd "$root" && swift build -c release --product newsstand >&2 && swift build -c release --product newsstand-pdf-draw >&2)
    NEWSSTAND="$root/.build/release/newsstand"
fi
[ -x "$(dirname "$NEWSSTAND")/newsstand-pdf-draw" ] || { echo "no newsstand-pdf-draw beside $NEWSSTAND" >&2; exit 1; }
baseline=()
if [ -n "${BASELINE:-}" ]; then
    [ -x "$(dirname "$BASELINE")/newsstand-pdf-draw" ] || { echo "no newsstand-pdf-draw beside $BASELINE" >&2; exit 1; }
    baseline=(-n before "$BASELINE render __PDF__ --page 1 --size 120x40 --colors truecolor")
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
pdf="${1:-}"
if [ -z "$pdf" ]; then
    pdf="$work/magazine.pdf"
    python3 "$here/make_magazine.py" "$pdf"
fi

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $(pdftoppm -v 2>&1 | head -1); mutool $(mutool -v 2>&1 | awk '{print $NF; exit}')" >&2
echo "file: $pdf ($(stat -c %s "$pdf") bytes)" >&2
hyperfine -N --warmup 5 --runs "$runs" --export-json "$work/render.json" \
    -n newsstand "$NEWSSTAND render $pdf --page 1 --size 120x40 --colors truecolor" \
    "${baseline[@]/__PDF__/$pdf}" \
    -n pdftoppm "pdftoppm -f 1 -l 1 -scale-to 80 $pdf $work/pdftoppm" \
    -n mutool "mutool draw -q -w 120 -h 80 -o $work/mutool.ppm $pdf 1" >&2
python3 - "$work/render.json" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
fastest = min(r["mean"] for r in results)
print("%-10s %10s %10s %10s %8s" % ("tool", "mean ms", "min ms", "user ms", "ratio"))
for r in results:
    print("%-10s %10.1f %10.1f %10.1f %8.2f" % (r["command"], r["mean"] * 1000, r["min"] * 1000, r["user"] * 1000,
                                                r["mean"] / fastest))
PY
