"""Independent oracles for tests: exhaustive enumeration, no solver code shared."""

from __future__ import annotations

import itertools

from gridsolve.nonogram.model import Puzzle, clue_of, columns_of
from gridsolve.nonogram.reference import arrangements


def all_solutions(puzzle: Puzzle) -> set[tuple[str, ...]]:
    """Every grid whose rows and columns match the clues (product of row arrangements)."""
    options = [list(arrangements(c, puzzle.width)) for c in puzzle.rows]
    found = set()
    for grid in itertools.product(*options):
        if all(clue_of(col) == c for col, c in zip(columns_of(grid), puzzle.cols)):
            found.add(tuple(grid))
    return found
