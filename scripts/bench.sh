#!/usr/bin/env bash
# Regenerates every figure of BENCHMARKS.md and prints them as markdown, ready to paste.
#
#   scripts/bench.sh [-r ROUNDS] [-t TDOKU_BUILD] [-c CORPORA] [-o ORDER] [-s] [-q]
#
#   -r ROUNDS       interleaved rounds (default 7)
#   -t TDOKU_BUILD  the directory scripts/build_peers.sh wrote tdoku into (tdoku_once_O3_native,
#                   tdoku_once_O3_native_pgo), or the TDOKU_BUILD environment variable; without
#                   it the tdoku columns are left out
#   -c CORPORA      the directory of tdoku's puzzle files (default ../shared/corpora/tdoku beside
#                   the repository, or the CORPORA environment variable)
#   -o ORDER        permuted (relabelled and permuted copies), published (the corpora as they
#                   are) or both (default), each order a set of tables
#   -s              the solver tables only (no memory, formats or strategies)
#   -q              quick, to try the script: 3 rounds (unless -r says) on the first 2,000 puzzles
#                   of each corpus, 100,000 records for the memory table, one run of the strategies
#
# Rounds. Each round runs, for every order, every corpus and at limits 2 and 1, these programs
# back to back, the first of them rotating from round to round:
#   - `sudoku-batch bench FILE --solver fast --runs 1` at 1 and 2 threads: the bare solver on
#     puzzles parsed beforehand, its own clock around the solving;
#   - `sudoku-batch solve FILE -j T -qq -o /dev/null` at T = 1 and 2: the whole process;
#   - `examples/crate_once FILE L --time` (the `sudoku` crate, built with this repository's
#     release profile) and tdoku's two builds, `tdoku_once_* FILE L --time`: whole processes,
#     which also report the rate of their bare solver, timed as `bench` times ours (puzzles
#     parsed or copied beforehand, the clock around the solving only).
# Whole processes are timed by bash (EPOCHREALTIME, read by the shell itself around the
# process), every output going to descriptors opened once, so that no helper process and no
# opening of a file is counted. Rates are medians over the rounds; ratios are medians of the
# ratios within each round, which pair runs seconds apart and so suffer less from a shared
# machine's slow spells than a ratio of two medians. "best peer" is, in each round, the fastest
# of the crate and tdoku's builds on that corpus and limit.
#
# The copies give each puzzle its own relabelling, row, column, band and stack permutation and
# maybe a transposition (scripts/permute_corpus.py, seed 42), as tdoku's own benchmark does, so
# that no solver gains from the orientation a corpus happens to have: they are the fair basis.
set -euo pipefail

rounds=
tdoku=${TDOKU_BUILD:-}
corpora=${CORPORA:-}
order=both
solvers_only=
quick=
usage="usage: $0 [-r ROUNDS] [-t TDOKU_BUILD] [-c CORPORA] [-o permuted|published|both] [-s] [-q]"
while getopts "r:t:c:o:sq" opt; do
  case $opt in
    r) rounds=$OPTARG ;;
    t) tdoku=$OPTARG ;;
    c) corpora=$OPTARG ;;
    o) order=$OPTARG ;;
    s) solvers_only=1 ;;
    q) quick=1 ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
done
rounds=${rounds:-$([ -n "$quick" ] && echo 3 || echo 7)}
if ! [[ $rounds =~ ^[1-9][0-9]*$ ]]; then
  echo "$usage" >&2
  exit 2
fi
case $order in
  permuted) orders=(permuted) ;;
  published) orders=(published) ;;
  both) orders=(permuted published) ;;
  *) echo "$usage" >&2; exit 2 ;;
esac
# Paths given are the caller's; the script runs from the repository's root.
[ -n "$tdoku" ] && tdoku=$(realpath -m "$tdoku")
[ -n "$corpora" ] && corpora=$(realpath -m "$corpora")
cd "$(dirname "$0")/.."
corpora=${corpora:-../shared/corpora/tdoku}
if [ -n "$tdoku" ]; then
  for build in O3_native O3_native_pgo; do
    if [ ! -x "$tdoku/tdoku_once_$build" ]; then
      echo "error: $tdoku/tdoku_once_$build is not an executable (see scripts/build_peers.sh)" >&2
      exit 2
    fi
  done
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

