#!/usr/bin/env bash
# `validate --duplicates --isomorphs` on a corpus of RECORDS random isomorphs holding a chosen
# number of distinct classes, beside `canon` and plain `validate --duplicates` on the same file.
#
#     scripts/validate_iso_bench.sh [RECORDS] [ROUNDS] [CLASSES...]
#
# For each CLASSES (default 10000 and 100000): the first CLASSES distinct puzzles of the 17-clue
# corpus followed by the forum's hardest and magictour's top 1465 (all in
# /work/shared/corpora/tdoku, essentially different within and mostly across), each turned
# into random isomorphs by `augment` until RECORDS rows (default 2,000,000) are written, in the
# order augment writes them (every class's copies together), then shuffled with a fixed seed.
# Each command runs with one thread, ROUNDS times (default 3), interleaved; the table gives
# median wall and CPU seconds, records/s, and peak RSS (GNU time's maximum resident set size).
# Memory per class is the difference of validate's peak RSS between two class counts divided
# by the difference of the class counts (the fixed cost cancels out). Our binary:
# $SUDOKU_BATCH, else target/release/sudoku-batch.
set -euo pipefail

records=${1:-2000000}
rounds=${2:-3}
shift $(( $# >= 2 ? 2 : $# ))
classes=("$@")
if [ ${#classes[@]} -eq 0 ]; then
    classes=(10000 100000)
fi
if [ ! -x /usr/bin/time ]; then
    echo "error: /usr/bin/time (GNU time) is missing; install it with: sudo apt-get install time" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
ours=${SUDOKU_BATCH:-$here/../target/release/sudoku-batch}
corpora=/work/shared/corpora/tdoku
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for f in "$corpora/puzzles2_17_clue" "$corpora/puzzles5_forum_hardest_1905_11+" \
    "$corpora/puzzles3_magictour_top1465"; do
    grep -v '^#' "$f" | grep -v '^[[:space:]]*$' | cut -c1-81
done > "$work/base.txt"

# Prints "wall cpu peak_kb" for one run of the command given.
timed() {
    # validate exits 1 when it finds duplicates; GNU time then says so on a line of its own.
    /usr/bin/time -f '%e %U %S %M' -o "$work/time" "$@" > /dev/null 2>&1 || true
    tail -n 1 "$work/time" | awk '{print $1, $2 + $3, $4}'
}
median() { sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

echo "| classes | records | command | wall s | CPU s | records/s (CPU) | ratio to canon (CPU) | peak RSS MB |"
echo "|---:|---:|---|---:|---:|---:|---:|---:|"
: > "$work/rss"
for n in "${classes[@]}"; do
    head -n "$n" "$work/base.txt" > "$work/classes.txt"
    have=$(wc -l < "$work/classes.txt")
    copies=$(( (records + have - 1) / have ))
    "$ours" augment -q -q -j 2 --copies "$copies" --seed 46 "$work/classes.txt" -o "$work/aug.csv"
    # The puzzle column, cut to RECORDS rows, shuffled (a fixed seed for shuf).
    awk -F, -v n="$records" 'NR > 1 && length($3) == 81 && kept < n {print $3; kept++}' \
        "$work/aug.csv" | shuf --random-source=<(yes 46) > "$work/corpus.txt"
    rm "$work/aug.csv"
    rows=$(wc -l < "$work/corpus.txt")
    : > "$work/canon"; : > "$work/iso"; : > "$work/exact"
    for _ in $(seq "$rounds"); do
        timed "$ours" canon -q -q -j 1 "$work/corpus.txt" -o /dev/null >> "$work/canon"
        timed "$ours" validate -q -q -j 1 --duplicates --isomorphs "$work/corpus.txt" -o /dev/null >> "$work/iso"
        timed "$ours" validate -q -q -j 1 --duplicates "$work/corpus.txt" -o /dev/null >> "$work/exact"
    done
    { "$ours" validate -j 1 --duplicates --isomorphs "$work/corpus.txt" -o /dev/null 2> "$work/summary" || true; } > /dev/null
    found=$(sed -n 's/^ *\([0-9,]*\) essentially different.*/\1/p' "$work/summary" | tr -d ,)
    canon_cpu=$(cut -d' ' -f2 "$work/canon" | median)
    for what in canon iso exact; do
        case $what in
            canon) name='`canon`' ;;
            iso) name='`validate --duplicates --isomorphs`' ;;
            exact) name='`validate --duplicates`' ;;
        esac
        wall=$(cut -d' ' -f1 "$work/$what" | median)
        cpu=$(cut -d' ' -f2 "$work/$what" | median)
        rss=$(cut -d' ' -f3 "$work/$what" | median)
        [ "$what" = iso ] && echo "$found $rss" >> "$work/rss"
        awk -v c="$found" -v n="$rows" -v name="$name" -v w="$wall" -v u="$cpu" -v k="$rss" \
            -v base="$canon_cpu" 'BEGIN {
            printf "| %d | %d | %s | %.2f | %.2f | %.0f | %.2fx | %.1f |\n",
                c, n, name, w, u, n / u, base / u, k / 1024
        }'
    done
done
# Bytes of peak RSS per class: the slope between the fewest and the most classes.
sort -n "$work/rss" | awk 'NR == 1 {c0 = $1; k0 = $2} {c1 = $1; k1 = $2}
    END { if (c1 > c0) printf "\nvalidate --isomorphs peak RSS per class: %.1f bytes (%d to %d classes)\n", (k1 - k0) * 1024 / (c1 - c0), c0, c1 }'
