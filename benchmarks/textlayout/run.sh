#!/bin/sh
# Builds TextLayout's sources with the benchmark into one optimized binary and runs it.
# Usage: benchmarks/textlayout/run.sh   (from the repository root)
set -e
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${TMPDIR:-/tmp}/newsstand-textlayout-bench
swiftc -O -wmo -module-name TextLayoutBench -o "$out" \
    "$root"/Sources/TextLayout/*.swift "$root"/benchmarks/textlayout/main.swift
"$out"
