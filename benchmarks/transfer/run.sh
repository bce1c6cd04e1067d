#!/usr/bin/env bash
# Transfer benchmark (issue 3): a 200 MB file from nginx on 127.0.0.1, downloaded to the
# same disk by NewsstandKit's Transfer (release build) and by `curl -o`.
# Goal: throughput >= 0.9x curl's, peak memory <= 50 MB.
#
#   benchmarks/transfer/run.sh [SIZE_MB] [RUNS]
#
# Needs nginx-light (`apt-get install nginx-light`), curl and GNU time (/usr/bin/time).
# Not part of `swift test`.
set -euo pipefail
cd "$(dirname "$0")/../.."

SIZE_MB=${1:-200}
RUNS=${2:-3}
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$NGINX" ] || { echo "nginx not found: apt-get install nginx-light" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time not found: apt-get install time" >&2; exit 1; }

BUILD_LOG=$(mktemp)
swift build -c release --product newsstand-bench-transfer > "$BUILD_LOG" 2>&1 || { cat "$BUILD_LOG" >&2; exit 1; }
rm -f "$BUILD_LOG"
BENCH=$(swift build -c release --show-bin-path)/newsstand-bench-transfer

# Everything (served file, nginx state, both downloads) on one disk, under .build.
WORK=$(mktemp -d "$PWD/.build/bench-transfer.XXXXXX")
NGINX_PID=""
cleanup() {
    [ -n "$NGINX_PID" ] && kill "$NGINX_PID" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

mkdir -p "$WORK/www" "$WORK/nginx" "$WORK/out"
chmod 755 "$WORK" "$WORK/www"  # nginx's worker runs as an unprivileged user
head -c "$((SIZE_MB * 1024 * 1024))" /dev/urandom > "$WORK/www/issue.bin"
SHA=$(sha256sum "$WORK/www/issue.bin" | cut -d' ' -f1)
BYTES=$(stat -c %s "$WORK/www/issue.bin")

# A free port on 127.0.0.1.
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cat > "$WORK/nginx/nginx.conf" <<CONF
daemon off;
worker_processes 1;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/error.log;
events { worker_connections 64; }
http {
    access_log off;
    sendfile on;
    tcp_nopush on;
    client_body_temp_path $WORK/nginx/body;
    proxy_temp_path $WORK/nginx/proxy;
    fastcgi_temp_path $WORK/nginx/fastcgi;
    uwsgi_temp_path $WORK/nginx/uwsgi;
    scgi_temp_path $WORK/nginx/scgi;
    types { application/octet-stream bin; }
    server {
        listen 127.0.0.1:$PORT;
        root $WORK/www;
    }
}
CONF
"$NGINX" -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" &
NGINX_PID=$!
for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$PORT/issue.bin" -r 0-0 && break; sleep 0.1; done
URL="http://127.0.0.1:$PORT/issue.bin"
cat "$WORK/www/issue.bin" > /dev/null  # into the page cache for both

# Each line of results: label, transfer seconds (as the tool measures its own transfer:
# curl's %{time_total}, the driver's own clock from the request to the last byte
# written), whole-process wall seconds and peak RSS in KB (from /usr/bin/time -v).
measure() {  # label, output file, command...
    local label=$1 out=$2; shift 2
    rm -f "$out"; sync
    local said
    said=$(/usr/bin/time -v "$@" 2> "$WORK/time.txt")
    local transfer wall rss
    transfer=$(echo "$said" | sed -n 's/.*seconds=\([0-9.]*\).*/\1/p')
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s }' "$WORK/time.txt")
    rss=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$WORK/time.txt")
    [ "$(sha256sum "$out" | cut -d' ' -f1)" = "$SHA" ] || { echo "$label: output differs from the served file" >&2; exit 1; }
    echo "$label $transfer $wall $rss"
}

echo "file: $BYTES bytes from nginx on 127.0.0.1; $RUNS runs of each, interleaved; medians"
echo "label transfer_s wall_s peak_rss_kb"
RESULTS=$WORK/results.txt
for run in $(seq "$RUNS"); do
    measure curl "$WORK/out/curl.bin" curl -sf -w 'seconds=%{time_total}\n' -o "$WORK/out/curl.bin" "$URL" | tee -a "$RESULTS"
    measure transfer "$WORK/out/transfer.part" "$BENCH" "$URL" "$WORK/out/transfer.part" | tee -a "$RESULTS"
    measure transfer+sha256 "$WORK/out/transfer.part" "$BENCH" "$URL" "$WORK/out/transfer.part" --sha256 "$SHA" --length "$BYTES" | tee -a "$RESULTS"
done

sort -k1,1 -k2,2n "$RESULTS" | awk -v bytes="$BYTES" '
    { n[$1]++; t[$1, n[$1]] = $2; w[$1, n[$1]] = $3; if ($4 > rss[$1]) rss[$1] = $4 }
    function median(a, k, m,   i, v, j, x) {
        for (i = 1; i <= m; i++) v[i] = a[k, i]
        for (i = 2; i <= m; i++) { x = v[i]; for (j = i - 1; j >= 1 && v[j] > x; j--) v[j + 1] = v[j]; v[j + 1] = x }
        return m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
    }
    END {
        for (k in n) {
            mt[k] = median(t, k, n[k]); mw[k] = median(w, k, n[k])
            printf "%-16s transfer %6.3f s = %7.1f MB/s   process wall %6.3f s   peak RSS %5.1f MB\n", k, mt[k], bytes / mt[k] / 1e6, mw[k], rss[k] / 1024
        }
        printf "throughput ratio transfer/curl: %.2f (goal >= 0.90); with SHA-256: %.2f\n", mt["curl"] / mt["transfer"], mt["curl"] / mt["transfer+sha256"]
        printf "whole-process wall ratio transfer/curl: %.2f (includes ~0.09 s of Swift runtime + Foundation start-up)\n", mw["curl"] / mw["transfer"]
    }'
