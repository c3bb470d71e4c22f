"""gridsolve: exact, fast solvers for grid logic puzzles.

Nonograms::

    >>> import gridsolve
    >>> result = gridsolve.solve(rows=[[1, 1], [3]], cols=[[2], [1], [2]])
    >>> result.status, result.solutions[0]
    ('unique', ('#.#', '###'))
"""

from __future__ import annotations

from collections.abc import Iterable

from gridsolve.errors import (GridsolveError, InvalidPuzzle, LimitReached, ParseError,
                              SolverUnavailable)
from gridsolve.nonogram.engine import Result, SearchLimits, analyse
from gridsolve.nonogram.engine import count as _count
from gridsolve.nonogram.engine import first as _first
from gridsolve.nonogram.engine import unique as _unique
from gridsolve.nonogram.formats import parse_puzzle, read_puzzle, write_puzzle
from gridsolve.nonogram.model import Grid, Puzzle, is_solution, puzzle_from_grid

__all__ = [
    "GridsolveError", "InvalidPuzzle", "LimitReached", "ParseError", "SolverUnavailable",
    "Grid", "Puzzle", "Result", "SearchLimits",
    "solve", "first", "count", "unique", "is_solution", "puzzle_from_grid",
    "read_puzzle", "parse_puzzle", "write_puzzle",
]

__version__ = "0.1.0"


def _puzzle(puzzle: Puzzle | None, rows: Iterable[Iterable[int]] | None,
            cols: Iterable[Iterable[int]] | None) -> Puzzle:
    if puzzle is not None:
        if rows is not None or cols is not None:
            raise TypeError("give either a puzzle or rows= and cols=, not both")
        return puzzle
    if rows is None or cols is None:
        raise TypeError("give a puzzle, or both rows= and cols=")
    return Puzzle(rows, cols)


def solve(puzzle: Puzzle | None = None, *, rows: Iterable[Iterable[int]] | None = None,
          cols: Iterable[Iterable[int]] | None = None, max_solutions: int = 2,
          timeout: float | None = None, max_nodes: int | None = None) -> Result:
    """Solve a nonogram (a Puzzle, or plain lists of row and column clues)."""
    return analyse(_puzzle(puzzle, rows, cols), max_solutions,
                   SearchLimits(max_nodes=max_nodes, timeout=timeout))


def first(puzzle: Puzzle | None = None, *, rows: Iterable[Iterable[int]] | None = None,
          cols: Iterable[Iterable[int]] | None = None) -> Grid | None:
    """One solution of a nonogram, or None."""
    return _first(_puzzle(puzzle, rows, cols))


def count(puzzle: Puzzle | None = None, *, rows: Iterable[Iterable[int]] | None = None,
          cols: Iterable[Iterable[int]] | None = None, limit: int | None = None) -> int:
    """The exact number of solutions of a nonogram (stopping at ``limit`` if given)."""
    return _count(_puzzle(puzzle, rows, cols), limit)


def unique(puzzle: Puzzle | None = None, *, rows: Iterable[Iterable[int]] | None = None,
           cols: Iterable[Iterable[int]] | None = None) -> bool:
    """Does the nonogram have exactly one solution? (proven by search)"""
    return _unique(_puzzle(puzzle, rows, cols))
