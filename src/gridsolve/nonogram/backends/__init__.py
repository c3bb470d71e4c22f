"""Interchangeable nonogram solvers behind one call: ``analyse(puzzle, ..., method=...)``.

    native   the compiled engine (line DP, propagation, probing, DFS; the dive by belief
             propagation in turns with it on puzzles of 1,025 to 40,000 cells)
    sat      the puzzle as CNF (order or block-start model), python-sat (extra ``gridsolve[sat]``)
    ilp      the classic integer program, PuLP + CBC (extra ``gridsolve[ilp]``)
    auto     native under a node budget, then SAT seeded with the cells native proved
             (the rule is in ``gridsolve.nonogram.backends.auto``)

``jobs`` above 1 runs ``native`` and ``auto`` on several processes (``parallel``); every
tuned number of how the searches share the budget is a field of ``policy``.

Every method returns the engine's ``Result`` with the same statuses and exact counts; every
solution is checked by the model's solution check before it is returned. Each method is a
``Backend`` in ``BACKENDS``, which says which kinds of puzzle it takes (``Puzzle.kind``): the
ILP model is black-and-white only. A backend's module is imported when it is first used, so
a missing extra only matters to the method that needs it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import cast

from gridsolve.errors import GridsolveError
from gridsolve.nonogram import engine
from gridsolve.nonogram.backends._common import KISSAT
from gridsolve.nonogram.engine import Progress, Result, SearchLimits
from gridsolve.nonogram.model import AnyPuzzle, ColourPuzzle, Puzzle
from gridsolve.nonogram.policy import DEFAULT_POLICY, Policy

__all__ = ["METHODS", "BACKENDS", "Backend", "analyse"]

#: How a backend is run: (puzzle, max_solutions, limits, SAT solver name or None, jobs,
#: policy, progress or None).
Run = Callable[[AnyPuzzle, int, SearchLimits, "str | None", int, Policy, "Progress | None"],
               Result]


@dataclass(frozen=True)
class Backend:
    """One method of solving: its name, the kinds of puzzle it takes, and how to run it."""

    name: str
    kinds: tuple[str, ...]
    run: Run
    #: Does it run on several processes when given jobs (the others take one)?
    parallel: bool = False


def _native(puzzle: AnyPuzzle, max_solutions: int, limits: SearchLimits,
            solver: str | None, jobs: int, policy: Policy, progress: Progress | None) -> Result:
    if jobs > 1:
        from gridsolve.nonogram.backends import parallel
        return parallel.analyse(puzzle, max_solutions, limits, jobs, with_sat=False,
                                policy=policy, progress=progress)
    return engine.analyse(puzzle, max_solutions, limits, policy=policy, progress=progress)


def _sat(puzzle: AnyPuzzle, max_solutions: int, limits: SearchLimits,
         solver: str | None, jobs: int, policy: Policy, progress: Progress | None) -> Result:
    if solver == KISSAT:  # a program, not python-sat
        from gridsolve.nonogram.backends import kissat
        return kissat.analyse(puzzle, max_solutions, limits)
    from gridsolve.nonogram.backends import sat
    return sat.analyse(puzzle, max_solutions, limits, solver=solver or sat.DEFAULT_SOLVER)


def _ilp(puzzle: AnyPuzzle, max_solutions: int, limits: SearchLimits,
         solver: str | None, jobs: int, policy: Policy, progress: Progress | None) -> Result:
    from gridsolve.nonogram.backends import ilp
    return ilp.analyse(cast(Puzzle, puzzle), max_solutions, limits)  # kinds: black and white


def _auto(puzzle: AnyPuzzle, max_solutions: int, limits: SearchLimits,
          solver: str | None, jobs: int, policy: Policy, progress: Progress | None) -> Result:
    if jobs > 1:
        from gridsolve.nonogram.backends import parallel
        return parallel.analyse(puzzle, max_solutions, limits, jobs, solver=solver,
                                policy=policy, progress=progress)
    from gridsolve.nonogram.backends import auto
    return auto.analyse(puzzle, max_solutions, limits, solver=solver, policy=policy,
                        progress=progress)


_BOTH = (Puzzle.kind, ColourPuzzle.kind)

#: Every method, by name, in the order people are offered them.
BACKENDS: dict[str, Backend] = {b.name: b for b in (
    Backend("native", _BOTH, _native, parallel=True),
    Backend("sat", _BOTH, _sat),
    Backend("ilp", (Puzzle.kind,), _ilp),
    Backend("auto", _BOTH, _auto, parallel=True),
)}

METHODS = tuple(BACKENDS)


def analyse(puzzle: AnyPuzzle, max_solutions: int = 2, limits: SearchLimits = SearchLimits(),
            method: str = "auto", *, solver: str | None = None, jobs: int = 1,
            policy: Policy = DEFAULT_POLICY, progress: Progress | None = None) -> Result:
    """Search up to ``max_solutions`` solutions with the named method (see METHODS).

    ``solver`` picks the SAT solver for "sat" and "auto": a python-sat name (e.g.
    "cadical195") or "kissat" (``kissat``, the program). ``jobs`` processes for the methods
    that can use them (``Backend.parallel``; one process repeats its run exactly, several
    only their statuses and counts); ``policy`` holds the schedule's tuned numbers;
    ``progress`` (if given) is told the nodes and solutions as they grow, for a display."""
    backend = BACKENDS.get(method)
    if backend is None:
        raise ValueError(f"unknown method {method!r}; choose one of {', '.join(METHODS)}")
    if isinstance(max_solutions, bool) or not isinstance(max_solutions, int) or max_solutions < 1:
        raise ValueError(f"max_solutions must be a whole number of at least 1, got "
                         f"{max_solutions!r}")
    if puzzle.kind not in backend.kinds:
        others = [b.name for b in BACKENDS.values() if puzzle.kind in b.kinds]
        raise GridsolveError(f"the {method} backend solves {' and '.join(backend.kinds)} "
                             f"puzzles only ({', '.join(others[:-1])} and {others[-1]} solve "
                             f"{puzzle.kind} too)")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be a whole number of at least 1, got {jobs!r}")
    return replace(backend.run(puzzle, max_solutions, limits, solver, jobs, policy, progress),
                   puzzle=puzzle)
