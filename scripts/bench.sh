#!/usr/bin/env bash
# Regenerates every figure of BENCHMARKS.md and prints them as markdown, ready to paste.
#
#   scripts/bench.sh [-r ROUNDS] [-t TDOKU_ONCE] [-c CORPORA] [-a] [-q]
#
#   -r ROUNDS      interleaved rounds (default 7)
#   -t TDOKU_ONCE  scripts/tdoku_once.c built against tdoku (that file says how), or the
#                  TDOKU_ONCE environment variable; without it the tdoku columns are left out
#   -c CORPORA     the directory of tdoku's puzzle files (default ../shared/corpora/tdoku beside
#                  the repository, or the CORPORA environment variable)
#   -a             the corpora as published, instead of relabelled and permuted copies
#   -q             quick, to try the script: 3 rounds (unless -r says) on the first 2,000 puzzles
#                  of each corpus, 100,000 records for the memory table, one run of the strategies
#
# Rounds. Each round runs, for every corpus and at limits 2 and 1, these programs back to back,
# the first of them rotating from round to round:
#   - `sudoku-batch bench FILE --solver fast --runs 1` at 1 and 2 threads: the bare solver on
#     puzzles parsed beforehand, its own clock around the solving;
#   - `sudoku-batch solve FILE -j T -qq -o /dev/null` at T = 1 and 2: the whole process;
#   - `examples/crate_once FILE L --time` (the `sudoku` crate) and TDOKU_ONCE FILE L --time:
#     whole processes, which also report the rate of their solving loop alone.
# Whole processes are timed by bash (EPOCHREALTIME, read by the shell itself around the
# process), every output going to descriptors opened once, so that no helper process and no
# opening of a file is counted. Rates are medians over the rounds; ratios are medians of the
# ratios within each round, which pair runs seconds apart and so suffer less from a shared
# machine's slow spells than a ratio of two medians.
#
# The copies (default) give each puzzle its own relabelling, row, column, band and stack
# permutation and maybe a transposition (scripts/permute_corpus.py, seed 42), as tdoku's own
# benchmark does, so that no solver gains from the orientation a corpus happens to have.
set -euo pipefail

rounds=
tdoku=${TDOKU_ONCE:-}
corpora=${CORPORA:-}
permute=1
quick=
usage="usage: $0 [-r ROUNDS] [-t TDOKU_ONCE] [-c CORPORA] [-a] [-q]"
while getopts "r:t:c:aq" opt; do
  case $opt in
    r) rounds=$OPTARG ;;
    t) tdoku=$OPTARG ;;
    c) corpora=$OPTARG ;;
    a) permute= ;;
    q) quick=1 ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
done
rounds=${rounds:-$([ -n "$quick" ] && echo 3 || echo 7)}
if ! [[ $rounds =~ ^[1-9][0-9]*$ ]]; then
  echo "$usage" >&2
  exit 2
fi
# Paths given are the caller's; the script runs from the repository's root.
[ -n "$tdoku" ] && tdoku=$(realpath -m "$tdoku")
[ -n "$corpora" ] && corpora=$(realpath -m "$corpora")
cd "$(dirname "$0")/.."
corpora=${corpora:-../shared/corpora/tdoku}
if [ -n "$tdoku" ] && [ ! -x "$tdoku" ]; then
  echo "error: $tdoku is not an executable (see scripts/tdoku_once.c)" >&2
  exit 2
fi
names=(puzzles2_17_clue puzzles3_magictour_top1465 puzzles5_forum_hardest_1905_11+
  puzzles6_forum_hardest_1106 puzzles7_serg_benchmark)
for name in "${names[@]}"; do
  if [ ! -f "$corpora/$name" ]; then
    echo "error: $corpora/$name not found (-c CORPORA)" >&2
    exit 2
  fi
done

