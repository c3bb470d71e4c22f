"""The schedule's parts: workers (searches that run in turns of work, so a plan repeats
exactly), the pool of their solutions, and the scheduler that gives them turns; the workers
and plans are listed in docs/ARCHITECTURE.md, "The schedule" (0034)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Protocol

from gridsolve.nonogram.engine.results import passed
from gridsolve.nonogram.model import Grid

__all__ = ["Worker", "Pool", "Scheduler"]


class Worker(Protocol):
    """One search that runs in turns."""

    @property
    def exhausted(self) -> bool:
        """It searched the whole space: the pool is every solution."""

    @property
    def stopped(self) -> bool:
        """It cannot go on (the time limit ended it, or a work budget stopped it for good)."""

    def work(self) -> int:
        """Its work so far, in line solves."""

    def nodes(self) -> int:
        """What it counts as nodes (SAT: conflicts), for the node limit and the report."""

    def turn(self, pool: Pool, work: int | None, nodes: int | None) -> None:
        """Search on for ``work`` more work (None: to the end), at most ``nodes`` more nodes
        (None: no limit), adding its solutions to ``pool``; stop when the pool is full."""


@dataclasses.dataclass(eq=False)
class Pool:
    """The solutions of a run's workers, in the order found, up to ``max_solutions``;
    ``complete`` once a worker was exhausted (then they are every solution). ``tell`` is
    called when it grows and after every turn (the progress line, a process's report)."""

    max_solutions: int
    found: dict[Grid, None]
    complete: bool = False
    tell: Callable[[], None] = lambda: None

    def done(self) -> bool:
        return self.complete or len(self.found) >= self.max_solutions


@dataclasses.dataclass(eq=False)
class Scheduler:
    """Turns for ``workers`` over one ``pool``, under the caller's ``max_nodes`` (all the
    workers' nodes together) and ``deadline`` (a ``time.perf_counter()`` time)."""

    pool: Pool
    workers: list[Worker]
    max_nodes: int | None
    deadline: float | None

    def nodes(self) -> int:
        return sum(w.nodes() for w in self.workers)

    def nodes_left(self) -> int | None:
        return None if self.max_nodes is None else max(0, self.max_nodes - self.nodes())

    def over(self) -> bool:
        """The answer is in, or the deadline or the node limit has come."""
        return self.pool.done() or passed(self.deadline) or self.nodes_left() == 0

    def turn(self, worker: Worker, work: int | None) -> bool:
        """``worker``'s turn of ``work`` (None: to the end); True when the run is over or
        the worker cannot go on."""
        if self.over():
            return True
        worker.turn(self.pool, work, self.nodes_left())
        self.pool.complete = self.pool.complete or worker.exhausted
        self.pool.tell()
        return self.over() or worker.stopped
