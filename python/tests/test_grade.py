"""`grade` against the command line's rows, and what a time limit and a bad ruleset do."""

from __future__ import annotations

import csv
import re

import pyarrow as pa
import pytest

import sudoku_batch
from conftest import REPO, SAMPLE, assert_same_rows, cli_rows, records, renumbered

PUZZLE = "..29...........8.5.58...7..1.9.3........78.....6....3.94..5...1.....7..968...35.."
SERATE = REPO / "tests" / "data" / "logic" / "serate_sample.csv"


def test_sample_matches_the_command_line():
    lines, texts = records(SAMPLE)
    table = sudoku_batch.grade(texts)
    assert_same_rows(renumbered(table, lines), cli_rows(["grade", str(SAMPLE)]))
    assert table.column("er").null_count == 0


@pytest.mark.parametrize(
    "options, flags",
    [
        ({}, []),
        ({"ruleset": "classic", "threads": 1}, ["--ruleset", "classic", "-j", "1"]),
        ({"solver": "singles", "max_guesses": 2}, ["--solver", "singles", "--max-guesses", "2"]),
    ],
)
def test_mixed_corpus_matches_the_command_line(mixed_file, options, flags):
    texts = records(mixed_file)[1]
    table = sudoku_batch.grade(texts, **options)
    expected = cli_rows(["grade", str(mixed_file), *flags])
    assert_same_rows(table, expected)
    statuses = set(expected["status"])
    assert {"unique", "unsolvable", "invalid"} <= statuses
    assert ("aborted" if "max_guesses" in options else "multiple") in statuses
    # Only the puzzles with exactly one solution are rated.
    rated = [s for s, er in zip(expected["status"], expected["er"]) if er is not None]
    assert rated and set(rated) == {"unique"}


def test_result_types_and_nulls():
    table = sudoku_batch.grade([PUZZLE, "." * 81, "nope"])
    assert table.schema.names == list(sudoku_batch.GRADE_COLUMNS)
    for name in ("line", "steps", "time_ns"):
        assert table.schema.field(name).type == pa.uint64(), name
    for name in ("er", "ep", "ed"):
        assert table.schema.field(name).type == pa.float64(), name
    for name in ("puzzle", "status", "hardest", "techniques", "error"):
        assert table.schema.field(name).type == pa.string(), name
    rows = table.to_pylist()
    assert rows[0]["er"] == 1.2 and rows[0]["techniques"] == "Hidden Single:57"
    for row in rows[1:]:
        assert [row[k] for k in ("er", "ep", "ed", "hardest", "steps", "techniques")] == [None] * 6
    assert [r["status"] for r in rows] == ["unique", "multiple", "invalid"]


def test_a_puzzle_over_the_time_limit_is_not_rated():
    with open(SERATE, newline="") as f:
        hardest = sorted(csv.DictReader(f), key=lambda r: -float(r["er"]))[:3]
    assert all(float(r["er"]) >= 9.0 for r in hardest)
    table = sudoku_batch.grade([r["puzzle"] for r in hardest], max_time_ms=1)
    assert table.column("status").to_pylist() == ["unique"] * 3
    assert table.column("er").to_pylist() == [None] * 3
    assert all(e.startswith("not rated: ") for e in table.column("error").to_pylist())


def test_rows_do_not_depend_on_threads(mixed_file):
    texts = records(mixed_file)[1] * 5
    one = sudoku_batch.grade(texts, threads=1).drop_columns(["time_ns"])
    for threads in (2, 3, None):
        assert sudoku_batch.grade(texts, threads=threads).drop_columns(["time_ns"]).equals(one)


def test_first_line_numbers_the_rows():
    table = sudoku_batch.grade([PUZZLE] * 3, first_line=41)
    assert table.column("line").to_pylist() == [41, 42, 43]


@pytest.mark.parametrize(
    "options, error, message",
    [
        ({"ruleset": "hodoku"}, ValueError, "ruleset=.hodoku.: choose one of sukaku, classic"),
        ({"max_time_ms": 0}, ValueError, "max_time_ms=0"),
        ({"solver": "quick"}, ValueError, "choose one of fast"),
        ({"max_guesses": -1}, ValueError, "max_guesses"),
    ],
)
def test_wrong_options_raise(options, error, message):
    with pytest.raises(error, match=message):
        sudoku_batch.grade([PUZZLE], **options)


def test_rulesets_are_the_command_lines():
    assert sudoku_batch.RULESETS == ("sukaku", "classic")
    for ruleset in sudoku_batch.RULESETS:
        assert sudoku_batch.grade([PUZZLE], ruleset=ruleset)["er"][0].as_py() == 1.2


@pytest.mark.parametrize(
    "options, flags",
    [
        ({"min_er": 9}, ["--min-er", "9"]),
        ({"max_er": 4.5}, ["--max-er", "4.5"]),
        ({"min_er": 3.0, "max_er": 7.5, "threads": 1}, ["--min-er", "3", "--max-er", "7.5", "-j", "1"]),
    ],
)
def test_an_er_band_stops_ratings_as_the_command_line_does(tmp_path, options, flags):
    with open(SERATE, newline="") as f:
        sample = list(csv.DictReader(f))[::9]
    path = tmp_path / "sample.txt"
    path.write_text("".join(r["puzzle"] + "\n" for r in sample) + "." * 81 + "\n")
    table = sudoku_batch.grade([r["puzzle"] for r in sample] + ["." * 81], **options)
    assert table.column_names == [*sudoku_batch.GRADE_COLUMNS, "band"]
    assert_same_rows(table, cli_rows(["grade", str(path), *flags]))
    # A rating stopped at the bound has no ER; one below it is the full rating, serate's.
    low, high = options.get("min_er"), options.get("max_er")
    limit = high + 0.1 if high is not None else low
    for row, r in zip(table.to_pylist(), sample):
        er = float(r["er"])
        assert row["er"] == (er if er < limit - 1e-9 else None), (row, r)
        assert row["band"], row
    assert table.column("band")[-1].as_py() is None


@pytest.mark.parametrize(
    "options, message",
    [
        ({"min_er": 9.5, "max_er": 7}, "min_er=9.5 is more than max_er=7.0"),
        ({"min_er": 2.55}, "min_er=2.55: ratings go from 1.0 to about 12.0, in tenths"),
        ({"max_er": -1}, "max_er=-1"),
    ],
)
def test_a_wrong_er_band_raises(options, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        sudoku_batch.grade([PUZZLE], **options)
