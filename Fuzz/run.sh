#!/bin/sh
# Runs one fuzz target at the lowest priority until SECONDS have passed (default 1200),
# growing Fuzz/.build/corpus/TARGET from the kept corpus (Fuzz/corpus/TARGET) and the
# seeds, and prints the coverage/time curve.
# A crash stops the run; its input is in Fuzz/.build/crashes/TARGET/. The per-input
# timeout is 30 s of wall-clock time: at nice 19 on a busy machine 10 s gave a false alarm.
#
#   Fuzz/run.sh feed|archive|image|layout|pdf [SECONDS] [extra libFuzzer flags...]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
name=${1:?usage: run.sh feed|archive|image|layout|pdf [SECONDS]}
seconds=${2:-1200}
[ $# -ge 2 ] && shift 2 || shift $#
. "$here/target.sh"
corpus="$build/corpus/$name"
crashes="$build/crashes/$name"
mkdir -p "$corpus" "$crashes"
log="$build/$name-$(date -u +%Y%m%dT%H%M%S).log"
echo "fuzz-$name for ${seconds}s; log $log" >&2
# A target's dictionary (Fuzz/TARGET.dict), when it has one, hands the mutator the tokens
# its parser looks for.
dict=""
[ -f "$here/$name.dict" ] && dict="-dict=$here/$name.dict"
# The first directory receives new inputs; the kept corpus (Fuzz/corpus/TARGET, committed
# by keep.sh) and the seeds are read only.
kept=""
[ -d "$here/corpus/$name" ] && kept="$here/corpus/$name"
status=0
# shellcheck disable=SC2086
nice -n 19 "$binary" "$corpus" $kept "$build/seeds/$name" $dict \
    -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$crashes/" "$@" 2>&1 | python3 -u "$here/curve.py" "$log" || status=$?
exit $status
