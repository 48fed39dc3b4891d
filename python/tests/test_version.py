"""One version: the package's, its metadata's and the command line's."""

from __future__ import annotations

from importlib.metadata import version

import sudoku_batch
from conftest import run_cli


def test_the_version_is_the_command_lines():
    assert sudoku_batch.__version__ == version("sudoku-batch")
    assert run_cli(["--version"], ok=(0,)).split() == ["sudoku-batch", sudoku_batch.__version__]
