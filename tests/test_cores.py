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
from gridsolve.nonogram.model import (AnyPuzzle, colour_puzzle_from_grid, is_any_solution,
                                      puzzle_from_grid)
from gridsolve.nonogram.policy import DEFAULT_POLICY
from tests.nonogram.engine.test_colour_engine import palette
from tests.nonogram.engine.test_colour_engine import random_grid as random_colour_grid

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


def test_too_few_ticks_ask_what_runs_now(monkeypatch: pytest.MonkeyPatch) -> None:
    before, close = _reading((0, 0), (0, 0)), _reading((0, 4), (4, 4))  # under MIN_TICKS
    for running, free in ((None, None), (1, 2), (2, 1), (3, 1)):  # (this process among them)
        monkeypatch.setattr(cores, "running_now", lambda now=running: now)
        assert cores.free(before, close) == free


@pytest.mark.skipif(cores.running_now() is None, reason="no /proc/loadavg of this machine")
def test_running_now_counts_this_process() -> None:
    now = cores.running_now()
    assert now is not None and now >= 1


def test_free_is_unknown_without_readings() -> None:
    before = _reading((0, 0), (0, 0))
    assert cores.free(None, before) is None
    assert cores.free(before, None) is None
    assert cores.free(before, _reading((0, 100),)) is None  # another set of cores


@pytest.mark.skipif(cores.reading() is None, reason="no /proc/stat")
def test_a_reading_has_a_pair_per_core_this_process_may_use() -> None:
    now = cores.reading()
    assert now is not None and len(now) == cores.available()
    assert all(0 <= idle <= total for idle, total in now)


def _colour_puzzle() -> AnyPuzzle:
    """A random 12x12 picture in three colours: 12 solutions."""
    rng = random.Random(1)
    return colour_puzzle_from_grid(random_colour_grid(rng, 12, 12, 3, 0.4), palette(3))


@pytest.mark.heavy  # busy processes on every core, then --jobs 2 solves past their first turn
@pytest.mark.skipif(not can_fork() or cores.reading() is None, reason="fork and /proc/stat")
@pytest.mark.parametrize("method", ["auto", "native"])
def test_jobs_fall_back_to_one_process_when_the_other_cores_are_busy(method: str) -> None:
    # a first turn of one node, so that the processes would start at once
    policy = dataclasses.replace(DEFAULT_POLICY, auto_nodes=1, parallel_after=1,
                                 parallel_after_large=1, first_work_to_kissat=1,
                                 dive_first_work=1, dive_first_fails=1, colour_work=1)
    puzzles = [puzzle_from_grid(random_grid(30, 30, 0.5, random.Random(30_001))),
               _colour_puzzle()]
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
            for _ in range(cores.available())]
    try:
        time.sleep(0.5)  # (they are running)
        results = [analyse(p, 64, SearchLimits(timeout=120), method, jobs=2, policy=policy)
                   for p in puzzles]
    finally:
        for p in busy:
            p.kill()
            p.wait()
    for puzzle, result in zip(puzzles, results):
        assert result.status == "multiple" and all(is_any_solution(puzzle, g)
                                                   for g in result.solutions)
        assert result.stats["jobs"] == 1
    assert len(set(results[1].solutions)) == 12 and results[1].exhausted  # (every one)
