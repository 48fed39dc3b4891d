"""Solve, validate, grade, canonicalise, generate and augment Sudoku puzzles in parallel, with
results as pyarrow tables (and NumPy arrays from :func:`augment`).

The solvers of the ``sudoku-batch`` command line, for Python::

    >>> import sudoku_batch
    >>> table = sudoku_batch.solve(sudoku_batch.generate(3, seed=7))
    >>> table.column("status").to_pylist()
    ['unique', 'unique', 'unique']

``puzzles`` may be a list of str (or bytes), a NumPy array of shape (N, 81) of integers (0 for a
blank), a 1-D NumPy array of strings, a pyarrow array or chunked array, a pandas Series, or any
object with the Arrow PyCapsule interface. A string is read as the command line reads one line
of a text file: 81 cells (``1``-``9``, and ``.``, ``0`` or ``_`` for a blank), then optionally a
space, tab, ``,`` or ``;`` and a comment; one line end at the end is ignored.

The result has the columns of ``sudoku-batch solve`` (:data:`COLUMNS`; :func:`grade`'s are those
of ``sudoku-batch grade``, :data:`GRADE_COLUMNS`; :func:`canon`'s those of ``sudoku-batch
canon``, :data:`CANON_COLUMNS`), one row per puzzle in input order, ``line``
being the puzzle's 1-based position (or counted from ``first_line``, so that the parts of a
corpus solved apart keep the command line's line numbers). Numbers are ``uint64``, ratings
``float64``, texts ``string``; a field the command line leaves empty (no solution, no error) is
null. A record that is not a puzzle is an ``invalid`` row with the command line's reason in
``error``; only arguments of the wrong type or shape raise, naming the position of the first bad
element.

:func:`read_results` reads a file the command line wrote (CSV, JSON lines or Parquet, compressed
or not) into a table of the same types, where readers that guess types go wrong (pandas makes an
81-digit ``solution`` a float).

The work runs on the library's own thread pool with the GIL released, one solver per thread;
Ctrl-C (``KeyboardInterrupt``) stops it within milliseconds and returns nothing.
"""

from __future__ import annotations

import math
import secrets
import warnings
from typing import Any, List, Mapping, Optional, Tuple

import numpy as np
import pyarrow as pa

from . import _native
from ._results import read_results

__all__ = [
    "__version__",
    "CANON_COLUMNS",
    "SPLIT_COLUMNS",
    "COLUMNS",
    "GRADE_COLUMNS",
    "RULESETS",
    "SOLVERS",
    "SYMMETRIES",
    "augment",
    "canon",
    "generate",
    "grade",
    "read_results",
    "solve",
    "validate",
]

#: The package's version, that of the ``sudoku-batch`` command line it was built with.
__version__: str = _native.__version__

#: The columns of :func:`solve`'s table, those of ``sudoku-batch solve``.
COLUMNS = ("line", "puzzle", "status", "solutions", "solution", "guesses", "time_ns", "error")

#: The columns of :func:`grade`'s table, those of ``sudoku-batch grade``.
GRADE_COLUMNS = (
    "line",
    "puzzle",
    "status",
    "er",
    "ep",
    "ed",
    "hardest",
    "steps",
    "techniques",
    "time_ns",
    "error",
)

#: The columns of :func:`canon`'s table, those of ``sudoku-batch canon``.
CANON_COLUMNS = ("line", "puzzle", "status", "canonical", "automorphisms", "error")

#: The columns of :func:`canon`'s table with a ``split``, those of ``sudoku-batch canon --split``.
SPLIT_COLUMNS = ("line", "puzzle", "status", "canonical", "automorphisms", "part", "error")

#: The ladders of techniques :func:`grade` can follow, the default (``"sukaku"``) first.
RULESETS = ("sukaku", "classic")

#: The solver strategies, the default (``"fast"``) first.
SOLVERS = tuple(_native.solvers())

#: The clue-pattern symmetries :func:`generate` knows.
SYMMETRIES = (
    "none",
    "rotational",
    "quarter-turn",
    "mirror",
    "flip",
    "diagonal",
    "anti-diagonal",
)

