"""`generate` makes the command line's puzzles for the same seed and options."""

from __future__ import annotations

import pyarrow as pa
import pytest

import sudoku_batch
from conftest import run_cli


@pytest.mark.parametrize(
    "options, flags",
    [
        ({}, []),
        ({"symmetry": "rotational"}, ["--symmetry", "rotational"]),
        ({"symmetry": "anti-diagonal", "threads": 1}, ["--symmetry", "anti-diagonal"]),
        ({"min_clues": 25, "max_clues": 27}, ["--min-clues", "25", "--max-clues", "27"]),
        ({"solved": True}, ["--solved"]),
    ],
)
def test_a_seed_gives_the_command_lines_puzzles(options, flags):
    got = sudoku_batch.generate(40, seed=11, **options)
    assert got.type == pa.string()
    expected = run_cli(["generate", "--count", "40", "--seed", "11", "-qq", *flags], ok=(0,))
    assert got.to_pylist() == expected.splitlines()
    clues = [81 - p.count(".") for p in got.to_pylist()]
    if "min_clues" in options:
        assert all(25 <= c <= 27 for c in clues)
    if options.get("solved"):
        assert clues == [81] * 40


def test_an_er_band_gives_the_command_lines_puzzles():
    got = sudoku_batch.generate(4, seed=7, min_er=3.0, max_er=6.0, threads=2).to_pylist()
    flags = ["--min-er", "3.0", "--max-er", "6.0", "-qq"]
    assert got == run_cli(["generate", "-n", "4", "--seed", "7", *flags], ok=(0,)).splitlines()
    ratings = sudoku_batch.grade(got).column("er").to_pylist()
    assert all(3.0 <= er <= 6.0 for er in ratings), ratings
    classic = sudoku_batch.generate(2, seed=7, max_er=2.0, ruleset="classic").to_pylist()
    flags = ["--max-er", "2.0", "--ruleset", "classic", "-qq"]
    assert classic == run_cli(["generate", "-n", "2", "--seed", "7", *flags], ok=(0,)).splitlines()


def test_every_puzzle_is_unique_and_minimal():
    puzzles = sudoku_batch.generate(30, seed=1, threads=2)
    assert sudoku_batch.validate(puzzles, minimal=True).num_rows == 0


def test_puzzles_do_not_depend_on_threads_or_count():
    many = sudoku_batch.generate(50, seed=2**64 - 1, threads=2).to_pylist()
    assert sudoku_batch.generate(50, seed=2**64 - 1, threads=1).to_pylist() == many
    assert sudoku_batch.generate(20, seed=2**64 - 1).to_pylist() == many[:20]
    assert sudoku_batch.generate(20, seed=2**64 - 2).to_pylist() != many[:20]
    assert len(sudoku_batch.generate(0)) == 0
    assert (
        len(set(sudoku_batch.generate(5).to_pylist() + sudoku_batch.generate(5).to_pylist())) == 10
    )


@pytest.mark.parametrize(
    "options, error, message",
    [
        ({"max_clues": 16}, ValueError, "max_clues=16: no puzzle with fewer than 17"),
        ({"min_clues": 30, "max_clues": 20}, ValueError, "min_clues=30 is more than max_clues=20"),
        ({"symmetry": "spiral"}, ValueError, "choose one of none"),
        ({"solved": True, "symmetry": "mirror"}, ValueError, "solved=True"),
        ({"seed": -1}, ValueError, "seed=-1"),
        ({"attempts": 0}, ValueError, "attempts=0"),
        (
            {"min_clues": 50, "attempts": 2},
            ValueError,
            r"puzzle 1: no draw in 2 attempts had at least 50",
        ),
        (
            {"min_er": 11.9, "attempts": 2},
            ValueError,
            r"puzzle 1: no draw in 2 attempts had an ER from 11\.9 to the top; widen min_er",
        ),
        ({"min_er": 5, "max_er": 4}, ValueError, r"min_er=5\.0 is more than max_er=4\.0"),
        ({"solved": True, "min_er": 3}, ValueError, "solved=True"),
        ({"min_er": "hard"}, TypeError, "min_er: expected a rating"),
    ],
)
def test_wrong_options_raise(options, error, message):
    with pytest.raises(error, match=message):
        sudoku_batch.generate(3, **{"seed": 1, **options})


def test_a_count_too_large_for_one_array_is_refused_up_front():
    # Not an abort of the interpreter on an allocation of count x 81 bytes: a ValueError that
    # says the most one call makes, before any puzzle is made.
    for count in (10**12, 2**64 - 1, 26_512_144):
        with pytest.raises(ValueError, match="at most 26,512,143 puzzles"):
            sudoku_batch.generate(count, seed=1)
    assert len(sudoku_batch.generate(3, seed=1)) == 3


def test_around_gives_the_command_lines_neighbours(tmp_path):
    seeds = [
        "7.8...3.....2.1...5.........4.....263...8......6....9..9.6.........7.5.......41..",
        "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
    ]
    file = tmp_path / "seeds.txt"
    file.write_text("\n".join(seeds) + "\n")
    got = sudoku_batch.generate(12, seed=5, around=seeds, min_er=2.0, threads=2).to_pylist()
    flags = ["--min-er", "2.0", "--around", str(file), "-qq"]
    assert got == run_cli(["generate", "-n", "12", "--seed", "5", *flags], ok=(0,)).splitlines()
    assert len(set(got)) == 12 and not set(got) & set(seeds)
    assert sudoku_batch.validate(got, minimal=True).num_rows == 0
    ratings = sudoku_batch.grade(got).column("er").to_pylist()
    assert all(er >= 2.0 for er in ratings), ratings
    again = sudoku_batch.generate(5, seed=5, around=pa.array(seeds), min_er=2.0, threads=1)
    assert again.to_pylist() == got[:5]


def test_around_refuses_bad_seeds_and_options():
    unique = "7.8...3.....2.1...5.........4.....263...8......6....9..9.6.........7.5.......41.."
    with pytest.raises(ValueError, match=r"around\[1\]: the puzzle has more than one solution"):
        sudoku_batch.generate(1, around=[unique, "." * 81], min_er=2.0)
    with pytest.raises(ValueError, match=r"around\[0\]: not a puzzle"):
        sudoku_batch.generate(1, around=["12"], min_er=2.0)
    with pytest.raises(ValueError, match="no puzzle to search around"):
        sudoku_batch.generate(1, around=[], min_er=2.0)
    with pytest.raises(ValueError, match="needs min_er"):
        sudoku_batch.generate(1, around=[unique])
    with pytest.raises(ValueError, match="no symmetry"):
        sudoku_batch.generate(1, around=[unique], min_er=2.0, min_clues=20)
