"""`validate` against the command line's report, option by option."""

from __future__ import annotations

import csv
import re

import pyarrow.compute as pc
import pytest

import sudoku_batch
from conftest import SAMPLE, assert_same_rows, cli_rows, records, renumbered


@pytest.mark.parametrize(
    "options, flags",
    [
        ({}, []),
        ({"all_records": True}, ["--all"]),
        ({"minimal": True, "all_records": True}, ["--minimal", "--all"]),
        ({"duplicates": True, "min_clues": 24}, ["--duplicates", "--min-clues", "24"]),
        ({"max_guesses": 1, "solver": "singles"}, ["--max-guesses", "1", "--solver", "singles"]),
    ],
)
def test_mixed_corpus_matches_the_command_line(mixed_file, tmp_path, options, flags):
    texts = records(mixed_file)[1]
    # Repeats for --duplicates, and an easier copy of a puzzle for --minimal.
    doubled = tmp_path / "doubled.txt"
    doubled.write_bytes(b"\n".join(texts + texts[:5]) + b"\n")
    table = sudoku_batch.validate(texts + texts[:5], **options)
    expected = cli_rows(["validate", str(doubled), *flags])
    assert_same_rows(table, expected)
    assert table.num_rows > 0
    problems = " ".join(p for p in expected["problem"] if p)
    assert "invalid" in problems and "unsolvable" in problems
    if options.get("max_guesses"):
        assert "aborted after 1 guesses" in problems
    else:
        assert "multiple" in problems
    if options.get("duplicates"):
        assert "duplicate of line" in problems and "fewer than 24" in problems


def test_sample_passes_as_it_does_for_the_command_line():
    lines, texts = records(SAMPLE)
    assert sudoku_batch.validate(texts).num_rows == 0
    table = sudoku_batch.validate(texts, all_records=True, minimal=True)
    expected = cli_rows(["validate", str(SAMPLE), "--all", "--minimal"])
    assert_same_rows(renumbered(table, lines), expected)
    # The three puzzles of the source material are not minimal; the generated ones are.
    problems = table.column("problem").to_pylist()
    assert all(p.startswith("redundant clues: r") for p in problems[:3])
    assert problems[3:] == [None] * 1000


def test_expected_solutions_match_expect_column(tmp_path):
    puzzles = sudoku_batch.generate(12, seed=3).to_pylist()
    solutions = sudoku_batch.solve(puzzles).column("solution").to_pylist()
    stated = list(solutions)
    stated[1] = stated[1][:40] + ("1" if stated[1][40] != "1" else "2") + stated[1][41:]
    stated[2] = None
    stated[3] = "123"
    stated[4] = stated[4][:80] + "."
    puzzles[5] = puzzles[5][:80] + "x"
    path = tmp_path / "stated.csv"
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["puzzle", "solution"])
        w.writerows([p, s or ""] for p, s in zip(puzzles, stated))
    expected = cli_rows(["validate", str(path), "--expect-column", "solution", "--all"])
    table = sudoku_batch.validate(puzzles, expected=stated, all_records=True, first_line=2)
    assert_same_rows(table, expected)
    problems = table.column("problem").to_pylist()
    assert problems[0] is None
    assert problems[1].startswith("stated solution differs at r5c5")
    assert "stated solution missing" in problems[2]
    assert "stated solution malformed" in problems[3] and "malformed" in problems[4]


def test_expected_must_be_as_long_as_puzzles():
    with pytest.raises(ValueError, match="expected: 1 solutions for 2 puzzles"):
        sudoku_batch.validate(["." * 81] * 2, expected=["1" * 81])


def test_an_er_band_fails_the_puzzles_the_command_line_fails(tmp_path):
    puzzles = sudoku_batch.generate(12, seed=4).to_pylist()
    path = tmp_path / "puzzles.txt"
    path.write_text("\n".join(puzzles) + "\n")
    table = sudoku_batch.validate(puzzles, min_er=2.0, max_er=4.5, all_records=True)
    expected = cli_rows(["validate", str(path), "--min-er", "2.0", "--max-er", "4.5", "--all"])
    assert_same_rows(table, expected)
    problems = [p for p in table.column("problem").to_pylist() if p]
    assert problems and all(
        re.fullmatch(r"ER \d+\.\d, below 2\.0|ER above 4\.5", p) for p in problems
    )
    ratings = sudoku_batch.grade(puzzles).column("er").to_pylist()
    assert len(problems) == sum(not 2.0 <= er <= 4.5 for er in ratings)
    # The ruleset and time limit are taken; `error` stays solve's: empty for every puzzle.
    classic = sudoku_batch.validate(puzzles, max_er=20, ruleset="classic", max_time_ms=1)
    assert classic.column("error").null_count == classic.num_rows


@pytest.mark.parametrize(
    "options, message",
    [
        ({"min_er": 2.55}, "min_er=2.55: ratings go from 1.0 to about 12.0, in tenths"),
        ({"max_er": -1}, "max_er=-1"),
        ({"min_er": 2, "ruleset": "hodoku"}, "ruleset='hodoku': choose one of sukaku, classic"),
        ({"min_er": 2, "max_time_ms": 0}, "max_time_ms=0"),
    ],
)
def test_wrong_rating_options_raise(options, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        sudoku_batch.validate(["." * 81], **options)


def test_isomorphs_name_a_transposed_puzzle_as_the_command_line_does():
    # A puzzle of the forum's hardest list: one solution, and no symmetry under transposing.
    puzzle = "2....4.....1.9..2.39....6.......7..6...5..4...1..3..9.1...8..3...8.....5..97....."
    transposed = "".join(puzzle[9 * c + r] for r in range(9) for c in range(9))
    assert transposed != puzzle
    exact = sudoku_batch.validate([puzzle, transposed], duplicates=True)
    assert not any(
        (p or "").startswith("duplicate") for p in exact.column("problem").to_pylist()
    )
    rows = sudoku_batch.validate([puzzle, transposed], duplicates=True, isomorphs=True)
    problems = dict(zip(rows.column("line").to_pylist(), rows.column("problem").to_pylist()))
    assert problems.get(2) == "isomorph of line 1", problems
    # The isomorph takes its class's status, with nothing of a search: the same row whether
    # its worker searched it or not.
    second = rows.filter(pc.equal(rows.column("line"), 2)).to_pylist()[0]
    assert (second["status"], second["solutions"]) == ("unique", 1), second
    assert second["solution"] is None and second["guesses"] is None, second
    assert second["time_ns"] is None, second