_U64_MAX = 2**64 - 1
_TEXT_TYPES = (
    pa.types.is_string,
    pa.types.is_large_string,
    pa.types.is_binary,
    pa.types.is_large_binary,
    # String and binary views exist from pyarrow 16 on.
    getattr(pa.types, "is_string_view", lambda t: False),
    getattr(pa.types, "is_binary_view", lambda t: False),
)


def solve(
    puzzles: Any,
    *,
    limit: int = 2,
    solver: str = "fast",
    threads: Optional[int] = None,
    max_guesses: Optional[int] = None,
    first_line: int = 1,
) -> pa.Table:
    """Solves every puzzle: one row per puzzle, in input order, as ``sudoku-batch solve``.

    Args:
        puzzles: the puzzles (see the module's documentation for the accepted types).
        limit: count solutions up to this many; 2 proves uniqueness, 1 only finds one.
        solver: the strategy, one of :data:`SOLVERS`.
        threads: worker threads; ``None`` (or 0) for one per CPU this process may use.
        max_guesses: give up on a puzzle after this many guesses; its status is ``aborted``.
        first_line: the ``line`` of the first puzzle; the next ones count on from it.

    Returns:
        A ``pyarrow.Table`` with the columns :data:`COLUMNS`. ``status`` is ``unique``,
        ``multiple``, ``solved`` (limit 1), ``unsolvable``, ``aborted`` or ``invalid``.

    Raises:
        TypeError: ``puzzles`` is not a sequence of puzzles, or an element is neither str nor
            bytes (the message names its position), or a NumPy array is not of integers.
        ValueError: an array is not of shape (N, 81), or an option is out of range.
    """
    return _native.solve(
        _puzzles(puzzles, "puzzles"),
        _count(limit, "limit", minimum=1),
        _solver(solver),
        _threads(threads),
        _optional_count(max_guesses, "max_guesses"),
        _count(first_line, "first_line"),
    )


def validate(
    puzzles: Any,
    *,
    solver: str = "fast",
    threads: Optional[int] = None,
    max_guesses: Optional[int] = None,
    expected: Any = None,
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
) -> pa.Table:
    """Proves every record a proper puzzle, as ``sudoku-batch validate``.

    Each puzzle's solutions are counted to 2. A record fails when it is invalid, unsolvable,
    has several solutions or its search was aborted, and for what the options add.

    Args:
        puzzles: the puzzles (see the module's documentation for the accepted types).
        solver: the strategy, one of :data:`SOLVERS`.
        threads: worker threads; ``None`` (or 0) for one per CPU this process may use.
        max_guesses: give up on a puzzle after this many guesses (``aborted after N guesses``).
        expected: each puzzle's stated solution, a sequence as long as ``puzzles`` (None or an
            empty string where none is stated), checked against the unique solution.
        minimal: list the clues that can be removed (``redundant clues: r3c4 r7c1``).
        duplicates: name repeats (``duplicate of line 12``).
        isomorphs: with ``duplicates``, name isomorphs of earlier puzzles too (``isomorph of
            line 12``): the same canonical form, as :func:`canon` gives it. Such a puzzle is
            not searched when its class was found unique, multiple or unsolvable (unless
            ``minimal``, ``expected`` or an ER band need its own search): its row has that
            status, with ``solution``, ``guesses`` and ``time_ns`` null.
        min_clues: fail puzzles with fewer clues (``17 clues, fewer than 20``).
        min_er: fail puzzles rated below this on the Sudoku Explainer scale (``ER 2.3, below
            2.5``); every puzzle is then rated as :func:`grade` rates it, which costs far more
            than solving. A puzzle that cannot be rated fails with ``not rated: WHY``.
        max_er: fail puzzles rated above this (``ER above 4.5``: the rating stops as soon as
            it is known to be above), as ``min_er``.
        ruleset: with ``min_er`` or ``max_er``, the ladder of techniques, as for :func:`grade`.
        max_time_ms: with ``min_er`` or ``max_er``, give up rating one puzzle after this many
            milliseconds (it fails with ``not rated: ...``); ``None``: no limit.
        all_records: a row for every record, not only for those that fail (``--all``).
        first_line: the ``line`` of the first puzzle; the next ones count on from it.

    Returns:
        A ``pyarrow.Table`` with the columns :data:`COLUMNS` and ``problem``: the problems of
        the record joined with ``"; "``, null when it passes. ``error`` is :func:`solve`'s:
        why a record is not a puzzle, or which clues conflict.
    """
    band = _er_band(min_er, max_er)
    return _native.validate(
        _puzzles(puzzles, "puzzles"),
        _solver(solver),
        _threads(threads),
        _optional_count(max_guesses, "max_guesses"),
        None if expected is None else _puzzles(expected, "expected"),
        bool(minimal),
        bool(duplicates),
        bool(isomorphs),
        _optional_count(min_clues, "min_clues"),
        band,
        _ruleset(ruleset),
        _optional_count(max_time_ms, "max_time_ms", minimum=1),
        bool(all_records),
        _count(first_line, "first_line"),
    )


