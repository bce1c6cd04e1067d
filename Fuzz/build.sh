#!/bin/sh
# Builds the fuzz targets: the project's parsing modules compiled by swiftc with
# libFuzzer coverage and AddressSanitizer (-sanitize=fuzzer,address), one executable
# per target in Fuzz/.build/. Not part of `swift build` or `swift test`.
#
#   Fuzz/build.sh [feed|archive|image|layout|pdf ...]     (default: all five)
#
# The pdf target drives the real PDF worker: it links Fuzz/.build/newsstand-pdf to the
# SwiftPM build's (release if built, else debug), so `swift build --product newsstand-pdf`
# comes first.
# With COVERAGE=1 the same targets go to Fuzz/.build/coverage/ with source-based coverage
# instead of AddressSanitizer, for Fuzz/coverage.sh.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
if [ "${COVERAGE:-}" = 1 ]; then
    out="$here/.build/coverage"
    sanitize="-sanitize=fuzzer -profile-generate -profile-coverage-mapping"
    csanitize="-fsanitize=fuzzer-no-link -fprofile-instr-generate -fcoverage-mapping"
else
    out="$here/.build"
    sanitize="-sanitize=fuzzer,address"
    csanitize="-fsanitize=fuzzer-no-link,address"
fi
mkdir -p "$out"
cd "$out"

# One package name for every module: the PDF harness reads the worker's frames through
# `package` declarations.
flags="-use-ld=lld -parse-as-library -wmo -O -g -swift-version 5 $sanitize -I $out -package-name newsstand"
cflags="-O1 -g $csanitize"
zipfoundation="$root/.build/checkouts/ZIPFoundation/Sources"
if [ ! -d "$zipfoundation/ZIPFoundation" ]; then
    echo "ZIPFoundation's sources are missing: run 'swift build' in $root once first" >&2
    exit 1
fi
# Module maps for the C modules the Swift modules import.
cmaps="-Xcc -fmodule-map-file=$root/Sources/CSystemZlib/module.modulemap
       -Xcc -fmodule-map-file=$zipfoundation/CZLib/module.modulemap
       -Xcc -fmodule-map-file=$out/CImageCodecs.modulemap
       -Xcc -fmodule-map-file=$root/Sources/CSpawn/module.modulemap"
cat > CImageCodecs.modulemap <<MAP
module CImageCodecs {
    header "$root/Sources/CImageCodecs/include/CImageCodecs.h"
    export *
}
MAP

# module NAME sources...: compiles one Swift module to NAME.o + NAME.swiftmodule,
# unless it is newer than its sources.
module() {
    name=$1; shift
    extra=""
    # ZIPFoundation's package defines _GNU_SOURCE for fopencookie.
    [ "$name" = ZIPFoundation ] && extra="-Xcc -D_GNU_SOURCE=1"
    # The feed harness forces the second-thread tokenizer, an internal switch.
    [ "$name" = Feeds ] && extra="-enable-testing"
    if [ -f "$name.o" ] && [ -z "$(find "$@" -newer "$name.o" 2>/dev/null)" ]; then return; fi
    echo "compiling $name" >&2
    # shellcheck disable=SC2086
    swiftc $flags $cmaps $extra -module-name "$name" -emit-module -emit-module-path "$name.swiftmodule" \
        -emit-object -o "$name.o" "$@"
}

# harness NAME objects...: links Harnesses/NAME.swift with the objects into fuzz-NAME.
harness() {
    name=$1; shift
    src="$here/Harnesses/$name.swift"
    if [ -f "fuzz-$name" ] && [ -z "$(find "$src" "$@" -newer "fuzz-$name")" ]; then return; fi
    echo "linking fuzz-$name" >&2
    # shellcheck disable=SC2086
    swiftc $flags $cmaps -module-name "Fuzz_$name" "$src" "$@" -lz -lpng16 -ljpeg -ldeflate -o "fuzz-$name"
}

# codecs: CImageCodecs.o, unless it is newer than its C source.
codecs() {
    if [ ! -f CImageCodecs.o ] || [ "$root/Sources/CImageCodecs/codecs.c" -nt CImageCodecs.o ]; then
        echo "compiling CImageCodecs" >&2
        # shellcheck disable=SC2086
        clang $cflags -I "$root/Sources/CImageCodecs/include" -c "$root/Sources/CImageCodecs/codecs.c" -o CImageCodecs.o
    fi
}

targets=${*:-feed archive image layout pdf}
module Markup "$root"/Sources/Markup/*.swift
for t in $targets; do
    case $t in
    feed)
        module Feeds "$root"/Sources/Feeds/*.swift
        harness feed Markup.o Feeds.o ;;
    archive)
        module ZIPFoundation "$zipfoundation"/ZIPFoundation/*.swift
        module IssueArchive "$root"/Sources/IssueArchive/*.swift
        harness archive Markup.o ZIPFoundation.o IssueArchive.o ;;
    image)
        codecs
        module Imaging "$root"/Sources/Imaging/*.swift
        harness image CImageCodecs.o Imaging.o ;;
    layout)
        module TextWidth "$root"/Sources/TextWidth/*.swift
        module TextLayout "$root"/Sources/TextLayout/*.swift
        harness layout Markup.o TextWidth.o TextLayout.o ;;
    pdf)
        worker=""
        for configuration in release debug; do
            [ -x "$root/.build/$configuration/newsstand-pdf" ] && { worker="$root/.build/$configuration/newsstand-pdf"; break; }
        done
        if [ -z "$worker" ]; then
            echo "the PDF worker is not built: run 'swift build -c release --product newsstand-pdf' in $root first" >&2
            exit 1
        fi
        ln -sf "$worker" newsstand-pdf
        codecs
        module ZIPFoundation "$zipfoundation"/ZIPFoundation/*.swift
        module IssueArchive "$root"/Sources/IssueArchive/*.swift
        module Imaging "$root"/Sources/Imaging/*.swift
        module PDF "$root"/Sources/PDF/*.swift
        harness pdf Markup.o ZIPFoundation.o IssueArchive.o CImageCodecs.o Imaging.o PDF.o ;;
    *) echo "unknown target $t (feed, archive, image, layout, pdf)" >&2; exit 2 ;;
    esac
done
