"""The schedule's workers beside the native team (``engine.schedule``): a python-sat search
that pauses at a conflict budget, and searches that cannot be paused (Kissat, glucose-syrup,
CBC), whose turns are runs that start anew. Their work is their conflicts or nodes at the
policy's rate in line solves (``conflict_work``, ``kissat_dive_work``, ``ilp_node_work``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, cast

from gridsolve.errors import LimitReached, OutOfMemory
from gridsolve.nonogram.engine import SearchLimits, abilities, passed, seconds_left
from gridsolve.nonogram.engine.nearby import moves_for_count
from gridsolve.nonogram.engine.schedule import Pool
from gridsolve.nonogram.model import AnyPuzzle, Grid, Puzzle
from gridsolve.nonogram.policy import Policy

if TYPE_CHECKING:
    from gridsolve.nonogram.backends import ilp, sat

__all__ = ["SatWorker", "ProgramWorker", "KissatWorker", "SyrupWorker", "IlpWorker"]


class SatWorker:
    """A python-sat search (``sat.Search``, a solver it can interrupt) resumed turn by turn:
    a turn is a conflict budget; each new solution brings its neighbours by local moves
    (``engine.nearby``; counted in ``moved``)."""

    stopped = False  # (only the deadline ends it, and that ends the run)

    def __init__(self, search: sat.Search, puzzle: AnyPuzzle, policy: Policy,
                 deadline: float | None, rate: int | None = None) -> None:
        self.search = search
        self.puzzle = puzzle
        #: work a conflict counts (``policy.conflict_work`` unless given)
        self.rate = max(1, policy.conflict_work if rate is None else rate)
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
                near = (moves_for_count(cast(Puzzle, self.puzzle), answer, pool.found,
                                        pool.max_solutions, self.deadline)
                        if abilities(self.puzzle).moves else [])  # (local moves: B&W)
                pool.found.update(dict.fromkeys(near))
                self.moved += len(near)
                pool.tell()


class ProgramWorker:
    """A search that cannot be paused (a SAT program, CBC): a turn is a new run of its
    work's worth of conflicts or nodes (``rate`` work each) that ends at them, with the
    pool's solutions blocked; the next turn starts anew. ``runs(cap, found, stats)`` makes
    one run's solutions. A worker that cannot be ``bounded`` (glucose-syrup has no conflict
    limit) is given turns to its end only: a plan gives it a process of its own. ``totals``
    sums the runs' counters."""

    def __init__(self, runs: Callable[[int | None, tuple[Grid, ...], dict[str, int]],
                                      Iterator[Grid]],
                 rate: int, deadline: float | None, bounded: bool = True,
                 count: str = "conflicts") -> None:
        self.runs, self.rate, self.deadline = runs, max(1, rate), deadline
        self.bounded, self.count = bounded, count
        self.exhausted = self.stopped = False
        self.totals: dict[str, int] = {}
        self.current: dict[str, int] = {}  # the run under way

    def work(self) -> int:
        return self.nodes() * self.rate

    def nodes(self) -> int:
        return self.totals.get(self.count, 0) + self.current.get(self.count, 0)

    def turn(self, pool: Pool, work: int | None, nodes: int | None) -> None:
        cap = None if work is None else work // self.rate
        if nodes is not None:
            cap = nodes if cap is None else min(cap, nodes)
        if cap is not None and not self.bounded:
            raise ValueError("this worker has no conflict limit: its turns run to the end")
        self.current = {}
        try:
            for grid in self.runs(cap, tuple(pool.found), self.current):
                pool.found[grid] = None
                pool.tell()
                if pool.done():
                    return
            self.exhausted = True
        except LimitReached as limit:
            if isinstance(limit, OutOfMemory):
                raise
            # (at its cap the next turn goes on; at the deadline nothing can)
            self.stopped = cap is None or passed(self.deadline)
        finally:
            for k, v in self.current.items():
                self.totals[k] = self.totals.get(k, 0) + v
            self.current = {}


class KissatWorker(ProgramWorker):
    """Kissat's runs (``kissat_dive_work`` a conflict; ``seed``: its ``--seed``), seeded
    with ``known`` and ``extra``, under ``limits`` (what is left of the caller's)."""

    def __init__(self, puzzle: AnyPuzzle, limits: SearchLimits, known: Grid | None,
                 encoding: str | None, extra: Sequence[list[int]], policy: Policy,
                 deadline: float | None, seed: int = 0) -> None:
        from gridsolve.nonogram.backends import kissat

        def runs(cap: int | None, found: tuple[Grid, ...],
                 stats: dict[str, int]) -> Iterator[Grid]:
            run = dataclasses.replace(limits, timeout=seconds_left(deadline), max_nodes=cap)
            return kissat.solutions(puzzle, run, known=known, encoding=encoding, extra=extra,
                                    found=found, stats=stats, policy=policy, seed=seed,
                                    guided_always=True)
        super().__init__(runs, policy.kissat_dive_work, deadline)
        self.totals = {"conflicts": 0, "kissat_runs": 0, "nearby": 0, "guided": 0}


class SyrupWorker(ProgramWorker):
    """glucose-syrup with ``threads`` threads, seeded with ``known`` and ``extra``, under
    the deadline and ``max_memory``; it has no conflict limit, so its turns run to the end."""

    def __init__(self, puzzle: AnyPuzzle, threads: int, known: Grid | None,
                 extra: Sequence[list[int]], max_memory: int | None, policy: Policy,
                 deadline: float | None) -> None:
        from gridsolve.nonogram.backends import syrup

        def runs(_cap: int | None, found: tuple[Grid, ...],
                 stats: dict[str, int]) -> Iterator[Grid]:
            return syrup.solutions(puzzle, SearchLimits(timeout=seconds_left(deadline),
                                                        max_memory=max_memory),
                                   threads=threads, known=known, extra=extra, found=found,
                                   stats=stats)
        super().__init__(runs, policy.conflict_work, deadline, bounded=False)


class IlpWorker(ProgramWorker):
    """CBC on the ILP model (``ilp.Runs``): a turn is one run of its work's worth of
    branch-and-bound nodes (``ilp_node_work`` each; to the end: runs until none is left),
    every solution so far cut off. Its nodes are its runs, as ``ilp.analyse`` counts."""

    def __init__(self, runs: ilp.Runs, max_memory: int | None, policy: Policy,
                 deadline: float | None) -> None:
        def solutions(cap: int | None, found: tuple[Grid, ...],
                      stats: dict[str, int]) -> Iterator[Grid]:
            for known in found:
                runs.cut(known)
            while True:
                answer = runs.next(deadline, cap, max_memory)
                stats["cbc_runs"] = stats.get("cbc_runs", 0) + 1
                stats["budget"] = stats.get("budget", 0) + (cap or 0)
                if answer is None:
                    raise LimitReached("CBC's node limit or the deadline")
                if answer is False:
                    return
                yield answer
                if cap is not None:  # one run a turn: the next starts anew
                    raise LimitReached("the turn's nodes were given")
        super().__init__(solutions, policy.ilp_node_work, deadline, count="cbc_runs")

    def work(self) -> int:
        """The branch-and-bound nodes its runs were given (CBC does not say how many it took)."""
        return (self.totals.get("budget", 0) + self.current.get("budget", 0)) * self.rate
