"""What every backend shares: the lines of a puzzle, feasible block starts, status and checks.

Glossary
    line key   ("row", i) or ("col", j)
    start      the index of the first cell of a block within its line
    feasible   the starts a block can take when every other block of the line is packed
               tightly to its left and right (the "leftmost/rightmost" bounds)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from gridsolve.errors import GridsolveError
from gridsolve.nonogram.model import (EMPTY, FILLED, UNKNOWN, AnyPuzzle, Clue, Grid, Puzzle,
                                      is_any_solution)

__all__ = ["LineKey", "Line", "lines", "feasible_starts", "checked",
           "unknown_grid", "grid_from_cells", "DEFAULT_SOLVER", "KISSAT",
           "sat_installed"]

#: The SAT solver used unless one is named: Glucose 4.2.1 (with the order model it beat
#: Glucose 4.0 and CaDiCaL 1.9.5 on the hardest survey puzzles; docs/decisions/0013).
DEFAULT_SOLVER = "glucose42"
#: The SAT solver run as a program (``kissat``), not through python-sat.
KISSAT = "kissat"


_SAT_FOUND = False


def sat_installed() -> bool:
    """Is python-sat installed? (found, not imported: importing it and the SAT backend costs a
    small solve more than the solve itself, so auto does that only when SAT is needed). Once
    found it is not looked for again (the search of the path took 0.25 ms of every solve)."""
    global _SAT_FOUND
    if not _SAT_FOUND:
        from importlib.util import find_spec
        _SAT_FOUND = find_spec("pysat") is not None
    return _SAT_FOUND

LineKey = tuple[str, int]
#: One line of the puzzle: its key, its clue and the (row, col) cells it runs over, in order.
Line = tuple[LineKey, Clue, tuple[tuple[int, int], ...]]


def lines(puzzle: Puzzle) -> Iterator[Line]:
    """Every row (left to right) and then every column (top to bottom) with its cells."""
    for r, clue in enumerate(puzzle.rows):
        yield ("row", r), clue, tuple((r, c) for c in range(puzzle.width))
    for c, clue in enumerate(puzzle.cols):
        yield ("col", c), clue, tuple((r, c) for r in range(puzzle.height))


def feasible_starts(clue: Sequence[int], length: int,
                    gaps: Sequence[int] | None = None) -> list[range]:
    """For each block, the starts it can take in a line of this length (leftmost..rightmost).

    ``gaps[k]`` is the least gap after block k: 1 by default; in a colour puzzle, 0 between
    blocks of different colours. Every range has the same length (the line's slack + 1)."""
    g = list(gaps) if gaps is not None else [1] * max(len(clue) - 1, 0)
    need = sum(clue) + sum(g)  # the cells the blocks and their gaps take, packed
    out, before = [], 0
    for k, size in enumerate(clue):
        gap = g[k] if k < len(g) else 0
        earliest = before
        latest = length - (need - before)
        out.append(range(earliest, latest + 1))
        before += size + gap
    return out


def checked(puzzle: AnyPuzzle, grid: Grid, backend: str) -> Grid:
    """Return the grid if it satisfies the clues; a wrong grid is a backend bug, never a result."""
    if not is_any_solution(puzzle, grid):
        raise GridsolveError(f"internal error: the {backend} backend produced a grid that "
                             "breaks the clues; please report this puzzle")
    return grid


def unknown_grid(puzzle: AnyPuzzle) -> Grid:
    """A grid of only unknown cells."""
    return tuple(UNKNOWN * puzzle.width for _ in range(puzzle.height))


def grid_from_cells(puzzle: Puzzle, filled: Sequence[bool | None]) -> Grid:
    """Rows of '#', '.', '?' from a row-major list of True / False / None (unknown)."""
    chars = [UNKNOWN if f is None else FILLED if f else EMPTY for f in filled]
    w = puzzle.width
    return tuple("".join(chars[i:i + w]) for i in range(0, len(chars), w))
