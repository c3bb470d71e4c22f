"""The schedule's workers over SAT solvers (``engine.schedule``): a python-sat search that
pauses at a conflict budget, and Kissat's conflict-limited runs. Their work is their
conflicts at the policy's rate in line solves (``conflict_work``, ``kissat_dive_work``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING

from gridsolve.errors import LimitReached
from gridsolve.nonogram.engine import SearchLimits, seconds_left
from gridsolve.nonogram.engine.nearby import moves_for_count
from gridsolve.nonogram.engine.schedule import Pool
from gridsolve.nonogram.model import AnyPuzzle, Grid, Puzzle
from gridsolve.nonogram.policy import Policy

if TYPE_CHECKING:
    from gridsolve.nonogram.backends import sat

__all__ = ["SatWorker", "KissatWorker"]


class SatWorker:
    """A python-sat search (``sat.Search``, a solver it can interrupt) resumed turn by turn:
    a turn is a conflict budget; each new solution brings its neighbours by local moves
    (``engine.nearby``; counted in ``moved``)."""

    stopped = False  # (only the deadline ends it, and that ends the run)

    def __init__(self, search: sat.Search, puzzle: Puzzle, policy: Policy,
                 deadline: float | None) -> None:
        self.search = search
        self.puzzle = puzzle
        self.rate = max(1, policy.conflict_work)
        self.deadline = deadline
        self.exhausted = False
        self.moved = 0

    def work(self) -> int:
        return self.search.conflicts() * self.rate

    def nodes(self) -> int:
        return self.search.conflicts()

    def turn(self, pool: Pool, work: int | None, nodes: int | None) -> None:
        done = self.search.conflicts()
        cap = None if work is None else done + work // self.rate
        if nodes is not None:
            cap = done + nodes if cap is None else min(cap, done + nodes)
        self.search.max_conflicts = cap
        self.search.deadline = self.deadline
        while len(pool.found) < pool.max_solutions:
            answer = self.search.step()
            if answer is None:
                return
            if answer is False:  # every solution (those of the other workers too)
                self.exhausted = True
                return
            if answer not in pool.found:
                pool.found[answer] = None
                for other in moves_for_count(self.puzzle, answer, pool.found,
                                             pool.max_solutions, self.deadline):
                    pool.found[other] = None
                    self.moved += 1
                pool.tell()


class KissatWorker:
    """Kissat's runs (a program that cannot be paused): a turn is a new run of its work's
    worth of conflicts (``kissat_dive_work`` each) that ends at them, seeded with ``known``
    and ``extra`` and the pool's solutions blocked, under ``limits`` (what is left of the
    caller's). ``totals`` sums the runs' counters."""

    stopped = False

    def __init__(self, puzzle: AnyPuzzle, limits: SearchLimits, known: Grid,
                 encoding: str | None, extra: Sequence[list[int]], policy: Policy,
                 deadline: float | None) -> None:
        self.puzzle, self.limits, self.known = puzzle, limits, known
        self.encoding, self.extra, self.policy = encoding, extra, policy
        self.rate = max(1, policy.kissat_dive_work)
        self.deadline = deadline
        self.exhausted = False
        self.totals = {"conflicts": 0, "kissat_runs": 0, "nearby": 0, "guided": 0}

    def work(self) -> int:
        return self.totals["conflicts"] * self.rate

    def nodes(self) -> int:
        return self.totals["conflicts"]

    def turn(self, pool: Pool, work: int | None, nodes: int | None) -> None:
        from gridsolve.nonogram.backends import kissat
        conflicts = None if work is None else work // self.rate
        if nodes is not None:
            conflicts = nodes if conflicts is None else min(conflicts, nodes)
        run = dataclasses.replace(self.limits, timeout=seconds_left(self.deadline),
                                  max_nodes=conflicts)
        stats: dict[str, int] = {}
        grids = kissat.solutions(self.puzzle, run, known=self.known, encoding=self.encoding,
                                 extra=self.extra, found=tuple(pool.found), stats=stats,
                                 policy=self.policy, guided_always=True)
        try:
            for grid in grids:
                pool.found[grid] = None
                if pool.done():
                    return
            self.exhausted = True
        except kissat.OutOfMemory:
            raise
        except LimitReached:
            pass
        finally:
            for k in self.totals:
                self.totals[k] += stats.get(k, 0)
