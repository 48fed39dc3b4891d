"""`solve` against the command line's rows, for every input type and option."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

import sudoku_batch
from conftest import SAMPLE, assert_same_rows, cli_rows, records, renumbered

PUZZLE = "..29...........8.5.58...7..1.9.3........78.....6....3.94..5...1.....7..968...35.."


def cells(texts) -> np.ndarray:
    """Puzzles of 81 cells as an (N, 81) array, 0 for a blank."""
    raw = np.frombuffer("".join(texts).encode(), dtype=np.uint8).reshape(-1, 81)
    return np.where((raw >= ord("1")) & (raw <= ord("9")), raw - ord("0"), 0)


def test_sample_matches_the_command_line():
    lines, texts = records(SAMPLE)
    table = sudoku_batch.solve([t.decode() for t in texts])
    assert_same_rows(renumbered(table, lines), cli_rows(["solve", str(SAMPLE)]))
    assert set(table.column("status").to_pylist()) == {"unique"}


@pytest.mark.parametrize(
    "options, flags",
    [
        ({}, []),
        ({"limit": 1}, ["--limit", "1"]),
        ({"limit": 5}, ["--limit", "5"]),
        ({"solver": "singles"}, ["--solver", "singles"]),
        ({"solver": "bitmask", "threads": 1}, ["--solver", "bitmask", "-j", "1"]),
        ({"max_guesses": 2}, ["--max-guesses", "2"]),
        (
            {"solver": "backtrack", "max_guesses": 500},
            ["--solver", "backtrack", "--max-guesses", "500"],
        ),
    ],
)
def test_mixed_corpus_matches_the_command_line(mixed_file, options, flags):
    lines, texts = records(mixed_file)
    assert lines == list(range(1, len(lines) + 1))
    table = sudoku_batch.solve(texts, **options)
    expected = cli_rows(["solve", str(mixed_file), *flags])
    assert_same_rows(table, expected)
    statuses = set(expected["status"])
    if options.get("limit") == 1:
        assert {"solved", "unsolvable", "invalid"} <= statuses
    elif "max_guesses" not in options:
        assert {"unique", "multiple", "unsolvable", "invalid"} <= statuses
    else:
        assert "aborted" in statuses


def test_conflicts_and_reasons_are_the_command_lines(mixed_file):
    table = sudoku_batch.solve(records(mixed_file)[1])
    errors = [e for e in table.column("error").to_pylist() if e]
    assert any(e.startswith("digit ") and " twice in " in e for e in errors)
    assert any("unexpected character 'x'" in e for e in errors)
    assert any("longer than the limit of 65536 bytes" in e for e in errors)
    assert any("invalid UTF-8 byte 0xff" in e for e in errors)


def test_every_input_type_gives_the_same_rows(mixed_file):
    texts = [t.decode() for t in records(mixed_file)[1] if b"\xff" not in t]
    expected = sudoku_batch.solve(texts).drop_columns(["time_ns"])
    as_arrow = pa.array(texts)
    inputs = {
        "tuple": tuple(texts),
        "generator": (t for t in texts),
        "bytes": [t.encode() for t in texts],
        "pyarrow": as_arrow,
        "pyarrow large_string": as_arrow.cast(pa.large_string()),
        "pyarrow chunked": pa.chunked_array([as_arrow[:7], as_arrow[7:7], as_arrow[7:]]),
        "pyarrow dictionary": as_arrow.dictionary_encode(),
        "numpy str": np.array(texts),
        "numpy object": np.array(texts, dtype=object),
        "pandas": pd.Series(texts),
        "pandas arrow": pd.Series(texts, dtype="string[pyarrow]"),
        "pandas slice": pd.Series(["x"] + texts)[1:],
    }
    for name, value in inputs.items():
        got = sudoku_batch.solve(value).drop_columns(["time_ns"])
        assert got.equals(expected), name


def test_numpy_cells_match_text(mixed_file):
    table = sudoku_batch.solve(records(mixed_file)[1])
    puzzles = [
        p
        for p, s in zip(table["puzzle"].to_pylist(), table["status"].to_pylist())
        if s != "invalid"
    ]
    expected = sudoku_batch.solve(puzzles).drop_columns(["time_ns"])
    for dtype in (np.uint8, np.int8, np.int16, np.uint32, np.int64):
        got = sudoku_batch.solve(cells(puzzles).astype(dtype)).drop_columns(["time_ns"])
        assert got.equals(expected), dtype
    # Not contiguous: every other column of a wider array.
    wide = np.repeat(cells(puzzles), 2, axis=1)[:, ::2]
    assert not wide.flags.c_contiguous
    assert sudoku_batch.solve(wide).drop_columns(["time_ns"]).equals(expected)


def test_numpy_arrays_are_read_as_their_strides_say():
    # Fortran order is what pandas hands out (`DataFrame.to_numpy()`, `.values`): its memory
    # holds the cells column after column, and must not be read as rows.
    puzzles = sudoku_batch.generate(12, seed=5).to_pylist()
    expected = sudoku_batch.solve(puzzles).drop_columns(["time_ns"])
    grid = cells(puzzles)
    frame = pd.DataFrame(grid.astype(np.int64))
    arrays = {
        "fortran uint8": np.asfortranarray(grid.astype(np.uint8)),
        "fortran int64": np.asfortranarray(grid.astype(np.int64)),
        "to_numpy": frame.to_numpy(),
        "values": frame.values,
        "transposed twice": np.ascontiguousarray(grid.T.astype(np.int16)).T,
        "reversed rows": grid.astype(np.uint8)[::-1][::-1],
    }
    assert arrays["fortran uint8"].flags.f_contiguous
    assert not arrays["fortran uint8"].flags.c_contiguous
    for name, array in arrays.items():
        got = sudoku_batch.solve(array).drop_columns(["time_ns"])
        assert got.equals(expected), name
    # And for validate's stated solutions.
    solutions = cells(expected["solution"].to_pylist())
    for expect in (np.asfortranarray(solutions), pd.DataFrame(solutions).to_numpy()):
        table = sudoku_batch.validate(puzzles, expected=expect)
        assert table.num_rows == 0, table.column("problem").to_pylist()


def test_numpy_values_out_of_range_are_invalid_rows():
    # Bytes are copied as they are and wider integers mapped while copied: both name the first
    # bad cell of a puzzle with the value the array holds.
    for dtype, low in ((np.int16, -1), (np.uint8, 255)):
        grid = cells([PUZZLE, PUZZLE, PUZZLE]).astype(dtype)
        grid[1, 4] = 10
        grid[1, 7] = 11
        grid[2, 0] = low
        table = sudoku_batch.solve(grid)
        assert table.column("status").to_pylist() == ["unique", "invalid", "invalid"], dtype
        assert table.column("error").to_pylist() == [
            None,
            "cell 5: value 10 is not 0-9",
            f"cell 1: value {low} is not 0-9",
        ], dtype
        puzzle = PUZZLE[:4] + "?" + PUZZLE[5:7] + "?" + PUZZLE[8:]
        assert table.column("puzzle")[1].as_py() == puzzle, dtype


def test_result_types_and_nulls():
    table = sudoku_batch.solve([PUZZLE, "nope"])
    assert table.schema.names == list(sudoku_batch.COLUMNS)
    for name in ("line", "solutions", "guesses", "time_ns"):
        assert table.schema.field(name).type == pa.uint64(), name
    for name in ("puzzle", "status", "solution", "error"):
        assert table.schema.field(name).type == pa.string(), name
    assert table.column("solution").to_pylist()[1] is None
    assert table.column("error").to_pylist()[0] is None
    assert table.column("time_ns")[0].as_py() > 0


def test_rows_do_not_depend_on_threads(mixed_file):
    texts = records(mixed_file)[1] * 20
    one = sudoku_batch.solve(texts, threads=1).drop_columns(["time_ns"])
    for threads in (2, 3, None):
        assert sudoku_batch.solve(texts, threads=threads).drop_columns(["time_ns"]).equals(one)
    assert one.column("line").to_pylist() == list(range(1, len(texts) + 1))


def test_first_line_numbers_the_rows():
    table = sudoku_batch.solve([PUZZLE] * 3, first_line=41)
    assert table.column("line").to_pylist() == [41, 42, 43]
    with pytest.raises(ValueError, match="first_line"):
        sudoku_batch.solve([PUZZLE] * 3, first_line=2**64 - 2)


def test_empty_inputs_give_an_empty_table():
    for empty in (
        [],
        np.zeros((0, 81), dtype=np.uint8),
        pa.array([], pa.string()),
        pd.Series([], dtype=object),
    ):
        table = sudoku_batch.solve(empty)
        assert table.num_rows == 0
        assert table.schema.names == list(sudoku_batch.COLUMNS)


def test_missing_values_are_empty_records():
    table = sudoku_batch.solve([PUZZLE, None, float("nan")])
    assert table.column("status").to_pylist() == ["unique", "invalid", "invalid"]
    assert table.column("error")[1].as_py() == sudoku_batch.solve([""])["error"][0].as_py()


@pytest.mark.parametrize(
    "value, error, message",
    [
        (PUZZLE, TypeError, "wrap it in a list"),
        ([PUZZLE, PUZZLE, 5], TypeError, r"puzzles\[2\]: expected str or bytes, got int"),
        ([PUZZLE, [1, 2]], TypeError, r"puzzles\[1\]"),
        (pd.Series([PUZZLE, 3.5]), TypeError, r"puzzles\[1\]"),
        (pa.array([1, 2]), TypeError, "got an array of int64"),
        (12, TypeError, "expected a sequence of puzzles"),
        (np.zeros((2, 80), dtype=np.uint8), ValueError, r"shape \(N, 81\), got shape \(2, 80\)"),
        (np.zeros(81, dtype=np.uint8), TypeError, "2-D array"),
        (np.zeros((2, 81)), TypeError, "dtype float64"),
    ],
)
def test_wrong_arguments_raise(value, error, message):
    with pytest.raises(error, match=message):
        sudoku_batch.solve(value)


@pytest.mark.parametrize(
    "options, error, message",
    [
        ({"limit": 0}, ValueError, "limit=0"),
        ({"limit": "2"}, TypeError, "limit"),
        ({"solver": "quick"}, ValueError, "choose one of fast"),
        ({"threads": -1}, ValueError, "threads"),
        ({"max_guesses": 2**64}, ValueError, "max_guesses"),
        ({"first_line": True}, TypeError, "first_line"),
    ],
)
def test_wrong_options_raise(options, error, message):
    with pytest.raises(error, match=message):
        sudoku_batch.solve([PUZZLE], **options)


def test_too_many_threads_warn_and_are_capped():
    with pytest.warns(RuntimeWarning, match="4 threads per CPU"):
        table = sudoku_batch.solve([PUZZLE], threads=100_000)
    assert table.column("status").to_pylist() == ["unique"]


def test_the_module_docs_example_runs():
    import doctest

    assert doctest.testmod(sudoku_batch).failed == 0
    assert doctest.testmod(sudoku_batch).attempted > 0
