#!/usr/bin/env bash
# Compares `sudoku-batch canon` with the community's reference, Mladen Dobrichev's minlexing
# tool (github.com/dobrichev/sudoku-minlexing-tool), on whole corpora and on a random isomorph
# of each: every canonical form and automorphism count must be equal.
#
#     scripts/canon_check.sh MINLEX_SOURCE_DIR [CORPUS...]
#
# MINLEX_SOURCE_DIR holds the tool's patminlex.cpp and patminlex.h (a checkout kept outside
# this project); a small driver printing `form<TAB>automorphisms` per line is built against
# them with g++ -O3 in a temporary directory. CORPUS defaults to the five tdoku corpora in
# /work/shared/corpora/tdoku. Our binary: $SUDOKU_BATCH, else target/release/sudoku-batch.
# Prints, per corpus and per isomorph copy, the puzzles, forms equal/different, automorphism
# counts equal/different, and the distinct forms of each side; exits 1 on any difference.
set -euo pipefail

src=${1:?usage: scripts/canon_check.sh MINLEX_SOURCE_DIR [CORPUS...]}
shift
corpora=("$@")
if [ ${#corpora[@]} -eq 0 ]; then
    corpora=(/work/shared/corpora/tdoku/puzzles*)
fi
here=$(cd "$(dirname "$0")" && pwd)
ours=${SUDOKU_BATCH:-$here/../target/release/sudoku-batch}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cat > "$work/driver.cpp" <<'CPP'
// One puzzle per line in (the first 81 characters), `form<TAB>automorphisms` out.
#include "patminlex.h"
#include <cstdio>
int main() {
    char line[4096];
    while (fgets(line, sizeof line, stdin)) {
        char in[81], out[81], text[82];
        for (int i = 0; i < 81; i++) in[i] = line[i] >= '1' && line[i] <= '9' ? line[i] - '0' : 0;
        patminlex m(in, out);
        for (int i = 0; i < 81; i++) text[i] = out[i] ? '0' + out[i] : '.';
        text[81] = 0;
        printf("%s\t%d\n", text, m.size());
    }
}
CPP
g++ -O3 -I"$src" -o "$work/minlex" "$work/driver.cpp" "$src/patminlex.cpp"

status=0
check() { # name file
    local name=$1 file=$2
    "$work/minlex" < "$file" > "$work/theirs.tsv"
    "$ours" canon -q -q "$file" -o "$work/ours.csv"
    # Our rows: line,puzzle,status,canonical,automorphisms,error -> form<TAB>automorphisms.
    tail -n +2 "$work/ours.csv" | awk -F, '{print $4 "\t" $5}' > "$work/ours.tsv"
    paste "$work/theirs.tsv" "$work/ours.tsv" | awk -F'\t' -v name="$name" \
        -v theirs_classes="$(cut -f1 "$work/theirs.tsv" | sort -u | wc -l)" \
        -v ours_classes="$(cut -f1 "$work/ours.tsv" | sort -u | wc -l)" '
        { n++; if ($1 == $3) fe++; else fd++; if ($2 == $4) ae++; else ad++ }
        END {
            printf "%-40s %7d puzzles  forms equal %7d, different %d  automorphisms equal %7d, different %d  classes ours %d, reference %d\n",
                name, n, fe, fd, ae, ad, ours_classes, theirs_classes
            exit (fd > 0 || ad > 0 || ours_classes != theirs_classes)
        }' || status=1
    cut -f1 "$work/ours.tsv" | sort -u > "$work/classes_$3"
}

for corpus in "${corpora[@]}"; do
    name=$(basename "$corpus")
    grep -v '^#' "$corpus" | grep -v '^[[:space:]]*$' | cut -c1-81 > "$work/puzzles.txt"
    check "$name" "$work/puzzles.txt" original
    python3 "$here/permute_corpus.py" "$work/puzzles.txt" "$work/isomorphs.txt" 46
    check "$name (random isomorphs)" "$work/isomorphs.txt" isomorphs
    if ! cmp -s "$work/classes_original" "$work/classes_isomorphs"; then
        echo "$name: the random isomorphs do not have the classes of the originals"
        status=1
    fi
done
exit $status
