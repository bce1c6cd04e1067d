#!/usr/bin/env bash
# Editions benchmark (issue #23): build an edition of 50 articles with 50 pictures from a
# loopback server, newsstand's release build against calibre's `ebook-convert` running a
# news recipe for the same feed (apt-get install --no-install-recommends calibre).
# Usage: [ROUNDS=3] [DELAY_MS=0] [NEWSSTAND_BIN=…] benchmarks/editions/run.sh [ARTICLES]     (run from anywhere)
# DELAY_MS: the loopback server answers each picture after that many milliseconds, as a
# remote host would (0: at once), so how many pictures a tool fetches at a time shows.
#
# newsstand, on a fresh NEWSSTAND_HOME each round: `subscribe URL --editions "per refresh"`
# (fetch and store the feed: one edition of every article), then `download EDITION` queues
# the build while this script holds the agent's lock (so no background agent starts), then
# `newsstand agent` builds it in the foreground (fetch the pictures, clean the HTML, paint
# the cover, write the EPUB, install it) and exits with the queue empty. Wall time is the
# three commands' sum; peak memory the largest of their maximum resident sets
# (/usr/bin/time -v). A second figure times `subscribe` + `download --wait` as a user
# types them (the agent then starts in the background, so its memory is not seen there).
# calibre, with a fresh HOME each round: `ebook-convert loopback.recipe out.epub` (fetch
# the feed and the pictures, build and write the EPUB), QT_QPA_PLATFORM=offscreen.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
articles="${1:-50}"
rounds="${ROUNDS:-3}"
delay="${DELAY_MS:-0}"
work="$(mktemp -d /tmp/editions-bench.XXXXXX)"
server_pid=""
cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
command -v ebook-convert >/dev/null || { echo "calibre is not installed (apt-get install --no-install-recommends calibre)"; exit 1; }

cd "$root"
if [ -n "${NEWSSTAND_BIN:-}" ]; then
    bin="$NEWSSTAND_BIN"    # to try the script with another build; the figures are the release build's
else
    echo "== building newsstand (release)"
    swift build -c release --product newsstand 2>&1 | grep -E "error|Build" | tail -2
    bin="$(swift build -c release --show-bin-path)/newsstand"
fi

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base="http://127.0.0.1:$port"
mkdir -p "$work/site"
echo "== generating a feed of $articles articles with $articles pictures"
python3 "$root/benchmarks/editions/generate.py" "$work/site" "$base" "$articles"
python3 "$root/benchmarks/editions/serve.py" "$port" "$work/site" "$delay" >/dev/null 2>&1 &
server_pid=$!
for _ in $(seq 50); do curl -sf -o /dev/null "$base/feed.xml" && break; sleep 0.1; done
echo "feed.xml $(wc -c < "$work/site/feed.xml") bytes, pictures $(du -ck "$work/site/pictures"/*.png | tail -1 | cut -f1) KB, each answered after $delay ms"
sed "s|@FEED@|$base/feed.xml|" "$root/benchmarks/editions/bench.recipe.in" > "$work/loopback.recipe"
# No sample publications in the fresh library.
mkdir -p "$work/resources/sample-feed"

timed() {  # output-file command...: runs it, appends "wall kb cpu" of the run to the file
    local into="$1"; shift
    /usr/bin/time -v -o "$work/time.txt" "$@" > "$work/out" 2>&1 || { cat "$work/out"; return 1; }
    awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,a,":"); s=0; for(i=1;i<=n;i++) s=s*60+a[i]; w=s}
                /Maximum resident set size/ {m=$2} /User time/ {u=$2} /System time/ {y=$2} END {print w, m, u+y}' "$work/time.txt" >> "$into"
}

ns() { env NEWSSTAND_HOME="$work/home" NEWSSTAND_RESOURCES="$work/resources" "$bin" "$@"; }
edition_name() { sqlite3 "$work/home/data/library.sqlite" "SELECT name FROM issue WHERE contentType = 'application/x-newsstand-edition'"; }

