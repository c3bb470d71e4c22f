"""What a search is asked and what it answers: limits, results and their status.

Shared by the engine and every backend, so that all methods answer in the same shape.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Literal

from gridsolve.nonogram.model import AnyPuzzle, Grid

__all__ = ["SearchLimits", "DEFAULT_MAX_MEMORY", "Result", "Status", "Event", "Progress",
           "status_of", "exhausted_of", "settled", "repooled", "deadline_of", "seconds_left",
           "passed", "least"]

Status = Literal["unique", "multiple", "none", "unknown"]

#: An observer of the search: called as ``event(kind, a, b, c, cells)``; see core.h (EV_*).
#: For EV_LINE, ``cells`` are the cells the line fixed, each as 2 * cell + 1 if filled, 2 * cell
#: if empty.
Event = Callable[[int, int, int, int, tuple[int, ...]], None]


@dataclass
class Progress:
    """How far a search has got, for a person watching (a progress line on a terminal): the
    workers write it as they go (nodes and SAT conflicts so far, solutions found, which
    search has the turn), a display reads it from another thread. It never steers the
    search."""

    nodes: int = 0
    solutions: int = 0
    phase: str = "native"
    #: the cells proven so far, when the search can say (the team's root): what a person
    #: is shown after Ctrl-C
    partial: Callable[[], Grid] | None = None

    def update(self, nodes: int, solutions: int, phase: str | None = None) -> None:
        self.nodes, self.solutions = nodes, solutions
        if phase is not None:
            self.phase = phase


@dataclass(frozen=True)
class SearchLimits:
    """When to give up: a node budget, wall-clock seconds, and the bytes a search may hold
    (None = no limit). The native engine's memory grows with the puzzle only; SAT and ILP
    models are refused when they would not fit ``max_memory`` (``auto`` goes on natively)."""

    max_nodes: int | None = None
    timeout: float | None = None
    max_memory: int | None = None

    def __post_init__(self) -> None:
        # NaN compares false with every deadline: it would have meant no limit at all
        if self.timeout is not None and self.timeout != self.timeout:
            raise ValueError("timeout must be a number of seconds, not NaN")

    def deadline(self, since: float | None = None) -> float | None:
        """The clock time (``time.perf_counter()``) at which the timeout runs out, counted
        from ``since`` (a reading of that clock; default now); None without one."""
        if since is None:
            return deadline_of(self.timeout)
        return None if self.timeout is None else since + self.timeout

    def until(self, deadline: float | None) -> SearchLimits:
        """These limits with the timeout cut to what is left before ``deadline`` (never below
        0): for a step that goes on under an earlier deadline. Unchanged without one."""
        return self if deadline is None else replace(self, timeout=seconds_left(deadline))


# Deadlines are ``time.perf_counter()`` times, None for no limit; these four say it once.

def deadline_of(seconds: float | None) -> float | None:
    """The clock time ``seconds`` from now (None: no limit)."""
    return None if seconds is None else time.perf_counter() + seconds


def seconds_left(deadline: float | None) -> float | None:
    """Seconds left before ``deadline``, never below 0 (None: no limit)."""
    return None if deadline is None else max(0.0, deadline - time.perf_counter())


def passed(deadline: float | None) -> bool:
    """Has the clock reached ``deadline``? Never without one."""
    return deadline is not None and time.perf_counter() >= deadline


def least(a: float | None, b: float | None) -> float | None:
    """The smaller of two optional limits (None = no limit): the earlier of two deadlines."""
    return b if a is None else a if b is None else min(a, b)


#: The memory limit of ``gridsolve nonogram solve`` and of each ``batch`` worker unless told
#: (--max-memory): with it the whole process tree stays under 2 GB.
DEFAULT_MAX_MEMORY = 3 * 2**29  # 1.5 GiB


@dataclass(frozen=True)
class Result:
    """What a search found: status, solutions (up to the count asked), and its cost.

    ``partial`` is the grid of cells proven at the root ('?' where unknown), useful when the
    status is "unknown" or "multiple". ``exhausted``: the search ended by itself below the
    count asked, so ``solutions`` is every solution (with "multiple", their number is the exact
    count); False when a limit or the count asked stopped it ("multiple" then means at least
    that many). ``settled`` says whether a result is final."""

    status: Status
    solutions: tuple[Grid, ...]
    nodes: int
    seconds: float
    partial: Grid
    stats: dict[str, int] = field(default_factory=dict, compare=False)
    exhausted: bool = False
    #: The puzzle answered (``backends.analyse`` sets it), so the result can be drawn.
    puzzle: AnyPuzzle | None = field(default=None, compare=False, repr=False)

    @classmethod
    def of_count(cls, solutions: tuple[Grid, ...], max_solutions: int, complete: bool,
                 nodes: int, seconds: float, partial: Grid,
                 stats: dict[str, int] | None = None) -> Result:
        """The result of a search counting to ``max_solutions`` that found ``solutions``,
        ``complete`` if no limit stopped it: its status and ``exhausted`` follow from those."""
        return cls(status_of(len(solutions), max_solutions, complete), solutions, nodes,
                   seconds, partial, {} if stats is None else stats,
                   exhausted=exhausted_of(len(solutions), max_solutions, complete))


def settled(result: Result, max_solutions: int) -> bool:
    """Is this the final answer to a count up to ``max_solutions``: every solution (the search
    was exhausted), or as many as asked? (A search stopped at a limit after two solutions is
    "multiple" too, but not settled.)"""
    return result.exhausted or len(result.solutions) >= max_solutions


def repooled(result: Result, solutions: Iterable[Grid], max_solutions: int,
             complete: bool) -> Result:
    """``result`` answering with the first ``max_solutions`` distinct ``solutions`` (a pool of
    several searches', in order), with the status and ``exhausted`` they make; ``complete``
    if a search that found all of them was exhausted."""
    pool = tuple(dict.fromkeys(solutions))[:max_solutions]
    return replace(result, solutions=pool, status=status_of(len(pool), max_solutions, complete),
                   exhausted=exhausted_of(len(pool), max_solutions, complete))


def exhausted_of(found: int, max_solutions: int, complete: bool) -> bool:
    """``Result.exhausted`` of a search that found ``found`` solutions counting to
    ``max_solutions``, ``complete`` if no limit stopped it: it ended by itself below the
    count, so they are every solution."""
    return complete and found < max_solutions


def status_of(found: int, max_solutions: int, complete: bool) -> Status:
    """The status of a search that found ``found`` solutions, counting to ``max_solutions``:
    "unique" only when the search was complete (exhausted) below the count."""
    exhausted = exhausted_of(found, max_solutions, complete)
    if found >= 2:
        return "multiple"
    if found == 1:
        return "unique" if exhausted else "unknown"
    return "none" if complete else "unknown"
