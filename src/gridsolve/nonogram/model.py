"""Nonogram vocabulary: the fixed puzzle and the grids that answer it.

Glossary
    clue   the block lengths of one line, in order (``()`` for an empty line)
    line   a row (left to right) or a column (top to bottom)
    cell   ``FILLED`` ('#'), ``EMPTY`` ('.') or, in a partial grid, ``UNKNOWN`` ('?')
    block  a maximal run of filled cells in a line
    grid   the rows of a picture as strings of cell characters, top to bottom

This module imports nothing else from gridsolve and knows nothing of files or pictures.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from gridsolve.errors import InvalidPuzzle

__all__ = [
    "Clue", "Grid", "Puzzle", "FILLED", "EMPTY", "UNKNOWN",
    "clue_of", "is_solution", "puzzle_from_grid", "columns_of", "MAX_CELLS",
]

Clue = tuple[int, ...]
Grid = tuple[str, ...]

FILLED = "#"
EMPTY = "."
UNKNOWN = "?"

#: Default size guard for input (1000 x 1000); formats refuse larger puzzles unless told not to.
MAX_CELLS = 1_000_000


def _clean_clue(clue: Iterable[int], kind: str, index: int) -> Clue:
    """Return the clue as a tuple of positive ints ((0,) means an empty line)."""
    what, where = f"{kind} {index + 1}", (kind, index)
    out = []
    for n in clue:
        if isinstance(n, bool) or not isinstance(n, int):
            raise InvalidPuzzle(f"{what}: clue numbers must be integers, got {n!r}", where)
        if n < 0:
            raise InvalidPuzzle(f"{what}: clue numbers cannot be negative, got {n}", where)
        out.append(n)
    if out == [0]:
        return ()
    if 0 in out:
        raise InvalidPuzzle(f"{what}: 0 may only stand alone, for an empty line", where)
    return tuple(out)


def clue_min_length(clue: Clue) -> int:
    """How many cells a clue needs at least: its blocks plus one gap between each two."""
    return sum(clue) + max(len(clue) - 1, 0)


@dataclass(frozen=True)
class Puzzle:
    """A black-and-white nonogram: row clues (top to bottom) and column clues (left to right)."""

    rows: tuple[Clue, ...]
    cols: tuple[Clue, ...]
    title: str | None = field(default=None, compare=False)

    def __init__(self, rows: Iterable[Iterable[int]], cols: Iterable[Iterable[int]],
                 title: str | None = None) -> None:
        r = tuple(_clean_clue(c, "row", i) for i, c in enumerate(rows))
        c = tuple(_clean_clue(k, "column", i) for i, k in enumerate(cols))
        object.__setattr__(self, "rows", r)
        object.__setattr__(self, "cols", c)
        object.__setattr__(self, "title", title)
        self._validate()

    def _validate(self) -> None:
        """Refuse puzzles that cannot be solved for reasons a person can fix in the clues."""
        if not self.rows or not self.cols:
            raise InvalidPuzzle("a puzzle needs at least one row and one column")
        for kind, clues, length in (("row", self.rows, self.width), ("column", self.cols, self.height)):
            for i, clue in enumerate(clues):
                need = clue_min_length(clue)
                if need > length:
                    raise InvalidPuzzle(
                        f"{kind} {i + 1}: clue {' '.join(map(str, clue))} needs {need} cells "
                        f"but the {kind} has {length}", (kind, i))
        rsum = sum(map(sum, self.rows))
        csum = sum(map(sum, self.cols))
        if rsum != csum:
            raise InvalidPuzzle(f"row clues fill {rsum} cells but column clues fill {csum}")

    @property
    def width(self) -> int:
        return len(self.cols)

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def size(self) -> str:
        return f"{self.width}x{self.height}"


def clue_of(line: str) -> Clue:
    """The clue that describes a line of cells."""
    return tuple(len(run) for run in line.split(EMPTY) if run)


def columns_of(grid: Sequence[str]) -> Grid:
    """The columns of a grid, each read top to bottom."""
    return tuple("".join(col) for col in zip(*grid)) if grid else ()


def is_solution(puzzle: Puzzle, grid: Sequence[str]) -> bool:
    """Does this complete grid satisfy every row and column clue? (independent of any solver)"""
    if len(grid) != puzzle.height or any(len(r) != puzzle.width for r in grid):
        return False
    if any(ch not in (FILLED, EMPTY) for r in grid for ch in r):
        return False
    return (all(clue_of(r) == c for r, c in zip(grid, puzzle.rows))
            and all(clue_of(col) == c for col, c in zip(columns_of(grid), puzzle.cols)))


def puzzle_from_grid(grid: Sequence[str], title: str | None = None) -> Puzzle:
    """The puzzle whose solution is this picture."""
    return Puzzle([clue_of(r) for r in grid], [clue_of(c) for c in columns_of(grid)], title=title)
