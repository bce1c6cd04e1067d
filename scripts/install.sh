#!/bin/sh
# Installs newsstand where an installed program finds its resources:
#   PREFIX/bin/newsstand, PREFIX/share/newsstand/{themes,sample-feed}
# Usage: scripts/install.sh [PREFIX]   (default: /usr/local; ~/.local needs no root)
set -eu

prefix=${1:-/usr/local}
checkout=$(cd "$(dirname "$0")/.." && pwd)
cd "$checkout"

swift build -c release --product newsstand
binary=$(swift build -c release --show-bin-path)/newsstand

share="$prefix/share/newsstand"
mkdir -p "$prefix/bin" "$share"
install -m 0755 "$binary" "$prefix/bin/newsstand"
# Replaced whole, so files removed from the checkout do not linger.
for folder in themes sample-feed; do
    rm -rf "$share/$folder"
    cp -R "$checkout/$folder" "$share/$folder"
done
# The sample feed's sources and build tools are for developers, not for reading.
rm -rf "$share/sample-feed/sources" "$share/sample-feed/tools" "$share/sample-feed/build.py"

echo "Installed $prefix/bin/newsstand, with its themes and samples in $share."
case ":$PATH:" in
    *":$prefix/bin:"*) ;;
    *) echo "Add $prefix/bin to PATH to run it as \`newsstand\`." ;;
esac