# The inputs: each corpus in each order (copied, or taken as it is), cut to 2,000 puzzles in
# quick mode, as $tmp/ORDER/NAME.
files=()
for o in "${orders[@]}"; do
  mkdir -p "$tmp/$o"
  for name in "${names[@]}"; do
    file=$tmp/$o/${name#puzzles?_}
    if [ "$o" = permuted ]; then
      python3 scripts/permute_corpus.py "$corpora/$name" "$file" 42
    else
      grep -v '^#' "$corpora/$name" >"$file"
    fi
    if [ -n "$quick" ]; then
      head -n 2000 "$file" >"$tmp/cut" && mv "$tmp/cut" "$file"
    fi
    files+=("$file")
  done
done

exec 4>/dev/null 5>"$tmp/peer.err"
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
# A peer as a whole process, then what it reports on stderr (its solver's rate; tdoku's
# guesses per puzzle).
peer() {
  timed "$@" "$file" "$limit" --time 2>&5
  record+=" $(tail -n 1 "$tmp/peer.err")"
}
run() {
  case $1 in
    bench1) bare 1 ;;
    bench2) bare 2 ;;
    solve1) timed "$bin" solve "$file" -j 1 --limit "$limit" -qq -o /dev/null ;;
    solve2) timed "$bin" solve "$file" -j 2 --limit "$limit" -qq -o /dev/null ;;
    crate) peer "$crate" ;;
    tdoku) peer "$tdoku/tdoku_once_O3_native" ;;
    tdoku_pgo) peer "$tdoku/tdoku_once_O3_native_pgo" ;;
  esac
}

# The peers must agree with `solve` on every count (a check, and a warm-up for the file cache).
peers=("$crate")
[ -n "$tdoku" ] && peers+=("$tdoku/tdoku_once_O3_native" "$tdoku/tdoku_once_O3_native_pgo")
for file in "${files[@]}"; do
  for limit in 2 1; do
    "$bin" solve "$file" --limit "$limit" -qq -o "$tmp/ours.csv"
    # The count is the solutions column (the fourth) of solve's CSV.
    cut -d, -f4 "$tmp/ours.csv" | tail -n +2 >"$tmp/ours"
    for p in "${peers[@]}"; do
      if ! cmp -s "$tmp/ours" <("$p" "$file" "$limit"); then
        echo "error: $p counts $file differently from sudoku-batch at limit $limit" >&2
        exit 1
      fi
    done
  done
done

