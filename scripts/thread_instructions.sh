#!/usr/bin/env bash
# Instructions per thread of one whole `sudoku-batch solve` run, counted by callgrind: how much
# of the work is the solvers', the reader's and the writer's. Instruction counts repeat exactly
# from run to run whatever else the machine does, so they show changes of a few per cent that
# timings on a shared machine cannot.
#
# Needs valgrind. Usage: scripts/thread_instructions.sh [CORPUS] [THREADS]
#   (default: ../shared/corpora/tdoku/puzzles2_17_clue, 2 threads)
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=${1:-../shared/corpora/tdoku/puzzles2_17_clue}
threads=${2:-2}

if ! command -v valgrind >/dev/null; then
    echo "error: valgrind is missing; install it with: sudo apt-get install valgrind" >&2
    exit 2
fi
cargo build --release --quiet
bin=$PWD/target/release/sudoku-batch
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$tmp/cg.%p" \
    "$bin" solve "$corpus" -j "$threads" -qq -o /dev/null 2>"$tmp/log"
echo "corpus: $corpus, $threads solver threads"
printf '%-10s %15s\n' thread instructions
for f in "$tmp"/cg.*; do
    total=$(awk '/^totals:/ {print $2; exit}' "$f")
    [ -n "$total" ] || continue
    # Name each thread by the function it spends most in (the first one listed).
    top=$(callgrind_annotate "$f" 2>/dev/null | awk '/file:function/ {on = 1; next} on && NF > 2 && !done {print; done = 1}')
    case "$top" in
        *FastSolver* | *search*) name=solver ;;
        *RowWriter*) name=writer ;;
        *parse_bytes* | *next_line* | *next_record*) name=reader ;;
        *) name=other ;;
    esac
    printf '%-10s %15s\n' "$name" "$total"
done | sort -k2 -rn
awk '/refs:/ {gsub(",", "", $4); printf "%-10s %15s\n", "total", $4}' "$tmp/log"
