#!/usr/bin/env bash
# Feed benchmark: a generated 20,000-entry Newsstand Atom feed, parsed by the release
# build of Feeds (from the file, then fetched from a loopback server), and the whole
# `newsstand subscribe` / `refresh` commands (fetch, parse, store in the library), against
# newsboat reloading the same feed from the same server (`apt-get install newsboat`).
# Usage: [ROUNDS=5] benchmarks/feeds/run.sh [ENTRIES]     (run from anywhere; a few minutes)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
entries="${1:-20000}"
work="$(mktemp -d /tmp/feeds-bench.XXXXXX)"
server_pid=""
cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

echo "== building Feeds (release)"
cd "$root"
swift build -c release --product newsstand 2>&1 | grep -E "error|Compiling|Build" | tail -2
bin="$(swift build -c release --show-bin-path)"
swiftc -O -I "$bin/Modules" -I "$bin" "$root/benchmarks/feeds/bench.swift" \
    "$bin"/Feeds.build/*.o "$bin"/Markup.build/*.o -o "$work/bench"

echo "== generating a $entries-entry feed"
python3 "$root/benchmarks/feeds/generate.py" "$work/feed.xml" "$entries"
ls -l "$work/feed.xml" | awk '{printf "feed.xml %.1f MB\n", $5 / 1048576}'

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$work" >/dev/null 2>&1 &
server_pid=$!
for _ in $(seq 50); do curl -sf -o /dev/null "http://127.0.0.1:$port/feed.xml" && break; sleep 0.1; done
url="http://127.0.0.1:$port/feed.xml"

measure() {  # label, command...: wall time and peak memory of one run
    local label="$1"; shift
    /usr/bin/time -f "%e %M %U %S" -o "$work/time" "$@" > "$work/out" 2>&1 || { cat "$work/out"; return 1; }
    read -r wall kb user sys < "$work/time"
    printf "%-38s wall %6.2f s  cpu %6.2f s  peak %6.1f MB   %s\n" "$label" "$wall" "$(echo "$user + $sys" | bc -l)" \
        "$(echo "$kb / 1024" | bc -l)" "$(tail -1 "$work/out")"
    printf "%s\t%s\t%s\n" "$label" "$wall" "$(echo "$kb / 1024" | bc -l)" >> "$work/rows"
}

echo "== results (wall and CPU time of the whole process, peak resident memory; the machine may be shared)"
measure "newsstand Feeds: parse file x1" "$work/bench" --runs 1 "$work/feed.xml"
measure "newsstand Feeds: parse file x5" "$work/bench" --runs 5 "$work/feed.xml"
measure "newsstand Feeds: fetch+parse x5" "$work/bench" --runs 5 "$url"
measure "newsstand Feeds: fetch+parse x1" "$work/bench" --runs 1 "$url"

# The whole commands against newsboat, in rounds that interleave the two tools so that a
# shared machine's changing speed falls on both alike. Each round, on a fresh library and
# a fresh newsboat cache: newsstand subscribe, newsstand refresh (unchanged: 304), newsboat
# reload (empty cache); then one more entry and a newer Last-Modified: newsstand refresh and
# newsboat reload (cache full), each fetching, parsing and comparing the whole feed.
rounds="${ROUNDS:-5}"
python3 "$root/benchmarks/feeds/generate.py" "$work/feed-next.xml" "$((entries + 1))"
cp "$work/feed.xml" "$work/feed-first.xml"
# No sample publications in the fresh library: an empty sample-feed folder, or the program
# would find the checkout's beside its build and subscribe them.
mkdir -p "$work/resources/sample-feed" "$work/home"
cat > "$work/run-newsstand" <<NS
#!/bin/sh
NEWSSTAND_HOME="$work/ns-home" NEWSSTAND_RESOURCES="$work/resources" exec "$bin/newsstand" "\$@"
NS
cat > "$work/newsboat-reload" <<NB
#!/bin/sh
HOME="$work/home" exec newsboat -u "$work/home/urls" -c "$work/home/cache.db" -C "$work/home/config" -x reload
NB
chmod +x "$work/run-newsstand" "$work/newsboat-reload"
echo "$url" > "$work/home/urls"
: > "$work/home/config"
newsboat=$(command -v newsboat || true)
[ -n "$newsboat" ] || echo "newsboat not installed (apt-get install newsboat): comparison skipped"
: > "$work/rows"
for round in $(seq "$rounds"); do
    rm -rf "$work/ns-home" "$work/home/cache.db"
    cp "$work/feed-first.xml" "$work/feed.xml"
    touch -d "@$(( $(date +%s) - 100 ))" "$work/feed.xml"
    measure "newsstand subscribe (empty library)" "$work/run-newsstand" subscribe "$url"
    measure "newsstand refresh (unchanged: 304)" "$work/run-newsstand" refresh
    [ -z "$newsboat" ] || measure "newsboat -x reload (empty cache)" "$work/newsboat-reload"
    cp "$work/feed-next.xml" "$work/feed.xml"
    touch -d "@$(( $(date +%s) + 5 ))" "$work/feed.xml"
    measure "newsstand refresh (changed: +1 entry)" "$work/run-newsstand" refresh
    [ -z "$newsboat" ] || measure "newsboat -x reload (cache full, +1)" "$work/newsboat-reload"
done
echo "newsstand stored $(sqlite3 "$work/ns-home/data/library.sqlite" 'select count(*) from issue' 2>/dev/null || echo '?') issues;" \
    "newsboat $(sqlite3 "$work/home/cache.db" 'select count(*) from rss_item' 2>/dev/null || echo '?') items"

echo "== medians of $rounds rounds (wall s, peak MB) and ratios of the medians"
python3 - "$work/rows" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    label, wall, mb = line.rstrip("\n").split("\t")
    rows.setdefault(label, []).append((float(wall), float(mb)))
med = {k: statistics.median(w for w, _ in v) for k, v in rows.items()}
for label, values in rows.items():
    walls = sorted(w for w, _ in values)
    print(f"{label:40} median {med[label]:5.2f} s  min {walls[0]:5.2f}  max {walls[-1]:5.2f}  peak {max(m for _, m in values):6.1f} MB")
for ours, theirs in [("newsstand subscribe (empty library)", "newsboat -x reload (empty cache)"),
                     ("newsstand refresh (changed: +1 entry)", "newsboat -x reload (cache full, +1)"),
                     ("newsstand refresh (unchanged: 304)", "newsboat -x reload (cache full, +1)")]:
    if ours in med and theirs in med:
        print(f"{ours} vs {theirs}: {med[theirs] / med[ours]:.1f}x faster")
PY