programs=(bench1 bench2 solve1 solve2 crate)
[ -n "$tdoku" ] && programs+=(tdoku tdoku_pgo)
: >"$tmp/rounds"
: >"$tmp/load"
started=$SECONDS
for r in $(seq "$rounds"); do
  cut -d' ' -f1 /proc/loadavg >>"$tmp/load"
  for file in "${files[@]}"; do
    for limit in 2 1; do
      # One line per round: order, name, limit, then each program's fields in a fixed order.
      declare -A fields=()
      for k in "${!programs[@]}"; do
        p=${programs[$(((r + k) % ${#programs[@]}))]}
        record=
        run "$p"
        fields[$p]=$record
      done
      line="$(basename "$(dirname "$file")") $(basename "$file") $limit"
      for p in bench1 bench2 solve1 solve2 crate tdoku tdoku_pgo; do
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
echo "- $(rustc -V); $(clang --version 2>/dev/null | head -n 1 || echo "no clang")"
echo "- rounds: $rounds, in $((elapsed / 60)) min $((elapsed % 60)) s; load average (1 min)" \
  "$(sort -g "$tmp/load" | head -n 1) to $(sort -g "$tmp/load" | tail -n 1)" \
  "(median $(sort -g "$tmp/load" | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}')) during them"
echo "- corpora: ${orders[*]}$([ -n "$quick" ] && echo ", first 2,000 puzzles (quick mode)")"
echo

# A rate rounded to a whole number, with thousands separators.
awk_rate='function rate(x,   s) {
  s = sprintf("%d", x + 0.5)
  while (s ~ /[0-9][0-9][0-9][0-9]/) sub(/[0-9][0-9][0-9]($|,)/, ",&", s)
  return s
}'
# Fields of a line of $tmp/rounds (tdoku's are "-" when it is absent):
#  1 order  2 corpus  3 limit
#  4-6 bench -j 1: puzzles, rate, guesses     7-9 bench -j 2: puzzles, rate, guesses
#  10 solve -j 1 us   11 solve -j 2 us   12 crate us   13 crate solver rate
#  14 tdoku us   15 tdoku solver rate   16 tdoku guesses
#  17 tdoku PGO us   18 tdoku PGO solver rate   19 tdoku PGO guesses
# Prints one of the three tables of one order from the rounds: bare | process | threads.
report() { # table order
  awk -v table="$1" -v order="$2" -v tdoku="${tdoku:+1}" "$awk_rate"'
    function median(list,   v, n, i, j, t) {
      n = split(list, v, " ")
      for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) {
        t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
      }
      return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
    }
    function add(name, value) { col[key, name] = col[key, name] " " value }
    function ratio(x) { return sprintf("%.2fx", x) }
    function max(a, b) { return a > b ? a : b }
    function min(a, b) { return a < b ? a : b }
    $1 == order {
      key = $2 SUBSEP $3
      if (!(key in seen)) { seen[key] = 1; order_[++keys] = key }
      n = $4
      add("b1", $5); add("b2", $8); add("g", $6)
      add("s1", n * 1e6 / $10); add("s2", n * 1e6 / $11)
      add("c", n * 1e6 / $12); add("cl", $13)
      add("b1/cl", $5 / $13); add("s1/c", $12 / $10)
      add("b2/b1", $8 / $5); add("s2/s1", $10 / $11); add("s1/b1", n * 1e6 / $10 / $5)
      bestl = $13; bestus = $12
      if (tdoku) {
        add("t", n * 1e6 / $14); add("tl", $15); add("tg", $16)
        add("p", n * 1e6 / $17); add("pl", $18)
        add("b1/tl", $5 / $15); add("b1/pl", $5 / $18)
        add("s1/t", $14 / $10); add("s1/p", $17 / $10)
        bestl = max(bestl, max($15, $18)); bestus = min(bestus, min($14, $17))
      }
      add("b1/best", $5 / bestl); add("s1/best", bestus / $10); add("s2/best", bestus / $11)
    }
    function m(name) { return median(col[key, name]) }
    # The peer with the highest median rate of rates a, b, c (crate, tdoku, tdoku PGO).
    function best(a, b, c) {
      if (!tdoku || (a >= b && a >= c)) return "crate"
      return b >= c ? "tdoku" : "tdoku PGO"
    }
    END {
      peers = tdoku ? " tdoku | tdoku PGO |" : ""
      if (table == "bare") {
        printf "| corpus | limit | `fast` | crate |%s fast / crate |%s fast / best peer | best peer | fast guesses |%s\n",
          peers, tdoku ? " fast / tdoku | fast / tdoku PGO |" : "", tdoku ? " tdoku guesses |" : ""
        printf "|---|---:|---:|---:|%s---:|%s---:|---|---:|%s\n", tdoku ? "---:|---:|" : "",
          tdoku ? "---:|---:|" : "", tdoku ? "---:|" : ""
      } else if (table == "process") {
        printf "| corpus | limit | `solve -j 1` | `solve -j 2` | crate |%s -j 1 / crate |%s -j 1 / best peer | -j 2 / best peer | best peer |\n",
          peers, tdoku ? " -j 1 / tdoku | -j 1 / tdoku PGO |" : ""
        printf "|---|---:|---:|---:|---:|%s---:|%s---:|---:|---|\n", tdoku ? "---:|---:|" : "",
          tdoku ? "---:|---:|" : ""
      } else {
        print "| corpus | limit | `bench` -j 2 / -j 1 | `solve` -j 2 / -j 1 | `solve -j 1` / `bench` -j 1 |"
        print "|---|---:|---:|---:|---:|"
      }
      for (i = 1; i <= keys; i++) {
        key = order_[i]
        split(key, k, SUBSEP)
        printf "| %s | %s |", k[1], k[2]
        if (table == "bare") {
          printf " %s | %s |", rate(m("b1")), rate(m("cl"))
          if (tdoku) printf " %s | %s |", rate(m("tl")), rate(m("pl"))
          printf " %s |", ratio(m("b1/cl"))
          if (tdoku) printf " %s | %s |", ratio(m("b1/tl")), ratio(m("b1/pl"))
          printf " %s | %s |", ratio(m("b1/best")), best(m("cl"), m("tl"), m("pl"))
          printf " %.2f |", m("g")
          if (tdoku) printf " %.2f |", m("tg")
        } else if (table == "process") {
          printf " %s | %s | %s |", rate(m("s1")), rate(m("s2")), rate(m("c"))
          if (tdoku) printf " %s | %s |", rate(m("t")), rate(m("p"))
          printf " %s |", ratio(m("s1/c"))
          if (tdoku) printf " %s | %s |", ratio(m("s1/t")), ratio(m("s1/p"))
          printf " %s | %s | %s |", ratio(m("s1/best")), ratio(m("s2/best")),
            best(m("c"), m("t"), m("p"))
        } else {
          printf " %s | %s | %.2f |", ratio(m("b2/b1")), ratio(m("s2/s1")), m("s1/b1")
        }
        print ""
      }
    }' "$tmp/rounds"
}

for o in "${orders[@]}"; do
  what=$([ "$o" = permuted ] && echo "relabelled and permuted copies" || echo "as published")
  echo "## Bare solver, one thread, corpora $what (puzzles/s)"
  echo
  report bare "$o"
  echo
  echo "## Whole process, corpora $what (puzzles/s)"
  echo
  report process "$o"
  echo
  echo "## Two threads, corpora $what"
  echo
  report threads "$o"
  echo
done
[ -n "$solvers_only" ] && exit 0
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
