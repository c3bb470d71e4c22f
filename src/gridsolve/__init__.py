"""gridsolve: exact, fast solvers for grid logic puzzles.

Nonograms::

    >>> import gridsolve
    >>> result = gridsolve.solve(rows=[[1, 1], [3]], cols=[[2], [1], [2]])
    >>> result.status, result.solutions[0]
    ('unique', ('#.#', '###'))

Colour nonograms are a ``ColourPuzzle`` (a palette of ``Colour``, clues of (length, colour
index)); ``solve``, ``first``, ``count`` and ``unique`` take either kind.

They also take a file or puzzle text, by one rule: a ``pathlib.Path`` (any ``os.PathLike``)
is a file; a ``str`` naming an existing file is that file; any other ``str`` is puzzle text
in any format ``read_puzzle`` knows. A one-line ``str`` that is no file and no puzzle text is
taken for a file's name: a missing file raises ``MissingFile``, which is both a
``ParseError`` (the one exception tree of ``gridsolve.errors``) and a ``FileNotFoundError``::

    >>> gridsolve.solve("duck.txt").status                                # doctest: +SKIP
    'unique'
    >>> gridsolve.count("1 1\n3\n--\n2\n1\n2\n")                       # doctest: +SKIP
    1
"""

from __future__ import annotations

import gc as _gc

from gridsolve import _startup

_startup.install()  # first: Ctrl-C while the gridsolve command starts is one line (see there)
#: The gridsolve command loads its modules with the cyclic garbage collector paused: its
#: passes over the young objects of imports cost 2-3 ms of a solve's start-up. ``cli.main``
#: resumes it once its command's modules are in (``_resume_gc``); a library user's process is
#: not touched.
_gc_paused = _startup.is_command() and _gc.isenabled()
if _gc_paused:
    _gc.disable()

import importlib as _importlib
import os as _os
import sys as _sys
import typing as _typing

from gridsolve.errors import (GridsolveError, InvalidPuzzle, LimitReached, MissingFile,
                              ParseError, SolverUnavailable)

if _typing.TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

    from gridsolve.nonogram.model import (AnyPuzzle, Colour, ColourPuzzle, Grid, Puzzle,
                                          is_solution, puzzle_from_grid)
    from gridsolve.nonogram.backends import METHODS
    from gridsolve.nonogram.engine import Result, SearchLimits
    from gridsolve.nonogram.formats import (Entry, iter_entries, parse_puzzle, read_entry,
                                            read_puzzle, write_puzzle)
    from gridsolve.nonogram.generate import generate
    from gridsolve.nonogram.rate import Rating, rate

__all__ = [
    "GridsolveError", "InvalidPuzzle", "LimitReached", "ParseError", "MissingFile",
    "SolverUnavailable", "AnyPuzzle", "PuzzleSource", "Grid", "Puzzle", "Colour", "ColourPuzzle",
    "Result", "SearchLimits", "Entry", "Rating", "METHODS",
    "solve", "first", "count", "unique", "is_solution", "puzzle_from_grid",
    "read_puzzle", "read_entry", "iter_entries", "parse_puzzle", "write_puzzle",
    "generate", "rate",
]

__version__ = "0.1.0"

#: The public names imported on first use (a command that needs no model, engine, formats or
#: generator does not load them: the CLI starts faster), and the module of each.
_LAZY = {
    **dict.fromkeys(["AnyPuzzle", "Colour", "ColourPuzzle", "Grid", "Puzzle", "is_solution",
                     "puzzle_from_grid"], "gridsolve.nonogram.model"),
    **dict.fromkeys(["METHODS"], "gridsolve.nonogram.backends"),
    **dict.fromkeys(["Result", "SearchLimits"], "gridsolve.nonogram.engine"),
    **dict.fromkeys(["Entry", "iter_entries", "parse_puzzle", "read_entry", "read_puzzle",
                     "write_puzzle"], "gridsolve.nonogram.formats"),
    "generate": "gridsolve.nonogram.generate",
    **dict.fromkeys(["Rating", "rate"], "gridsolve.nonogram.rate"),
}


