#!/usr/bin/env bash
# What the output format and the number of input files cost: prints two markdown tables for
# BENCHMARKS.md (scripts/bench.sh runs it).
#
#   scripts/formats_bench.sh [-r ROUNDS] [-c CORPORA] [-q]
#
#   -r ROUNDS   interleaved rounds (default 7)
#   -c CORPORA  the directory of tdoku's puzzle files (default ../shared/corpora/tdoku beside the
#               repository, or the CORPORA environment variable)
#   -q          quick, to try the script: 3 rounds (unless -r says), 50,000 records for the
#               many-files table
#
# Formats: `solve 17-clue-corpus -j 1 -qq -o FILE` for each output format, one after the other
# in an order that rotates from round to round. Many files: the 17-clue puzzles repeated to
# 500,000 records, solved (default threads) as one file and as 5,000 files of 100 in a
# directory, the order alternating. Whole processes are timed by bash (EPOCHREALTIME); the
# CPU time (user + system) comes from bash's `times`. Times are medians over the rounds; each
# ratio is the median of the ratios within a round, whose runs are seconds apart.
set -euo pipefail

rounds=
corpora=${CORPORA:-}
quick=
usage="usage: $0 [-r ROUNDS] [-c CORPORA] [-q]"
while getopts "r:c:q" opt; do
  case $opt in
    r) rounds=$OPTARG ;;
    c) corpora=$OPTARG ;;
    q) quick=1 ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
done
rounds=${rounds:-$([ -n "$quick" ] && echo 3 || echo 7)}
if ! [[ $rounds =~ ^[1-9][0-9]*$ ]]; then
  echo "$usage" >&2
  exit 2
fi
[ -n "$corpora" ] && corpora=$(realpath -m "$corpora")
cd "$(dirname "$0")/.."
corpora=${corpora:-../shared/corpora/tdoku}
corpus=$corpora/puzzles2_17_clue
if [ ! -f "$corpus" ]; then
  echo "error: $corpus not found (-c CORPORA)" >&2
  exit 2
fi
cargo build --release --quiet --bin sudoku-batch
bin=$PWD/target/release/sudoku-batch
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

formats=(csv jsonl csv.gz csv.zst)
"$bin" solve -qq -o "$tmp/probe.parquet" "$corpus" 2>/dev/null && formats+=(parquet)
records=$([ -n "$quick" ] && echo 50000 || echo 500000)
grep -v '^#' "$corpus" >"$tmp/base.txt"
: >"$tmp/one.txt"
while [ "$(wc -l <"$tmp/one.txt" 2>/dev/null || echo 0)" -lt "$records" ]; do
  cat "$tmp/base.txt" >>"$tmp/one.txt"
done
head -n "$records" "$tmp/one.txt" >"$tmp/cut" && mv "$tmp/cut" "$tmp/one.txt"
mkdir "$tmp/many"
(cd "$tmp/many" && split -l 100 -d -a 5 ../one.txt part-)
files=$(find "$tmp/many" -type f | wc -l)

exec 4>/dev/null
# Milliseconds in a time of bash's `times` (`1m2.345s`).
ms() {
  local m=${1%%m*} s=${1#*m}
  s=${s%s}
  echo $((m * 60000 + 10#${s/./}))
}
# Sets `cpu` to the CPU time of the children waited for so far, in milliseconds: the second
# line of bash's `times`, run in this shell (a command substitution is a subshell, which has
# no children).
children_cpu() {
  local user sys
  times >"$tmp/times"
  read -r user sys < <(tail -n 1 "$tmp/times")
  cpu=$(($(ms "$user") + $(ms "$sys")))
}
# Runs a whole process; appends its wall and CPU time in milliseconds to the round's record.
timed() {
  local t0 t1 c0
  children_cpu
  c0=$cpu
  t0=$EPOCHREALTIME
  "$@" >&4
  t1=$EPOCHREALTIME
  children_cpu
  record+=" $(((${t1/./} - ${t0/./}) / 1000)) $((cpu - c0))"
}

: >"$tmp/formats"
: >"$tmp/files"
: >"$tmp/load"
for r in $(seq "$rounds"); do
  cut -d' ' -f1 /proc/loadavg >>"$tmp/load"
  declare -A fields=()
  for k in "${!formats[@]}"; do
    f=${formats[$(((r + k) % ${#formats[@]}))]}
    record=
    timed "$bin" solve "$corpus" -j 1 -qq -o "$tmp/out.$f"
    fields[$f]="$record $(stat -c %s "$tmp/out.$f")"
  done
  for f in "${formats[@]}"; do echo "$f ${fields[$f]}" >>"$tmp/formats"; done
  unset fields
  pair=(one many)
  [ $((r % 2)) -eq 0 ] && pair=(many one)
  line=
  for p in "${pair[@]}"; do
    record=
    if [ "$p" = one ]; then
      timed "$bin" solve "$tmp/one.txt" -qq -o "$tmp/out.csv"
    else
      timed "$bin" solve "$tmp/many" -qq -o "$tmp/out.csv"
    fi
    declare "t_$p=$record"
  done
  echo "$t_one $t_many" >>"$tmp/files"
done
cut -d' ' -f1 /proc/loadavg >>"$tmp/load"
load="load average (1 min) $(sort -g "$tmp/load" | head -n 1) to $(sort -g "$tmp/load" | tail -n 1)"

awk_median='function median(list,   v, n, i, j, t) {
  n = split(list, v, " ")
  for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) {
    t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
  }
  return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}'

echo "Output formats: \`solve -j 1\` on the 17-clue corpus; $rounds rounds, $load."
echo
# Fields of $tmp/formats: format, wall ms, CPU ms, output bytes; the rounds' lines for the
# formats come in the same order every round, CSV first.
awk "$awk_median"'
  { n = ++count[$1]; wall[$1] = wall[$1] " " $2; cpu[$1] = cpu[$1] " " $3; size[$1] = $4
    if ($1 == "csv") { base_wall[n] = $2; base_cpu[n] = $3 }
    else { rw[$1] = rw[$1] " " $2 / base_wall[n]; rc[$1] = rc[$1] " " $3 / base_cpu[n] }
    if (!($1 in seen)) { seen[$1] = 1; order[++k] = $1 } }
  END {
    print "| output | wall | / CSV | CPU | / CSV | size |"
    print "|---|---:|---:|---:|---:|---:|"
    for (i = 1; i <= k; i++) {
      f = order[i]
      printf "| `.%s` | %d ms | %s | %d ms | %s | %.1f MB |\n", f, median(wall[f]),
        f == "csv" ? "1" : sprintf("%.2fx", median(rw[f])), median(cpu[f]),
        f == "csv" ? "1" : sprintf("%.2fx", median(rc[f])), size[f] / 1e6
    }
  }' "$tmp/formats"
echo
echo "Many files: $(sed -e :a -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/;ta' <<<"$records") records of the 17-clue corpus, \`solve\` (default threads)."
echo
awk "$awk_median"'
  { w1 = w1 " " $1; c1 = c1 " " $2; w2 = w2 " " $3; c2 = c2 " " $4
    rw = rw " " $3 / $1; rc = rc " " $4 / $2 }
  END {
    print "| inputs | wall | CPU |"
    print "|---|---:|---:|"
    printf "| one file | %d ms | %d ms |\n", median(w1), median(c1)
    printf "| '"$files"' files in a directory | %d ms | %d ms |\n", median(w2), median(c2)
    printf "| ratio | %.2fx | %.2fx |\n", median(rw), median(rc)
  }' "$tmp/files"
