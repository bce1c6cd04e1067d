#!/usr/bin/env bash
# Side-by-side benchmark of `newsstand render` against `chafa --symbols vhalf`, in one run:
# quality (mean CIEDE2000 from ../shared/tools/halfblock_quality.py) in truecolor, 256 and
# 16 colours; whole-process wall time (hyperfine, or a loop without it); instructions
# executed (valgrind's callgrind: repeatable on a loaded machine); peak memory
# (/usr/bin/time -v); twenty covers in one process; then the in-process benchmark
# (shelf.sh: one cover step by step, 24 different covers through CoverCache).
# Never run by `swift test`.
#
#   benchmarks/imaging/run.sh [IMAGE...]        (default: ../shared/covers/*)
#   SIZE=30x22 RUNS=30 NEWSSTAND=path/to/binary benchmarks/imaging/run.sh
#
# Needs: swift, chafa (apt-get install chafa), python3 with numpy and Pillow
# (pip install pillow); hyperfine and valgrind are used when installed.
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

# Instruction counts (valgrind's callgrind) are repeatable on a shared, loaded machine,
# unlike wall time. Valgrind 3.19 cannot read the DWARF 5 that Swift writes: count a copy
# without debug information.
instructions() {  # COMMAND... -> instructions executed (all threads), in millions
    if command -v valgrind >/dev/null; then
        valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
            awk '/refs:/ { gsub(",", "", $NF); printf "%.1f\n", $NF / 1e6 }'
    else
        echo "-"
    fi
}
stripped="$work/newsstand-stripped"
objcopy --strip-debug "$NEWSSTAND" "$stripped" 2>/dev/null || cp "$NEWSSTAND" "$stripped"

score() {  # ANSI_FILE IMAGE [KEY] -> mean dE00 (or another metric)
    python3 "$quality" "$1" "$2" "$size" --json |
        python3 -c 'import json,sys; print("%.3f" % json.load(sys.stdin)[sys.argv[1]])' "${3:-dE00_mean}"
}

echo "newsstand render vs chafa $(chafa --version | head -1 | awk '{print $3}') --symbols vhalf, $size cells, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
echo
echo "(quality: mean ΔE00, for 16 colours also after a 3×3 blur, which credits dithering; times: mean wall clock"
echo " over $runs runs, user CPU in brackets; instructions: callgrind, all threads; ratios ours ÷ chafa)"
printf '| %-20s | %-9s | %-15s | %-15s | %-12s | %-12s | %-5s | %-9s | %-9s | %-5s | %-7s | %-8s |\n' image colours "ours ΔE00" "chafa ΔE00" "ours ms" "chafa ms" ratio "ours Minstr" "chafa Minstr" ratio "ours MB" "chafa MB"
printf '|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|\n' "----------------------" "-----------" "-----------------" "-----------------" "--------------" "--------------" "-------" "-----------" "-----------" "-------" "---------" "----------"
for image in "${images[@]}"; do
    for mode in truecolor 256 16; do
        ours "$mode" "$image" >"$work/ours.ans"
        theirs "$mode" "$image" >"$work/chafa.ans" 2>/dev/null
        ours_q="$(score "$work/ours.ans" "$image")"
        chafa_q="$(score "$work/chafa.ans" "$image")"
        if [ "$mode" = 16 ]; then
            ours_q="$ours_q / $(score "$work/ours.ans" "$image" dE00_blur3_mean)"
            chafa_q="$chafa_q / $(score "$work/chafa.ans" "$image" dE00_blur3_mean)"
        fi
        ours_ms="$(mean_ms "$NEWSSTAND" render --size "$size" --colors "$mode" "$image")"
        chafa_ms="$(mean_ms chafa --symbols vhalf --size "$size" -c "$(chafa_colors "$mode")" --animate off "$image")"
        ours_i="$(instructions "$stripped" render --size "$size" --colors "$mode" "$image")"
        chafa_i="$(instructions chafa --symbols vhalf --size "$size" -c "$(chafa_colors "$mode")" --animate off "$image")"
        printf '| %-20s | %-9s | %-15s | %-15s | %-12s | %-12s | %5s | %9s | %9s | %5s | %7s | %8s |\n' "$(basename "$image")" "$mode" \
            "$ours_q" "$chafa_q" "$ours_ms" "$chafa_ms" \
            "$(awk -v a="${ours_ms%% *}" -v b="${chafa_ms%% *}" 'BEGIN { printf "%.2f", a / b }')" \
            "$ours_i" "$chafa_i" "$(awk -v a="$ours_i" -v b="$chafa_i" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')" \
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

# In-process: one cover step by step, and a shelf of 24 different covers (shelf.sh).
echo
"$root/benchmarks/imaging/shelf.sh" "$root/sample-feed"
