#!/usr/bin/env bash
# The logical grader's speed beside serate's (Sukaku Explainer's batch rater), per band of
# serate's ER, one thread each.
#
#   scripts/grade_bench.sh SERATE_CLASSES REFERENCE
#   SERATE_CLASSES=... REFERENCE=... scripts/grade_bench.sh
#
# SERATE_CLASSES is the directory of serate's compiled classes (it holds
# diuf/sudoku/test/serate.class); REFERENCE a TSV with a header naming `puzzle` and `er`
# (serate's rating), such as the one `logic_agreement` reads. Settings, from the environment:
#   PER_BAND       puzzles per band below 6.0 (default 200)
#   PER_BAND_MID   puzzles rated 6.0-7.9 (default 100: serate takes about a second each)
#   PER_BAND_HARD  puzzles rated 8.0 and up (default 30: serate takes several seconds each)
#   ROUNDS         rounds (default 3)
#   OUT            work directory (default target/grade_bench)
#
# Each band's puzzles are spread evenly over its ratings. Every round times, one after
# another: serate on a file of one trivial puzzle (its start-up: JVM, classes, one easy
# rating), then for each band serate on the band's file and our grader on the same file
# (`examples/logic_speed`, one thread). Interleaving keeps a slow spell of the shared machine
# from falling on one side only. Recorded per run: wall time (bash's clock, process start
# included), user+system CPU of the process (/usr/bin/time) and the 1-minute load average; for ours also the grading thread's own CPU
# time, which excludes start-up and reading the file and is what other work on the machine
# disturbs least. Printed: medians over the rounds per band. Serate's start-up is subtracted
# by taking the trivial file's median from the band's. The ratio that counts is CPU per
# puzzle: serate's process CPU (start-up excluded; it includes the JVM's compiler and
# collector threads, which are part of what serate costs) over our grading thread's CPU.
set -euo pipefail
cd "$(dirname "$0")/.."

classes=${1:-${SERATE_CLASSES:-}}
reference=${2:-${REFERENCE:-}}
per_band=${PER_BAND:-200}
per_band_mid=${PER_BAND_MID:-100}
per_band_hard=${PER_BAND_HARD:-30}
rounds=${ROUNDS:-3}
out=${OUT:-target/grade_bench}

die() { echo "grade_bench: $*" >&2; exit 2; }
[ -n "$classes" ] || die "serate's classes directory missing: give it as the first argument or SERATE_CLASSES"
[ -n "$reference" ] || die "reference file missing: give it as the second argument or REFERENCE"
[ -f "$classes/diuf/sudoku/test/serate.class" ] || die "$classes does not hold diuf/sudoku/test/serate.class"
[ -r "$reference" ] || die "cannot read $reference"
command -v java >/dev/null || die "java not found"
[ -x /usr/bin/time ] || die "/usr/bin/time not found (GNU time)"

cargo build --release --quiet --example logic_speed
ours=target/release/examples/logic_speed
mkdir -p "$out"
bands="lt4 4-6 6-8 8plus"

# Band files: puzzles only (serate's input) and puzzle<TAB>er (logic_speed's), each band
# sorted by ER and sampled at even steps, so that the sample spans the band's ratings.
awk -F'\t' -v OFS='\t' '
  NR == 1 {
    for (i = 1; i <= NF; i++) { if ($i == "puzzle") p = i; if ($i == "er") e = i }
    if (!p || !e) { print "grade_bench: no puzzle and er columns in the header" > "/dev/stderr"; exit 2 }
    next
  }
  $e != "" {
    er = $e + 0
    b = er < 3.95 ? "lt4" : er < 5.95 ? "4-6" : er < 7.95 ? "6-8" : "8plus"
    print b, er, NR, $p
  }' "$reference" | sort -t$'\t' -k1,1 -k2,2g -k3,3n >"$out/all.tsv"
for b in $bands; do
  case $b in 6-8) n=$per_band_mid ;; 8plus) n=$per_band_hard ;; *) n=$per_band ;; esac
  awk -F'\t' -v b="$b" -v n="$n" -v txt="$out/$b.txt" -v tsv="$out/$b.tsv" '
    $1 == b { r[++c] = $4 "\t" $2 }
    END {
      k = c < n ? c : n
      for (i = 0; i < k; i++) { split(r[int(i * c / k) + 1], f, "\t"); print f[1] > txt; print f[1] "\t" f[2] > tsv }
    }' "$out/all.tsv"
  [ -s "$out/$b.txt" ] || die "no puzzles in band $b"
done
head -n 1 "$out/lt4.txt" >"$out/one.txt"

