"""``sudoku_batch.augment`` into NumPy: puzzle+solution pairs per second per core.

    python3 scripts/bench_augment.py [--rounds 7] [--copies 32] [--threads 1,2] [CORPUS]

CORPUS is a text file, one puzzle a line, ``#`` lines comments (default: the 17-clue corpus in
``shared/corpora/tdoku`` beside the repository, else ``data/sample.txt``). It is loaded
once into an (N, 81) uint8 array and solved once (``sudoku_batch.solve``) for its solutions.
Each round times, for each thread count T:

- ``given``: ``augment(cells, copies=K, solutions=solutions, threads=T)``, the data loader's
  case: the solutions are checked, not searched for, and every pair is transformed and
  written into the two new arrays;
- ``solving``: ``augment(cells, copies=K, threads=T)``, each puzzle solved first.

A rate is pairs (N * K) over the call's time. "Per core" divides the pairs by the CPU time
the process spent in the call (``time.process_time``, every thread counted), which a busy
shared machine disturbs far less than wall time; the wall-clock rate is printed beside it.
Medians over the rounds. Install the package with the release profile (``pip install
./python``) before measuring; ``scripts/test.sh`` builds a quicker, slower one.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import numpy as np

import sudoku_batch

ROOT = Path(__file__).resolve().parent.parent
# `shared/` lies beside the repository (or beside the folder of its worktrees).
DEFAULT_CORPUS = next(
    (
        p / "shared/corpora/tdoku/puzzles2_17_clue"
        for p in (ROOT.parent, ROOT.parent.parent)
        if (p / "shared/corpora/tdoku/puzzles2_17_clue").exists()
    ),
    ROOT / "data/sample.txt",
)


def load(path: Path) -> np.ndarray:
    """The puzzles of a text corpus as an (N, 81) array of cells, 0 for a blank."""
    lines = [
        line[:81]
        for line in path.read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    raw = np.frombuffer("".join(lines).encode(), dtype=np.uint8).reshape(-1, 81)
    return np.where((raw >= ord("1")) & (raw <= ord("9")), raw - ord("0"), 0).astype(np.uint8)


def timed(call) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the whole process) of one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    call()
    return time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("corpus", nargs="?", type=Path)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--copies", type=int, default=32)
    parser.add_argument("--threads", default="1,2")
    args = parser.parse_args()
    corpus = args.corpus or DEFAULT_CORPUS
    cells = load(corpus)
    table = sudoku_batch.solve(cells)
    assert set(table.column("status").to_pylist()) == {"unique"}, "every puzzle must be proper"
    solutions = load_solutions(table.column("solution").to_pylist())
    pairs = len(cells) * args.copies
    print(f"{corpus.name}: {len(cells):,} puzzles x {args.copies} copies = {pairs:,} pairs")
    threads = [int(t) for t in args.threads.split(",")]
    cases = {
        "given": lambda t: sudoku_batch.augment(
            cells, copies=args.copies, seed=1, solutions=solutions, threads=t
        ),
        "solving": lambda t: sudoku_batch.augment(cells, copies=args.copies, seed=1, threads=t),
    }
    # A first call of each, untimed: the pools start and the pages are touched once.
    for case in cases.values():
        case(threads[0])
    results: dict[tuple[str, int], list[tuple[float, float]]] = {}
    for _ in range(args.rounds):
        for name, case in cases.items():
            for t in threads:
                results.setdefault((name, t), []).append(timed(lambda: case(t)))
    print(f"{'case':<8} {'-j':>3} {'pairs/s per core':>17} {'pairs/s wall':>13}")
    for (name, t), times in results.items():
        per_core = statistics.median(pairs / cpu for _, cpu in times)
        wall = statistics.median(pairs / w for w, _ in times)
        print(f"{name:<8} {t:>3} {per_core:>17,.0f} {wall:>13,.0f}")


def load_solutions(lines: list[str]) -> np.ndarray:
    raw = np.frombuffer("".join(lines).encode(), dtype=np.uint8).reshape(-1, 81)
    return (raw - ord("0")).astype(np.uint8)


if __name__ == "__main__":
    main()
