"""Type stubs of ``sudoku_batch``; the docstrings are in ``__init__.py``."""

import os
from typing import Iterable, Mapping, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt
import pyarrow as pa

# pandas is not a dependency: a Series is accepted through its values, typed loosely here.
Puzzles = Union[
    Sequence[Union[str, bytes, None]],
    Iterable[Union[str, bytes, None]],
    npt.NDArray[np.integer],
    npt.NDArray[np.str_],
    npt.NDArray[np.object_],
    pa.Array,
    pa.ChunkedArray,
]

__version__: str
CANON_COLUMNS: Tuple[str, ...]
SPLIT_COLUMNS: Tuple[str, ...]
COLUMNS: Tuple[str, ...]
GRADE_COLUMNS: Tuple[str, ...]
RULESETS: Tuple[str, ...]
SOLVERS: Tuple[str, ...]
SYMMETRIES: Tuple[str, ...]

def solve(
    puzzles: Puzzles,
    *,
    limit: int = 2,
    solver: str = "fast",
    threads: Optional[int] = None,
    max_guesses: Optional[int] = None,
    first_line: int = 1,
) -> pa.Table: ...
def validate(
    puzzles: Puzzles,
    *,
    solver: str = "fast",
    threads: Optional[int] = None,
    max_guesses: Optional[int] = None,
    expected: Optional[Puzzles] = None,
    minimal: bool = False,
    duplicates: bool = False,
    isomorphs: bool = False,
    min_clues: Optional[int] = None,
    min_er: Optional[float] = None,
    max_er: Optional[float] = None,
    ruleset: str = "sukaku",
    max_time_ms: Optional[int] = None,
    all_records: bool = False,
    first_line: int = 1,
) -> pa.Table: ...
def grade(
    puzzles: Puzzles,
    *,
    solver: str = "fast",
    threads: Optional[int] = None,
    max_guesses: Optional[int] = None,
    ruleset: str = "sukaku",
    max_time_ms: Optional[int] = None,
    min_er: Optional[float] = None,
    max_er: Optional[float] = None,
    first_line: int = 1,
) -> pa.Table: ...
def canon(
    puzzles: Puzzles,
    *,
    threads: Optional[int] = None,
    first_line: int = 1,
    split: Optional[Mapping[str, int]] = None,
    split_seed: int = 0,
) -> pa.Table: ...
def generate(
    count: int,
    *,
    seed: Optional[int] = None,
    symmetry: str = "none",
    min_clues: Optional[int] = None,
    max_clues: Optional[int] = None,
    min_er: Optional[float] = None,
    max_er: Optional[float] = None,
    ruleset: str = "sukaku",
    max_time_ms: Optional[int] = None,
    attempts: int = 1000,
    solved: bool = False,
    threads: Optional[int] = None,
    around: Optional[Puzzles] = None,
) -> pa.StringArray: ...
def read_results(path: Union[str, os.PathLike[str]]) -> pa.Table: ...
def augment(
    puzzles: Puzzles,
    *,
    copies: int = 1,
    seed: Optional[int] = None,
    solutions: Optional[Puzzles] = None,
    threads: Optional[int] = None,
    first_line: int = 1,
    with_transform: bool = False,
) -> Tuple[npt.NDArray[np.uint8], ...]: ...
