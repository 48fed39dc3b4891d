#!/usr/bin/env bash
# How much faster `grade --min-er X` filters a candidate set than rating it in full, side by
# side, on one thread.
#
#   scripts/filter_bench.sh [CORPORA]        (default ../shared/corpora/tdoku)
#
# Candidate sets: an even sample of the forum's hardest 1106 list (N_1106, default 30), of its
# 11+ list (N_11, default 16), and `generate --count N_GEN --seed 9` (default 2000), the kind
# of set a hunter rates. Settings from the environment: LIMITS (default "9.0 10.0"), ROUNDS
# (default 3), OUT (work directory, default target/filter_bench), BIN (a built sudoku-batch to
# time; default: the release build, built first).
#
# Each round runs, for every set, back to back: `grade -j 1` (the full rating; first in odd
# rounds, last in even ones) and `grade -j 1 --min-er X` for each limit (the early stop), each
# writing CSV. Per run the
# time is the sum of the `time_ns` column (each puzzle's solving and rating on its thread,
# reading and writing excluded) and the process's wall time. Printed per set and limit: the
# puzzles at least X and below X, the medians over rounds of both sums and the median of the
# per-round ratios (full / early stop), the wall ratio, and, over the puzzles at least X, the
# median per-puzzle ratio. Every run checks that the early stop's answer is the full rating's:
# `band` is `>= X` exactly where the full ER is X or more (a puzzle the full rating leaves
# unrated is counted apart).
set -euo pipefail
cd "$(dirname "$0")/.."

corpora=${1:-${CORPORA:-../shared/corpora/tdoku}}
limits=${LIMITS:-"9.0 10.0"}
rounds=${ROUNDS:-3}
out=${OUT:-target/filter_bench}
n1106=${N_1106:-30}
n11=${N_11:-16}
ngen=${N_GEN:-2000}

die() { echo "filter_bench: $*" >&2; exit 2; }
[ -d "$corpora" ] || die "$corpora: no such directory (give the tdoku corpora's directory)"
command -v python3 >/dev/null || die "python3 not found"

bin=${BIN:-}
if [ -z "$bin" ]; then
    cargo build --release --quiet
    bin=target/release/sudoku-batch
fi
mkdir -p "$out"

# An even sample of N puzzles of a corpus (comment lines skipped).
sample() {
    grep -v '^#' "$1" | awk -v n="$2" '{ l[NR] = $0 } END {
        step = NR / n; for (i = 0; i < n; i++) print l[int(i * step) + 1] }'
}
sample "$corpora/puzzles6_forum_hardest_1106" "$n1106" > "$out/hardest_1106.txt"
sample "$corpora/puzzles5_forum_hardest_1905_11+" "$n11" > "$out/hardest_11plus.txt"
"$bin" generate -qq --count "$ngen" --seed 9 -o "$out/generated.csv"
sets="hardest_1106.txt hardest_11plus.txt generated.csv"

run() { # NAME FILE ARGS...: grade into $out/NAME.csv, wall time appended to $out/NAME.wall
    local name=$1 file=$2; shift 2
    local start=$EPOCHREALTIME
    "$bin" grade -qq -j 1 "$@" -o "$out/$name.csv" "$out/$file" || [ $? -eq 1 ]
    echo "$start $EPOCHREALTIME" | awk '{ printf "%.6f\n", $2 - $1 }' >> "$out/$name.wall"
}

rm -f "$out"/*.wall "$out"/*.times
for r in $(seq 1 "$rounds"); do
    for set in $sets; do
        base=${set%.*}
        # The full rating first in odd rounds, last in even ones.
        if [ $((r % 2)) -eq 1 ]; then run "$base.full" "$set"; fi
        for x in $limits; do
            run "$base.min$x" "$set" --min-er "$x"
        done
        if [ $((r % 2)) -eq 0 ]; then run "$base.full" "$set"; fi
        for x in $limits; do
            # Keep this round's per-puzzle times of both, and check the early answer.
            python3 - "$out/$base.full.csv" "$out/$base.min$x.csv" "$x" "$out/$base.$x.times" <<'EOF'
import csv, sys
full_path, early_path, x, times = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
full = list(csv.DictReader(open(full_path)))
early = list(csv.DictReader(open(early_path)))
assert len(full) == len(early), (len(full), len(early))
label = f">= {x:.1f}"
with open(times, "a") as out:
    for f, e in zip(full, early):
        if f["status"] != "unique":
            continue
        if f["er"]:
            hard = float(f["er"]) >= x - 1e-9
            if hard != (e["band"] == label):
                sys.exit(f"filter_bench: line {f['line']}: full ER {f['er']}, early band {e['band']!r}")
            kind = "hard" if hard else "easy"
        else:
            kind = "unrated"
        out.write(f"{kind} {f['time_ns']} {e['time_ns']} {e['band'] or '-'}\n")
EOF
        done
    done
done

# Medians over the rounds.
for set in $sets; do
    for x in $limits; do
        base=${set%.*}
        python3 - "$out/$base.$x.times" "$out/$base.full.wall" "$out/$base.min$x.wall" "$rounds" "$set" "$x" <<'EOF'
import statistics, sys
times, full_wall, early_wall, rounds, name, x = sys.argv[1:7]
rounds = int(rounds)
rows = [l.split() for l in open(times)]
per_round = len(rows) // rounds
sums, ratios, hard_ratios = [], [], []
for r in range(rounds):
    chunk = rows[r * per_round:(r + 1) * per_round]
    f = sum(int(c[1]) for c in chunk) / 1e9
    e = sum(int(c[2]) for c in chunk) / 1e9
    sums.append((f, e))
    ratios.append(f / e)
    hard_ratios += [int(c[1]) / int(c[2]) for c in chunk if c[0] == "hard"]
chunk = rows[:per_round]
hard = sum(c[0] == "hard" for c in chunk)
easy = sum(c[0] == "easy" for c in chunk)
unrated = [c[3] for c in chunk if c[0] == "unrated"]
walls = [float(a) / float(b) for a, b in zip(open(full_wall), open(early_wall))]
print(
    f"{name} X={x}: {per_round} puzzles, {hard} >= X, {easy} < X"
    + (f", {len(unrated)} unrated in full (early: {', '.join(sorted(set(unrated)))})" if unrated else "")
    + f"; full {statistics.median(s[0] for s in sums):.3f} s, early {statistics.median(s[1] for s in sums):.3f} s,"
    f" ratio {statistics.median(ratios):.2f}x (rounds {', '.join(f'{v:.2f}' for v in ratios)});"
    f" wall ratio {statistics.median(walls):.2f}x"
    + (f"; per puzzle >= X median {statistics.median(hard_ratios):.1f}x" if hard_ratios else "")
)
EOF
    done
done
