"""`augment`: every copy is an isomorph of its puzzle carrying its solution, the command line's
copies for the same seed, the same whatever the thread count, and bad records refused by
position."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import sudoku_batch
from conftest import cli_rows


def cells(lines):
    """Puzzles as an (N, 81) uint8 array, 0 for a blank."""
    raw = np.frombuffer("".join(lines).encode(), dtype=np.uint8).reshape(-1, 81)
    return np.where((raw >= ord("1")) & (raw <= ord("9")), raw - ord("0"), 0).astype(np.uint8)


def is_solved(grids: np.ndarray) -> np.ndarray:
    """Per grid: every row, column and box holds 1 to 9."""
    g = grids.reshape(-1, 9, 9)
    boxes = g.reshape(-1, 3, 3, 3, 3).transpose(0, 1, 3, 2, 4).reshape(-1, 9, 9)
    full = np.arange(1, 10)
    return np.array(
        [
            all((np.sort(unit, axis=1) == full).all() for unit in (x, x.T, b))
            for x, b in zip(g, boxes)
        ]
    )


def apply_text(transform: str, grid: np.ndarray) -> np.ndarray:
    """The documented text form applied cell by cell, as the README words it: transpose when it
    starts with T, row r of the result is row R[r], column c is column C[c], digit d is D[d]."""
    g = grid.reshape(9, 9)
    if transform.startswith("T"):
        g, transform = g.T, transform[1:]
    rows = [int(x) - 1 for x in transform[1:10]]
    cols = [int(x) - 1 for x in transform[11:20]]
    digits = np.array([0] + [int(x) for x in transform[21:30]], dtype=np.uint8)
    return digits[g[rows][:, cols]].reshape(81)


@pytest.fixture(scope="module")
def puzzles():
    return sudoku_batch.generate(300, seed=4).to_pylist()


def test_copies_are_isomorphs_that_carry_the_solution(puzzles, tmp_path: Path):
    p, s = sudoku_batch.augment(puzzles, copies=5, seed=9)
    assert p.shape == s.shape == (1500, 81)
    assert p.dtype == s.dtype == np.uint8
    assert is_solved(s).all()
    # Every clue of a copy is its solution's digit; blanks are 0.
    assert ((p == 0) | (p == s)).all()
    originals = np.repeat(cells(puzzles), 5, axis=0)
    assert ((p != 0).sum(axis=1) == (originals != 0).sum(axis=1)).all()
    # The command line's rows for a file of the same puzzles, one a line: the same copies, and
    # its `transform` column, applied as the documentation says, turns each original into them.
    path = tmp_path / "in.txt"
    path.write_text("".join(f"{q}\n" for q in puzzles))
    rows = cli_rows(["augment", str(path), "--copies", "5", "--seed", "9", "--with-transform"])
    assert rows["copy"] == [str(k) for k in range(5)] * 300
    assert cells(rows["puzzle"]).tolist() == p.tolist()
    assert cells(rows["solution"]).tolist() == s.tolist()
    for i, t in enumerate(rows["transform"]):
        assert (apply_text(t, originals[i]) == p[i]).all(), (i, t)
    # The copies are new: not the original, and not each other.
    assert not (p == originals).all(axis=1).any()
    assert len({row.tobytes() for row in p}) == 1500


def test_transforms_are_the_command_lines_and_make_the_copies(puzzles):
    p, s, t = sudoku_batch.augment(puzzles[:50], copies=4, seed=3, with_transform=True, threads=2)
    assert t.shape == (200, 28) and t.dtype == np.uint8
    plain = sudoku_batch.augment(puzzles[:50], copies=4, seed=3)
    assert len(plain) == 2 and (plain[0] == p).all() and (plain[1] == s).all()
    originals = np.repeat(cells(puzzles[:50]), 4, axis=0)
    solutions = np.repeat(cells(sudoku_batch.solve(puzzles[:50]).column("solution").to_pylist()), 4, axis=0)
    # The docstring's recipe turns each original into its copy.
    for i, row in enumerate(t):
        for original, copy in ((originals[i], p[i]), (solutions[i], s[i])):
            g = original.reshape(9, 9)
            g = g.T if row[0] else g
            made = np.concatenate(([0], row[19:28]))[g[row[1:10]][:, row[10:19]]]
            assert (made.reshape(81) == copy).all(), (i, row)
    # The numbers are the command line's text form.
    text = [
        ("T" if row[0] else "")
        + "R" + "".join(str(x + 1) for x in row[1:10])
        + "C" + "".join(str(x + 1) for x in row[10:19])
        + "D" + "".join(str(x) for x in row[19:28])
        for row in t
    ]
    _, _, again = sudoku_batch.augment(puzzles[:50], copies=4, seed=3, with_transform=True, threads=1)
    assert (again == t).all()
    assert len(set(text)) == 200
    for i, (row_text, original) in enumerate(zip(text, originals)):
        assert (apply_text(row_text, original) == p[i]).all()


def test_a_seed_gives_the_same_copies_whatever_the_threads(puzzles):
    many = puzzles * 4  # 1,200 puzzles: several tasks for each thread
    one = sudoku_batch.augment(many, copies=3, seed=2**64 - 1, threads=1)
    two = sudoku_batch.augment(many, copies=3, seed=2**64 - 1, threads=2)
    assert (one[0] == two[0]).all() and (one[1] == two[1]).all()
    other = sudoku_batch.augment(many, copies=3, seed=2**64 - 2, threads=2)
    assert not (one[0] == other[0]).all(axis=1).any()
    # Fewer copies are the first ones of more.
    fewer = sudoku_batch.augment(many, copies=2, seed=2**64 - 1)
    assert (fewer[0] == one[0].reshape(-1, 3, 81)[:, :2].reshape(-1, 81)).all()
    # A puzzle's copies depend on its line: the same puzzle on another line has others, and a
    # slice of the corpus keeps its copies with first_line.
    assert not (one[0][:3] == one[0][900:903]).all()
    tail = sudoku_batch.augment(many[100:], copies=3, seed=2**64 - 1, first_line=101)
    assert (tail[0] == one[0][300:]).all()


def test_every_input_type_and_given_solutions_give_the_same_copies(puzzles):
    first = puzzles[:40]
    p, s = sudoku_batch.augment(first, copies=2, seed=5)
    solutions = sudoku_batch.solve(first).column("solution").to_pylist()
    for given in (
        cells(first),
        cells(first).astype(np.int64),
        np.array(first),
        sudoku_batch.generate(300, seed=4)[:40],
    ):
        for sols in (None, solutions, cells(solutions)):
            gp, gs = sudoku_batch.augment(given, copies=2, seed=5, solutions=sols)
            assert (gp == p).all() and (gs == s).all()


def test_records_that_cannot_be_augmented_are_named(puzzles):
    good = puzzles[:10]
    cases = [
        (good[:3] + ["." * 81], "puzzles[3]: more than one solution"),
        (good[:5] + ["55" + good[0][2:]], "puzzles[5]: "),
        (["12x"] + good, "puzzles[0]: cell 3: unexpected character 'x'"),
    ]
    for given, message in cases:
        with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
            sudoku_batch.augment(given, copies=2, seed=1)
    solutions = sudoku_batch.solve(good).column("solution").to_pylist()
    wrong = list(solutions)
    wrong[7] = solutions[8]
    with pytest.raises(ValueError, match=r"puzzles\[7\]: the solution differs from the clue at"):
        sudoku_batch.augment(good, copies=2, seed=1, solutions=wrong)
    wrong[7] = good[7]
    with pytest.raises(ValueError, match=r"puzzles\[7\]: the solution has \d+ blank cells"):
        sudoku_batch.augment(good, copies=2, seed=1, solutions=wrong)
    with pytest.raises(ValueError, match="solutions: 9 of them for 10 puzzles"):
        sudoku_batch.augment(good, copies=2, seed=1, solutions=solutions[:9])


def test_options_are_checked():
    with pytest.raises(ValueError, match="copies=0"):
        sudoku_batch.augment(["." * 81], copies=0)
    with pytest.raises(ValueError, match="seed=-1"):
        sudoku_batch.augment(["." * 81], seed=-1)
    with pytest.raises(TypeError, match="got one str"):
        sudoku_batch.augment("." * 81)
    p, s = sudoku_batch.augment([], copies=3)
    assert p.shape == s.shape == (0, 81)
    # Without a seed one is drawn: two calls differ.
    one = sudoku_batch.generate(1, seed=1)
    assert not (sudoku_batch.augment(one)[0] == sudoku_batch.augment(one)[0]).all()
