#!/usr/bin/env bash
# The whole `sudoku-batch solve` process against the `sudoku` crate (JCZSolve's Rust port), one
# thread, as issue 4's done-when compares them, and against tdoku the same way if given.
#
#   scripts/versus_crate.sh [-l LIMIT] [-r ROUNDS] [-t TDOKU_ONCE] CORPUS...
#
# TDOKU_ONCE is `scripts/tdoku_once.c` built against tdoku outside this repository (that file
# says how); each round then also times its whole process, and two more columns give its rate
# and our process's ratio to it.
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
tdoku=
usage="usage: $0 [-l LIMIT] [-r ROUNDS] [-t TDOKU_ONCE] CORPUS..."
while getopts "l:r:t:" opt; do
  case $opt in
    l) limit=$OPTARG ;;
    r) rounds=$OPTARG ;;
    t) tdoku=$OPTARG ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
if [ $# -eq 0 ]; then
  echo "$usage" >&2
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
run_tdoku() {
  local s e
  s=$EPOCHREALTIME
  "$tdoku" "$1" "$limit" >/dev/null
  e=$EPOCHREALTIME
  seconds "$s" "$e"
}

echo "limit $limit, $rounds rounds; puzzles/s (medians), ratios (medians of per-round ratios)"
header=(corpus solve crate crate_loop "solve/crate" "solve/loop")
[ -n "$tdoku" ] && header+=(tdoku "solve/tdoku")
printf '%-34s %10s %10s %10s %12s %12s' "${header[@]:0:6}"
[ -n "$tdoku" ] && printf ' %10s %12s' "${header[@]:6}"
echo
for corpus in "$@"; do
  n=$(grep -cv '^#' "$corpus")
  : >"$tmp/r"
  programs=(ours crate)
  [ -n "$tdoku" ] && programs+=(tdoku)
  for r in $(seq "$rounds"); do
    # The programs take turns at going first: round r starts with program r mod n.
    c=0
    for k in "${!programs[@]}"; do
      case ${programs[$(( (r + k) % ${#programs[@]} ))]} in
        ours) a=$(run_ours "$corpus") ;;
        crate) b=$(run_crate "$corpus") ;;
        tdoku) c=$(run_tdoku "$corpus") ;;
      esac
    done
    echo "$a $b $(tail -n 1 "$tmp/loop") $c" >>"$tmp/r"
  done
  col() { awk -v n="$n" "{print $1}" "$tmp/r" | median; }
  printf '%-34s %10.0f %10.0f %10.0f %11.2fx %11.2fx' "$(basename "$corpus")" \
    "$(col 'n/$1')" "$(col 'n/$2')" "$(col '$3')" "$(col '$2/$1')" "$(col '(n/$1)/$3')"
  [ -n "$tdoku" ] && printf ' %10.0f %11.2fx' "$(col 'n/$4')" "$(col '$4/$1')"
  echo
done
