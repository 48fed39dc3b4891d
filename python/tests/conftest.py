"""Shared helpers of the Python tests: the command line to compare with, its rows, a mixed
corpus, and a column-by-column comparison that prints both sides when they differ.

The command line is ``$SUDOKU_BATCH_CLI`` when set (``scripts/test.sh`` sets it to the binary
it built), else the newer of ``target/release`` and ``target/debug`` in the repository.
"""

from __future__ import annotations

import csv
import io
import os
import random
import subprocess
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

import pyarrow as pa
import pytest

import sudoku_batch

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "data" / "sample.txt"
NUMBERS = {"line", "solutions", "guesses", "steps", "time_ns", "automorphisms"}
RATINGS = {"er", "ep", "ed"}


def cli_path() -> Path:
    if os.environ.get("SUDOKU_BATCH_CLI"):
        return Path(os.environ["SUDOKU_BATCH_CLI"])
    built = [REPO / "target" / p / "sudoku-batch" for p in ("release", "debug")]
    built = [p for p in built if p.exists()]
    if not built:
        pytest.fail("no sudoku-batch binary: run `cargo build` or set SUDOKU_BATCH_CLI")
    return max(built, key=lambda p: p.stat().st_mtime)


@pytest.fixture(scope="session")
def cli() -> Path:
    return cli_path()


def run_cli(args: Sequence[str], ok: Tuple[int, ...] = (0, 1)) -> str:
    """The command line's stdout; its exit code must be one of ``ok``."""
    done = subprocess.run([str(cli_path()), *args], capture_output=True, timeout=600, check=False)
    assert done.returncode in ok, done.stderr.decode(errors="replace")
    return done.stdout.decode()


def cli_rows(args: Sequence[str]) -> Dict[str, list]:
    """The CSV the command line writes, as columns (see ``csv_rows``)."""
    return csv_rows(run_cli([*args, "-qq"]))


def csv_rows(text: str) -> Dict[str, list]:
    """The command line's CSV ``text`` as columns: numbers as int, ratings as float, empty
    fields as None."""
    reader = csv.reader(io.StringIO(text, newline=""))
    header = next(reader)
    columns: Dict[str, list] = {name: [] for name in header}
    for row in reader:
        assert len(row) == len(header), row
        for name, field in zip(header, row):
            if not field:
                columns[name].append(None)
            elif name in NUMBERS:
                columns[name].append(int(field))
            elif name in RATINGS:
                columns[name].append(float(field))
            else:
                columns[name].append(field)
    return columns


def assert_same_rows(
    table: pa.Table, expected: Dict[str, list], skip: Sequence[str] = ("time_ns",)
) -> None:
    """``table`` holds the command line's rows: the same columns in the same order, and the
    same values in every column but ``skip``. Prints the first differing row of both."""
    assert table.column_names == list(expected), (table.column_names, list(expected))
    got = table.to_pydict()
    assert len(got["line"]) == len(expected["line"]), (len(got["line"]), len(expected["line"]))
    for name in expected:
        if name in skip:
            continue
        if got[name] != expected[name]:
            i = next(i for i, (a, b) in enumerate(zip(got[name], expected[name])) if a != b)
            pytest.fail(
                f"column {name!r} differs first at row {i}:\n"
                f"  python: { {k: got[k][i] for k in got} }\n"
                f"  cli:    { {k: expected[k][i] for k in expected} }"
            )


def records(path: Path) -> Tuple[List[int], List[bytes]]:
    """The records of a text file as the command line reads them: each line that is neither
    empty nor a ``#`` comment, with its 1-based line number."""
    lines, texts = [], []
    for n, line in enumerate(path.read_bytes().split(b"\n"), start=1):
        stripped = line.strip()
        if stripped and not stripped.startswith(b"#"):
            lines.append(n)
            texts.append(line)
    return lines, texts


def renumbered(table: pa.Table, lines: List[int]) -> pa.Table:
    """``table`` with each ``line`` (a position, from 1) replaced by the file line there."""
    positions = table.column("line").to_pylist()
    assert positions == list(range(1, len(lines) + 1)), "python lines are positions"
    return table.set_column(0, "line", pa.array(lines, pa.uint64()))


# --- a mixed corpus -------------------------------------------------------------------------


def _peers(cell: int) -> List[int]:
    """The cells that share a row, column or box with ``cell``."""
    r, c = divmod(cell, 9)
    br, bc = r // 3 * 3, c // 3 * 3
    unit = {r * 9 + k for k in range(9)} | {k * 9 + c for k in range(9)}
    unit |= {(br + i) * 9 + bc + j for i in range(3) for j in range(3)}
    return sorted(unit - {cell})


PEERS = [_peers(cell) for cell in range(81)]


def mixed_records(n: int = 60, seed: int = 5, utf8_only: bool = False) -> List[bytes]:
    """Records of every kind: minimal and easier unique puzzles, puzzles with several
    solutions, with no solution (conflicting clues or not), the empty and the full grid, and
    records that are not puzzles. No empty or comment line, so positions are file lines."""
    rng = random.Random(seed)
    minimal = sudoku_batch.generate(n, seed=seed).to_pylist()
    solutions = sudoku_batch.solve(minimal).column("solution").to_pylist()
    out: List[bytes] = []
    for p, s in zip(minimal, solutions):
        cells = list(p)
        blanks = [i for i in range(81) if cells[i] == "."]
        clues = [i for i in range(81) if cells[i] != "."]
        kind = rng.randrange(6)
        if kind == 1:  # easier: some of the solution's digits added back
            for i in rng.sample(blanks, 10):
                cells[i] = s[i]
        elif kind == 2:  # several solutions: a minimal puzzle less some clues
            for i in rng.sample(clues, rng.randint(1, 3)):
                cells[i] = "."
        elif kind == 3:  # no solution, and no digit twice in a unit
            for i in rng.sample(blanks, len(blanks)):
                used = {cells[q] for q in PEERS[i]}
                allowed = [d for d in "123456789" if d != s[i] and d not in used]
                if allowed:
                    cells[i] = rng.choice(allowed)
                    break
        elif kind == 4:  # a digit twice in a unit
            i = rng.choice(clues)
            j = rng.choice([q for q in PEERS[i] if cells[q] == "."])
            cells[j] = cells[i]
        elif kind == 5:  # blanks written as 0 or _, and a comment after the cells
            cells = [c if c != "." else rng.choice("0_") for c in cells]
            cells.append(rng.choice([" rated 3.4", "\t#7", ",x", ";y", ""]))
        out.append("".join(cells).encode())
    out += [
        b"." * 81,
        solutions[0].encode(),
        b"12x" + b"." * 78,
        b"." * 80,
        b"." * 82,
        b"..29...........8.5.58...7..1.9.3........ 78.....6....3.94..5...1.....7..968...35..",
        b"   ..29...........8.5.58...7..1.9.3........78.....6....3.94..5...1.....7..968...35..",
        b'"quoted, with a comma"',
        b"1" * 70_000,
        b"5" * 300,
        minimal[1].encode() + b"\r",
    ]
    if not utf8_only:
        out += [b"123\xff" + b"." * 77, b"12\x00" + b"." * 78]
    rng.shuffle(out)
    return out


@pytest.fixture(scope="session")
def mixed_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("corpus") / "mixed.txt"
    path.write_bytes(b"\n".join(mixed_records()) + b"\n")
    return path
