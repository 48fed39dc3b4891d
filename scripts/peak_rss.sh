#!/usr/bin/env bash
# Peak memory (max RSS) of `sudoku-batch solve` on inputs that would grow a careless reader or
# writer: a 2-million-record corpus (text and gzip; written as CSV, JSON lines, gzip CSV and
# Parquet, each then read back by `report`), a 100 MB line without a newline, and a CSV whose
# one field is 100 MB. Inputs are generated in a temp dir, removed at the end. scripts/bench.sh
# runs it for BENCHMARKS.md's memory table.
#
# Needs GNU time at /usr/bin/time (Debian/Ubuntu: `sudo apt-get install time`).
# Usage: scripts/peak_rss.sh [RECORDS]   (default 2000000)
set -euo pipefail
cd "$(dirname "$0")/.."
records=${1:-2000000}

if [ ! -x /usr/bin/time ]; then
    echo "error: /usr/bin/time (GNU time) is missing; install it with: sudo apt-get install time" >&2
    exit 2
fi
cargo build --release --quiet
bin=$PWD/target/release/sudoku-batch
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 2M records: the sample's puzzles under the 9 cyclic relabellings of their digits, repeated.
grep -v '^#' data/sample.txt | grep . > "$tmp/base.txt"
: > "$tmp/nine.txt"
for shift in 0 1 2 3 4 5 6 7 8; do
    to=$(printf '123456789123456789' | cut -c$((shift + 1))-$((shift + 9)))
    tr 123456789 "$to" < "$tmp/base.txt" >> "$tmp/nine.txt"
done
per=$(wc -l < "$tmp/nine.txt")
copies=$(( (records + per - 1) / per ))
# (`head` closes the pipe early, which pipefail would report as a failure.)
for _ in $(seq "$copies"); do cat "$tmp/nine.txt"; done | head -n "$records" > "$tmp/corpus.txt" || true
gzip -1 -c "$tmp/corpus.txt" > "$tmp/corpus.txt.gz"
# 100 MB of digits with no newline, as text and as one CSV field.
head -c 100000000 /dev/zero | tr '\0' '1' > "$tmp/line.txt"
{ printf 'id,puzzle\n1,"'; cat "$tmp/line.txt"; printf '"\n'; } > "$tmp/field.csv"

measure() {
    local what=$1; shift
    /usr/bin/time -v "$@" > /dev/null 2> "$tmp/time.txt" || true
    local kb wall
    kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$tmp/time.txt")
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$tmp/time.txt")
    printf '| %s | %s MB | %s |\n' "$what" "$(( kb / 1024 ))" "$wall"
}

commas() { sed -e :a -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/;ta' <<<"$1"; }

echo "| input | peak RSS | wall time |"
echo "|---|---|---|"
measure "$(commas "$records") records, text ($(( $(stat -c %s "$tmp/corpus.txt") / 1000000 )) MB)" \
    "$bin" solve -qq "$tmp/corpus.txt" -o "$tmp/out.csv"
for out in jsonl csv.gz parquet; do
    # A build without the cargo feature `parquet` refuses a Parquet output: no row then.
    : > "$tmp/empty.txt"
    "$bin" solve -qq -o "$tmp/probe.$out" "$tmp/empty.txt" 2>/dev/null || continue
    measure "$(commas "$records") records, text, to \`.$out\`" \
        "$bin" solve -qq "$tmp/corpus.txt" -o "$tmp/out.$out"
done
# `report` reads those results back: its memory must not grow with their rows.
if "$bin" report --help > /dev/null 2>&1; then
    for out in csv jsonl csv.gz parquet; do
        [ -s "$tmp/out.$out" ] || continue
        measure "\`report\` of the $(commas "$records") rows of \`.$out\`" \
            "$bin" report "$tmp/out.$out" -o "$tmp/report.html"
    done
fi
measure "$(commas "$records") records, gzip, from stdin" \
    sh -c "'$bin' solve -qq - < '$tmp/corpus.txt.gz'"
measure "one 100 MB line, no newline (text)" "$bin" solve -qq "$tmp/line.txt"
measure "one 100 MB quoted field (CSV)" "$bin" solve -qq "$tmp/field.csv"
printf '%081d\n' 0 > "$tmp/empty-grid.txt"
measure "the empty grid, \`--emit-solutions\` to 3,000,000 solutions" \
    "$bin" solve -qq --limit 3000000 --emit-solutions "$tmp/solutions.csv" "$tmp/empty-grid.txt"
