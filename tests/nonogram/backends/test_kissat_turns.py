"""Kissat and the dive in turns on one core (``_program.run``'s ``turns``, auto's
``KissatTurns``): the program is stopped during the other search's turns, the other search
can end a run, and the pooled answer stays exact (against brute force)."""

from __future__ import annotations

import os
import signal
import sys
import time

import pytest

from gridsolve.nonogram.backends import _program, auto, kissat
from gridsolve.nonogram.engine import SearchLimits
from gridsolve.nonogram.model import is_solution
from tests.nonogram.backends.programs import random_puzzle
from tests.nonogram.oracle import all_solutions as brute_force

# heavy: every test here starts a program and stops and resumes it (make test-slow runs them)
pytestmark = [pytest.mark.skipif(not sys.platform.startswith("linux"),
                                 reason="reads a process's state from /proc"),
              pytest.mark.heavy]

# a program that reads its input, then works until it has used ``cpu`` seconds of CPU time,
# and says how long that took by the wall clock
_BUSY = ("import sys, time\nsys.stdin.read()\nwall = time.perf_counter()\n"
         "while time.process_time() < {cpu}:\n    pass\n"
         "print(time.perf_counter() - wall)\n")


def _busy_children() -> list[tuple[str, int]]:
    """The state (R, S, T, ...) and CPU ticks of each child of this process running _BUSY."""
    found = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    if b"process_time" not in f.read():
                        continue
                with open(f"/proc/{pid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                if int(fields[1]) == os.getpid():
                    found.append((fields[0], int(fields[11]) + int(fields[12])))
            except (OSError, ValueError, IndexError):
                pass
    return found


class _Turns:
    """The program 0.05 s, then a turn that sleeps ``pause`` s and looks at the program;
    with ``end_after``, that turn ends the search."""

    def __init__(self, pause: float, end_after: int | None = None) -> None:
        self.pause, self.end_after = pause, end_after
        self.end: float | None = None
        self.seen: list[tuple[list[tuple[str, int]], list[tuple[str, int]]]] = []

    def until(self) -> float | None:
        if self.end is None:
            self.end = time.perf_counter() + 0.05
        return self.end

    def other(self) -> bool:
        time.sleep(self.pause / 2)  # (SIGSTOP takes effect soon after it is sent)
        first = _busy_children()
        time.sleep(self.pause / 2)
        self.seen.append((first, _busy_children()))
        self.end = None
        return self.end_after is not None and len(self.seen) >= self.end_after


def test_a_program_is_stopped_during_the_other_turns() -> None:
    """The run takes its CPU time between the turns: stopped (state T, no CPU time used)
    in each of them, and its answer comes as without turns."""
    turns = _Turns(0.1)
    args = [sys.executable, "-c", _BUSY.format(cpu=0.4)]
    ended = _program.run(args, "busy", "", iter(()), time.perf_counter() + 60, None,
                         turns=turns)
    assert ended.code == 0 and float(ended.out) >= 0.4 and len(turns.seen) >= 3
    # (the last turn may catch it on its way out, stopped as it exits: /proc then shows no
    # command line; seen under the sanitizers, whose exit takes long)
    for first, then in turns.seen[:-1]:
        assert len(first) == 1 and first[0][0] == "T" and then == first, turns.seen
    assert turns.seen[-1][0] == turns.seen[-1][1]


def test_the_other_search_can_end_a_run() -> None:
    """When the other turn says the answer is known, the run ends as at a deadline (no
    exit code, the process gone) long before it would have."""
    turns = _Turns(0.01, end_after=2)
    started = time.perf_counter()
    ended = _program.run([sys.executable, "-c", _BUSY.format(cpu=30)], "busy", "", iter(()),
                         started + 60, None, turns=turns)
    assert ended.code is None and len(turns.seen) == 2
    assert time.perf_counter() - started < 10 and _busy_children() == []


@pytest.mark.skipif(not kissat.installed(), reason="kissat (gridsolve[kissat]) not installed")
@pytest.mark.parametrize("seed", [4, 29, 39, 116])
@pytest.mark.usefixtures("no_guided")
def test_kissat_and_the_dive_in_turns_count_exactly(seed: int,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Random 6x6 pictures (1, 6, 7 and 6 solutions) taken through auto's Kissat hand-over
    with the dive's turns (thresholds lowered, turns of a millisecond, so both searches find
    solutions): every solution, each checked, as brute force counts them."""
    pytest.importorskip("pysat")  # (a 6x6's SAT side is Glucose until Kissat takes over)
    monkeypatch.setattr(auto, "AUTO_NODES", 1)
    monkeypatch.setattr(auto, "AUTO_SECONDS_TO_KISSAT", 0.0)
    monkeypatch.setattr(auto, "AUTO_DIVE_FAILS", 0)
    monkeypatch.setattr(auto, "AUTO_DIVE_TURN", 0.001)
    monkeypatch.setattr(auto, "dives", lambda puzzle: True)
    monkeypatch.setattr(auto, "small_for_kissat", lambda *_a, **_k: True)
    puzzle = random_puzzle(seed, 6, 6)
    every = brute_force(puzzle)
    got = auto.analyse(puzzle, 16, SearchLimits(timeout=60))
    assert set(got.solutions) == every and len(got.solutions) == len(every)
    assert all(is_solution(puzzle, g) for g in got.solutions)
    assert got.status == ("unique" if len(every) == 1 else "multiple")
    assert got.exhausted == (len(every) < 16)
    assert got.stats["sat_dive_turns"] >= 1 and got.stats["sat_kissat_runs"] >= 1


@pytest.mark.skipif(not kissat.installed(), reason="kissat (gridsolve[kissat]) not installed")
def test_auto_gives_the_dive_turns_beside_kissat(monkeypatch: pytest.MonkeyPatch) -> None:
    """A random 64x64 (every line long enough for Kissat): with no first dive and Kissat's
    first turn a millisecond, the dive has turns, and the answer is two checked solutions."""
    monkeypatch.setattr(auto, "AUTO_DIVE_FAILS", 0)
    monkeypatch.setattr(auto, "AUTO_DIVE_TURN", 0.001)
    puzzle = random_puzzle(2, 64, 64)
    got = auto.analyse(puzzle, 2, SearchLimits(timeout=120))
    assert got.status == "multiple" and len(set(got.solutions)) == 2
    assert all(is_solution(puzzle, g) for g in got.solutions)
    assert got.stats["sat_dive_turns"] >= 1 and got.stats["sat_kissat_runs"] >= 1


def test_without_job_control_the_run_goes_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where there is no SIGSTOP (Windows), the other search gets no turns and the run's
    answer is its own."""
    monkeypatch.delattr(signal, "SIGSTOP")
    turns = _Turns(0.01)
    ended = _program.run([sys.executable, "-c", _BUSY.format(cpu=0.2)], "busy", "", iter(()),
                         time.perf_counter() + 60, None, turns=turns)
    assert ended.code == 0 and turns.seen == []
