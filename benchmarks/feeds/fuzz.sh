#!/usr/bin/env bash
# Mutation fuzzing of Markup and FeedParser (release build, fixtures as seeds). Not part of
# swift test. Usage: benchmarks/feeds/fuzz.sh [SEED] [ROUNDS]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
swift build -c release --target Feeds 2>&1 | grep -E "error|Build" | tail -1
bin="$(swift build -c release --show-bin-path)"
out="$(mktemp -d /tmp/feeds-fuzz.XXXXXX)"
trap 'rm -rf "$out"' EXIT
swiftc -O -I "$bin/Modules" -I "$bin" "$root/benchmarks/feeds/fuzz.swift" \
    "$bin"/Feeds.build/*.o "$bin"/Markup.build/*.o -o "$out/fuzz"
"$out/fuzz" "$root/Tests/FeedsTests/Fixtures" "${1:-1}" "${2:-50000}"
