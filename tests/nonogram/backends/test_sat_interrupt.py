"""Ctrl-C stops a python-sat solve (issue #54): under a deadline python-sat leaves SIGINT
alone (its interrupt() is the timer's), so the thread that is the timer watches for Ctrl-C
too; without one, python-sat's own handler's error becomes KeyboardInterrupt."""

from __future__ import annotations

import random
import signal
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


@pytest.mark.parametrize("timeout", [TIMEOUT, None], ids=["deadline", "no-deadline"])
def test_a_python_sat_solve_stops_at_ctrl_c(timeout: float | None) -> None:
    from gridsolve.nonogram.backends import sat
    search = sat.Search(_random100(), SearchLimits(timeout=timeout), sat.DEFAULT_SOLVER, None,
                        time.perf_counter())  # built before the signals start
    try:
        started = time.perf_counter()
        with ctrl_c(raise_once()), pytest.raises(KeyboardInterrupt):
            search.step()
        assert time.perf_counter() - started < SOON
    finally:
        search.close()