load() { cut -d' ' -f1 /proc/loadavg; }
# serate FILE: appends "wall cpu load" to $out/serate.FILE.runs
run_serate() {
  local name=$1 l t0 t1
  l=$(load)
  t0=$EPOCHREALTIME
  /usr/bin/time -f '%U %S' -o "$out/time.tmp" \
    java -cp "$classes" diuf.sudoku.test.serate --threads=1 --format='%r' \
    --input="$out/$name.txt" --output="$out/$name.serate.out" >/dev/null
  t1=$EPOCHREALTIME
  [ "$(grep -c . "$out/$name.serate.out")" -eq "$(grep -c . "$out/$name.txt")" ] ||
    die "serate rated fewer puzzles than $out/$name.txt holds"
  awk -v l="$l" -v t0="$t0" -v t1="$t1" '{ printf "%.4f %.3f %s\n", t1 - t0, $1 + $2, l }' \
    "$out/time.tmp" >>"$out/serate.$name.runs"
}
# ours FILE: appends "wall cpu load thread_cpu" to $out/ours.FILE.runs
run_ours() {
  local name=$1 l t t0 t1
  l=$(load)
  t0=$EPOCHREALTIME
  /usr/bin/time -f '%U %S' -o "$out/time.tmp" \
    "$ours" "$out/$name.tsv" --repeat 1 --tsv >"$out/$name.ours.out"
  t1=$EPOCHREALTIME
  t=$(awk -F'\t' 'NR == 2 { print $3 }' "$out/$name.ours.out")
  [ -n "$t" ] || die "logic_speed printed no timing for $name"
  awk -v l="$l" -v t="$t" -v t0="$t0" -v t1="$t1" '{ printf "%.4f %.3f %s %s\n", t1 - t0, $1 + $2, l, t }' \
    "$out/time.tmp" >>"$out/ours.$name.runs"
}

rm -f "$out"/*.runs
for r in $(seq "$rounds"); do
  echo "round $r of $rounds" >&2
  run_serate one
  for b in $bands; do
    run_serate "$b"
    run_ours "$b"
  done
done

median() { # column
  awk -v c="$1" '{ print $c }' | sort -g |
    awk '{ v[NR] = $1 } END { m = int((NR + 1) / 2); if (NR % 2) print v[m]; else print (v[m] + v[m + 1]) / 2 }'
}
range() { # column
  awk -v c="$1" '{ print $c }' | sort -g | awk '{ v[NR] = $1 } END { printf "%s-%s", v[1], v[NR] }'
}
one_wall=$(median 1 <"$out/serate.one.runs")
one_cpu=$(median 2 <"$out/serate.one.runs")
{
  echo "serate: $classes, one thread; ours: $ours, one thread; $rounds rounds, medians"
  echo "serate start-up (one trivial puzzle): ${one_wall} s wall, ${one_cpu} s CPU;" \
    "load average during the runs: $(cat "$out"/*.runs | range 3)"
  echo "per puzzle, in ms; serate's start-up excluded unless 'incl.'; ratio = serate / ours"
  printf '%-6s %4s | %12s %12s %12s | %10s %10s | %9s %11s | %s\n' \
    band n "serate wall" "(incl.)" "serate CPU" "ours CPU" "ours wall" "ratio CPU" "ratio wall" "load"
  for b in $bands; do
    n=$(grep -c . "$out/$b.txt")
    sw=$(median 1 <"$out/serate.$b.runs")
    sc=$(median 2 <"$out/serate.$b.runs")
    ow=$(median 1 <"$out/ours.$b.runs")
    oc=$(median 4 <"$out/ours.$b.runs")
    ld=$(cat "$out/serate.$b.runs" "$out/ours.$b.runs" | range 3)
    awk -v b="$b" -v n="$n" -v sw="$sw" -v sc="$sc" -v ow="$ow" -v oc="$oc" -v w1="$one_wall" \
      -v c1="$one_cpu" -v ld="$ld" 'BEGIN {
      swx = (sw - w1) / n * 1e3; swi = sw / n * 1e3; scx = (sc - c1) / n * 1e3
      ocp = oc / n * 1e3; owp = ow / n * 1e3
      printf "%-6s %4d | %12.3f %12.3f %12.3f | %10.4f %10.4f | %8.0fx %10.0fx | %s\n",
        b, n, swx, swi, scx, ocp, owp, scx / ocp, swi / owp, ld
    }'
  done
  echo "ratio CPU: serate's CPU less start-up over our grading thread's CPU;" \
    "ratio wall: serate's wall with start-up over our process's wall (start-up and reading included)"
} | tee "$out/table.txt"
