#!/usr/bin/env python3
"""Writes a relabelled and permuted copy of a puzzle file, for benchmarks that should not
depend on how a published corpus happens to be oriented.

    scripts/permute_corpus.py IN OUT [SEED]

Each puzzle (the first 81 characters of every line that is not blank or a `#` comment) gets
its own random transformation that keeps its solution count: the digits relabelled, the bands
shuffled and the rows within each band, the stacks and the columns within each stack, and in
half of the cases the grid transposed. Blanks are written as `.`. The order of the puzzles is
shuffled too. The same SEED (default 42) gives the same file.
"""
import random
import sys


def transform(puzzle, rnd):
    labels = list("123456789")
    rnd.shuffle(labels)
    bands = [0, 1, 2]
    rnd.shuffle(bands)
    rows = [b * 3 + r for b in bands for r in rnd.sample([0, 1, 2], 3)]
    stacks = [0, 1, 2]
    rnd.shuffle(stacks)
    cols = [s * 3 + c for s in stacks for c in rnd.sample([0, 1, 2], 3)]
    transpose = rnd.random() < 0.5
    out = []
    for r in range(9):
        for c in range(9):
            rr, cc = rows[r], cols[c]
            if transpose:
                rr, cc = cc, rr
            ch = puzzle[rr * 9 + cc]
            out.append(labels[int(ch) - 1] if ch in "123456789" else ".")
    return "".join(out)


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    src, dst = sys.argv[1], sys.argv[2]
    rnd = random.Random(int(sys.argv[3]) if len(sys.argv) == 4 else 42)
    with open(src) as f:
        puzzles = [l.strip()[:81] for l in f if l.strip() and not l.startswith("#")]
    out = [transform(p, rnd) for p in puzzles]
    rnd.shuffle(out)
    with open(dst, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
