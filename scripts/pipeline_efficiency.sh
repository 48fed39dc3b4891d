#!/usr/bin/env bash
# How much of the bare solver's rate the whole `solve` process keeps, and how it scales.
#
#   scripts/pipeline_efficiency.sh [CORPUS] [ROUNDS]
#
# Each round times, one after another: the bare solver (`bench`, puzzles already in memory) and
# the full `solve` pipeline (read, solve, write CSV to /dev/null, process start included), at 1
# and at 2 threads. Interleaving the four keeps their ratios fair on a shared machine; the
# medians over the rounds are printed with the ratios the README and BENCHMARKS.md quote.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${1:-../shared/corpora/tdoku/puzzles2_17_clue}
rounds=${2:-7}
cargo build --release --quiet
bin=target/release/sudoku-batch
puzzles=$(grep -cv '^#' "$corpus")

bare_rate() { # threads
  "$bin" bench "$corpus" --solver fast --runs 1 --threads "$1" --csv | awk -F, 'NR==2 {print $5}'
}
pipeline_rate() { # threads
  # bash's clock, not `date`: starting a `date` process would be counted in the interval.
  local t0 t1
  t0=$EPOCHREALTIME
  "$bin" solve "$corpus" -j "$1" -qq -o /dev/null
  t1=$EPOCHREALTIME
  awk -v n="$puzzles" -v a="$t0" -v b="$t1" 'BEGIN {printf "%.1f\n", n / (b - a)}'
}
median() { sort -g | awk '{v[NR]=$1} END {m=int((NR+1)/2); if (NR%2) print v[m]; else printf "%.1f\n", (v[m]+v[m+1])/2}'; }

: >/tmp/pe.b1; : >/tmp/pe.p1; : >/tmp/pe.b2; : >/tmp/pe.p2
for _ in $(seq "$rounds"); do
  bare_rate 1 >>/tmp/pe.b1
  pipeline_rate 1 >>/tmp/pe.p1
  bare_rate 2 >>/tmp/pe.b2
  pipeline_rate 2 >>/tmp/pe.p2
done
b1=$(median </tmp/pe.b1); p1=$(median </tmp/pe.p1); b2=$(median </tmp/pe.b2); p2=$(median </tmp/pe.p2)
echo "corpus: $corpus ($puzzles puzzles), $rounds rounds, medians in puzzles/s"
printf '%-28s %12s %12s\n' "" "1 thread" "2 threads"
printf '%-28s %12.0f %12.0f\n' "bare solver (bench)" "$b1" "$b2"
printf '%-28s %12.0f %12.0f\n' "solve pipeline, CSV output" "$p1" "$p2"
awk -v b1="$b1" -v p1="$p1" -v b2="$b2" -v p2="$p2" 'BEGIN {
  printf "pipeline / bare at 1 thread:    %.2f\n", p1 / b1
  printf "pipeline 2 threads / 1 thread:  %.2fx\n", p2 / p1
  printf "bare 2 threads / 1 thread:      %.2fx\n", b2 / b1
}'
