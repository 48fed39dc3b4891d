#!/usr/bin/env bash
# Canonical forms per second on each corpus: `sudoku-batch canon` with one thread and with two,
# beside the reference, Mladen Dobrichev's minlexing tool
# (github.com/dobrichev/sudoku-minlexing-tool) built with g++ -O3, run in interleaved rounds.
#
#     scripts/canon_bench.sh MINLEX_SOURCE_DIR [ROUNDS] [CORPUS...]
#
# MINLEX_SOURCE_DIR holds the tool's patminlex.cpp and patminlex.h; a small driver printing
# `form<TAB>automorphisms` per puzzle is built against them in a temporary directory. Both
# sides are whole processes reading a file of puzzles and writing one line per puzzle (ours a
# CSV row); a corpus under 20,000 puzzles is repeated up to that. ROUNDS defaults to 5; CORPUS to the five tdoku corpora. Our binary: $SUDOKU_BATCH,
# else target/release/sudoku-batch. Prints a Markdown table of forms/s from the median wall
# time of each, and the one-thread ratio from the median CPU time (user + system) as well.
# With REF_PUZZLES=N in the environment, the reference is timed on the first N puzzles only
# and its rate taken from those (for solved grids, where it takes about 0.1 s each).
set -euo pipefail

src=${1:?usage: scripts/canon_bench.sh MINLEX_SOURCE_DIR [ROUNDS] [CORPUS...]}
rounds=${2:-5}
shift $(( $# >= 2 ? 2 : 1 ))
corpora=("$@")
if [ ${#corpora[@]} -eq 0 ]; then
    corpora=(/work/shared/corpora/tdoku/puzzles*)
fi
here=$(cd "$(dirname "$0")" && pwd)
ours=${SUDOKU_BATCH:-$here/../target/release/sudoku-batch}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cat > "$work/driver.cpp" <<'CPP'
#include "patminlex.h"
#include <cstdio>
int main() {
    char line[4096];
    while (fgets(line, sizeof line, stdin)) {
        char in[81], out[81], text[82];
        for (int i = 0; i < 81; i++) in[i] = line[i] >= '1' && line[i] <= '9' ? line[i] - '0' : 0;
        patminlex m(in, out);
        for (int i = 0; i < 81; i++) text[i] = out[i] ? '0' + out[i] : '.';
        text[81] = 0;
        printf("%s\t%d\n", text, m.size());
    }
}
CPP
g++ -O3 -I"$src" -o "$work/minlex" "$work/driver.cpp" "$src/patminlex.cpp"

# Prints "wall cpu" in seconds for one run of the command given.
timed() {
    local TIMEFORMAT="%3R %3U %3S"
    { time "$@" > /dev/null 2>&1; } 2> "$work/time"
    awk '{print $1, $2 + $3}' "$work/time"
}
median() { sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

echo "| corpus | puzzles | reference | ours -j 1 | ratio (wall) | ratio (CPU) | ours -j 2 | ratio |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for corpus in "${corpora[@]}"; do
    grep -v '^#' "$corpus" | grep -v '^[[:space:]]*$' | cut -c1-81 > "$work/one_copy.txt"
    # A small corpus is repeated up to at least 20,000 puzzles, so that start-up does not
    # decide its rate.
    : > "$work/puzzles.txt"
    while [ "$(wc -l < "$work/puzzles.txt")" -lt 20000 ]; do
        cat "$work/one_copy.txt" >> "$work/puzzles.txt"
    done
    n=$(wc -l < "$work/puzzles.txt")
    ref_n=${REF_PUZZLES:-$n}
    ref_n=$(( ref_n < n ? ref_n : n ))
    head -n "$ref_n" "$work/puzzles.txt" > "$work/ref_puzzles.txt"
    : > "$work/ref"; : > "$work/one"; : > "$work/two"
    for _ in $(seq "$rounds"); do
        timed sh -c "'$work/minlex' < '$work/ref_puzzles.txt'" >> "$work/ref"
        timed "$ours" canon -q -q -j 1 "$work/puzzles.txt" -o /dev/null >> "$work/one"
        timed "$ours" canon -q -q -j 2 "$work/puzzles.txt" -o /dev/null >> "$work/two"
    done
    ref_wall=$(cut -d' ' -f1 "$work/ref" | median); ref_cpu=$(cut -d' ' -f2 "$work/ref" | median)
    one_wall=$(cut -d' ' -f1 "$work/one" | median); one_cpu=$(cut -d' ' -f2 "$work/one" | median)
    two_wall=$(cut -d' ' -f1 "$work/two" | median)
    awk -v name="$(basename "$corpus")" -v n="$n" -v rn="$ref_n" -v rw="$ref_wall" -v rc="$ref_cpu" \
        -v ow="$one_wall" -v oc="$one_cpu" -v tw="$two_wall" 'BEGIN {
        m = 0.001  # times are given in thousandths
        rw = rw < m ? m : rw; rc = rc < m ? m : rc; ow = ow < m ? m : ow; oc = oc < m ? m : oc; tw = tw < m ? m : tw
        # Rates per second; the ratios compare rates (the reference may have timed fewer).
        rr = rn / rw; rrc = rn / rc
        printf "| %s | %d | %.0f | %.0f | %.2fx | %.2fx | %.0f | %.2fx |\n",
            name, n, rr, n / ow, (n / ow) / rr, (n / oc) / rrc, n / tw, (n / tw) / rr
    }'
done
