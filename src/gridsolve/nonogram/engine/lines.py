"""The compiled black-and-white line solver, on its own: for tools, tests and explanations."""

from __future__ import annotations

import time

import gridsolve.nonogram.engine._core as _core
from gridsolve.errors import LimitReached

__all__ = ["solve_line", "line_shares", "IMPLICATION_MAX_CELLS"]

#: Implication probing covers puzzles of at most this many cells (NG_IMPL_MAX_CELLS in core.h).
IMPLICATION_MAX_CELLS = _core.IMPL_MAX_CELLS


def solve_line(clue: tuple[int, ...], line: str, bits: bool = True,
               until: float | None = None) -> str | None:
    """The compiled line solver: narrow a line of '#', '.', '?' to what the clue forces.

    Lines of up to 63 cells go to the bit-parallel solver the search uses for them, unless
    ``bits`` is False (then the byte DP, which longer lines always use). With ``until`` (a
    ``time.perf_counter()`` time), LimitReached once it has passed: only the solver of long
    lines with many blocks can take seconds (a row of 100,000 cells half known, 8-12 s), and
    it reads the clock as it goes."""
    timeout = -1.0  # none (the C solver's convention)
    if until is not None:
        timeout = until - time.perf_counter()
        if timeout <= 0:  # (checked on this value: 0 or more reaches C as a deadline)
            raise LimitReached("the time limit came before the line was solved")
    try:
        out = _core.solve_line(clue, line.encode("ascii"), bits, False, timeout)
    except TimeoutError:
        raise LimitReached("the time limit came before the line was solved") from None
    return None if out is None else out.decode("ascii")


def line_shares(clue: tuple[int, ...], line: str) -> tuple[float, ...] | None:
    """For each cell of a line of '#', '.', '?', the share of the clue's arrangements that fit
    the line in which the cell is filled; None if none fits, or if there are more than
    10^300 (counted in floating point). These are the counts the "likely" and "sure"
    branching rules go by (see Team); without them the rules go by the probes alone."""
    return _core.line_shares(clue, line.encode("ascii"))
