#!/usr/bin/env bash
# The whole `sudoku-batch solve` process against the `sudoku` crate (JCZSolve's Rust port), one
# thread, as issue 4's done-when compares them.
#
#   scripts/versus_crate.sh [-l LIMIT] [-r ROUNDS] CORPUS...
#
# Each round runs, in alternating order, `sudoku-batch solve CORPUS -j 1 --limit L -qq -o
# /dev/null` and `examples/crate_once` (read the file, count each puzzle with the crate, print
# the counts), both timed from the shell around the process: start, reading, solving, output
# and exit included. The crate's process also reports the rate of its solving loop alone, so
# each round gives two ratios: whole process against whole process, and our whole process
# against the crate's bare solving (the stricter one). Printed: median rates over the rounds,
# medians of the per-round ratios. Timing uses bash's EPOCHREALTIME, so no helper process
# (such as `date`) is counted.
set -euo pipefail
cd "$(dirname "$0")/.."
limit=2
rounds=11
while getopts "l:r:" opt; do
  case $opt in
    l) limit=$OPTARG ;;
    r) rounds=$OPTARG ;;
    *) echo "usage: $0 [-l LIMIT] [-r ROUNDS] CORPUS..." >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
if [ $# -eq 0 ]; then
  echo "usage: $0 [-l LIMIT] [-r ROUNDS] CORPUS..." >&2
  exit 2
fi
cargo build --release --quiet --bin sudoku-batch --example crate_once
ours=target/release/sudoku-batch
crate=target/release/examples/crate_once
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

median() { sort -g | awk '{v[NR]=$1} END {m=int((NR+1)/2); if (NR%2) print v[m]; else printf "%.4f\n", (v[m]+v[m+1])/2}'; }
seconds() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.6f\n", b - a}'; }
run_ours() {
  local s e
  s=$EPOCHREALTIME
  "$ours" solve "$1" -j 1 --limit "$limit" -qq -o /dev/null || [ $? -eq 1 ]
  e=$EPOCHREALTIME
  seconds "$s" "$e"
}
# The crate's process reports its loop's rate on stderr, which goes to a file opened once here:
# opening (and emptying) a file for each run, inside the timed interval, added about 0.4 ms to
# every crate run on the machine of BENCHMARKS.md, a quarter of a run over 100 puzzles.
exec 3>>"$tmp/loop"
run_crate() { # prints the process's seconds; the solving loop's rate is the last line of $tmp/loop
  local s e
  s=$EPOCHREALTIME
  "$crate" "$1" "$limit" --time >/dev/null 2>&3
  e=$EPOCHREALTIME
  seconds "$s" "$e"
}

echo "limit $limit, $rounds rounds; puzzles/s (medians), ratios (medians of per-round ratios)"
printf '%-34s %10s %10s %10s %12s %12s\n' corpus solve crate crate_loop "solve/crate" "solve/loop"
for corpus in "$@"; do
  n=$(grep -cv '^#' "$corpus")
  : >"$tmp/r"
  for r in $(seq "$rounds"); do
    if (( r % 2 )); then
      a=$(run_ours "$corpus"); b=$(run_crate "$corpus")
    else
      b=$(run_crate "$corpus"); a=$(run_ours "$corpus")
    fi
    echo "$a $b $(tail -n 1 "$tmp/loop")" >>"$tmp/r"
  done
  col() { awk -v n="$n" "{print $1}" "$tmp/r" | median; }
  printf '%-34s %10.0f %10.0f %10.0f %11.2fx %11.2fx\n' "$(basename "$corpus")" \
    "$(col 'n/$1')" "$(col 'n/$2')" "$(col '$3')" "$(col '$2/$1')" "$(col '(n/$1)/$3')"
done
