#!/bin/sh
# Builds TextLayout (and Markup, TextWidth beneath it) in release, links the benchmark
# against those objects and runs it.
# Usage: benchmarks/textlayout/run.sh   (from anywhere)
set -e
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${TMPDIR:-/tmp}/newsstand-textlayout-bench
cd "$root"
swift build -c release --target TextLayout 2>&1 | grep -E "error|Build" | tail -2
bin=$(swift build -c release --show-bin-path)
objects=""
for module in TextLayout Markup TextWidth; do
    if [ -d "$bin/$module.build" ]; then objects="$objects $(ls "$bin/$module.build"/*.o | tr '\n' ' ')"; fi
done
# shellcheck disable=SC2086
swiftc -O -I "$bin/Modules" -I "$bin" -o "$out" "$root/benchmarks/textlayout/main.swift" $objects
"$out"