cargo build --release --quiet --bin sudoku-batch --example crate_once
bin=target/release/sudoku-batch
crate=target/release/examples/crate_once
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The inputs: each corpus (copied, or taken as it is), cut to 2,000 puzzles in quick mode.
files=()
for name in "${names[@]}"; do
  short=${name#puzzles?_}
  if [ -n "$permute" ]; then
    python3 scripts/permute_corpus.py "$corpora/$name" "$tmp/$short" 42
  else
    grep -v '^#' "$corpora/$name" >"$tmp/$short"
  fi
  if [ -n "$quick" ]; then
    head -n 2000 "$tmp/$short" >"$tmp/cut" && mv "$tmp/cut" "$tmp/$short"
  fi
  files+=("$tmp/$short")
done

exec 4>/dev/null 5>"$tmp/crate.err" 6>"$tmp/tdoku.err"
# Runs a whole process and appends its time in microseconds to the round's record.
timed() {
  local t0 t1
  t0=$EPOCHREALTIME
  "$@" >&4
  t1=$EPOCHREALTIME
  record+=" $((${t1/./} - ${t0/./}))"
}
# Appends the bare solver's puzzles, rate and guesses per puzzle (bench's CSV: file, solver,
# puzzles, invalid, puzzles/s, min/s, max/s, us/puzzle, no guess %, guesses/puzzle, aborted).
bare() { # threads
  local row
  row=$("$bin" bench "$file" --solver fast --runs 1 --limit "$limit" --threads "$1" --csv | sed -n 2p)
  IFS=, read -r _ _ puzzles _ rate _ _ _ _ guesses _ <<<"$row"
  record+=" $puzzles $rate $guesses"
}
run() {
  case $1 in
    bench1) bare 1 ;;
    bench2) bare 2 ;;
    solve1) timed "$bin" solve "$file" -j 1 --limit "$limit" -qq -o /dev/null ;;
    solve2) timed "$bin" solve "$file" -j 2 --limit "$limit" -qq -o /dev/null ;;
    crate)
      timed "$crate" "$file" "$limit" --time 2>&5
      record+=" $(tail -n 1 "$tmp/crate.err")"
      ;;
    tdoku)
      timed "$tdoku" "$file" "$limit" --time 2>&6
      record+=" $(tail -n 1 "$tmp/tdoku.err")"
      ;;
  esac
}

# The two peers must agree on every count (a check, and a warm-up for the file cache).
if [ -n "$tdoku" ]; then
  for file in "${files[@]}"; do
    for limit in 2 1; do
      if ! cmp -s <("$crate" "$file" "$limit") <("$tdoku" "$file" "$limit"); then
        echo "error: the crate and tdoku count $file differently at limit $limit" >&2
        exit 1
      fi
    done
  done
fi