def grade(
    puzzles: Any,
    *,
    solver: str = "fast",
    threads: Optional[int] = None,
    max_guesses: Optional[int] = None,
    ruleset: str = "sukaku",
    max_time_ms: Optional[int] = None,
    min_er: Optional[float] = None,
    max_er: Optional[float] = None,
    first_line: int = 1,
) -> pa.Table:
    """Rates how hard every puzzle is for a person, as ``sudoku-batch grade``.

    Each puzzle is solved the way a person would, always with the easiest technique that works,
    as Sudoku Explainer's ``serate`` does. Solutions are counted to 2 first: only a puzzle with
    exactly one solution is rated; the others keep their status (``multiple``, ``unsolvable``,
    ``aborted``, ``invalid``) with null ratings.

    Args:
        puzzles: the puzzles (see the module's documentation for the accepted types).
        solver: the strategy that counts the solutions, one of :data:`SOLVERS`.
        threads: worker threads; ``None`` (or 0) for one per CPU this process may use.
        max_guesses: give up counting a puzzle's solutions after this many guesses; its status
            is ``aborted`` and it is not rated.
        ruleset: the ladder of techniques, one of :data:`RULESETS`: ``"sukaku"`` is Sukaku
            Explainer's ``serate`` (Sudoku Explainer 1.2.1 plus strong-link chains and the
            larger wings), ``"classic"`` Sudoku Explainer 1.2.1 alone.
        max_time_ms: give up rating one puzzle after this many milliseconds (the hardest, ER 10
            and up, can take seconds each); it keeps ``unique``, with null ratings and
            ``not rated: ...`` in ``error``. ``None``: no limit.
        min_er: rate each puzzle only as far as needed to tell whether its ER is at least this
            (e.g. 9.0): a rating stops as soon as it reaches it, or as soon as no technique
            rated below it applies; its ratings are then null and the ``band`` column says
            ``">= 9.0"``. A puzzle below gets its full rating and ``"< 9.0"``. Much faster than
            full ratings for filtering hard candidates; the answer is the full rating's.
        max_er: likewise, whether its ER is at most this (e.g. 8.5): ``"> 8.5"`` with null
            ratings as soon as it is known to be above, else the full rating and ``"<= 8.5"``
            (with ``min_er`` too: ``"< 7.0"`` or ``"7.0-8.5"``).
        first_line: the ``line`` of the first puzzle; the next ones count on from it.

    Returns:
        A ``pyarrow.Table`` with the columns :data:`GRADE_COLUMNS`, and ``band`` (a string,
        null for a puzzle not rated) after them with ``min_er`` or ``max_er``. ``er`` (``float64``) is the
        rating of the hardest step (1.0 to about 11.5), ``ep`` of the hardest step up to the
        first digit placed, ``ed`` of the first step; ``hardest`` names the hardest technique,
        ``steps`` (``uint64``) counts the steps, and ``techniques`` lists ``name:count`` of
        each technique used, easiest first, joined by ``;``. All are null for a puzzle not
        rated. ``time_ns`` is the time spent solving and rating it.

    Raises:
        TypeError: as :func:`solve`.
        ValueError: as :func:`solve`, or ``ruleset`` is not one of :data:`RULESETS`, or
            ``min_er``/``max_er`` is not a rating in tenths or ``min_er`` is more than
            ``max_er``.
    """
    return _native.grade(
        _puzzles(puzzles, "puzzles"),
        _solver(solver),
        _threads(threads),
        _optional_count(max_guesses, "max_guesses"),
        _ruleset(ruleset),
        _optional_count(max_time_ms, "max_time_ms", minimum=1),
        _er(min_er, "min_er"),
        _er(max_er, "max_er"),
        _count(first_line, "first_line"),
    )


