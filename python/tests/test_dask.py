"""The Dask recipe of the README on a local cluster of two worker processes: read a corpus
with dask.dataframe, solve each partition with `sudoku_batch.solve`, write Parquet, and get
exactly the command line's rows."""

from __future__ import annotations

import csv
import itertools

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from conftest import assert_same_rows, cli_rows, mixed_records

dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")


def solve_partition(part: pd.DataFrame, starts: list, partition_info=None) -> pd.DataFrame:
    """One partition's rows; its first line is where the partition starts in the file."""
    import sudoku_batch

    first = starts[partition_info["number"]] + 1 if partition_info else 1
    table = sudoku_batch.solve(part["puzzle"], first_line=first, threads=1)
    return table.to_pandas(types_mapper=pd.ArrowDtype)


def test_dask_recipe_gives_the_command_lines_rows(tmp_path):
    # Dask reads text as str: records of invalid UTF-8 stay out of this corpus.
    corpus = tmp_path / "corpus.txt"
    corpus.write_bytes(b"\n".join(mixed_records(n=400, seed=9, utf8_only=True)) + b"\n")
    expected = cli_rows(["solve", str(corpus)])

    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster),
    ):
        # One field per line: a separator and a quote that no record holds, nothing read as NaN.
        ddf = dd.read_csv(
            corpus,
            header=None,
            names=["puzzle"],
            sep="\x1f",
            quoting=csv.QUOTE_NONE,
            dtype=str,
            keep_default_na=False,
            skip_blank_lines=False,
            blocksize=8_000,
        )
        assert ddf.npartitions > 3
        lengths = ddf.map_partitions(len).compute().tolist()
        starts = list(itertools.accumulate([0] + lengths[:-1]))
        meta = solve_partition(pd.DataFrame({"puzzle": pd.Series([], dtype=str)}), [0])
        rows = ddf.map_partitions(solve_partition, starts, meta=meta)
        rows.to_parquet(tmp_path / "rows", write_index=False)

    # The files as written, in the order of their rows (part.10 sorts before part.2).
    table = pq.read_table(tmp_path / "rows").sort_by("line")
    assert table.schema.field("line").type == pa.uint64()
    assert table.schema.field("solution").type == pa.string()
    assert_same_rows(table, expected)
    assert len(set(expected["status"])) >= 4