programs=(bench1 bench2 solve1 solve2 crate)
[ -n "$tdoku" ] && programs+=(tdoku)
: >"$tmp/rounds"
: >"$tmp/load"
started=$SECONDS
for r in $(seq "$rounds"); do
  cut -d' ' -f1 /proc/loadavg >>"$tmp/load"
  for file in "${files[@]}"; do
    for limit in 2 1; do
      # One line per round: name limit, then each program's fields in a fixed order.
      declare -A fields=()
      for k in "${!programs[@]}"; do
        p=${programs[$(((r + k) % ${#programs[@]}))]}
        record=
        run "$p"
        fields[$p]=$record
      done
      line="$(basename "$file") $limit"
      for p in bench1 bench2 solve1 solve2 crate tdoku; do
        line+=" ${fields[$p]:-- - -}"
      done
      echo "$line" >>"$tmp/rounds"
      unset fields
    done
  done
done
cut -d' ' -f1 /proc/loadavg >>"$tmp/load"
elapsed=$((SECONDS - started))

echo "## Machine"
echo
cpu() { grep -m1 "^$1" /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'; }
echo "- $(cpu 'model name') (family $(cpu 'cpu family'), model $(cpu model)," \
  "$(grep -qw avx512f /proc/cpuinfo || echo "no ")AVX-512), $(nproc) CPUs," \
  "$(awk '/MemTotal/ {printf "%.0f GB", $2 / 1048576}' /proc/meminfo), $(uname -sr)"
echo "- $(rustc -V); $(gcc --version | head -n 1)"
echo "- rounds: $rounds, in $((elapsed / 60)) min $((elapsed % 60)) s; load average (1 min)" \
  "$(sort -g "$tmp/load" | head -n 1) to $(sort -g "$tmp/load" | tail -n 1) during them"
echo "- corpora: $([ -n "$permute" ] && echo "relabelled and permuted copies (seed 42)" || echo "as published")$([ -n "$quick" ] && echo ", first 2,000 puzzles (quick mode)")"
echo

# A rate rounded to a whole number, with thousands separators.
awk_rate='function rate(x,   s) {
  s = sprintf("%d", x + 0.5)
  while (s ~ /[0-9][0-9][0-9][0-9]/) sub(/[0-9][0-9][0-9]($|,)/, ",&", s)
  return s
}'
# Fields of a line of $tmp/rounds (tdoku's are "-" when it is absent):
#  1 corpus  2 limit
#  3-5 bench -j 1: puzzles, rate, guesses     6-8 bench -j 2: puzzles, rate, guesses
#  9 solve -j 1 us   10 solve -j 2 us   11 crate us   12 crate loop rate
#  13 tdoku us   14 tdoku loop rate   15 tdoku guesses
# Prints one of the three tables from the rounds: bare | process | threads.
report() {
  awk -v table="$1" -v tdoku="${tdoku:+1}" "$awk_rate"'
    function median(list,   v, n, i, j, t) {
      n = split(list, v, " ")
      for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) {
        t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
      }
      return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
    }
    function add(name, value) { col[key, name] = col[key, name] " " value }
    function ratio(x) { return sprintf("%.2fx", x) }
    {
      key = $1 SUBSEP $2
      if (!(key in seen)) { seen[key] = 1; order[++keys] = key }
      n = $3
      add("b1", $4); add("b2", $7); add("g", $5)
      add("s1", n * 1e6 / $9); add("s2", n * 1e6 / $10)
      add("c", n * 1e6 / $11); add("cl", $12)
      add("b1/cl", $4 / $12); add("s1/c", $11 / $9); add("s2/c", $11 / $10)
      add("b2/b1", $7 / $4); add("s2/s1", $9 / $10); add("s1/b1", n * 1e6 / $9 / $4)
      if (tdoku) {
        add("t", n * 1e6 / $13); add("tl", $14); add("tg", $15)
        add("b1/tl", $4 / $14); add("s1/t", $13 / $9); add("s2/t", $13 / $10)
      }
    }
    function m(name) { return median(col[key, name]) }
    END {
      if (table == "bare") {
        printf "| corpus | limit | `fast` | crate |%s fast / crate |%s fast guesses |%s\n",
          tdoku ? " tdoku |" : "", tdoku ? " fast / tdoku |" : "", tdoku ? " tdoku guesses |" : ""
        printf "|---|---:|---:|---:|%s---:|%s---:|%s\n", tdoku ? "---:|" : "",
          tdoku ? "---:|" : "", tdoku ? "---:|" : ""
      } else if (table == "process") {
        printf "| corpus | limit | `solve -j 1` | `solve -j 2` | crate |%s -j 1 / crate | -j 2 / crate |%s\n",
          tdoku ? " tdoku |" : "", tdoku ? " -j 1 / tdoku | -j 2 / tdoku |" : ""
        printf "|---|---:|---:|---:|---:|%s---:|---:|%s\n", tdoku ? "---:|" : "",
          tdoku ? "---:|---:|" : ""
      } else {
        print "| corpus | limit | `bench` -j 2 / -j 1 | `solve` -j 2 / -j 1 | `solve -j 1` / `bench` -j 1 |"
        print "|---|---:|---:|---:|---:|"
      }
      for (i = 1; i <= keys; i++) {
        key = order[i]
        split(key, k, SUBSEP)
        printf "| %s | %s |", k[1], k[2]
        if (table == "bare") {
          printf " %s | %s |", rate(m("b1")), rate(m("cl"))
          if (tdoku) printf " %s |", rate(m("tl"))
          printf " %s |", ratio(m("b1/cl"))
          if (tdoku) printf " %s |", ratio(m("b1/tl"))
          printf " %.2f |", m("g")
          if (tdoku) printf " %.2f |", m("tg")
        } else if (table == "process") {
          printf " %s | %s | %s |", rate(m("s1")), rate(m("s2")), rate(m("c"))
          if (tdoku) printf " %s |", rate(m("t"))
          printf " %s | %s |", ratio(m("s1/c")), ratio(m("s2/c"))
          if (tdoku) printf " %s | %s |", ratio(m("s1/t")), ratio(m("s2/t"))
        } else {
          printf " %s | %s | %.2f |", ratio(m("b2/b1")), ratio(m("s2/s1")), m("s1/b1")
        }
        print ""
      }
    }' "$tmp/rounds"
}

echo "## Bare solver, one thread (puzzles/s)"
echo
report bare
echo
echo "## Whole process (puzzles/s)"
echo
report process
echo
echo "## Two threads"
echo
report threads
echo
echo "## Peak memory"
echo
scripts/peak_rss.sh $([ -n "$quick" ] && echo 100000)
echo
echo "## Output formats and many inputs"
echo
scripts/formats_bench.sh -r "$rounds" -c "$corpora" $([ -n "$quick" ] && echo -q)
echo
echo "## Strategies on data/sample.txt"
echo
"$bin" bench data/sample.txt --solver all --runs "$([ -n "$quick" ] && echo 1 || echo 5)" --csv |
  awk -F, "$awk_rate"'NR == 1 {
      print "| strategy | puzzles/s | µs/puzzle | solved without guessing | guesses/puzzle | aborted |"
      print "|---|---:|---:|---:|---:|---:|"
      next
    }
    { printf "| `%s` | %s | %.2f | %.1f%% | %.2f | %d |\n", $2, rate($5), $8, $9, $10, $11 }'