def __getattr__(name: str) -> Any:
    """A public name of ``_LAZY`` (or ``PuzzleSource``), imported now (PEP 562) and kept."""
    module = _LAZY.get(name)
    if name == "PuzzleSource":
        value: Any = __getattr__("AnyPuzzle") | str | _os.PathLike[str]
    elif module is None:
        raise AttributeError(f"module 'gridsolve' has no attribute {name!r}")
    else:
        value = getattr(_importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The public names (``__all__``), the subpackages and the module's dunders: what
    ``dir(gridsolve)`` and completion show."""
    names = {n for n in globals() if n.startswith("__")} | set(__all__)
    return sorted(names | {n for n in ("nonogram", "tiling", "errors") if n in globals()})


if _typing.TYPE_CHECKING:
    #: What solve, first, count and unique take: a puzzle, a file (a path), or puzzle text
    #: (at run time made on first use, by ``__getattr__``, as the model's names are).
    PuzzleSource = AnyPuzzle | str | _os.PathLike[str]


def _read(source: str | _os.PathLike[str]) -> AnyPuzzle:
    """The puzzle a path or a text holds, by the rule of the module's docstring."""
    from gridsolve.nonogram.formats import parse_puzzle, read_puzzle
    if not isinstance(source, str):
        return read_puzzle(_os.fspath(source))
    if _os.path.isfile(source):
        return read_puzzle(source)
    try:
        return parse_puzzle(source)
    except ParseError as exc:
        if "\n" in source.strip() or isinstance(exc, MissingFile):
            raise
        raise MissingFile(source, "no such file (nor puzzle text)") from None


def _puzzle(puzzle: PuzzleSource | None, rows: Iterable[Iterable[int]] | None,
            cols: Iterable[Iterable[int]] | None) -> AnyPuzzle:
    from gridsolve.nonogram.model import ColourPuzzle, Puzzle
    if puzzle is not None:
        if rows is not None or cols is not None:
            raise TypeError("give either a puzzle or rows= and cols=, not both")
        if isinstance(puzzle, (str, _os.PathLike)):
            return _read(puzzle)
        if not isinstance(puzzle, (Puzzle, ColourPuzzle)):
            raise TypeError(f"a puzzle is a Puzzle, a ColourPuzzle, a path or puzzle text, "
                            f"not {type(puzzle).__name__}")
        return puzzle
    if rows is None or cols is None:
        raise TypeError("give a puzzle, or both rows= and cols=")
    return Puzzle(rows, cols)


def solve(puzzle: PuzzleSource | None = None, *, rows: Iterable[Iterable[int]] | None = None,
          cols: Iterable[Iterable[int]] | None = None, max_solutions: int = 2,
          timeout: float | None = None, max_nodes: int | None = None,
          method: str = "auto") -> Result:
    """Solve a nonogram (a Puzzle or ColourPuzzle, a file or puzzle text, or plain lists of
    row and column clues).

    ``method`` is one of METHODS: "native", "sat", "ilp" or "auto" (native, then SAT); colour
    puzzles take all but "ilp"."""
    from gridsolve.nonogram.backends import analyse
    from gridsolve.nonogram.engine import SearchLimits
    return analyse(_puzzle(puzzle, rows, cols), max_solutions,
                   SearchLimits(max_nodes=max_nodes, timeout=timeout), method)


def first(puzzle: PuzzleSource | None = None, *, rows: Iterable[Iterable[int]] | None = None,
          cols: Iterable[Iterable[int]] | None = None) -> Grid | None:
    """One solution of a nonogram, or None."""
    from gridsolve.nonogram.engine import first as _first
    return _first(_puzzle(puzzle, rows, cols))


def count(puzzle: PuzzleSource | None = None, *, rows: Iterable[Iterable[int]] | None = None,
          cols: Iterable[Iterable[int]] | None = None, limit: int | None = None) -> int:
    """The exact number of solutions of a nonogram (stopping at ``limit`` if given)."""
    from gridsolve.nonogram.engine import count as _count
    return _count(_puzzle(puzzle, rows, cols), limit)


def unique(puzzle: PuzzleSource | None = None, *, rows: Iterable[Iterable[int]] | None = None,
           cols: Iterable[Iterable[int]] | None = None) -> bool:
    """Does the nonogram have exactly one solution? (proven by search)"""
    from gridsolve.nonogram.engine import unique as _unique
    return _unique(_puzzle(puzzle, rows, cols))


def _resume_gc() -> None:
    """Resume the garbage collector paused while the command's modules loaded (see
    ``_gc_paused``), with what they made frozen: no later pass goes over them again."""
    global _gc_paused
    if _gc_paused:
        _gc_paused = False
        _gc.freeze()
        _gc.enable()


if "IPython" in _sys.modules:  # in Jupyter: puzzles and results show as pictures
    from gridsolve.notebook import install as _install_pictures
    _install_pictures()

del annotations  # the __future__ import's name: not part of the API