def canon(
    puzzles: Any,
    *,
    threads: Optional[int] = None,
    first_line: int = 1,
    split: Optional[Mapping[str, int]] = None,
    split_seed: int = 0,
) -> pa.Table:
    """Every puzzle's canonical form, as ``sudoku-batch canon``.

    Puzzles that differ only by relabelling the digits, permuting the bands, the rows within a
    band, the stacks or the columns within a stack, or transposing, are isomorphs: the same
    puzzle. They share one canonical form, the minlex form the Sudoku community uses (equal to
    Mladen Dobrichev's minlexing tool's): the smallest clue pattern read row by row, blanks
    first, then the smallest digits relabelled in order of first appearance. Solved grids
    have one too. Puzzles are not solved.

        >>> t = canon(["1" + "." * 80, "." * 80 + "7"])
        >>> t.column("canonical").to_pylist() == ["." * 80 + "1"] * 2
        True

    Args:
        puzzles: the puzzles (see the module's documentation for the accepted types).
        threads: worker threads; ``None`` (or 0) for one per CPU this process may use.
        first_line: the ``line`` of the first puzzle; the next ones count on from it.
        split: deal the isomorph classes into named parts with these shares, such as
            ``{"train": 8, "test": 2}`` (80% and 20% of the classes, not of the records), as
            ``sudoku-batch canon --split train=8,test=2``: adds a ``part`` column, after
            ``automorphisms``, naming the part of each puzzle (null for an invalid record).
            Every isomorph of a puzzle, and so every repeat, lands in the same part, so that no
            test puzzle is an isomorph of a training one. Two parts or more, in the order
            given; whole shares, at least one above 0.
        split_seed: the seed, 0 to 2**64 - 1, that deals the classes into ``split``'s parts:
            the same puzzles and seed always give the same parts, another seed another split.

    Returns:
        A ``pyarrow.Table`` with the columns :data:`CANON_COLUMNS` (with ``split``,
        :data:`SPLIT_COLUMNS`). ``status`` is ``ok``, or ``invalid`` with the reason in
        ``error`` and null ``canonical`` and ``automorphisms``; ``automorphisms``
        (``uint64``) counts the distinct ways the puzzle maps onto its form (1 for an
        asymmetric puzzle). Equal forms are isomorphs: ``t.column("canonical").unique()``
        holds the essentially different puzzles.

    Raises:
        TypeError: as :func:`solve`; or ``split`` is not a mapping of names to whole shares.
        ValueError: as :func:`solve`; or ``split`` has fewer than two parts, an empty name or
            no share above 0.
    """
    return _native.canon(
        _puzzles(puzzles, "puzzles"),
        _threads(threads),
        _count(first_line, "first_line"),
        None if split is None else _split(split),
        _count(split_seed, "split_seed"),
    )


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
    around: Any = None,
) -> pa.StringArray:
    """Makes new puzzles as ``sudoku-batch generate`` does: minimal, exactly one solution.

    The same ``seed`` gives the same puzzles as ``sudoku-batch generate --seed``, whatever the
    thread count.

    Args:
        count: how many puzzles.
        seed: the random seed, 0 to 2**64 - 1; ``None`` draws one.
        symmetry: the clue pattern's symmetry, one of :data:`SYMMETRIES`; with one other than
            ``"none"`` a puzzle is minimal per orbit of cells.
        min_clues: only puzzles with at least this many clues (drawn again until one fits).
        max_clues: only puzzles with at most this many clues (17 or more).
        min_er: only puzzles rated at least this on the Sudoku Explainer scale (ER, e.g. 2.5;
            see :func:`grade`), drawn again until one fits. Most minimal puzzles rate below 4.5
            and few above 7, so a hard band needs many draws.
        max_er: only puzzles rated at most this (ER, e.g. 4.5), as ``min_er``.
        ruleset: with ``min_er`` or ``max_er``, the ladder of techniques, as for :func:`grade`.
        max_time_ms: with ``min_er`` or ``max_er``, give up rating one draw after this many
            milliseconds (it counts as outside the band); the puzzles of a band can then depend
            on the machine's speed. ``None``: no limit, and a seed gives the same puzzles
            everywhere.
        attempts: draws per puzzle for the clue and ER bounds.
        solved: complete solution grids instead of puzzles.
        threads: worker threads; ``None`` (or 0) for one per CPU this process may use.
        around: seed puzzles (a list of str, or a pyarrow string array), each with exactly one
            solution, to find new puzzles next to instead of drawing fresh ones, as
            ``sudoku-batch generate --around``: each new puzzle is a close neighbour of a seed
            drawn at random (a clue or two moved, then made minimal), rated in the band, up to
            ``attempts`` neighbours tried per puzzle; never a seed or a repeat. Needs
            ``min_er``; no symmetry, clue bounds or ``solved``.

    Returns:
        The puzzles as a ``pyarrow.StringArray``, 81 characters each, ``.`` for a blank
        (``.to_pylist()`` for a list of str); it can go straight to :func:`solve`.

    Raises:
        ValueError: an option is out of range, a seed of ``around`` is not a puzzle with one
            solution, or no draw (no neighbour) met the bounds within ``attempts`` (the message
            names the puzzle).
    """
    bounds = (min_clues, max_clues, min_er, max_er)
    if around is not None:
        if solved or symmetry != "none" or min_clues is not None or max_clues is not None:
            raise ValueError("around: give no symmetry, clue bounds or solved=True")
        if min_er is None:
            raise ValueError("around needs min_er: the band its new puzzles are rated in")
        seeds = around.to_pylist() if hasattr(around, "to_pylist") else list(around)
        if not all(isinstance(p, str) for p in seeds):
            raise TypeError("around: give the seed puzzles as str, 81 characters each")
        band = _er_band(min_er, max_er)
        assert band is not None
        return _native.generate_around(
            _count(count, "count"),
            secrets.randbits(64) if seed is None else _count(seed, "seed"),
            seeds,
            band,
            _ruleset(ruleset),
            _optional_count(max_time_ms, "max_time_ms", minimum=1),
            _count(attempts, "attempts", minimum=1),
            _threads(threads),
        )
    if solved and (symmetry != "none" or any(b is not None for b in bounds)):
        raise ValueError("solved=True makes complete grids: give no symmetry, clue or ER bounds")
    return _native.generate(
        _count(count, "count"),
        secrets.randbits(64) if seed is None else _count(seed, "seed"),
        symmetry,
        _optional_count(min_clues, "min_clues"),
        _optional_count(max_clues, "max_clues"),
        _er_band(min_er, max_er),
        _ruleset(ruleset),
        _optional_count(max_time_ms, "max_time_ms", minimum=1),
        _count(attempts, "attempts", minimum=1),
        bool(solved),
        _threads(threads),
    )


