"""The compiled module. Its arguments are checked and converted by ``__init__.py``: puzzles
arrive as a 2-D NumPy array of integers or a list of Arrow arrays of strings or bytes, and
``threads`` 0 means the library's default."""

from typing import Any, List, Optional, Tuple

import numpy as np
import pyarrow as pa

__version__: str

def solve(
    puzzles: Any,
    limit: int,
    solver: str,
    threads: int,
    max_guesses: Optional[int],
    first_line: int,
) -> pa.Table: ...
def validate(
    puzzles: Any,
    solver: str,
    threads: int,
    max_guesses: Optional[int],
    expected: Any,
    minimal: bool,
    duplicates: bool,
    isomorphs: bool,
    min_clues: Optional[int],
    band: Optional[Tuple[int, int]],
    ruleset: str,
    max_time_ms: Optional[int],
    all: bool,
    first_line: int,
) -> pa.Table: ...
def grade(
    puzzles: Any,
    solver: str,
    threads: int,
    max_guesses: Optional[int],
    ruleset: str,
    max_time_ms: Optional[int],
    min_er: Optional[int],
    max_er: Optional[int],
    first_line: int,
) -> pa.Table: ...
def canon(
    puzzles: Any,
    threads: int,
    first_line: int,
) -> pa.Table: ...
def generate(
    count: int,
    seed: int,
    symmetry: str,
    min_clues: Optional[int],
    max_clues: Optional[int],
    band: Optional[Tuple[int, int]],
    ruleset: str,
    max_time_ms: Optional[int],
    attempts: int,
    solved: bool,
    threads: int,
) -> pa.StringArray: ...
def generate_around(
    count: int,
    seed: int,
    around: List[str],
    band: Tuple[int, int],
    ruleset: str,
    max_time_ms: Optional[int],
    attempts: int,
    threads: int,
) -> pa.StringArray: ...
def augment(
    puzzles: Any,
    copies: int,
    seed: int,
    solutions: Any,
    threads: int,
    first_line: int,
) -> Tuple[np.ndarray, np.ndarray]: ...
def max_threads() -> int: ...
def solvers() -> List[str]: ...
