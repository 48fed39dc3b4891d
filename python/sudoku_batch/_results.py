"""Reading the command line's output files back with the types of this package's tables.

General-purpose readers guess a column's type from its values, and an 81-digit ``solution``
looks like a number: pandas makes it a float (every digit past the 17th lost), others a huge
integer. :func:`read_results` does not guess: it knows the columns the command line writes.
"""

from __future__ import annotations

import csv
import io
import json
import os
from typing import Any, List, Optional, Tuple

import pyarrow as pa
import pyarrow.csv as pa_csv
import pyarrow.json as pa_json

#: Columns of whole numbers (``uint64``), in every command's output.
NUMBER_COLUMNS = frozenset({"line", "index", "solutions", "guesses", "steps", "time_ns"})

#: Columns of ratings on the Sudoku Explainer scale (``float64``).
RATING_COLUMNS = frozenset({"er", "ep", "ed"})

# The first bytes of a Parquet file and of the compressed streams the command line writes.
_PARQUET = b"PAR1"
_GZIP = b"\x1f\x8b"
_ZSTD = b"\x28\xb5\x2f\xfd"


def column_type(name: str) -> pa.DataType:
    """The type of the column ``name`` in this package's tables: ``uint64`` for counts and
    line numbers, ``float64`` for ratings, ``string`` for everything else (puzzles and
    solutions included)."""
    if name in NUMBER_COLUMNS:
        return pa.uint64()
    if name in RATING_COLUMNS:
        return pa.float64()
    return pa.string()


def read_results(path: Any) -> pa.Table:
    """Reads an output file of the command line with the right type in every column.

    Args:
        path: a file written by ``sudoku-batch`` (``solve``, ``validate``, ``grade``, ``merge``
            or ``--emit-solutions``): CSV (comma or tab separated), JSON lines or Parquet, the
            first two also compressed with gzip or zstd. The format is told by the file's
            content, whatever its name.

    Returns:
        A ``pyarrow.Table`` with the file's columns in order and the types of :func:`solve`'s
        tables: ``puzzle``, ``solution`` and the other texts ``string`` (never numbers),
        counts and ``line`` ``uint64``, ratings ``float64``; an empty field is null.
        ``.to_pandas()`` makes it a DataFrame. A file with no byte gives a table with no
        column.

    Raises:
        OSError: the file cannot be read.
        pyarrow.ArrowInvalid: the file is not such an output (a row with a missing field, a
            count that is not a number, ...).
    """
    path = os.fspath(path)
    with open(path, "rb") as f:
        magic = f.read(4)
    if magic == _PARQUET:
        import pyarrow.parquet as pq

        return _cast(pq.read_table(path))
    compression = "gzip" if magic[:2] == _GZIP else "zstd" if magic == _ZSTD else None
    first = _first_line(path, compression)
    if first is None:
        return pa.table({})
    with pa.input_stream(path, compression=compression) as stream:
        if first.lstrip().startswith(b"{"):
            return _read_jsonl(stream, first)
        return _read_csv(stream, first)


def _first_line(path: str, compression: Optional[str]) -> Optional[bytes]:
    """The first line of the file, decompressed; None for an empty file."""
    line = b""
    with pa.input_stream(path, compression=compression) as stream:
        while b"\n" not in line:
            chunk = stream.read(1 << 16)
            if not chunk:
                break
            line += chunk
    return line.split(b"\n", 1)[0] if line else None


def _read_csv(stream: Any, header: bytes) -> pa.Table:
    text = header.decode("utf-8-sig").rstrip("\r\n")
    # A header's names hold neither commas nor tabs: the one present is the delimiter.
    delimiter = "\t" if "\t" in text and "," not in text else ","
    names = next(csv.reader(io.StringIO(text), delimiter=delimiter))
    return pa_csv.read_csv(
        stream,
        parse_options=pa_csv.ParseOptions(delimiter=delimiter),
        convert_options=pa_csv.ConvertOptions(
            column_types={name: column_type(name) for name in names},
            # Only an empty field is missing: a record's text `NA` or `null` stays text.
            null_values=[""],
            strings_can_be_null=True,
        ),
    )


def _read_jsonl(stream: Any, first: bytes) -> pa.Table:
    names: List[str] = list(json.loads(first))
    schema = pa.schema([(name, column_type(name)) for name in names])
    table = pa_json.read_json(
        stream,
        parse_options=pa_json.ParseOptions(explicit_schema=schema),
    )
    return table.select(names)


def _cast(table: pa.Table) -> pa.Table:
    """``table`` with this package's types: dictionary columns (Parquet's categories)
    decoded."""
    fields: List[Tuple[str, pa.DataType]] = [(f.name, column_type(f.name)) for f in table.schema]
    return table.cast(pa.schema(fields))
