#!/usr/bin/env bash
# Every test: the Rust crate's (`cargo test`), then the Python package's (pytest), which compare
# the package's rows with those of the command line that `cargo test` built.
#
# The Python package is built with maturin and installed, with what its tests use, into a
# virtual environment in target/python-env (made on the first run, reused after), so the
# Python you work with is left as it was. It needs python3 with pip and venv (or the Python
# named by $PYTHON); the first run downloads maturin, pytest, numpy, pyarrow, pandas, dask,
# distributed, PyYAML, Polars and DuckDB (these two for the README's readers: wheels that install
# in about 10 s) into that environment. Nothing else is assumed on PATH: maturin's
# build backend runs `maturin` by name, so the environment's bin leads PATH below.
#
# PYTHON_PROFILE is the cargo profile of the extension: by default `quick` (no LTO: quicker to
# build, slower to run); `release` is what `pip install ./python` builds and benchmarks use.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo test

env=target/python-env
[ -x "$env/bin/python" ] || "${PYTHON:-python3}" -m venv "$env"
export PATH="$PWD/$env/bin:$PATH"
"$env/bin/python" -m pip install --quiet --disable-pip-version-check \
  maturin pytest numpy pyarrow pandas dask distributed pyyaml polars duckdb
MATURIN_PEP517_ARGS="--profile ${PYTHON_PROFILE:-quick}" \
  "$env/bin/python" -m pip install --quiet --disable-pip-version-check \
  --no-deps --force-reinstall --no-build-isolation ./python
# The command line of this tree, as `cargo test` built it.
SUDOKU_BATCH_CLI="$PWD/target/debug/sudoku-batch" "$env/bin/python" -m pytest python/tests
