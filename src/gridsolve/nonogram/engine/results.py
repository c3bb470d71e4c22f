"""What a search is asked and what it answers: limits, results and their status.

Shared by the engine and every backend, so that all methods answer in the same shape.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from gridsolve.nonogram.model import Grid

__all__ = ["SearchLimits", "Result", "Status", "Event", "status_of"]

Status = Literal["unique", "multiple", "none", "unknown"]

#: An observer of the search: called as ``event(kind, a, b, c, cells)``; see core.h (EV_*).
Event = Callable[[int, int, int, int, tuple[int, ...]], None]


@dataclass(frozen=True)
class SearchLimits:
    """When to give up: a node budget and/or wall-clock seconds (None = no limit)."""

    max_nodes: int | None = None
    timeout: float | None = None


@dataclass(frozen=True)
class Result:
    """What a search found: status, solutions (up to the count asked), and its cost.

    ``partial`` is the grid of cells proven at the root ('?' where unknown), useful when the
    status is "unknown" or "multiple"."""

    status: Status
    solutions: tuple[Grid, ...]
    nodes: int
    seconds: float
    partial: Grid
    stats: dict[str, int] = field(default_factory=dict, compare=False)


def status_of(found: int, max_solutions: int, complete: bool) -> Status:
    """The status of a search that found ``found`` solutions, counting to ``max_solutions``:
    "unique" only when the search was complete (exhausted) below the count."""
    exhausted = complete and found < max_solutions
    if found >= 2:
        return "multiple"
    if found == 1:
        return "unique" if exhausted else "unknown"
    return "none" if complete else "unknown"
