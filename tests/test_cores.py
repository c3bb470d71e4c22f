"""How many cores other processes leave free (``gridsolve.cores``), and ``--jobs`` falling
back to one process when the other cores are busy (issue 56: with the other core of two
busy, ``--jobs 2`` ran at 0.65x the speed of ``--jobs 1``)."""

from __future__ import annotations

import dataclasses
import random
import subprocess
import sys
import time

import pytest

from gridsolve import cores
from gridsolve.nonogram.backends import analyse
from gridsolve.nonogram.backends.parallel import can_fork
from gridsolve.nonogram.engine import SearchLimits
from gridsolve.nonogram.generate import random_grid
from gridsolve.nonogram.model import is_any_solution, puzzle_from_grid
from gridsolve.nonogram.policy import DEFAULT_POLICY

pytestmark = pytest.mark.real_cores  # (the other tests see --jobs N start N processes)


def _reading(*cores_: tuple[int, int]) -> cores.Reading:
    return tuple(cores_)


def test_free_counts_the_other_processes_work() -> None:
    before = _reading((0, 0), (0, 0))
    # this process busy on one core, the other idle: both free
    assert cores.free(before, _reading((0, 100), (100, 100))) == 2
    # the other core busy too: one
    assert cores.free(before, _reading((0, 100), (0, 100))) == 1
    # the other core busy 40% of the time: it still counts; 60%: it does not
    assert cores.free(before, _reading((0, 100), (60, 100))) == 2
    assert cores.free(before, _reading((0, 100), (40, 100))) == 1
    # four cores, two busy besides this process: two free
    assert cores.free(_reading(*[(0, 0)] * 4),
                      _reading((0, 100), (0, 100), (0, 100), (100, 100))) == 2


def test_free_is_unknown_without_enough_ticks_or_readings() -> None:
    before = _reading((0, 0), (0, 0))
    assert cores.free(before, _reading((0, 4), (4, 4))) is None  # under MIN_TICKS a core
    assert cores.free(None, before) is None
    assert cores.free(before, None) is None
    assert cores.free(before, _reading((0, 100),)) is None  # another set of cores


@pytest.mark.skipif(cores.reading() is None, reason="no /proc/stat")
def test_a_reading_has_a_pair_per_core_this_process_may_use() -> None:
    now = cores.reading()
    assert now is not None and len(now) == cores.available()
    assert all(0 <= idle <= total for idle, total in now)


@pytest.mark.heavy  # busy processes on every core, then a --jobs 2 solve past its first turn
@pytest.mark.skipif(not can_fork() or cores.reading() is None, reason="fork and /proc/stat")
def test_jobs_fall_back_to_one_process_when_the_other_cores_are_busy() -> None:
    # a first turn of one node, so that the processes would start at once
    policy = dataclasses.replace(DEFAULT_POLICY, auto_nodes=1, parallel_after=1,
                                 parallel_after_large=1, first_work_to_kissat=1,
                                 dive_first_work=1, dive_first_fails=1)
    puzzle = puzzle_from_grid(random_grid(30, 30, 0.5, random.Random(30_001)))
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
            for _ in range(cores.available())]
    try:
        time.sleep(0.5)  # (they are running)
        result = analyse(puzzle, 2, SearchLimits(timeout=120), "auto", jobs=2, policy=policy)
    finally:
        for p in busy:
            p.kill()
            p.wait()
    assert result.status == "multiple" and all(is_any_solution(puzzle, g)
                                               for g in result.solutions)
    assert result.stats["jobs"] == 1
