#!/usr/bin/env bash
# Side-by-side benchmark of `newsstand render` against `chafa --symbols vhalf`:
# quality (mean CIEDE2000 from ../shared/tools/halfblock_quality.py), whole-process time
# (hyperfine, or a loop without it), peak memory (/usr/bin/time -v) and twenty covers in
# one process. Never run by `swift test`.
#
#   benchmarks/imaging/run.sh [IMAGE...]        (default: ../shared/covers/*)
#   SIZE=30x22 RUNS=30 NEWSSTAND=path/to/binary benchmarks/imaging/run.sh
#
# The in-process part (benchmarks/imaging/shelf.swift) is compiled against the release
# build's Imaging object files, so it needs `swift build -c release` to have run here.
#
# Needs: swift, chafa (apt-get install chafa), python3 with numpy and Pillow
# (pip install pillow); hyperfine is used when installed.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
shared="${SHARED:-$root/../shared}"
size="${SIZE:-30x22}"
runs="${RUNS:-30}"
quality="$shared/tools/halfblock_quality.py"
export LANG=C.UTF-8 LC_ALL=C.UTF-8

if [ "$#" -gt 0 ]; then images=("$@"); else images=("$shared"/covers/*.jpg "$shared"/covers/*.png); fi
command -v chafa >/dev/null || { echo "chafa is missing: apt-get install chafa" >&2; exit 1; }
[ -f "$quality" ] || { echo "quality script not found at $quality" >&2; exit 1; }

if [ -z "${NEWSSTAND:-}" ]; then
    (cd "$root" && swift build -c release --product newsstand >&2)
    NEWSSTAND="$root/.build/release/newsstand"
fi
"$NEWSSTAND" render --help >/dev/null 2>&1 || { echo "$NEWSSTAND has no render command" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

chafa_colors() { case "$1" in truecolor) echo full ;; *) echo "$1" ;; esac; }
ours() { "$NEWSSTAND" render --size "$size" --colors "$1" "${@:2}"; }
theirs() { local mode="$1"; shift; chafa --symbols vhalf --size "$size" -c "$(chafa_colors "$mode")" --animate off "$@"; }

score() {  # ANSI_FILE IMAGE -> mean dE00
    python3 "$quality" "$1" "$2" "$size" --json |
        python3 -c 'import json,sys; print("%.3f" % json.load(sys.stdin)["dE00_mean"])'
}

mean_ms() {  # COMMAND... -> mean wall time in ms (and user CPU time, which load disturbs less)
    if command -v hyperfine >/dev/null; then
        hyperfine -N --warmup 3 --runs "$runs" --export-json "$work/h.json" "$(printf '%q ' "$@")" >/dev/null 2>&1
        python3 -c 'import json,sys; r = json.load(open(sys.argv[1]))["results"][0]; print("%.1f (%.1f)" % (r["mean"] * 1000, r["user"] * 1000))' "$work/h.json"
    else
        local start end
        start=$(date +%s%N)
        for _ in $(seq "$runs"); do "$@" >/dev/null; done
        end=$(date +%s%N)
        echo "$(( (end - start) / runs / 1000 ))" | awk '{ printf "%.1f\n", $1 / 1000 }'
    fi
}

peak_mb() {  # COMMAND... -> peak resident memory in MB
    /usr/bin/time -v "$@" 2>&1 >/dev/null | awk -F: '/Maximum resident/ { printf "%.1f\n", $2 / 1024 }'
}

echo "newsstand render vs chafa $(chafa --version | head -1 | awk '{print $3}') --symbols vhalf, $size cells, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores"
echo
echo "(times: mean wall clock, and in brackets mean user CPU, over $runs runs)"
printf '| %-22s | %-9s | %9s | %9s | %12s | %12s | %8s | %8s |\n' image colours "ours ΔE00" "chafa ΔE00" "ours ms" "chafa ms" "ours MB" "chafa MB"
printf '|%s|%s|%s|%s|%s|%s|%s|%s|\n' "------------------------" "-----------" "-----------" "------------" "--------------" "--------------" "----------" "----------"
for image in "${images[@]}"; do
    for mode in truecolor 256; do
        ours "$mode" "$image" >"$work/ours.ans"
        theirs "$mode" "$image" >"$work/chafa.ans" 2>/dev/null
        printf '| %-22s | %-9s | %9s | %10s | %12s | %12s | %8s | %8s |\n' "$(basename "$image")" "$mode" \
            "$(score "$work/ours.ans" "$image")" "$(score "$work/chafa.ans" "$image")" \
            "$(mean_ms "$NEWSSTAND" render --size "$size" --colors "$mode" "$image")" \
            "$(mean_ms chafa --symbols vhalf --size "$size" -c "$(chafa_colors "$mode")" --animate off "$image")" \
            "$(peak_mb "$NEWSSTAND" render --size "$size" --colors "$mode" "$image")" \
            "$(peak_mb chafa --symbols vhalf --size "$size" -c "$(chafa_colors "$mode")" --animate off "$image")"
    done
done

# Twenty covers, truecolor: in one process, and as twenty processes.
batch=()
while [ "${#batch[@]}" -lt 20 ]; do batch+=("${images[@]}"); done
batch=("${batch[@]:0:20}")
ours_one="$(mean_ms "$NEWSSTAND" render --size "$size" --colors truecolor "${batch[0]}")"
ours_batch="$(mean_ms "$NEWSSTAND" render --size "$size" --colors truecolor "${batch[@]}")"
chafa_batch="$(mean_ms chafa --symbols vhalf --size "$size" -c full --animate off "${batch[@]}")"
echo
echo "20 covers in one process: ours ${ours_batch} ms, chafa ${chafa_batch} ms"
echo "in-process per cover (ours, wall (t20 - t1) / 19): $(awk -v a="${ours_batch%% *}" -v b="${ours_one%% *}" 'BEGIN { printf "%.2f", (a - b) / 19 }') ms"

# In-process: decode and render times, and a shelf of 24 covers through CoverCache.
release="$root/.build/release"
if [ -d "$release/Imaging.build" ]; then
    swiftc -O -module-cache-path "$work/module-cache" "$root/benchmarks/imaging/shelf.swift" \
        -I "$release/Modules" -Xcc -fmodule-map-file="$release/CImageCodecs.build/module.modulemap" \
        "$release"/Imaging.build/*.o "$release/CImageCodecs.build/codecs.c.o" -lpng16 -ljpeg -lz -o "$work/shelf"
    echo
    "$work/shelf" "${images[@]}"
fi
