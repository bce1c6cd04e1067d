#!/bin/sh
# Keeps a target's corpus in the repository: merges Fuzz/corpus/TARGET (what earlier runs
# kept), Fuzz/.build/corpus/TARGET (what this machine found) and the seeds into a fresh,
# minimized Fuzz/corpus/TARGET (libFuzzer -merge=1: the fewest inputs that reach the same
# coverage). run.sh reads it on the next run, so a new machine does not start again from
# the seeds. Commit the directory afterwards.
#
#   Fuzz/keep.sh feed|archive|image|layout|pdf
set -eu
here=$(cd "$(dirname "$0")" && pwd)
name=${1:?usage: keep.sh feed|archive|image|layout|pdf}
. "$here/target.sh"
kept="$here/corpus/$name"
fresh="$build/kept-$name.new"
rm -rf "$fresh"
mkdir -p "$fresh" "$kept" "$build/corpus/$name"
"$binary" -merge=1 -timeout=30 -rss_limit_mb=2048 "$fresh" "$kept" "$build/corpus/$name" "$build/seeds/$name" \
    2>&1 | grep -E "^MERGE-OUTER: [0-9]+ new files" >&2
rm -rf "$kept"
mv "$fresh" "$kept"
echo "$kept: $(ls "$kept" | wc -l) inputs, $(du -sh --apparent-size "$kept" | cut -f1)" >&2
