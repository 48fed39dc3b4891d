"""`canon` against the command line's rows and the reference tool's forms, on isomorphs, and
on arrays."""

from __future__ import annotations

import numpy as np

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
