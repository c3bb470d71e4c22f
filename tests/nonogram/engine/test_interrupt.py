"""Ctrl-C stops the compiled loops (issue #54): a SIGINT that comes while a core runs with the
GIL released ends the call at its next clock check, and the binding raises what Python's
handler raised (KeyboardInterrupt), or reports a limit when the handler raised nothing.

Each search here would run for many seconds more (it has no limit but a generous timeout):
a limit that comes well before that timeout can only be the interrupt's (``tests.signals``).
"""

from __future__ import annotations

import random
import signal
import time

import pytest

from gridsolve.nonogram.engine import _colour, _core
from gridsolve.nonogram.generate import random_grid
from gridsolve.nonogram.model import Puzzle, as_colour, puzzle_from_grid
from tests.nonogram.cases import slow_long_row
from tests.signals import SOON, TIMEOUT, ctrl_c, quiet, raise_once


# heavy: a second process sends the SIGINTs, timed against a running search (make test-slow)
pytestmark = [pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"),
                                 reason="POSIX signals (the cores take SIGINT with sigaction)"),
              pytest.mark.heavy]


def _random(n: int) -> Puzzle:
    """A random n x n puzzle, half filled: from 100x100 on, many seconds of search."""
    return puzzle_from_grid(random_grid(n, n, 0.5, random.Random(n)))


def test_a_black_and_white_search_stops_as_at_a_limit_when_the_handler_raises_nothing() -> None:
    p = _random(150)
    search = _core.Search(p.rows, p.cols)
    started = time.perf_counter()
    with ctrl_c(quiet) as calls:
        code = search.next(-1, TIMEOUT)
    assert time.perf_counter() - started < SOON
    assert code == _core.LIMIT and search.stats()["timed_out"] == 1
    assert calls


def test_a_black_and_white_search_raises_keyboard_interrupt() -> None:
    p = _random(150)
    search = _core.Search(p.rows, p.cols)
    started = time.perf_counter()
    with ctrl_c(raise_once()), pytest.raises(KeyboardInterrupt):
        search.next(-1, TIMEOUT)
    assert time.perf_counter() - started < SOON
    assert search.stats()["timed_out"] == 1  # stopped inside the core, not after it


def test_an_earlier_interrupt_does_not_stop_the_next_call() -> None:
    """The cores compare the signals' count with the one their call began with: one that
    Python handled before the call is not this call's."""
    p = _random(150)
    with ctrl_c(quiet) as calls:
        while not calls:
            time.sleep(0.01)
    search = _core.Search(p.rows, p.cols)
    assert search.next(-1, 0.5) == _core.LIMIT  # the timeout's limit, after a root's work
    assert search.stats()["line_solves"] > 0


def test_a_colour_search_stops() -> None:
    p = as_colour(_random(100))
    search = _colour.Search(p.rows, p.cols, len(p.palette))
    started = time.perf_counter()
    with ctrl_c(raise_once()), pytest.raises(KeyboardInterrupt):
        search.next(-1, TIMEOUT)
    assert time.perf_counter() - started < SOON
    assert search.stats()["timed_out"] == 1


def test_a_long_line_solve_stops() -> None:
    """The solver of long lines looks too: one row whose solve takes seconds (8-12 s)."""
    from gridsolve.nonogram.engine.lines import solve_line
    clue, line, _ = slow_long_row()
    started = time.perf_counter()
    with ctrl_c(raise_once()), pytest.raises(KeyboardInterrupt):
        solve_line(clue, line)
    assert time.perf_counter() - started < 2.0  # (one solve: its seconds if not stopped)


_RESTORED = """
import os, signal
import pysat.solvers
from gridsolve import _interrupt
_interrupt.enter()                     # the engines' handler takes SIGINT over
solver = pysat.solvers.Solver("glucose42")
solver.add_clause([1, 2])
solver.solve_limited()                 # python-sat saves it and puts it back with signal()
before = _interrupt.enter()            # (it must still know the handler as its own)
try:
    os.kill(os.getpid(), signal.SIGINT)
    print("no KeyboardInterrupt")
except KeyboardInterrupt:
    print("KeyboardInterrupt", _interrupt.count() - before)
"""


def test_the_handler_survives_a_library_that_puts_it_back_without_its_flags() -> None:
    """python-sat saves the SIGINT handler around a plain solve and restores it without
    SA_SIGINFO (``sat.abilities`` solves so once, after the engine took SIGINT over): the next
    ``enter`` took that for another handler and handed each signal on to itself, for ever,
    so Ctrl-C during a later SAT solve hung the process. One signal now counts once and
    raises KeyboardInterrupt."""
    import subprocess
    import sys
    pytest.importorskip("pysat")
    done = subprocess.run([sys.executable, "-c", _RESTORED], capture_output=True, text=True,
                          timeout=20)
    assert done.stdout.strip() == "KeyboardInterrupt 1", (done.stdout, done.stderr)
