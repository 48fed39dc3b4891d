"""Reading the command line's outputs back with the right types: ``read_results`` on every
format and compression, and the user guide's pandas, Polars and DuckDB lines run as written on the
tool's own outputs."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any, Dict, List

import pyarrow as pa
import pytest

import sudoku_batch
from conftest import REPO, SAMPLE, mixed_records, run_cli

# The puzzle a text reader most easily mistakes: the solved grid (81 digits, no blank).
SOLVED = "762985143391724865458361792179436258534278916826519437943852671215647389687193524"

# Besides the mixed corpus: records whose text pandas reads as missing, and the solved grid.
TRICKY = [b"NA", b"null", SOLVED.encode()]

TEXTS = ("puzzle", "solution", "error", "problem", "status", "hardest", "techniques")

SUFFIXES = ["csv", "csv.gz", "csv.zst", "jsonl", "jsonl.gz", "jsonl.zst", "parquet"]


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory with ``corpus.txt`` and the outputs of solve, validate --all, grade and
    --emit-solutions over it, as ``results.SUFFIX``, ``report.SUFFIX``, ``grades.SUFFIX`` and
    ``solutions.SUFFIX``."""
    out = tmp_path_factory.mktemp("outputs")
    sample = [line for line in SAMPLE.read_bytes().splitlines() if not line.startswith(b"#")]
    records = TRICKY + mixed_records(n=20, seed=8, utf8_only=True) + sample[:10]
    (out / "corpus.txt").write_bytes(b"\n".join(records) + b"\n")
    corpus = str(out / "corpus.txt")
    for suffix in SUFFIXES:
        run_cli(
            [
                "solve",
                "-qq",
                corpus,
                "-o",
                str(out / f"results.{suffix}"),
                "--emit-solutions",
                str(out / f"solutions.{suffix}"),
            ]
        )
        run_cli(["validate", "-qq", "--all", corpus, "-o", str(out / f"report.{suffix}")])
        run_cli(["grade", "-qq", corpus, "-o", str(out / f"grades.{suffix}")])
    return out


@pytest.mark.parametrize("stem", ["results", "report", "grades", "solutions"])
def test_every_format_reads_back_to_the_same_typed_table(outputs, stem):
    tables = {s: sudoku_batch.read_results(outputs / f"{stem}.{s}") for s in SUFFIXES}
    parquet = tables["parquet"]
    assert parquet.num_rows > 0
    for suffix, table in tables.items():
        assert table.schema == parquet.schema, suffix
        assert table.drop_columns([c for c in ["time_ns"] if c in table.column_names]).equals(
            parquet.drop_columns([c for c in ["time_ns"] if c in parquet.column_names])
        ), suffix
    for field in parquet.schema:
        if field.name in TEXTS:
            assert field.type == pa.string(), field
        elif field.name in ("er", "ep", "ed"):
            assert field.type == pa.float64(), field
        else:
            assert field.type == pa.uint64(), field
    if "puzzle" in parquet.column_names:
        puzzles = parquet.column("puzzle").to_pylist()
        assert puzzles[:3] == ["NA", "null", SOLVED]  # text, never missing or a number
    if stem == "results":
        assert parquet.column("solution").to_pylist()[2] == SOLVED


def test_read_results_gives_the_tables_of_the_python_api(outputs):
    """A file read back equals what the same call in Python returns (but the times)."""
    records = (outputs / "corpus.txt").read_bytes().split(b"\n")[:-1]
    cases = [
        ("results", sudoku_batch.solve(records)),
        ("report", sudoku_batch.validate(records, all_records=True)),
        ("grades", sudoku_batch.grade(records)),
    ]
    for stem, expected in cases:
        got = sudoku_batch.read_results(outputs / f"{stem}.csv.gz")
        types = [(f.name, f.type) for f in got.schema]
        assert types == [(f.name, f.type) for f in expected.schema], stem
        got, expected = got.drop_columns(["time_ns"]), expected.drop_columns(["time_ns"])
        assert got.to_pylist() == expected.to_pylist(), stem


def test_read_results_tells_the_format_by_content_and_takes_tab_separated_csv(outputs, tmp_path):
    renamed = tmp_path / "no-extension"
    shutil.copy(outputs / "results.jsonl.zst", renamed)
    expected = sudoku_batch.read_results(outputs / "results.jsonl.zst")
    assert sudoku_batch.read_results(renamed).equals(expected)
    tsv = tmp_path / "results.tsv"
    tsv.write_text((outputs / "results.csv").read_text().replace(",", "\t"))
    # Commas inside quoted fields become tabs too: compare only the solutions.
    got = sudoku_batch.read_results(tsv)
    assert got.column_names == expected.column_names
    assert got.column("solution").equals(expected.column("solution"))
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    assert sudoku_batch.read_results(empty).num_columns == 0


# --- the user guide's lines -------------------------------------------------------------------


def readme_lines() -> List[str]:
    """The Python block of the user guide's section on reading the outputs."""
    text = (REPO / "docs" / "GUIDE.md").read_text()
    section = text.split("## Reading the outputs", 1)[1]
    block = re.search(r"```python\n(.*?)```", section, re.S)
    assert block, "docs/GUIDE.md: no python block under Reading the outputs"
    return block.group(1).splitlines()


def columns(value: Any) -> Dict[str, list]:
    """A pandas, Polars or DuckDB result as columns of Python values, None for missing."""
    module = type(value).__module__.split(".")[0]
    if module == "pandas":
        import pandas as pd

        return {c: [None if pd.isna(v) else v for v in value[c].tolist()] for c in value.columns}
    if module == "polars":
        return {c: value[c].to_list() for c in value.columns}
    if module == "duckdb":
        rows = value.fetchall()
        return {c: [row[i] for row in rows] for i, c in enumerate(value.columns)}
    raise AssertionError(f"not a pandas, Polars or DuckDB result: {type(value)}")


def test_the_readmes_reader_lines_get_the_types_right(outputs, monkeypatch):
    pytest.importorskip("pandas")
    pytest.importorskip("polars")
    pytest.importorskip("duckdb")
    monkeypatch.chdir(outputs)
    lines = readme_lines()
    setup = "\n".join(line for line in lines if not re.match(r"(df|pf|db) = ", line))
    reads = [line for line in lines if re.match(r"(df|pf|db) = ", line)]
    assert len(reads) == 9, reads  # three readers, three formats
    expected = sudoku_batch.read_results(outputs / "results.parquet").to_pydict()
    for line in reads:
        # Each line as written, then on the compressed files the comments say it reads alike.
        variants = [line]
        if line.startswith(("pf", "db")):
            variants += [
                line.replace(".csv'", f".csv.{z}'")
                .replace('.csv"', f'.csv.{z}"')
                .replace(".jsonl'", f".jsonl.{z}'")
                .replace('.jsonl"', f'.jsonl.{z}"')
                for z in ("gz", "zst")
            ]
        elif ".parquet" not in line:
            variants.append(line.replace('.csv"', '.csv.gz"').replace('.jsonl"', '.jsonl.gz"'))
        for code in variants:
            scope: Dict[str, Any] = {}
            exec(setup, scope)
            exec(code, scope)
            got = columns(scope[code[:2]])
            for name in ("line", "puzzle", "status", "solutions", "solution", "guesses", "error"):
                assert got[name] == expected[name], f"{code}: column {name}"
            assert all(isinstance(v, int) for v in got["line"]), code
