#!/usr/bin/env bash
# Crash check for Transfer at the process level (not part of `swift test`): a download
# from the test server (slow body) is killed with SIGKILL, run again, and compared byte
# for byte; the server's log shows what the second run asked for and what was re-sent.
#
#   benchmarks/transfer/kill9-resume.sh [SIZE_BYTES=5000000] [KILL_AFTER_S=1.2]
set -euo pipefail
cd "$(dirname "$0")/../.."
SIZE=${1:-5000000}
KILL_AFTER=${2:-1.2}

BUILD_LOG=$(mktemp)
swift build -c release --product newsstand-bench-transfer > "$BUILD_LOG" 2>&1 || { cat "$BUILD_LOG" >&2; exit 1; }
rm -f "$BUILD_LOG"
BENCH=$(swift build -c release --show-bin-path)/newsstand-bench-transfer

WORK=$(mktemp -d)
trap 'exec 9>&- 2>/dev/null || true; rm -rf "$WORK"' EXIT
# The test server's script lives in the tests (TestHTTPServer.swift); take it from there.
python3 - "$WORK/server.py" <<'PY'
import sys
source = open("Tests/NewsstandKitTests/Support/TestHTTPServer.swift").read()
start = source.index('static let script = #"""') + len('static let script = #"""')
open(sys.argv[1], "w").write(source[start:source.rindex('"""#')])
PY
mkdir -p "$WORK/log"
mkfifo "$WORK/stdin"
python3 "$WORK/server.py" "$WORK/log" < "$WORK/stdin" > "$WORK/port" &
exec 9> "$WORK/stdin"  # the server exits when this closes
for _ in $(seq 50); do [ -s "$WORK/port" ] && break; sleep 0.1; done
PORT=$(cat "$WORK/port")

python3 -c "import random,sys; open(sys.argv[1],'wb').write(random.Random(1).randbytes($SIZE))" "$WORK/expected"
SHA=$(sha256sum "$WORK/expected" | cut -d' ' -f1)
URL="http://127.0.0.1:$PORT/file/kill9?size=$SIZE&chunk=20000&delay_ms=10"

"$BENCH" "$URL" "$WORK/out.part" --sha256 "$SHA" --length "$SIZE" > /dev/null &
PID=$!
sleep "$KILL_AFTER"
kill -9 "$PID"
wait "$PID" 2>/dev/null || true
echo "killed with SIGKILL; .part holds $(stat -c %s "$WORK/out.part") bytes"
"$BENCH" "$URL" "$WORK/out.part" --sha256 "$SHA" --length "$SIZE"
cmp "$WORK/out.part" "$WORK/expected" && echo "result byte-identical to the served file"
sleep 0.3
python3 - "$WORK/log/kill9.jsonl" "$SIZE" <<'PY'
import json, sys
entries = sorted((json.loads(line) for line in open(sys.argv[1])), key=lambda e: e["seq"])
for e in entries:
    print(f"request {e['seq']}: {e['status']} Range={e['range']} sent={e['sent']}")
print(f"bytes sent twice: {sum(e['sent'] for e in entries) - int(sys.argv[2])}")
PY
