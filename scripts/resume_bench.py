"""What `--resume` costs on a complete output, beside the run that wrote it.

    python3 scripts/resume_bench.py [--rounds 11] [--copies 6] [--threads 2]
                                    [--cli target/release/sudoku-batch] [CORPUS]

CORPUS (default: the 17-clue corpus in ``../shared/corpora/tdoku`` beside the repository, the
quickest to solve, so the hardest case for this ratio) is written COPIES times over into a
temporary file. Each round runs ``solve -qq -j T -o OUT INPUT`` on a fresh OUT, then ``solve
-qq -j T --resume -o OUT INPUT``, which checks every row against its record and finds nothing
left to do. It prints the medians of wall and CPU time (user + system, from the kernel) of
both, and the medians of the per-round ratios. Build the release binary first.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CORPUS = ROOT.parent / "shared/corpora/tdoku/puzzles2_17_clue"


def timed(args: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of one run of ``args``, which must succeed."""
    start = time.perf_counter()
    child = subprocess.Popen(args, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{args}: exit {os.waitstatus_to_exitcode(status)}")
    return wall, usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", nargs="?", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--rounds", type=int, default=11)
    parser.add_argument("--copies", type=int, default=6)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--cli", type=Path, default=ROOT / "target/release/sudoku-batch")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "corpus.txt"
        corpus.write_bytes(args.corpus.read_bytes() * args.copies)
        out = Path(tmp) / "out.csv"
        solve = [str(args.cli), "solve", "-qq", "-j", str(args.threads), "-o", str(out)]
        runs, resumes = [], []
        for _ in range(args.rounds):
            out.unlink(missing_ok=True)
            runs.append(timed([*solve, str(corpus)]))
            # The run leaves its output to the kernel to write back, after it has exited: a
            # resume started at once would pay for that writeback in its own time.
            os.sync()
            resumes.append(timed([*solve, "--resume", str(corpus)]))
        rows = sum(1 for _ in out.open()) - 1

    def median(values: list[float]) -> float:
        return statistics.median(values)

    load = os.getloadavg()[0]
    print(f"{rows:,} rows, -j {args.threads}, {args.rounds} rounds, load (1 min) {load:.2f}")
    print("| | run | resume | resume / run |")
    print("|---|---:|---:|---:|")
    for i, what in enumerate(["wall", "CPU"]):
        run = median([r[i] for r in runs])
        resume = median([r[i] for r in resumes])
        ratio = median([b[i] / a[i] for a, b in zip(runs, resumes)])
        print(f"| {what} | {run * 1000:.1f} ms | {resume * 1000:.1f} ms | {ratio:.3f} |")


if __name__ == "__main__":
    main()
