"""The workers that cannot be paused (``backends.workers.ProgramWorker``: Kissat,
glucose-syrup, CBC) under the schedule's rules: turns that start anew still give every
solution, once each, and a plan that mixes them with the native team counts exactly (brute
force is the oracle)."""

from __future__ import annotations

import dataclasses
import importlib.util
import random
import time

import pytest

from gridsolve.nonogram.backends import ilp, kissat, syrup
from gridsolve.nonogram.backends.workers import IlpWorker, KissatWorker, SyrupWorker
from gridsolve.nonogram.engine import SearchLimits
from gridsolve.nonogram.engine.schedule import Pool, Scheduler, Worker
from gridsolve.nonogram.engine.team import Team, TeamWorker
from gridsolve.nonogram.model import Grid, Puzzle, is_solution, puzzle_from_grid
from gridsolve.nonogram.policy import DEFAULT_POLICY
from tests.nonogram.oracle import all_solutions

needs_pulp = pytest.mark.skipif(importlib.util.find_spec("pulp") is None,
                                reason="PuLP (gridsolve[ilp]) not installed")


def _puzzle(seed: int, size: int = 6) -> Puzzle:
    """A random puzzle at 50% density, often with several solutions."""
    rng = random.Random(seed)
    return puzzle_from_grid(tuple("".join("#" if rng.random() < 0.5 else "." for _ in range(size))
                                  for _ in range(size)))


def _several(size: int = 6) -> tuple[Puzzle, set[Grid]]:
    """The first seeded puzzle with at least three solutions, and all of them."""
    for seed in range(200):
        puzzle = _puzzle(seed, size)
        every = set(all_solutions(puzzle))
        if len(every) >= 3:
            return puzzle, every
    raise AssertionError("no puzzle with three solutions")


def _ilp(puzzle: Puzzle, deadline: float | None) -> IlpWorker:
    runs = ilp.prepared(puzzle, 100, SearchLimits(), deadline, time.perf_counter(), root=False)
    assert isinstance(runs, ilp.Runs)
    return IlpWorker(runs, None, DEFAULT_POLICY, deadline)


@needs_pulp
@pytest.mark.heavy
def test_ilp_turns_that_start_anew_give_every_solution_once() -> None:
    """Turns of one CBC node each, one run a turn (the next starts anew, with every solution
    so far cut off): the pool is every solution, each once, and the worker ends exhausted
    after one more run finds none."""
    puzzle, every = _several()
    deadline = time.perf_counter() + 120
    worker = _ilp(puzzle, deadline)
    pool = Pool(100, {})
    plan = Scheduler(pool, [worker], None, deadline)
    turns = 0
    while not plan.turn(worker, DEFAULT_POLICY.ilp_node_work):
        turns += 1
        assert turns < 10_000
    assert worker.exhausted and pool.complete and set(pool.found) == every
    assert len(pool.found) == len(every)
    assert worker.work() == DEFAULT_POLICY.ilp_node_work * worker.totals["budget"]
    assert worker.nodes() == worker.totals["cbc_runs"] == turns + 1 >= len(every) + 1


@needs_pulp
@pytest.mark.heavy
def test_a_plan_of_the_team_and_cbc_counts_exactly() -> None:
    """The team and CBC in turns over one pool, each blocking what the other found: the
    count is the oracle's, whichever ends the search."""
    puzzle, every = _several()
    deadline = time.perf_counter() + 120
    team = Team(puzzle, 100)
    pool = Pool(100, team.found)
    workers: list[Worker] = [TeamWorker(team, None), _ilp(puzzle, deadline)]
    plan = Scheduler(pool, workers, None, deadline)
    while not any(plan.turn(w, 2 * DEFAULT_POLICY.ilp_node_work) for w in workers):
        pass
    assert pool.complete and set(pool.found) == every


@needs_pulp
def test_a_bounded_turn_of_a_worker_without_a_limit_is_refused() -> None:
    """glucose-syrup has no conflict limit: a turn of a share of work is a caller's error,
    not a run that overruns its share."""
    worker = SyrupWorker(_puzzle(1), 2, None, [], None, DEFAULT_POLICY, None)
    with pytest.raises(ValueError, match="no conflict limit"):
        worker.turn(Pool(2, {}), 1000, None)


@pytest.mark.heavy
@pytest.mark.skipif(not syrup.usable(), reason="glucose-syrup (gridsolve[syrup]) not usable")
def test_syrup_to_its_end_gives_every_solution() -> None:
    puzzle, every = _several()
    worker = SyrupWorker(puzzle, 2, None, [], None, DEFAULT_POLICY, None)
    pool = Pool(100, {})
    Scheduler(pool, [worker], None, None).turn(worker, None)
    assert worker.exhausted and set(pool.found) == every and worker.nodes() >= 0


@pytest.mark.heavy
@pytest.mark.skipif(not kissat.installed(), reason="kissat (gridsolve[kissat]) not installed")
@pytest.mark.parametrize("seed", [0, 7])
def test_kissat_with_a_seed_gives_every_solution(seed: int) -> None:
    """Kissat's runs with another ``--seed``, in turns of a few conflicts: the same solutions
    (a seed changes the path, never the answer)."""
    puzzle, every = _several()
    policy = dataclasses.replace(DEFAULT_POLICY, kissat_dive_work=1)
    worker = KissatWorker(puzzle, SearchLimits(), None, None, [], policy, None, seed)
    pool = Pool(100, {})
    plan = Scheduler(pool, [worker], None, None)
    while not plan.turn(worker, 500):
        pass
    assert worker.exhausted and set(pool.found) == every
    assert all(is_solution(puzzle, g) for g in pool.found)
