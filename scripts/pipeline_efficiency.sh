#!/usr/bin/env bash
# How much of the bare solver's rate the whole `solve` process keeps, and how it scales.
#
#   scripts/pipeline_efficiency.sh [CORPUS] [ROUNDS]
#
# Each round times, one after another: the bare solver (`bench`, puzzles already in memory) and
# the full `solve` pipeline (read, solve, write CSV to /dev/null, process start included), at 1
# and at 2 threads. Interleaving the four keeps their ratios fair on a shared machine. Printed:
# the medians over the rounds, and the ratios the README and BENCHMARKS.md quote, each both as
# the ratio of two medians and as the median (with the range) of the ratios within each round,
# which pairs runs seconds apart and so is the less exposed to a slow spell of the machine.
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
median() { sort -g | awk '{v[NR]=$1} END {m=int((NR+1)/2); if (NR%2) print v[m]; else printf "%.4f\n", (v[m]+v[m+1])/2}'; }

: >/tmp/pe.b1; : >/tmp/pe.p1; : >/tmp/pe.b2; : >/tmp/pe.p2
for _ in $(seq "$rounds"); do
  bare_rate 1 >>/tmp/pe.b1
  pipeline_rate 1 >>/tmp/pe.p1
  bare_rate 2 >>/tmp/pe.b2
  pipeline_rate 2 >>/tmp/pe.p2
done
b1=$(median </tmp/pe.b1); p1=$(median </tmp/pe.p1); b2=$(median </tmp/pe.b2); p2=$(median </tmp/pe.p2)
# The three ratios of each round: pipeline / bare at 1 thread, pipeline 2 / 1, bare 2 / 1.
paste /tmp/pe.b1 /tmp/pe.p1 /tmp/pe.b2 /tmp/pe.p2 |
  awk '{printf "%.4f %.4f %.4f\n", $2 / $1, $4 / $2, $3 / $1}' >/tmp/pe.rounds
per_round() { # column of /tmp/pe.rounds, unit: "median (min-max)"
  local m
  m=$(cut -d' ' -f"$1" /tmp/pe.rounds | median)
  cut -d' ' -f"$1" /tmp/pe.rounds | sort -g |
    awk -v m="$m" -v u="$2" '{v[NR]=$1} END {printf "%.2f%s (%.2f%s-%.2f%s)", m, u, v[1], u, v[NR], u}'
}
echo "corpus: $corpus ($puzzles puzzles), $rounds rounds, medians in puzzles/s"
printf '%-28s %12s %12s\n' "" "1 thread" "2 threads"
printf '%-28s %12.0f %12.0f\n' "bare solver (bench)" "$b1" "$b2"
printf '%-28s %12.0f %12.0f\n' "solve pipeline, CSV output" "$p1" "$p2"
printf '%-32s %-10s %s\n' "" "medians" "per round: median (range)"
awk -v b1="$b1" -v p1="$p1" -v b2="$b2" -v p2="$p2" \
    -v r1="$(per_round 1 '')" -v r2="$(per_round 2 x)" -v r3="$(per_round 3 x)" 'BEGIN {
  printf "%-32s %-10s %s\n", "pipeline / bare at 1 thread:", sprintf("%.2f", p1 / b1), r1
  printf "%-32s %-10s %s\n", "pipeline 2 threads / 1 thread:", sprintf("%.2fx", p2 / p1), r2
  printf "%-32s %-10s %s\n", "bare 2 threads / 1 thread:", sprintf("%.2fx", b2 / b1), r3
}'
