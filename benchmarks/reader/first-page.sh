#!/usr/bin/env bash
# The whole program as a person starts it: `newsstand read ISSUE` on a 2 MB-text EPUB in
# tmux at 120×40, from the command to the first words of the article on screen (process
# start, library, issue, first page), polling `tmux capture-pane` every 5 ms.
#
#   benchmarks/reader/first-page.sh [RUNS] [one|chapters]
#
# Needs tmux. Release build; not part of `swift test`.
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${1:-5}
SHAPE=${2:-one}
swift build -c release --product newsstand > /dev/null
swift build -c release --product newsstand-bench-reader > /dev/null
BIN=$(swift build -c release --show-bin-path)
HOME_DIR=$(mktemp -d)
SOCKET=newsstand-bench-$$
cleanup() { tmux -L "$SOCKET" kill-server 2>/dev/null || true; rm -rf "$HOME_DIR"; }
trap cleanup EXIT
"$BIN/newsstand-bench-reader" --shape "$SHAPE" --install-only "$HOME_DIR"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for run in $(seq 1 "$RUNS"); do
    # A fresh reading position each time: the first page, not where the last run stopped.
    python3 - "$HOME_DIR" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1] + "/data/library.sqlite")
db.execute("UPDATE issue SET locator = NULL")
db.commit()
PY
    tmux -L "$SOCKET" kill-server 2>/dev/null || true
    start=$(date +%s%N)
    tmux -L "$SOCKET" new-session -d -s s -x 120 -y 40 \
        "env NEWSSTAND_HOME='$HOME_DIR' TERM=xterm-256color LANG=C.UTF-8 '$BIN/newsstand' read bench-1"
    while ! tmux -L "$SOCKET" capture-pane -p -t s 2>/dev/null | grep -q "Chapter 1"; do sleep 0.005; done
    end=$(date +%s%N)
    echo "run $run: first page on screen after $(( (end - start) / 1000000 )) ms"
    tmux -L "$SOCKET" send-keys -t s Q
    sleep 0.3
done
