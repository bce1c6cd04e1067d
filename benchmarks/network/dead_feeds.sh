#!/bin/sh
# `refresh` of 28 feeds whose server is gone, timed: first on a port nobody listens on
# (connection refused), then on a listener that accepts and never answers.
# Usage: benchmarks/network/dead_feeds.sh BIN [COUNT]   (BIN: the newsstand binary)
set -eu
BIN=$1
COUNT=${2:-28}
REPO=$(cd "$(dirname "$0")/../.." && pwd)
WORK=$(mktemp -d)
trap 'kill "$SILENT" 2>/dev/null || true; rm -rf "$WORK"' EXIT
SILENT=
export NEWSSTAND_HOME="$WORK/home" NEWSSTAND_RESOURCES=/nonexistent
mkdir -p "$WORK/feeds"
for i in $(seq -w 1 "$COUNT"); do
  sed "s|<title>Tidewater</title>|<title>Feed $i</title>|" "$REPO/sample-feed/tidewater-monthly/feed.xml" > "$WORK/feeds/feed-$i.xml"
  "$BIN" subscribe "$WORK/feeds/feed-$i.xml" > /dev/null
done
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
sqlite3 "$WORK/home/data/library.sqlite" "UPDATE publication SET feedURL = 'http://127.0.0.1:$PORT/feed-' || id, etag = NULL, lastModified = NULL WHERE title LIKE 'Feed %'"
cp -r "$WORK/home" "$WORK/clean"

timed() {
  rm -rf "$WORK/home" && cp -r "$WORK/clean" "$WORK/home"
  start=$(date +%s.%N)
  timeout "${LIMIT:-120}" "$BIN" refresh > "$WORK/out" 2>&1 || true
  end=$(date +%s.%N)
  echo "$1: $(echo "$end - $start" | bc) s, $(grep -c '^newsstand: Feed' "$WORK/out") of $COUNT feeds reported failed"
}

timed "dead port (refused)"
python3 -c '
import socket, sys
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(128); held = []
while True: held.append(s.accept()[0])' "$PORT" &
SILENT=$!
sleep 0.3
timed "silent server (accepts, never answers)"
