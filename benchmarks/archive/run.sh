#!/usr/bin/env bash
# Extraction benchmark for issue 4 (never run by `swift test`):
# a ~100 MB archive of 200 files, release build, same disk, newsstand against `unzip -q`.
#   benchmarks/archive/run.sh [RUNS]
# newsstand is timed as `inspect archive FILE` with TMPDIR on the same disk: that extracts
# (with every check: central directory, local headers, CRC-32 via zlib), opens the issue and
# removes the folder again; unzip is timed as `unzip -q FILE -d DIR && rm -rf DIR`, so both
# sides pay for the removal. Peak memory is /usr/bin/time -v's maximum resident set size.
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-5}
work=$(mktemp -d "$PWD/.build/archive-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

swift build -c release --product newsstand >/dev/null
bin=$(swift build -c release --show-bin-path)/newsstand
python3 benchmarks/archive/make_archive.py "$work/issue.zip" >/dev/null
echo "archive: $(du -m "$work/issue.zip" | cut -f1) MB, $(unzip -Z1 "$work/issue.zip" | wc -l) entries, $(unzip -Zt "$work/issue.zip" | awk '{print $3}') bytes uncompressed"

measure() { # label command...; prints median seconds and peak RSS
    local label=$1; shift
    local times=() cpus=() peak=0
    for _ in $(seq "$runs"); do
        sync
        /usr/bin/time -v -o "$work/time.txt" "$@" >/dev/null
        times+=("$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,a,":"); s=0; for(i=1;i<=n;i++) s=s*60+a[i]; print s}' "$work/time.txt")")
        cpus+=("$(awk -F': ' '/User time/ {u=$2} /System time/ {s=$2} END {print u+s}' "$work/time.txt")")
        local rss; rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$work/time.txt")
        (( rss > peak )) && peak=$rss
    done
    local median; median=$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    local cpu; cpu=$(printf '%s\n' "${cpus[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    printf '%-12s median %6.3f s wall, %6.3f s CPU (user+sys) over %d runs   peak RSS %5.1f MB\n' \
        "$label" "$median" "$cpu" "$runs" "$(echo "$peak / 1024" | bc -l)"
    echo "$median" > "$work/$label.median"
}

measure unzip bash -c "unzip -q '$work/issue.zip' -d '$work/unzip-out' && rm -rf '$work/unzip-out'"
measure newsstand env TMPDIR="$work" "$bin" inspect archive "$work/issue.zip"
ratio=$(echo "$(cat "$work/newsstand.median") / $(cat "$work/unzip.median")" | bc -l)
printf 'newsstand / unzip time: %.2f (goal <= 0.80)\n' "$ratio"
