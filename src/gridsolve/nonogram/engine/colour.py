"""The native colour nonogram engine: a thin Python face over the compiled core (``_colour``).

The same shape as the black-and-white engine: ``solve`` is a generator of solutions, ``analyse``
runs it up to a count and reports a status, ``first``, ``count`` and ``unique`` sit on top.
Grids are rows of palette symbols. Every grid is checked by the model's independent
``is_colour_solution`` before it leaves this module. Black-and-white puzzles keep their own,
faster engine; this one takes any palette of up to 32 colours, background included.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence

import gridsolve.nonogram.engine._colour as _colour
from gridsolve.errors import GridsolveError, LimitReached
from gridsolve.nonogram.engine import Result, SearchLimits, status_of
from gridsolve.nonogram.model import UNKNOWN, ColourClue, ColourPuzzle, Grid, is_colour_solution

__all__ = ["solve", "analyse", "first", "count", "unique", "solve_line"]

#: What the core writes for a cell that still has more than one colour.
_NOT_KNOWN = 255


class _Search:
    """One native search over one colour puzzle, resumable solution by solution."""

    def __init__(self, puzzle: ColourPuzzle, probing: bool = True) -> None:
        self.puzzle = puzzle
        self.core = _colour.Search(puzzle.rows, puzzle.cols, len(puzzle.palette), probing)
        self.started = time.perf_counter()
        self.symbols = [c.symbol for c in puzzle.palette]

    def _rows(self, data: bytes) -> Grid:
        text = "".join(UNKNOWN if b == _NOT_KNOWN else self.symbols[b] for b in data)
        w = self.puzzle.width
        return tuple(text[i:i + w] for i in range(0, len(text), w))

    def _next(self, limits: SearchLimits) -> int:
        timeout = -1.0
        if limits.timeout is not None:
            timeout = max(0.0, limits.timeout - (time.perf_counter() - self.started))
        max_nodes = -1 if limits.max_nodes is None else limits.max_nodes
        return int(self.core.next(max_nodes, timeout))

    def _grid(self) -> Grid:
        grid = self._rows(self.core.grid())
        if not is_colour_solution(self.puzzle, grid):  # pragma: no cover - a bug in the core
            raise GridsolveError("internal error: the colour engine produced a grid that breaks "
                                 "the clues; please report this puzzle")
        return grid

    def run(self, limits: SearchLimits) -> Iterator[Grid]:
        while True:
            code = self._next(limits)
            if code == _colour.EXHAUSTED:
                return
            if code == _colour.LIMIT:
                raise LimitReached("search limit reached", partial=self.partial(),
                                   nodes=self.core.stats()["nodes"])
            yield self._grid()

    def partial(self) -> Grid:
        return self._rows(self.core.root())


def solve(puzzle: ColourPuzzle, limits: SearchLimits = SearchLimits(), *,
          probing: bool = True) -> Iterator[Grid]:
    """Yield every solution of the puzzle (raises LimitReached when a limit stops the search)."""
    yield from _Search(puzzle, probing).run(limits)


def analyse(puzzle: ColourPuzzle, max_solutions: int = 2, limits: SearchLimits = SearchLimits(),
            *, probing: bool = True) -> Result:
    """Search up to ``max_solutions`` solutions and say whether the puzzle is unique."""
    search = _Search(puzzle, probing)
    found: list[Grid] = []
    complete = True
    try:
        for grid in search.run(limits):
            found.append(grid)
            if len(found) >= max_solutions:
                break
    except LimitReached:
        complete = False
    stats = search.core.stats()
    return Result(status_of(len(found), max_solutions, complete), tuple(found), stats["nodes"],
                  time.perf_counter() - search.started, search.partial(), stats)


def first(puzzle: ColourPuzzle, limits: SearchLimits = SearchLimits()) -> Grid | None:
    """One solution, or None if there is none."""
    return next(solve(puzzle, limits), None)


def count(puzzle: ColourPuzzle, limit: int | None = None,
          limits: SearchLimits = SearchLimits()) -> int:
    """How many solutions (stopping at ``limit`` if given); exact when below the limit."""
    n = 0
    for _ in solve(puzzle, limits):
        n += 1
        if limit is not None and n >= limit:
            break
    return n


def unique(puzzle: ColourPuzzle, limits: SearchLimits = SearchLimits()) -> bool:
    """Is there exactly one solution? (proven by exhausting the search)"""
    return count(puzzle, 2, limits) == 1


def solve_line(clue: ColourClue, masks: Sequence[int]) -> list[int] | None:
    """The compiled colour line solver: narrow a line of colour masks (bit c = colour c still
    possible, bit 0 the background) to what the clue allows; None if nothing fits."""
    return _colour.solve_line(clue, masks)
