"""`canon` against the command line's rows and the reference tool's forms, on isomorphs, and
on arrays."""

from __future__ import annotations

import numpy as np
import pytest

import sudoku_batch
from conftest import REPO, SAMPLE, assert_same_rows, cli_rows, records, renumbered

REFERENCE = REPO / "tests" / "data" / "canon_reference.tsv"


def test_sample_and_mixed_records_match_the_command_line(mixed_file):
    lines, texts = records(SAMPLE)
    table = sudoku_batch.canon(texts, threads=2)
    assert_same_rows(renumbered(table, lines), cli_rows(["canon", str(SAMPLE)]))
    table = sudoku_batch.canon(records(mixed_file)[1])
    expected = cli_rows(["canon", str(mixed_file)])
    assert_same_rows(table, expected)
    assert {"ok", "invalid"} == set(expected["status"])


def test_forms_are_the_reference_tools():
    rows = [line.split("\t") for line in REFERENCE.read_text().splitlines()]
    rows = [r for r in rows if r[0] != "." * 81][:400]
    table = sudoku_batch.canon([r[0] for r in rows])
    assert table.column("canonical").to_pylist() == [r[1] for r in rows]
    assert table.column("automorphisms").to_pylist() == [int(r[2]) for r in rows]


def test_an_array_and_its_transposed_isomorphs_share_their_forms():
    rows = [line.split("\t") for line in REFERENCE.read_text().splitlines()][:50]
    grids = np.array([[0 if c == "." else int(c) for c in r[0]] for r in rows], dtype=np.uint8)
    transposed = grids.reshape(-1, 9, 9).transpose(0, 2, 1).reshape(-1, 81)
    relabelled = np.where(transposed > 0, 10 - transposed, 0)
    a = sudoku_batch.canon(grids).column("canonical").to_pylist()
    b = sudoku_batch.canon(relabelled, first_line=7).column("canonical").to_pylist()
    assert a == b == [r[1] for r in rows]


def test_a_split_is_the_command_lines_and_keeps_isomorphs_together(mixed_file, tmp_path):
    lines, texts = records(mixed_file)
    table = sudoku_batch.canon(texts, split={"train": 8, "test": 2}, split_seed=5)
    assert tuple(table.column_names) == sudoku_batch.SPLIT_COLUMNS
    expected = cli_rows(["canon", str(mixed_file), "--split", "train=8,test=2", "--split-seed", "5"])
    assert_same_rows(table, expected)
    # Isomorphs of many puzzles, and the puzzles: each class in one part, both parts used.
    puzzles = sudoku_batch.generate(400, seed=11)
    copies, _ = sudoku_batch.augment(puzzles, copies=2, seed=1)
    both = sudoku_batch.canon(
        np.concatenate([copies, copies[::-1]]), split={"train": 1, "test": 1}
    )
    parts = {}
    for form, part in zip(both.column("canonical").to_pylist(), both.column("part").to_pylist()):
        assert parts.setdefault(form, part) == part
    assert len(parts) == 400
    assert 150 < sum(p == "test" for p in parts.values()) < 250
    # Another seed, another deal.
    other = sudoku_batch.canon(copies, split={"train": 1, "test": 1}, split_seed=1)
    assert other.column("part").to_pylist() != both.column("part").to_pylist()[:800]


def test_bad_splits_are_refused():
    for split, error, message in (
        ({"train": 8}, ValueError, "two parts or more"),
        ({"train": 0, "test": 0}, ValueError, "two parts or more"),
        ({"train": 8, "": 2}, ValueError, "empty name"),
        ({"train": -1, "test": 2}, ValueError, "must be from 0"),
        ({"train": 2**32, "test": 2}, ValueError, "2\\*\\*32 - 1"),
        ({"train": 1.5, "test": 2}, TypeError, "expected an int"),
        (["train", "test"], TypeError, "expected a mapping"),
    ):
        with pytest.raises(error, match=message):
            sudoku_batch.canon(["." * 81], split=split)
