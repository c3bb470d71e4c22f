"""Interchangeable nonogram solvers behind one call: ``analyse(puzzle, ..., method=...)``.

    native   the compiled engine (line DP, propagation, probing, DFS)
    sat      the block-start model as CNF, python-sat (extra ``gridsolve[sat]``)
    ilp      the classic integer program, PuLP + CBC (extra ``gridsolve[ilp]``)
    auto     native under a node budget, then SAT seeded with the cells native proved
             (the rule is in ``gridsolve.nonogram.backends.auto``)

Every method returns the engine's ``Result`` with the same statuses and exact counts; every
solution is checked by the model's ``is_solution`` before it is returned.

Colour puzzles (``ColourPuzzle``) take "native" (the colour engine), "sat" (a colour CNF)
and "auto" (the same rule over those two); the ILP model is black-and-white only.
"""

from __future__ import annotations

from gridsolve.errors import GridsolveError
from gridsolve.nonogram import engine
from gridsolve.nonogram.engine import Result, SearchLimits
from gridsolve.nonogram.engine import colour as colour_engine
from gridsolve.nonogram.model import AnyPuzzle, ColourPuzzle

__all__ = ["METHODS", "analyse"]

METHODS = ("native", "sat", "ilp", "auto")


def analyse(puzzle: AnyPuzzle, max_solutions: int = 2, limits: SearchLimits = SearchLimits(),
            method: str = "auto", *, solver: str | None = None) -> Result:
    """Search up to ``max_solutions`` solutions with the named method (see METHODS).

    ``solver`` picks the python-sat solver for "sat" and "auto" (e.g. "cadical195")."""
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}; choose one of {', '.join(METHODS)}")
    if method == "sat":
        from gridsolve.nonogram.backends import sat
        return sat.analyse(puzzle, max_solutions, limits, solver=solver or sat.DEFAULT_SOLVER)
    if method == "native":
        if isinstance(puzzle, ColourPuzzle):
            return colour_engine.analyse(puzzle, max_solutions, limits)
        return engine.analyse(puzzle, max_solutions, limits)
    if method == "ilp":
        if isinstance(puzzle, ColourPuzzle):
            raise GridsolveError("the ilp backend solves black-and-white puzzles only "
                                 "(native and sat solve colour too)")
        from gridsolve.nonogram.backends import ilp
        return ilp.analyse(puzzle, max_solutions, limits)
    from gridsolve.nonogram.backends import auto
    return auto.analyse(puzzle, max_solutions, limits, solver=solver)
