"""Kissat and the dive in turns on one core (``auto._kissat_in_turns``): Kissat runs under a
conflict limit (the policy's ``kissat_turn_conflicts``), then the dive goes on for as much
work (``kissat_dive_work`` a conflict), each pair twice the last; each run starts anew with the
solutions so far blocked. The pooled answer stays exact (against brute force and the native
engine's whole search), the turns happen, and two runs make the same turns.

(These were tests of SIGSTOP turns by the clock, ``_program.run``'s ``turns`` and auto's
``KissatTurns``, which are gone: turns counted in conflicts and work repeat exactly.)"""

from __future__ import annotations

import dataclasses
import time
from typing import Any

import pytest

from gridsolve.nonogram import engine
from gridsolve.nonogram.backends import auto, cnf, kissat
from gridsolve.nonogram.engine import Result, SearchLimits, Team
from gridsolve.nonogram.model import Grid, Puzzle, is_solution
from gridsolve.nonogram.policy import DEFAULT_POLICY, Policy
from tests.nonogram.backends.programs import random_puzzle
from tests.nonogram.oracle import all_solutions as brute_force

# heavy: every test here but the last starts Kissat, several runs each (make test-slow)
pytestmark = pytest.mark.heavy

needs_kissat = pytest.mark.skipif(not kissat.installed(),
                                  reason="kissat (gridsolve[kissat]) not installed")


def _turns_of(conflicts: int) -> Policy:
    """Kissat's first run ``conflicts`` conflicts (the default's 10,000 would end these
    puzzles in one run, with no turn)."""
    return dataclasses.replace(DEFAULT_POLICY, kissat_turn_conflicts=conflicts)


def _in_turns(puzzle: Puzzle, max_solutions: int, policy: Policy,
              deadline: float | None = None) -> tuple[Result, Team]:
    """``_kissat_in_turns`` as auto's hand-over calls it after the team's root: Kissat seeded
    with the root's cells and implications, the team's solutions blocked, no limit but the
    ``deadline`` (two minutes unless given)."""
    team = Team(puzzle, max_solutions, policy=policy)
    team.run(SearchLimits(max_nodes=1))
    known = team.partial()
    extra = cnf.implication_clauses(team.root_implications(), known)
    if deadline is None:
        deadline = time.perf_counter() + 120
    result = auto._kissat_in_turns(team, max_solutions, SearchLimits(), SearchLimits(), known,
                                   None, extra, tuple(team.found), deadline)
    return result, team


def _every(puzzle: Puzzle) -> set[Grid]:
    """Every solution, by the native engine's one whole search (exhausted)."""
    result = engine.analyse(puzzle, 1000, team=False)
    assert result.exhausted
    return set(result.solutions)


@needs_kissat
@pytest.mark.parametrize("seed", [4, 29, 39, 116])
@pytest.mark.usefixtures("no_guided")
def test_small_puzzles_count_exactly(seed: int) -> None:
    """Random 6x6 pictures (2, 6, 7 and 6 solutions; Kissat ends each with no conflict, so
    there is no dive turn), no guided search: Kissat runs again after each solution, the
    ones so far blocked, and the count is brute force's."""
    puzzle = random_puzzle(seed, 6, 6)
    every = brute_force(puzzle)
    got, _ = _in_turns(puzzle, 16, _turns_of(1))
    assert set(got.solutions) == every and len(got.solutions) == len(every)
    assert all(is_solution(puzzle, g) for g in got.solutions)
    assert got.status == ("unique" if len(every) == 1 else "multiple") and got.exhausted
    assert got.stats["kissat_runs"] >= 1


@needs_kissat
@pytest.mark.parametrize("size, seed, conflicts, solutions", [
    (30, 1, 100, 24),  # Kissat's first run ends at its limit; the dive finds all 24, Kissat
                       # then proves there are no more
    (40, 1, 30, 24),   # the dive finds them over two turns, Kissat's runs between them
])
def test_kissat_and_the_dive_in_turns_count_exactly(size: int, seed: int, conflicts: int,
                                                    solutions: int) -> None:
    """Counted to 1,000 in turns, the pool (the dive's solutions, local moves' next to them,
    Kissat's) is every solution, as the native engine's whole search has them; the turns
    happened (Kissat ran more than once, the dive had turns)."""
    puzzle = random_puzzle(seed, size, size)
    every = _every(puzzle)
    got, team = _in_turns(puzzle, 1000, _turns_of(conflicts))
    assert len(every) == solutions
    assert set(got.solutions) == every and len(got.solutions) == len(every)
    assert all(is_solution(puzzle, g) for g in got.solutions)
    assert got.status == "multiple" and got.exhausted
    assert got.stats["dive_turns"] >= 1 and got.stats["kissat_runs"] >= 2
    assert team.dive_found >= 1 and got.nodes == got.stats["conflicts"] > 0


