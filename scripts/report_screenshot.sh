#!/usr/bin/env bash
# The README's picture of `report`: solves and grades the sample corpus, writes the page, and
# has Debian's headless Chromium take a screenshot of its top into docs/report.png.
#
# Needs Chromium (Debian: `apt-get install chromium`).
# Usage: scripts/report_screenshot.sh [OUT.png]   (default docs/report.png)
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(realpath -m "${1:-docs/report.png}")
chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ]; then
    echo "error: no chromium on PATH; install it with: apt-get install chromium" >&2
    exit 2
fi
# Release: the times in the picture are those a user sees.
cargo build --release --quiet
bin=$PWD/target/release/sudoku-batch
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Short names, as a user's would be: they are the page's labels.
cp data/sample.txt "$tmp/sample.txt"
cd "$tmp"
"$bin" solve -qq sample.txt -o solved.csv
"$bin" grade -qq sample.txt -o graded.csv
"$bin" report solved.csv graded.csv -o report.html

mkdir -p "$(dirname "$out")"
"$chromium" --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --hide-scrollbars \
    --user-data-dir="$tmp/profile" --window-size=1280,2700 --force-device-scale-factor=0.75 \
    --screenshot="$out" \
    "file://$tmp/report.html" >/dev/null 2>&1
echo "$out: $(wc -c < "$out") bytes"