def augment(
    puzzles: Any,
    *,
    copies: int = 1,
    seed: Optional[int] = None,
    solutions: Any = None,
    threads: Optional[int] = None,
    first_line: int = 1,
    with_transform: bool = False,
) -> Tuple[np.ndarray, ...]:
    """Random isomorphs of every puzzle, each with its solution transformed alike, as
    ``sudoku-batch augment`` makes them: for a training data loader.

    Each copy applies a transformation drawn uniformly from all 1,218,998,108,160 that keep a
    grid valid (relabelling the digits; permuting bands, stacks, rows within a band, columns
    within a stack; transposing) to the puzzle and to its solution alike. Every copy is a random
    draw, the first too: the original is not among them.

    The copies of the puzzle at position ``i`` depend only on ``seed`` and its line,
    ``first_line + i``: the same whatever ``threads``, the first ``k`` the same whatever
    ``copies``, and the same as the rows ``sudoku-batch augment --seed`` writes for a text file
    holding the same puzzles one a line. Pass a new seed each epoch for new copies.

    Args:
        puzzles: the puzzles (see the module's documentation for the accepted types); an
            (N, 81) ``uint8`` array is taken the quickest.
        copies: copies of each puzzle, 1 or more.
        seed: the random seed, 0 to 2**64 - 1; ``None`` draws one.
        solutions: each puzzle's solution, a sequence of the same kinds and length as
            ``puzzles``. Each is checked to be a complete valid grid holding the puzzle's clues
            (not that it is the only solution). ``None``: each puzzle is solved (the ``fast``
            solver, counting to 2), which costs more than transforming it.
        threads: worker threads; ``None`` (or 0) for one per CPU this process may use.
        first_line: the line of the first puzzle, which with ``seed`` picks its copies.
        with_transform: also return each copy's transformation (to map a model's output back
            onto the original, say).

    Returns:
        ``(puzzles, solutions)``: two ``uint8`` arrays of shape (N * copies, 81), ``0`` for a
        blank; row ``i * copies + k`` is copy ``k`` of puzzle ``i``. With ``with_transform``,
        ``(puzzles, solutions, transforms)``: ``transforms`` is a ``uint8`` array of shape
        (N * copies, 28), the numbers of ``sudoku-batch augment --with-transform``'s text
        form: ``t[0]`` is 1 when the original is transposed first; row ``r`` of the copy is
        row ``t[1 + r]`` of the (transposed) original and column ``c`` is its column
        ``t[10 + c]`` (0-based); digit ``d`` becomes ``t[18 + d]``. With ``g`` an original
        as a (9, 9) array::

            g = g.T if t[0] else g
            copy = np.concatenate(([0], t[19:28]))[g[t[1:10]][:, t[10:19]]]

    Raises:
        TypeError: as :func:`solve`.
        ValueError: a record is not a puzzle, has no solution or more than one, or its stated
            solution is not one (the message names the first such position, ``puzzles[12]:
            more than one solution: ...``); or an option is out of range.
    """
    puzzles_out, solutions_out, transforms = _native.augment(
        _puzzles(puzzles, "puzzles"),
        _count(copies, "copies", minimum=1),
        secrets.randbits(64) if seed is None else _count(seed, "seed"),
        None if solutions is None else _puzzles(solutions, "solutions"),
        _threads(threads),
        _count(first_line, "first_line"),
        bool(with_transform),
    )
    if transforms is None:
        return puzzles_out, solutions_out
    return puzzles_out, solutions_out, transforms


