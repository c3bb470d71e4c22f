"""The ``auto`` method: the native engine first, handing over to SAT on hard puzzles.

The rule: run the native engine (counting up to ``max_solutions``) for at most
``AUTO_NODES`` search nodes and ``AUTO_SECONDS`` seconds (less if the caller's own limits are
tighter). If it finishes, that is the answer. Otherwise SAT (python-sat, ``sat.DEFAULT_SOLVER``
unless named) searches again from scratch, seeded with the cells the native engine proved at
the root (``Result.partial``: its '#' and '.' are facts, so they are added as unit clauses),
with whatever is left of the caller's timeout; the native solutions are found again, so the
count stays exact.

Why: depth-first search with probing wins the median by ~10x on tournament puzzles, clause
learning wins the worst case (PERF-NOTES.md). The budget was set from per-puzzle times of
both (78 taai2011 puzzles, #300-#993 every 7th, native with implication probing against
Glucose 4): native alone 23.9 s, SAT alone 73.9 s; auto with 64 nodes 52.1 s, 500 nodes
42.5 s, 1,000 nodes 30.7 s, 2,000 nodes and 1 s 25.7 s (2 s: 27.0 s). The time cap matters
on puzzles where nodes are slow: one node of a random 50x50 can take a second.

Colour puzzles follow the same rule with the native colour engine (the budget is the
black-and-white one; on ten random 30x30 3-colour puzzles, 60% background, counting to 2
with 10 s each, native alone took 40.9 s with 3 unknown, SAT alone 23.5 s with 1).

With python-sat missing, auto is the native engine under the caller's limits alone. A caller's
``max_nodes`` caps the native nodes, and what is left of it caps the SAT conflicts; ``nodes``
is native nodes plus SAT conflicts.
"""

from __future__ import annotations

import time

from gridsolve.errors import SolverUnavailable
from gridsolve.nonogram import engine
from gridsolve.nonogram.engine import Result, SearchLimits
from gridsolve.nonogram.engine import colour as colour_engine
from gridsolve.nonogram.model import AnyPuzzle, ColourPuzzle

__all__ = ["AUTO_NODES", "AUTO_SECONDS", "analyse"]

#: Native search nodes before handing over to SAT.
AUTO_NODES = 2000
#: Native seconds before handing over to SAT.
AUTO_SECONDS = 1.0


def _min(a: float | None, b: float | None) -> float | None:
    """The smaller of two optional limits (None = no limit)."""
    return b if a is None else a if b is None else min(a, b)


def _native(puzzle: AnyPuzzle, max_solutions: int, limits: SearchLimits) -> Result:
    """The native engine for this kind of puzzle."""
    if isinstance(puzzle, ColourPuzzle):
        return colour_engine.analyse(puzzle, max_solutions, limits)
    return engine.analyse(puzzle, max_solutions, limits)


def analyse(puzzle: AnyPuzzle, max_solutions: int = 2, limits: SearchLimits = SearchLimits(), *,
            solver: str | None = None) -> Result:
    """Native under the auto budget, then SAT seeded with the native root grid."""
    from gridsolve.nonogram.backends import sat
    started = time.perf_counter()
    try:
        sat.require()
    except SolverUnavailable:
        return _native(puzzle, max_solutions, limits)
    budget = SearchLimits(max_nodes=int(_min(AUTO_NODES, limits.max_nodes)),  # type: ignore[arg-type]
                          timeout=_min(AUTO_SECONDS, limits.timeout))
    native = _native(puzzle, max_solutions, budget)
    if native.status != "unknown":
        return native
    spent = time.perf_counter() - started
    left_nodes = None if limits.max_nodes is None else limits.max_nodes - native.nodes
    left_time = None if limits.timeout is None else limits.timeout - spent
    if (left_nodes is not None and left_nodes <= 0) or (left_time is not None and left_time <= 0):
        return native
    answer = sat.analyse(puzzle, max_solutions, SearchLimits(left_nodes, left_time),
                         solver=solver or sat.DEFAULT_SOLVER, known=native.partial)
    stats = {"native_nodes": native.nodes, "handover": 1,
             **{f"sat_{k}": v for k, v in answer.stats.items()}}
    return Result(answer.status, answer.solutions, native.nodes + answer.nodes,
                  time.perf_counter() - started, native.partial, stats)
