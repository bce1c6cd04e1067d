#!/bin/sh
# Which lines of the project's sources a target's inputs reach: builds the target with
# source-based coverage (COVERAGE=1 build.sh, no sanitizer), runs every input of the kept
# corpus (Fuzz/corpus/TARGET), this machine's corpus and the seeds once, and prints
# llvm-cov's report for the files under Sources/; with --lines also every line never run.
# Where the fuzzer's edge count still creeps up, this tells whether it is our code or
# inlined library paths, and which of our lines no input has reached.
#
#   Fuzz/coverage.sh feed|archive|image|layout [--lines]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
name=${1:?usage: coverage.sh feed|archive|image|layout [--lines]}
cov="$here/.build/coverage"
# The toolchain's own llvm tools: the profile format follows its compiler, and another LLVM
# on the PATH (Debian's) cannot read it.
tools=$(dirname "$(readlink -f "$(command -v swiftc)")")
COVERAGE=1 "$here/build.sh" "$name"
[ -d "$here/.build/seeds/$name" ] || python3 "$here/make-seeds.py" "$name"
rm -f "$cov/$name"-*.profraw
inputs=""
for directory in "$here/corpus/$name" "$here/.build/corpus/$name" "$here/.build/seeds/$name"; do
    [ -d "$directory" ] && inputs="$inputs $directory"
done
# shellcheck disable=SC2086
LLVM_PROFILE_FILE="$cov/$name-%p.profraw" "$cov/fuzz-$name" -runs=0 -timeout=30 -rss_limit_mb=2048 $inputs \
    2>&1 | grep -E "^#[0-9]+[[:space:]]+(INITED|DONE)" >&2 || true
"$tools/llvm-profdata" merge -sparse "$cov/$name"-*.profraw -o "$cov/$name.profdata"
"$tools/llvm-cov" report "$cov/fuzz-$name" -instr-profile="$cov/$name.profdata" "$root/Sources"
if [ "${2:-}" = --lines ]; then
    # Lines with a zero count, as FILE:LINE: text.
    "$tools/llvm-cov" show "$cov/fuzz-$name" -instr-profile="$cov/$name.profdata" "$root/Sources" -show-line-counts \
        | awk -F'|' '/^\/.*:$/ { file = substr($0, 1, length($0) - 1); next }
                     $2 ~ /^ *0$/ { line = $1; gsub(/ /, "", line); print file ":" line ":" $3 }'
fi