def _split(split: Any) -> List[Tuple[str, int]]:
    """``split`` as the native module takes it: (name, share) pairs in order."""
    if not isinstance(split, Mapping):
        raise TypeError(
            f"split: expected a mapping such as {{'train': 8, 'test': 2}}, "
            f"got {type(split).__name__}"
        )
    parts = []
    for name, share in split.items():
        if not isinstance(name, str):
            raise TypeError(f"split: part names are str, got {type(name).__name__}")
        share = _count(share, f"split[{name!r}]")
        if share > 2**32 - 1:
            raise ValueError(f"split[{name!r}]={share}: shares go up to 2**32 - 1")
        parts.append((name, share))
    return parts


def _count(value: Any, name: str, minimum: int = 0) -> int:
    """``value`` as a whole number from ``minimum`` to 2**64 - 1."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name}: expected an int, got {type(value).__name__}")
    value = int(value)
    if not minimum <= value <= _U64_MAX:
        raise ValueError(f"{name}={value}: must be from {minimum} to 2**64 - 1")
    return value


def _optional_count(value: Any, name: str, minimum: int = 0) -> Optional[int]:
    return None if value is None else _count(value, name, minimum)


def _er(value: Any, name: str) -> Optional[int]:
    """An ER (such as 2.5) as the native module takes it: in tenths."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name}: expected a rating such as 2.5, got {type(value).__name__}")
    tenths = round(float(value) * 10)
    if not 0 <= float(value) <= 20 or abs(float(value) * 10 - tenths) > 1e-6:
        raise ValueError(f"{name}={value}: ratings go from 1.0 to about 12.0, in tenths")
    return tenths


def _er_band(min_er: Any, max_er: Any) -> Optional[Tuple[int, int]]:
    """The band of ER in tenths that ``min_er`` and ``max_er`` ask for, or None for none."""
    low, high = _er(min_er, "min_er"), _er(max_er, "max_er")
    if low is None and high is None:
        return None
    return (0 if low is None else low, 2**16 - 1 if high is None else high)


def _ruleset(name: Any) -> str:
    if name not in RULESETS:
        raise ValueError(f"ruleset={name!r}: choose one of {', '.join(RULESETS)}")
    return name