@needs_kissat
def test_the_runs_and_the_dive_alternate_each_twice_the_last(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Kissat's runs and the dive's turns alternate: the runs get ``kissat_turn_conflicts``
    conflicts, then twice, four times...; the dive as many times ``kissat_dive_work`` work;
    each run is told every solution found so far (blocked) and runs the guided search after
    its own (``guided_always``: its limit is the turn's); the stats count the turns."""
    policy = _turns_of(10)
    calls: list[tuple[str, int]] = []
    holder: list[Team] = []
    solutions = kissat.solutions

    def runs(puzzle: Puzzle, limits: SearchLimits, **kwargs: Any) -> Any:
        assert kwargs["found"] == tuple(holder[0].found) and kwargs["guided_always"]
        assert limits.max_nodes is not None  # (a run without its conflicts would be no turn)
        calls.append(("kissat", limits.max_nodes))
        return solutions(puzzle, limits, **kwargs)
    monkeypatch.setattr(kissat, "solutions", runs)
    dive = Team.dive

    def turn(self: Team, limits: SearchLimits = SearchLimits(), work: int | None = None,
             max_fails: int | None = None) -> bool:
        assert work is not None
        calls.append(("dive", work))
        return dive(self, limits, work, max_fails)
    monkeypatch.setattr(Team, "dive", turn)
    made = Team.__init__

    def init(self: Team, *args: Any, **kwargs: Any) -> None:
        made(self, *args, **kwargs)
        holder.append(self)
    monkeypatch.setattr(Team, "__init__", init)
    puzzle = random_puzzle(1, 30, 30)
    got, _ = _in_turns(puzzle, 1000, policy)
    assert set(got.solutions) == _every(puzzle) and got.exhausted
    assert [kind for kind, _ in calls] == ["kissat", "dive"] * (len(calls) // 2) + ["kissat"]
    limits = [n for kind, n in calls if kind == "kissat"]
    assert limits == [10 * 2**k for k in range(len(limits))] and len(limits) >= 3
    assert [w for kind, w in calls if kind == "dive"] == [
        n * policy.kissat_dive_work for n in limits[:-1]]
    assert got.stats["dive_turns"] == len(limits) - 1
    assert got.stats["kissat_runs"] >= len(limits)
    # (a run may pass its limit by a conflict before it stops)
    assert got.stats["conflicts"] <= sum(limits) + got.stats["kissat_runs"]


@needs_kissat
def test_two_runs_make_the_same_turns() -> None:
    """The turns are counted in conflicts and work, never in seconds: the same puzzle and
    policy give the same stats, nodes, work and solutions in the same order."""
    puzzle = random_puzzle(1, 30, 30)
    first, team1 = _in_turns(puzzle, 1000, _turns_of(10))
    second, team2 = _in_turns(puzzle, 1000, _turns_of(10))
    assert first.stats["dive_turns"] >= 2
    assert first.stats == second.stats and first.nodes == second.nodes
    assert first.solutions == second.solutions and first.status == second.status
    assert team1.stats() == team2.stats() and team1.dive_work() == team2.dive_work()


@needs_kissat
def test_auto_gives_the_dive_turns_beside_kissat() -> None:
    """A random 64x64 (every line long enough for Kissat): with no first dive and Kissat's
    first run 100 conflicts, auto's hand-over gives the dive turns, and the answer is two
    checked solutions."""
    policy = dataclasses.replace(_turns_of(100), dive_first_fails=0)
    puzzle = random_puzzle(2, 64, 64)
    got = auto.analyse(puzzle, 2, SearchLimits(timeout=120), policy=policy)
    assert got.status == "multiple" and len(set(got.solutions)) == 2
    assert all(is_solution(puzzle, g) for g in got.solutions)
    assert got.stats["sat_dive_turns"] >= 1 and got.stats["sat_kissat_runs"] >= 2


def test_a_passed_deadline_runs_nothing() -> None:
    """At the deadline no run starts and the dive has no turn: the answer is not known."""
    got, team = _in_turns(random_puzzle(1, 30, 30), 2, _turns_of(10),
                          deadline=time.perf_counter() - 1)
    assert got.status == "unknown" and not got.exhausted
    assert got.stats["kissat_runs"] == got.stats["dive_turns"] == 0 and team.diver is None
