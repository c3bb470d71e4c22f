"""Independent oracles for tests: exhaustive enumeration, no solver code shared."""

from __future__ import annotations

import itertools

from gridsolve.nonogram.model import ColourPuzzle, Puzzle, clue_of, colour_clue_of, columns_of
from gridsolve.nonogram.reference import arrangements
from gridsolve.nonogram.reference_colour import colour_arrangements, solve_colour_line


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


def colour_solutions_by_rows(puzzle: ColourPuzzle) -> set[tuple[str, ...]]:
    """Every solution of a colour puzzle, row by row: each row one of its clue's arrangements,
    pruned as soon as a column's filled top part fits no arrangement of the column's clue
    (checked by the plain-Python reference line solver, not the compiled one)."""
    pal = puzzle.palette
    full = (1 << len(pal)) - 1
    options = [list(colour_arrangements(clue, puzzle.width)) for clue in puzzle.rows]
    found: set[tuple[str, ...]] = set()

    def extend(rows: list[tuple[int, ...]]) -> None:
        depth = len(rows)
        for c, clue in enumerate(puzzle.cols):
            masks = [1 << row[c] for row in rows] + [full] * (puzzle.height - depth)
            if solve_colour_line(clue, masks) is None:
                return
        if depth == puzzle.height:
            found.add(tuple("".join(pal[x].symbol for x in row) for row in rows))
            return
        for row in options[depth]:
            extend(rows + [row])

    extend([])
    return found