: > "$work/rows"
for round in $(seq "$rounds"); do
    # newsstand: subscribe, queue (agent lock held: nothing starts), foreground agent.
    rm -rf "$work/home" "$work/steps"
    timed "$work/steps" env NEWSSTAND_HOME="$work/home" NEWSSTAND_RESOURCES="$work/resources" "$bin" subscribe "$base/feed.xml" --editions "per refresh"
    edition=$(edition_name)
    mkdir -p "$work/home/state"
    timed "$work/steps" flock "$work/home/state/agent.lock" env NEWSSTAND_HOME="$work/home" NEWSSTAND_RESOURCES="$work/resources" "$bin" download "$edition"
    timed "$work/steps" env NEWSSTAND_HOME="$work/home" NEWSSTAND_RESOURCES="$work/resources" "$bin" agent
    [ "$(sqlite3 "$work/home/data/library.sqlite" "SELECT status FROM issue WHERE name = '$edition'")" = available ] \
        || { echo "the edition was not built: $(ns issues)"; exit 1; }
    pictures=$(find "$work/home/cache/issues" -path '*OEBPS/images/p*' | wc -l)
    awk -v p="$pictures" '{w+=$1; c+=$3; if ($2>m) m=$2} END {printf "newsstand\t%.3f\t%d\t%d\t%.3f\n", w, m, p, c}' "$work/steps" >> "$work/rows"
    echo "round $round: newsstand subscribe, download (queue), agent: $(awk '{printf "%s s ", $1}' "$work/steps")"
    ns export "$edition" "$work/newsstand.epub" --force > /dev/null

    # newsstand as a user types it: subscribe, then download --wait (agent in the background).
    rm -rf "$work/home" "$work/steps"
    timed "$work/steps" env NEWSSTAND_HOME="$work/home" NEWSSTAND_RESOURCES="$work/resources" "$bin" subscribe "$base/feed.xml" --editions "per refresh"
    timed "$work/steps" env NEWSSTAND_HOME="$work/home" NEWSSTAND_RESOURCES="$work/resources" "$bin" download "$(edition_name)" --wait
    awk '{w+=$1; c+=$3; if ($2>m) m=$2} END {printf "newsstand --wait\t%.3f\t%d\t-\t%.3f\n", w, m, c}' "$work/steps" >> "$work/rows"

    # calibre: the recipe, from a fresh HOME (no cache, no settings).
    rm -rf "$work/calibre-home" "$work/calibre.epub" "$work/steps"
    mkdir -p "$work/calibre-home"
    timed "$work/steps" env HOME="$work/calibre-home" QT_QPA_PLATFORM=offscreen ebook-convert "$work/loopback.recipe" "$work/calibre.epub"
    pictures=$(unzip -Z1 "$work/calibre.epub" | grep -cE '^feed_[0-9]+/article_[0-9]+/images/.' || true)
    awk -v p="$pictures" '{printf "calibre\t%.3f\t%d\t%d\t%.3f\n", $1, $2, p, $3}' "$work/steps" >> "$work/rows"
done

echo "== results: $rounds rounds; wall time (s), CPU time (user+sys, s), peak resident memory (MB), pictures in the book"
echo "machine: $(nproc) cores, $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "calibre $(ebook-convert --version 2>/dev/null | sed -n '1s/.*(calibre \(.*\))/\1/p'), newsstand $(git -C "$root" rev-parse --short HEAD)"
if [ -x /usr/bin/java ] && [ -f /usr/share/java/epubcheck.jar ]; then
    echo "epubcheck of newsstand's edition (exported): $(java -jar /usr/share/java/epubcheck.jar "$work/newsstand.epub" 2>&1 | grep -E '^Messages')"
fi
python3 - "$work/rows" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    label, wall, kb, pictures, cpu = line.rstrip("\n").split("\t")
    rows.setdefault(label, []).append((float(wall), int(kb), pictures, float(cpu)))
med = {}
cpu = {}
for label, values in rows.items():
    walls = sorted(v[0] for v in values)
    med[label] = statistics.median(walls)
    cpu[label] = statistics.median(v[3] for v in values)
    peak = max(v[1] for v in values) / 1024
    print(f"{label:18} median {med[label]:7.3f} s  min {walls[0]:7.3f}  max {walls[-1]:7.3f}  CPU {cpu[label]:6.3f} s"
          f"  peak {peak:7.1f} MB  pictures {values[-1][2]}")
for ours in ("newsstand", "newsstand --wait"):
    print(f"calibre / {ours}: {med['calibre'] / med[ours]:.1f}x wall (goal >= 10x), {cpu['calibre'] / cpu[ours]:.1f}x CPU")
ours, theirs = (max(v[1] for v in rows[l]) for l in ("newsstand", "calibre"))
print(f"peak memory calibre / newsstand: {theirs / ours:.1f}x")
PY
