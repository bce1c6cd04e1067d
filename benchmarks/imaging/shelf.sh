#!/usr/bin/env bash
# In-process imaging benchmark: one cover step by step, and a shelf of 24 different
# covers through CoverCache (cold, memory, disk). Never run by `swift test`.
#
#   benchmarks/imaging/shelf.sh [--rounds N] [--workers N] [COVER_DIR_OR_IMAGE...]
#   (default: the sample-feed covers)
#
# Compiled against the release build's Imaging object files (built here if missing).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
release="$root/.build/release"
if [ ! -d "$release/Imaging.build" ]; then (cd "$root" && swift build -c release --product newsstand >&2); fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
swiftc -O -module-cache-path "$work/module-cache" "$root/benchmarks/imaging/shelf.swift" \
    -I "$release/Modules" -Xcc -fmodule-map-file="$release/CImageCodecs.build/module.modulemap" \
    "$release"/Imaging.build/*.o "$release"/FileWrites.build/*.o "$release/CImageCodecs.build/codecs.c.o" -lpng16 -ljpeg -lz -ldeflate -o "$work/shelf"
options=()
while [ "$#" -gt 0 ] && [[ "$1" == --* ]]; do options+=("$1" "$2"); shift 2; done
if [ "$#" -eq 0 ]; then set -- "$root/sample-feed"; fi
"$work/shelf" "${options[@]}" "$@"
