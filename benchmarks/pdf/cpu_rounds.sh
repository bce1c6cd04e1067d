#!/usr/bin/env bash
# One PDF page as a whole process, by CPU: `newsstand render FILE.pdf --page 1 --size 120x40`
# (both its processes: `perf stat` counts children) against `pdftoppm -scale-to 80` and
# `mutool draw -w 120 -h 80` of the same page, in interleaved rounds of `perf stat -r 10`, so
# a shared machine's load falls on every tool alike. Prints each round, then the medians and
# the ratios the goal is stated in (#31: no slower than pdftoppm, ≤ 1.5× mutool). Never run
# by `swift test`.
#
#   NEWSSTAND=BIN [BASELINE=OLD_BIN] [ROUNDS=6] benchmarks/pdf/cpu_rounds.sh FILE.pdf…
#
# Needs: perf, poppler-utils, mupdf-tools; `newsstand-pdf-draw` beside each newsstand.
set -euo pipefail
rounds="${ROUNDS:-6}"
[ -n "${NEWSSTAND:-}" ] || { echo "NEWSSTAND=path/to/release/newsstand is needed" >&2; exit 1; }
tools=(newsstand)
[ -n "${BASELINE:-}" ] && tools+=(before)
tools+=(pdftoppm mutool)
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for pdf in "$@"; do
    for round in $(seq "$rounds"); do
        for tool in "${tools[@]}"; do
            case $tool in
                newsstand) command=("$NEWSSTAND" render "$pdf" --page 1 --size 120x40 --colors truecolor);;
                before) command=("$BASELINE" render "$pdf" --page 1 --size 120x40 --colors truecolor);;
                pdftoppm) command=(pdftoppm -f 1 -l 1 -scale-to 80 "$pdf" "$work/pdftoppm");;
                mutool) command=(mutool draw -q -w 120 -h 80 -o "$work/mutool.ppm" "$pdf" 1);;
            esac
            # The figures go to a file of their own: mutool warns on standard error.
            perf stat -r 10 -x, -o "$work/stat" -e task-clock,page-faults "${command[@]}" >/dev/null 2>&1
            figures=$(grep -E '^[0-9.]+,' "$work/stat" | cut -d, -f1 | paste -sd' ')
            echo "$(basename "$pdf") $round $tool $figures $(cut -d' ' -f1 /proc/loadavg)" | tee -a "$work/rounds"
        done
    done
done
python3 - "$work/rounds" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
for pdf in dict.fromkeys(r[0] for r in rows):
    cpu = {}
    faults = {}
    loads = [float(r[5]) for r in rows if r[0] == pdf]
    for r in rows:
        if r[0] == pdf:
            cpu.setdefault(r[2], []).append(float(r[3]))
            faults.setdefault(r[2], []).append(float(r[4]))
    median = {tool: statistics.median(v) for tool, v in cpu.items()}
    print(f"{pdf}: load {min(loads):.1f}-{max(loads):.1f}, median CPU ms of {len(cpu['newsstand'])} rounds (page faults)")
    for tool, value in median.items():
        print(f"  {tool:10s} {value:7.1f} ms ({statistics.median(faults[tool]):.0f})"
              f"  {value / median['pdftoppm']:.2f}x pdftoppm  {value / median['mutool']:.2f}x mutool")
PY
