"""gridsolve: exact, fast solvers for grid logic puzzles.

Nonograms::

    >>> import gridsolve
    >>> result = gridsolve.solve(rows=[[1, 1], [3]], cols=[[2], [1], [2]])
    >>> result.status, result.solutions[0]
    ('unique', ('#.#', '###'))

Colour nonograms are a ``ColourPuzzle`` (a palette of ``Colour``, clues of (length, colour
index)); ``solve``, ``first``, ``count`` and ``unique`` take either kind.
"""

from __future__ import annotations

from collections.abc import Iterable

from gridsolve.errors import (GridsolveError, InvalidPuzzle, LimitReached, ParseError,
                              SolverUnavailable)
from gridsolve.nonogram.backends import METHODS
from gridsolve.nonogram.backends import analyse as _analyse
from gridsolve.nonogram.engine import Result, SearchLimits
from gridsolve.nonogram.engine import count as _count
from gridsolve.nonogram.engine import first as _first
from gridsolve.nonogram.engine import unique as _unique
from gridsolve.nonogram.formats import (Entry, iter_entries, parse_puzzle, read_entry, read_puzzle,
                                        write_puzzle)
from gridsolve.nonogram.generate import generate
from gridsolve.nonogram.model import (AnyPuzzle, Colour, ColourPuzzle, Grid, Puzzle, is_solution,
                                      puzzle_from_grid)
from gridsolve.nonogram.rate import Rating, rate
from gridsolve.notebook import install as _install_pictures

__all__ = [
    "GridsolveError", "InvalidPuzzle", "LimitReached", "ParseError", "SolverUnavailable",
    "Grid", "Puzzle", "Colour", "ColourPuzzle", "Result", "SearchLimits", "Entry", "Rating",
    "METHODS",
    "solve", "first", "count", "unique", "is_solution", "puzzle_from_grid",
    "read_puzzle", "read_entry", "iter_entries", "parse_puzzle", "write_puzzle",
    "generate", "rate",
]

__version__ = "0.1.0"

_install_pictures()  # Jupyter shows puzzles and results as pictures (gridsolve/notebook.py)


def _puzzle(puzzle: AnyPuzzle | None, rows: Iterable[Iterable[int]] | None,
            cols: Iterable[Iterable[int]] | None) -> AnyPuzzle:
    if puzzle is not None:
        if rows is not None or cols is not None:
            raise TypeError("give either a puzzle or rows= and cols=, not both")
        return puzzle
    if rows is None or cols is None:
        raise TypeError("give a puzzle, or both rows= and cols=")
    return Puzzle(rows, cols)


def solve(puzzle: AnyPuzzle | None = None, *, rows: Iterable[Iterable[int]] | None = None,
          cols: Iterable[Iterable[int]] | None = None, max_solutions: int = 2,
          timeout: float | None = None, max_nodes: int | None = None,
          method: str = "auto") -> Result:
    """Solve a nonogram (a Puzzle or ColourPuzzle, or plain lists of row and column clues).

    ``method`` is one of METHODS: "native", "sat", "ilp" or "auto" (native, then SAT); colour
    puzzles take all but "ilp"."""
    return _analyse(_puzzle(puzzle, rows, cols), max_solutions,
                    SearchLimits(max_nodes=max_nodes, timeout=timeout), method)


def first(puzzle: AnyPuzzle | None = None, *, rows: Iterable[Iterable[int]] | None = None,
          cols: Iterable[Iterable[int]] | None = None) -> Grid | None:
    """One solution of a nonogram, or None."""
    return _first(_puzzle(puzzle, rows, cols))


def count(puzzle: AnyPuzzle | None = None, *, rows: Iterable[Iterable[int]] | None = None,
          cols: Iterable[Iterable[int]] | None = None, limit: int | None = None) -> int:
    """The exact number of solutions of a nonogram (stopping at ``limit`` if given)."""
    return _count(_puzzle(puzzle, rows, cols), limit)


def unique(puzzle: AnyPuzzle | None = None, *, rows: Iterable[Iterable[int]] | None = None,
           cols: Iterable[Iterable[int]] | None = None) -> bool:
    """Does the nonogram have exactly one solution? (proven by search)"""
    return _unique(_puzzle(puzzle, rows, cols))
