#!/bin/sh
# Installs newsstand where an installed program finds its resources:
#   PREFIX/bin/newsstand, PREFIX/bin/newsstand-pdf (the PDF worker, found beside newsstand),
#   PREFIX/share/newsstand/{themes,sample-feed}
# Usage: scripts/install.sh [PREFIX]   (default: /usr/local; ~/.local needs no root)
set -eu

prefix=${1:-/usr/local}
checkout=$(cd "$(dirname "$0")/.." && pwd)
cd "$checkout"

swift build -c release --product newsstand
swift build -c release --product newsstand-pdf
bin=$(swift build -c release --show-bin-path)

share="$prefix/share/newsstand"
mkdir -p "$prefix/bin" "$share"
install -m 0755 "$bin/newsstand" "$prefix/bin/newsstand"
install -m 0755 "$bin/newsstand-pdf" "$prefix/bin/newsstand-pdf"
# Replaced whole, so files removed from the checkout do not linger.
for folder in themes sample-feed; do
    rm -rf "$share/$folder"
    cp -R "$checkout/$folder" "$share/$folder"
done
# The sample feed's sources and build tools are for developers, not for reading.
rm -rf "$share/sample-feed/sources" "$share/sample-feed/tools" "$share/sample-feed/build.py"

echo "Installed $prefix/bin/newsstand and its PDF worker newsstand-pdf, with its themes and samples in $share."
case ":$PATH:" in
    *":$prefix/bin:"*) ;;
    *) echo "Add $prefix/bin to PATH to run it as \`newsstand\`." ;;
esac