def _solver(name: Any) -> str:
    if name not in SOLVERS:
        raise ValueError(f"solver={name!r}: choose one of {', '.join(SOLVERS)}")
    return name


def _threads(threads: Any) -> int:
    """The thread count for the native module: 0 for the library's default."""
    if threads is None:
        return 0
    threads = _count(threads, "threads")
    most = _native.max_threads()
    if threads > most:
        warnings.warn(
            f"threads={threads} is more than 4 threads per CPU; using {most}",
            RuntimeWarning,
            stacklevel=3,
        )
        return most
    return threads


def _puzzles(value: Any, name: str) -> Any:
    """``value`` as the native module takes puzzles: a 2-D NumPy array, or a list of Arrow
    arrays of strings or bytes (the chunks of one sequence)."""
    if isinstance(value, (str, bytes)):
        raise TypeError(
            f"{name}: expected a sequence of puzzles, got one {type(value).__name__}; "
            f"wrap it in a list"
        )
    if isinstance(value, np.ndarray):
        if value.ndim == 2:
            return value  # the native side checks the shape and the dtype
        if value.ndim != 1 or value.dtype.kind not in "USO":
            raise TypeError(
                f"{name}: expected a 2-D array of shape (N, 81) or a 1-D array of strings, "
                f"got a {value.ndim}-D array of {value.dtype}"
            )
    if isinstance(value, pa.ChunkedArray):
        chunks = value.chunks
    elif isinstance(value, pa.Array):
        chunks = [value]
    elif isinstance(value, np.ndarray) and value.dtype.kind in "US":
        # pyarrow cuts fixed-width NumPy strings at an embedded NUL; Python's str does not,
        # so a record with a NUL byte gets the reason the command line gives it.
        chunks = _chunks(_to_arrow(value.tolist(), name))
    elif _is_pandas(value) or isinstance(value, np.ndarray):
        chunks = _chunks(_to_arrow(value, name))
    elif hasattr(value, "__arrow_c_stream__"):
        chunks = pa.chunked_array(value).chunks
    elif hasattr(value, "__arrow_c_array__"):
        chunks = [pa.array(value)]
    else:
        try:
            values = list(value)
        except TypeError:
            raise TypeError(
                f"{name}: expected a sequence of puzzles, got {type(value).__name__}"
            ) from None
        chunks = _chunks(_to_arrow(values, name))
    return [_text_chunk(c, name, value) for c in chunks]


def _is_pandas(value: Any) -> bool:
    """A pandas Series or Index, told without importing pandas."""
    module = type(value).__module__
    return (module == "pandas" or module.startswith("pandas.")) and hasattr(value, "dtype")


def _chunks(array: Any) -> List[pa.Array]:
    return array.chunks if isinstance(array, pa.ChunkedArray) else [array]


def _to_arrow(values: Any, name: str) -> Any:
    """``values`` (a sequence, a pandas Series or a NumPy array) as an Arrow array; NaN and
    None are null."""
    try:
        return pa.array(values, from_pandas=True)
    except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError) as e:
        raise _bad_element(values, name) or TypeError(f"{name}: {e}") from None


def _bad_element(values: Any, name: str) -> Optional[TypeError]:
    """The error for the first element of ``values`` that is neither text nor missing."""
    for i, v in enumerate(values):
        if v is None or isinstance(v, (str, bytes)):
            continue
        if isinstance(v, float) and math.isnan(v):
            continue
        return TypeError(f"{name}[{i}]: expected str or bytes, got {type(v).__name__}")
    return None


def _text_chunk(chunk: pa.Array, name: str, source: Any) -> pa.Array:
    """``chunk`` as an array of strings or bytes: dictionaries decoded, all-null arrays typed."""
    if pa.types.is_dictionary(chunk.type):
        chunk = chunk.dictionary_decode()
    if pa.types.is_null(chunk.type):
        chunk = chunk.cast(pa.string())
    if not any(is_type(chunk.type) for is_type in _TEXT_TYPES):
        error = None
        if not isinstance(source, (pa.Array, pa.ChunkedArray)):
            try:
                error = _bad_element(source, name)
            except TypeError:
                pass
        raise error or TypeError(f"{name}: expected strings or bytes, got an array of {chunk.type}")
    return chunk
