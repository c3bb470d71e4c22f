"""Independent oracles for tests: exhaustive enumeration, no solver code shared."""

from __future__ import annotations

import itertools

from gridsolve.nonogram.model import ColourPuzzle, Puzzle, clue_of, colour_clue_of, columns_of
from gridsolve.nonogram.reference import arrangements


def all_solutions(puzzle: Puzzle) -> set[tuple[str, ...]]:
    """Every grid whose rows and columns match the clues (product of row arrangements)."""
    options = [list(arrangements(c, puzzle.width)) for c in puzzle.rows]
    found = set()
    for grid in itertools.product(*options):
        if all(clue_of(col) == c for col, c in zip(columns_of(grid), puzzle.cols)):
            found.add(tuple(grid))
    return found


def all_colour_solutions(puzzle: ColourPuzzle) -> set[tuple[str, ...]]:
    """Every grid of palette symbols matching a colour puzzle: each row is any string over the
    palette whose clue is the row's (no line solver involved), then columns are checked."""
    pal = puzzle.palette
    symbols = [c.symbol for c in pal]
    rows = [["".join(cells) for cells in itertools.product(symbols, repeat=puzzle.width)
             if colour_clue_of("".join(cells), pal) == clue] for clue in puzzle.rows]
    return {tuple(grid) for grid in itertools.product(*rows)
            if all(colour_clue_of(col, pal) == c
                   for col, c in zip(columns_of(grid), puzzle.cols))}
