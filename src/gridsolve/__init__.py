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

from gridsolve import _startup

_startup.install()  # first: Ctrl-C while the gridsolve command starts is one line (see there)

import importlib
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from gridsolve.errors import (GridsolveError, InvalidPuzzle, LimitReached, ParseError,
                              SolverUnavailable)
from gridsolve.nonogram.model import (AnyPuzzle, Colour, ColourPuzzle, Grid, Puzzle, is_solution,
                                      puzzle_from_grid)

if TYPE_CHECKING:
    from gridsolve.nonogram.backends import METHODS
    from gridsolve.nonogram.engine import Result, SearchLimits
    from gridsolve.nonogram.formats import (Entry, iter_entries, parse_puzzle, read_entry,
                                            read_puzzle, write_puzzle)
    from gridsolve.nonogram.generate import generate
    from gridsolve.nonogram.rate import Rating, rate

__all__ = [
    "GridsolveError", "InvalidPuzzle", "LimitReached", "ParseError", "SolverUnavailable",
    "Grid", "Puzzle", "Colour", "ColourPuzzle", "Result", "SearchLimits", "Entry", "Rating",
    "METHODS",
    "solve", "first", "count", "unique", "is_solution", "puzzle_from_grid",
    "read_puzzle", "read_entry", "iter_entries", "parse_puzzle", "write_puzzle",
    "generate", "rate",
]

__version__ = "0.1.0"

#: The public names imported on first use (a command that needs no engine, formats or
#: generator does not load them: the CLI starts faster), and the module of each.
_LAZY = {
    **dict.fromkeys(["METHODS"], "gridsolve.nonogram.backends"),
    **dict.fromkeys(["Result", "SearchLimits"], "gridsolve.nonogram.engine"),
    **dict.fromkeys(["Entry", "iter_entries", "parse_puzzle", "read_entry", "read_puzzle",
                     "write_puzzle"], "gridsolve.nonogram.formats"),
    "generate": "gridsolve.nonogram.generate",
    **dict.fromkeys(["Rating", "rate"], "gridsolve.nonogram.rate"),
}


def __getattr__(name: str) -> Any:
    """A public name of ``_LAZY``, imported now (PEP 562) and kept."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'gridsolve' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


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
    from gridsolve.nonogram.backends import analyse
    from gridsolve.nonogram.engine import SearchLimits
    return analyse(_puzzle(puzzle, rows, cols), max_solutions,
                   SearchLimits(max_nodes=max_nodes, timeout=timeout), method)


def first(puzzle: AnyPuzzle | None = None, *, rows: Iterable[Iterable[int]] | None = None,
          cols: Iterable[Iterable[int]] | None = None) -> Grid | None:
    """One solution of a nonogram, or None."""
    from gridsolve.nonogram.engine import first as _first
    return _first(_puzzle(puzzle, rows, cols))


def count(puzzle: AnyPuzzle | None = None, *, rows: Iterable[Iterable[int]] | None = None,
          cols: Iterable[Iterable[int]] | None = None, limit: int | None = None) -> int:
    """The exact number of solutions of a nonogram (stopping at ``limit`` if given)."""
    from gridsolve.nonogram.engine import count as _count
    return _count(_puzzle(puzzle, rows, cols), limit)


def unique(puzzle: AnyPuzzle | None = None, *, rows: Iterable[Iterable[int]] | None = None,
           cols: Iterable[Iterable[int]] | None = None) -> bool:
    """Does the nonogram have exactly one solution? (proven by search)"""
    from gridsolve.nonogram.engine import unique as _unique
    return _unique(_puzzle(puzzle, rows, cols))


if "IPython" in sys.modules:  # in Jupyter: puzzles and results show as pictures
    from gridsolve.notebook import install as _install_pictures
    _install_pictures()
