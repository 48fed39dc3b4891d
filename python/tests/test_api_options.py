"""The Python functions take the options of their commands, with the same names and defaults.

The options are read from ``sudoku-batch COMMAND --help``; one the Python function lacks must
be listed below with the reason. A new option of the command line fails this test until it is
added to the Python API or given a reason here.
"""

from __future__ import annotations

import inspect
import re
from typing import Dict, List, Optional, Tuple

import pytest

import sudoku_batch
from conftest import run_cli

# Options no Python function takes, and why.
OMITTED: Dict[str, str] = {
    "help": "Python's help() shows the docstrings",
    "glob": "reading files: the puzzles are passed in (read_results and pyarrow read files)",
    "format": "reading files, as --glob",
    "column": "reading files, as --glob: pass the column itself",
    "header": "reading files, as --glob",
    "delimiter": "reading files, as --glob",
    "field": "reading files, as --glob",
    "output": "the rows are returned as a table, not written",
    "output-format": "the rows are returned as a table, not written",
    "emit-solutions": "a second output file; the table holds each puzzle's first solution",
    "resume": "nothing is written, so nothing is resumed",
    "quiet": "nothing is printed: no progress bar, no summary",
    "no-summary": "nothing is printed",
    "shard": "a caller splits its own sequence and passes first_line (see the Dask recipe)",
    "shards": "as --shard",
    "against": "reading files: compare canon()'s forms of the two corpora (or use the command)",
    "around": "reading files: its seed puzzles come from a file (use the command)",
}

# Options the Python API names otherwise, and why.
RENAMED: Dict[str, Tuple[str, str]] = {
    "all": ("all_records", "`all` is a Python builtin"),
    "expect-column": ("expected", "the stated solutions themselves, not a column of a file"),
}

FUNCTIONS = {
    "solve": sudoku_batch.solve,
    "validate": sudoku_batch.validate,
    "grade": sudoku_batch.grade,
    "generate": sudoku_batch.generate,
    "canon": sudoku_batch.canon,
    "augment": sudoku_batch.augment,
}

# Commands with no Python function: `explain` prints one puzzle's steps for a reader, `bench`
# times the solvers, `merge` joins the CSV files of a sharded run.


def options(command: str) -> List[Tuple[str, Optional[str]]]:
    """The long options of ``sudoku-batch COMMAND --help`` and the default each states."""
    # The options' section only: the exit codes after it may name options too.
    text = run_cli([command, "--help"], ok=(0,)).split("\nExit codes:")[0]
    starts = list(re.finditer(r"^ {2,6}(?:-\w, )?--([a-z][a-z0-9-]*)", text, re.M))
    found = []
    for start, end in zip(starts, starts[1:] + [None]):
        block = text[start.start() : end.start() if end else len(text)]
        default = re.search(r"\[default: ([^\]]+)\]", block)
        found.append((start.group(1), default.group(1) if default else None))
    return found


@pytest.mark.parametrize("command", FUNCTIONS)
def test_every_option_is_taken_with_the_same_name_and_default(command):
    params = inspect.signature(FUNCTIONS[command]).parameters
    found = options(command)
    assert len(found) > 5, found
    for option, default in found:
        if option in OMITTED:
            continue
        name = RENAMED.get(option, (option.replace("-", "_"),))[0]
        assert name in params, f"{command}({name}=...) is missing: add it or say why not"
        ours = params[name].default
        if default is None:
            # No default stated (or, for --threads, the CPU count): None or a flag left off.
            assert ours in (None, False, inspect.Parameter.empty), (command, name, ours)
        else:
            assert str(ours) == default, (command, name, ours, default)


def test_every_reason_names_an_option_of_some_command():
    every = {option for command in FUNCTIONS for option, _ in options(command)}
    stale = (set(OMITTED) | set(RENAMED)) - every
    assert not stale, f"listed, but no command has them: {sorted(stale)}"
