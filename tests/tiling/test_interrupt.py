"""Ctrl-C stops the tiling engine's count (issue #54): the SIGINT that comes while it runs
with the GIL released ends it at its next clock check (interrupt.h)."""

from __future__ import annotations

import signal
import time

import pytest

from gridsolve.errors import LimitReached
from gridsolve.tiling import presets
from gridsolve.tiling.engine import SearchLimits, count
from gridsolve.tiling.model import Board
from tests.signals import SOON, TIMEOUT, ctrl_c, quiet

# heavy: a second process sends the SIGINTs, timed against a running search (make test-slow)
pytestmark = [pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"),
                                 reason="POSIX signals (the cores take SIGINT with sigaction)"),
              pytest.mark.heavy]


def test_a_tiling_count_stops() -> None:
    """Pentominoes on the 8x8 board without its corners: 17,360 tilings, seconds to count."""
    cells = tuple((r, c) for r in range(8) for c in range(8)
                  if (r, c) not in {(0, 0), (0, 7), (7, 0), (7, 7)})
    board = Board(8, 8, cells)
    started = time.perf_counter()
    with ctrl_c(quiet), pytest.raises(LimitReached):
        count(board, presets.named_pieces("pentominoes"), limits=SearchLimits(timeout=TIMEOUT))
    assert time.perf_counter() - started < SOON
