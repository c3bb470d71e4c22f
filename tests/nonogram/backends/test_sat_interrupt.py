"""Ctrl-C stops a python-sat solve (issue #54), deadline or not: python-sat leaves SIGINT alone
under interrupt(), and the thread that is the timer watches for Ctrl-C too. python-sat's own
handler is not used for the solvers it can interrupt: it jumps back into the solve from the
thread the kernel chose, and with another thread in the process it hung make test-slow."""

from __future__ import annotations

import random
import signal
import threading
import time

import pytest

from gridsolve.nonogram.engine import SearchLimits
from gridsolve.nonogram.generate import random_grid
from gridsolve.nonogram.model import Puzzle, puzzle_from_grid
from tests.signals import SOON, TIMEOUT, ctrl_c, raise_once

pytest.importorskip("pysat")
pytestmark = [pytest.mark.heavy,  # another process sends SIGINT; a 100x100 model takes a second
              pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"),
                                 reason="POSIX signals")]


def _random100() -> Puzzle:
    """Glucose runs past 20 s on it without settling it."""
    return puzzle_from_grid(random_grid(100, 100, 0.5, random.Random(100)))


@pytest.mark.parametrize("other_thread", [False, True], ids=["alone", "other-thread"])
@pytest.mark.parametrize("timeout", [TIMEOUT, None], ids=["deadline", "no-deadline"])
def test_a_python_sat_solve_stops_at_ctrl_c(timeout: float | None, other_thread: bool) -> None:
    """``other_thread``: a thread that takes signals too (as a process pool's do) lives while
    the solve runs; the kernel may give it the Ctrl-C."""
    from gridsolve.nonogram.backends import sat
    search = sat.Search(_random100(), SearchLimits(timeout=timeout), sat.DEFAULT_SOLVER, None,
                        time.perf_counter())  # built before the signals start
    done = threading.Event()
    thread = threading.Thread(target=done.wait, daemon=True)
    if other_thread:
        thread.start()
    try:
        started = time.perf_counter()
        with ctrl_c(raise_once()), pytest.raises(KeyboardInterrupt):
            search.step()
        assert time.perf_counter() - started < SOON
    finally:
        done.set()
        search.close()
