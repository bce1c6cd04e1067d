# Sourced by run.sh and keep.sh with the target's name in $name: its executable (built
# when missing), its seeds (written when missing), and LeakSanitizer's suppressions.
build="$here/.build"
binary="$build/fuzz-$name"
[ -x "$binary" ] || "$here/build.sh" "$name"
[ -d "$build/seeds/$name" ] || python3 "$here/make-seeds.py" "$name"
# Known third-party leaks are suppressed (lsan.supp); any other leak is a finding.
export LSAN_OPTIONS="suppressions=$here/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
