#!/usr/bin/env bash
# Catalogs benchmark (issue #25): a loopback OPDS catalog (server.py, 1,000 books, 50 a
# page), newsstand's release build against curl, the floor any client has to pay.
# Usage: [ROUNDS=5] [NEWSSTAND_BIN=…] benchmarks/catalogs/run.sh [BOOKS] [PER_PAGE]
#
# Each round, on a fresh NEWSSTAND_HOME:
#  - browse: `newsstand browse URL/opds/new` (one page of 50: fetch, parse, print), a whole
#    process, against `curl -s URL/opds/new`;
#  - subscribe: `newsstand subscribe URL/opds/new` (all 20 pages fetched, parsed, 1,000
#    issues stored, the newest covers fetched), against curl fetching the 20 pages one after
#    another into files (`curl -s URL?page=0 URL?page=1 …`, one connection).
# Medians of the rounds; wall time by `date +%s%N` around each command, memory the maximum
# resident set /usr/bin/time reports.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
books="${1:-1000}"
per_page="${2:-50}"
rounds="${ROUNDS:-5}"
work="$(mktemp -d /tmp/catalogs-bench.XXXXXX)"
server_pid=""
cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

cd "$root"
if [ -n "${NEWSSTAND_BIN:-}" ]; then
    bin="$NEWSSTAND_BIN"
else
    echo "== building newsstand (release)"
    swift build -c release --product newsstand 2>&1 | grep -E "error|Build" | tail -2
    bin="$(swift build -c release --show-bin-path)/newsstand"
fi

coproc SERVER { exec python3 "$root/benchmarks/catalogs/server.py" "$books" "$per_page"; }
server_pid=$SERVER_PID
read -r port <&"${SERVER[0]}"
base="http://127.0.0.1:$port"
pages=$(( (books + per_page - 1) / per_page ))
mkdir -p "$work/resources/sample-feed"

timed() {  # output-file command...: appends "wall-seconds kb" of the run (wall to the millisecond)
    local into="$1"; shift
    local start end
    start=$(date +%s%N)
    /usr/bin/time -f "%M" -o "$work/time.txt" "$@" > "$work/out" 2>&1 || { cat "$work/out"; return 1; }
    end=$(date +%s%N)
    echo "$(awk "BEGIN {printf \"%.3f\", ($end - $start) / 1e9}") $(cat "$work/time.txt")" >> "$into"
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

page_urls=()
for ((p = 0; p < pages; p++)); do page_urls+=("$base/opds/new?page=$p"); done
: > "$work/browse"; : > "$work/curl-page"; : > "$work/subscribe"; : > "$work/curl-all"
for ((r = 1; r <= rounds; r++)); do
    rm -rf "$work/home"
    timed "$work/browse" env NEWSSTAND_HOME="$work/home" NEWSSTAND_RESOURCES="$work/resources" "$bin" browse "$base/opds/new"
    timed "$work/curl-page" curl -sf -o "$work/page.xml" "$base/opds/new"
    timed "$work/subscribe" env NEWSSTAND_HOME="$work/home" NEWSSTAND_RESOURCES="$work/resources" "$bin" subscribe "$base/opds/new"
    grep -q "$books new issue" "$work/out" || { echo "subscribe did not list $books issues:"; cat "$work/out"; exit 1; }
    (cd "$work" && timed "$work/curl-all" curl -sf --remote-name-all "${page_urls[@]}")
done
issues=$(sqlite3 "$work/home/data/library.sqlite" "SELECT count(*) FROM issue")
b=$(cut -d' ' -f1 "$work/browse" | median); c=$(cut -d' ' -f1 "$work/curl-page" | median)
s=$(cut -d' ' -f1 "$work/subscribe" | median); a=$(cut -d' ' -f1 "$work/curl-all" | median)
sm=$(cut -d' ' -f2 "$work/subscribe" | median)
echo "books $books, $per_page a page ($pages pages), rounds $rounds, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "browse one page:   newsstand ${b}s   curl ${c}s   ratio $(awk "BEGIN {printf \"%.1f\", $b / $c}")×"
echo "subscribe all:     newsstand ${s}s (peak $((sm / 1024)) MB, $issues issues stored)   curl ${a}s   ratio $(awk "BEGIN {printf \"%.1f\", $s / $a}")×"
