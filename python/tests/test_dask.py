"""The Dask recipe of python/README.md, its text as it stands there, on a local cluster of two
worker processes: read a corpus with dask.dataframe, solve each partition with
`sudoku_batch.solve`, write Parquet, and get exactly the command line's rows."""

from __future__ import annotations

import functools
import re

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from conftest import REPO, assert_same_rows, cli_rows, mixed_records

dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")


def readme_recipe() -> str:
    """The Python code of the README's Dask section."""
    section = (REPO / "python" / "README.md").read_text().split("\n## Dask", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S)[1]


def test_dask_recipe_gives_the_command_lines_rows(tmp_path, monkeypatch):
    # Dask reads text as str: records of invalid UTF-8 stay out of this corpus.
    corpus = tmp_path / "corpus.txt"
    corpus.write_bytes(b"\n".join(mixed_records(n=400, seed=9, utf8_only=True)) + b"\n")
    expected = cli_rows(["solve", str(corpus)])

    # The recipe reads corpus.txt and writes rows/ where it runs; blocks of 8 kB make several
    # partitions of this small corpus, each to start at its own line.
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(dd, "read_csv", functools.partial(dd.read_csv, blocksize=8_000))
    # Not __main__, nor a module that the workers could import: its functions go to them by
    # value, as those of a user's script do.
    recipe = {"__name__": "dask_recipe"}
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster),
    ):
        exec(compile(readme_recipe(), "python/README.md", "exec"), recipe)
    assert recipe["ddf"].npartitions > 3

    # The files as written, in the order of their rows (part.10 sorts before part.2).
    table = pq.read_table(tmp_path / "rows").sort_by("line")
    assert table.schema.field("line").type == pa.uint64()
    assert table.schema.field("solution").type == pa.string()
    assert_same_rows(table, expected)
    assert len(set(expected["status"])) >= 4
