"""Python ``solve`` on a NumPy array against ``sudoku-batch bench``, side by side.

    python3 scripts/bench_python.py [--rounds 11] [--runs 3] [--threads 1,2]
                                    [--cli target/release/sudoku-batch] [CORPUS]

CORPUS is a text file, one puzzle a line, ``#`` lines comments (default: the 17-clue corpus
in ``../shared/corpora/tdoku`` beside the repository). It is loaded once into an (N, 81) uint8
array. Each round runs, for each thread count T, ``sudoku-batch bench CORPUS --solver fast
--runs R -j T`` (the bare solver over puzzles parsed beforehand; the median of R passes) and R
timed calls of ``sudoku_batch.solve(cells, threads=T)`` (the whole call: reading the array,
solving, timing each puzzle, the pyarrow table; their median), in an order that alternates
from round to round. It prints the median rates and the median of the per-round ratios, which
pair runs seconds apart on a noisy machine. Install the package with the release profile
(`pip install ./python`) before measuring; `scripts/test.sh` builds a quicker, slower one.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import time
from pathlib import Path

import numpy as np

import sudoku_batch

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = ROOT.parent / "shared/corpora/tdoku/puzzles2_17_clue"


def load(path: Path) -> np.ndarray:
    """The puzzles of a text corpus as an (N, 81) array of cells, 0 for a blank."""
    lines = [
        line[:81]
        for line in path.read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    raw = np.frombuffer("".join(lines).encode(), dtype=np.uint8).reshape(-1, 81)
    return np.where((raw >= ord("1")) & (raw <= ord("9")), raw - ord("0"), 0).astype(np.uint8)


def bench_rate(cli: Path, corpus: Path, threads: int, runs: int) -> float:
    """Puzzles per second of ``bench``: the median of its ``runs`` passes."""
    out = subprocess.run(
        [
            str(cli),
            "bench",
            str(corpus),
            "--solver",
            "fast",
            "--runs",
            str(runs),
            "-j",
            str(threads),
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    header, row = out.splitlines()[:2]
    return float(row.split()[header.split().index("puzzles/s")])


def python_rate(cells: np.ndarray, threads: int, runs: int) -> float:
    """Puzzles per second of ``solve``: the median of ``runs`` calls."""
    rates = []
    for _ in range(runs):
        start = time.perf_counter()
        table = sudoku_batch.solve(cells, threads=threads)
        rates.append(len(cells) / (time.perf_counter() - start))
        assert table.num_rows == len(cells)
    return statistics.median(rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--runs", type=int, default=3, help="passes of each side per round")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--cli", type=Path, default=ROOT / "target/release/sudoku-batch")
    args = parser.parse_args()
    cells = load(args.corpus)
    threads = [int(t) for t in args.threads.split(",")]
    for t in threads:
        sudoku_batch.solve(cells[:1000], threads=t)  # builds the pool, as bench does untimed
    rates: dict = {(t, k): [] for t in threads for k in ("bench", "python")}
    ratios: dict = {t: [] for t in threads}
    for r in range(args.rounds):
        for t in threads:
            order = ["bench", "python"] if r % 2 == 0 else ["python", "bench"]
            got = {}
            for side in order:
                if side == "bench":
                    got[side] = bench_rate(args.cli, args.corpus, t, args.runs)
                else:
                    got[side] = python_rate(cells, t, args.runs)
                rates[(t, side)].append(got[side])
            ratios[t].append(got["python"] / got["bench"])
    print(
        f"{args.corpus.name}: {len(cells)} puzzles, limit 2, {args.rounds} rounds of "
        f"{args.runs} passes each"
    )
    print("| threads | `bench` (puzzles/s) | Python `solve` (puzzles/s) | Python / bench |")
    print("|---:|---:|---:|---:|")
    for t in threads:
        b = statistics.median(rates[(t, "bench")])
        p = statistics.median(rates[(t, "python")])
        print(f"| {t} | {b:,.0f} | {p:,.0f} | {statistics.median(ratios[t]):.2f}x |")


if __name__ == "__main__":
    main()
