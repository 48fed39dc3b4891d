"""The GIL is released while solving, and Ctrl-C stops a long call."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time

import sudoku_batch

EMPTY = "." * 81


def test_other_threads_run_while_solving():
    done = threading.Event()

    def work():
        sudoku_batch.solve([EMPTY, EMPTY], limit=300_000, threads=1)
        done.set()

    worker = threading.Thread(target=work)
    worker.start()
    # Were the GIL held during the search, this loop would not turn until it ended.
    turns = 0
    while not done.is_set():
        turns += 1
        time.sleep(0.001)
    worker.join()
    assert turns > 50


def test_ctrl_c_stops_a_long_call():
    # Counting the empty grid's solutions to 10**15 would take years.
    script = (
        "import sudoku_batch, sys\n"
        "print('started', flush=True)\n"
        "try:\n"
        f"    sudoku_batch.solve([{EMPTY!r}] * 4, limit=10**15, threads=2)\n"
        "except KeyboardInterrupt:\n"
        "    sys.exit(42)\n"
    )
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline() == "started\n"
        time.sleep(1.0)
        stopped_at = time.monotonic()
        child.send_signal(signal.SIGINT)
        assert child.wait(timeout=30) == 42
        assert time.monotonic() - stopped_at < 5
    finally:
        child.kill()
        child.wait()
