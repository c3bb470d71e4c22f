"""New colour nonograms whose unique solution is proven by the engine: generate.py's repair
on grids of palette symbols.

1. Draw a grid (``random.Random(seed)`` only, node budgets in the loop: a seed always gives
   the same puzzle): each cell an ink with probability ``density``, the ink drawn evenly from
   the first N of ``PALETTE``; or, with ``picture``, value noise cut into bands (background
   below the density's quantile, then one band of equal share per ink, darkest ink highest).
2. Judge and repair as black and white (``generate``'s steps 2-4, the same judge and
   budgets): a change sets a suspect cell to another colour, drawn from the seed's random
   numbers among the others (background included); a picture's cell (noise bands, or an
   image from ``image.colour_grid_from_image``) only goes to its second choice and back, the
   cells nearest a band's edge first, and changes are pruned afterwards.
3. Prove it from scratch: ``rate``'s search on the colour engine counts the solutions to 2
   (complete, no node budget) and names the level; only a unique puzzle of the level asked
   for is given, else a fresh grid is drawn (``ROUNDS``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, cast

from gridsolve.errors import GridsolveError, LimitReached
from gridsolve.nonogram.engine import SearchLimits, deadline_of, passed, seconds_left
from gridsolve.nonogram.generate import (ROUNDS, Cell, Grids, _advice, _check_size, _prune,
                                         _repair, _set, noise_values, rounds_of)
from gridsolve.nonogram.model import (EMPTY, WHITE, AnyPuzzle, Colour, ColourPuzzle, Grid,
                                      colour_clue_of, colour_puzzle_from_grid,
                                      is_colour_solution)
from gridsolve.nonogram.rate import Level, Rating, rate

__all__ = ["ColourGenerated", "ColourGrids", "generate_colour", "make_colour_unique",
           "random_colour_grid", "banded_grid", "random_palette", "PALETTE", "MAX_COLOURS"]

#: The inks of random colour puzzles, in the order ``--colours N`` takes them: dark enough to
#: read on white, far apart in hue; one letter each (webpbn and JSON keep it).
PALETTE: tuple[Colour, ...] = (
    Colour("black", (0, 0, 0), "k"), Colour("red", (220, 30, 30), "r"),
    Colour("blue", (30, 60, 220), "b"), Colour("green", (0, 150, 0), "g"),
    Colour("orange", (255, 140, 0), "o"), Colour("purple", (128, 0, 128), "p"),
    Colour("brown", (139, 69, 19), "n"), Colour("teal", (0, 128, 128), "t"),
    Colour("pink", (255, 105, 180), "i"), Colour("grey", (128, 128, 128), "a"),
)
#: Ink colours a generated puzzle may have at most (the picture's too).
MAX_COLOURS = len(PALETTE)


@dataclass(frozen=True)
class ColourGenerated:
    """A new colour puzzle, its solution, the grid it started from, and what it took."""

    puzzle: ColourPuzzle
    solution: Grid
    start: Grid
    seed: int
    attempts: int
    changed: int
    rating: Rating


@dataclass(frozen=True)
class ColourGrids:
    """Colour grids for the repair (``generate.Grids``): their puzzle has this palette; a
    change draws another colour, or with ``choices`` (each cell's first and second choice)
    goes from one choice to the other."""

    palette: tuple[Colour, ...]
    choices: tuple[Grid, Grid] | None = None

    def puzzle(self, grid: Grid) -> AnyPuzzle:
        return colour_puzzle_from_grid(grid, self.palette)

    def after_change(self, puzzle: AnyPuzzle, grid: Grid, cell: Cell) -> AnyPuzzle:
        colour = cast(ColourPuzzle, puzzle)  # (this kind makes colour puzzles only)
        r, c = cell
        rows, cols = list(colour.rows), list(colour.cols)
        rows[r] = colour_clue_of(grid[r], self.palette)
        cols[c] = colour_clue_of("".join(row[c] for row in grid), self.palette)
        return ColourPuzzle(rows, cols, self.palette)

    def change(self, grid: Grid, cell: Cell, rng: random.Random) -> Grid:
        r, c = cell
        now = grid[r][c]
        if self.choices is not None:
            first, second = self.choices[0][r][c], self.choices[1][r][c]
            return _set(grid, cell, first if now == second else second)
        return _set(grid, cell, rng.choice([k.symbol for k in self.palette if k.symbol != now]))


def random_palette(colours: int) -> tuple[Colour, ...]:
    """White background and the first ``colours`` inks of PALETTE."""
    if not 1 <= colours <= MAX_COLOURS:
        raise ValueError(f"colours must be between 1 and {MAX_COLOURS}, got {colours}")
    return (WHITE, *PALETTE[:colours])


def random_colour_grid(width: int, height: int, palette: Sequence[Colour], density: float,
                       rng: random.Random) -> Grid:
    """Each cell an ink (drawn evenly from the palette's inks) with probability ``density``."""
    inks = [c.symbol for c in palette[1:]]
    return tuple("".join(rng.choice(inks) if rng.random() < density else EMPTY
                         for _ in range(width)) for _ in range(height))


def banded_grid(width: int, height: int, palette: Sequence[Colour], density: float,
                rng: random.Random, until: float | None = None
                ) -> tuple[Grid, Grid, list[list[float]]]:
    """Smooth shapes in bands of value noise (``generate.noise_values``): the lowest
    ``1 - density`` of the cells background, then the inks in equal shares, the first ink
    highest; with each cell's second choice (the band across its nearest edge) and cost (the
    distance to that edge)."""
    values = noise_values(width, height, rng, until)
    ranked = sorted(v for row in values for v in row)
    if passed(until):
        raise LimitReached("the time ran out while drawing the picture's shapes")
    cells, inks = width * height, len(palette) - 1
    filled = round(density * cells)
    # cuts[k]: the lowest value of band k + 1 (band 0 background, band k ink len - k ...)
    cuts = [ranked[cells - filled + (filled * k) // inks] if filled else float("inf")
            for k in range(inks)]
    symbols = [palette[0].symbol, *(c.symbol for c in reversed(palette[1:]))]
    grid, second, cost = [], [], []
    for row in values:
        bands = [sum(v >= cut for cut in cuts) for v in row]
        grid.append("".join(symbols[b] for b in bands))
        near: list[tuple[float, int]] = []
        for v, b in zip(row, bands):
            below = (v - cuts[b - 1], b - 1) if b else (float("inf"), b)
            above = (cuts[b] - v, b + 1) if b < inks else (float("inf"), b)
            near.append(min(below, above))
        second.append("".join(symbols[b] for _, b in near))
        cost.append([d if d != float("inf") else 1.0 for d, _ in near])
    return tuple(grid), tuple(second), cost


def _finish(start: Grid, solution: Grid, palette: tuple[Colour, ...], seed: int, attempts: int,
            until: float | None = None) -> ColourGenerated:
    """Prove the result once more, from scratch (the rating's complete search, before
    ``until``), and package it."""
    puzzle = colour_puzzle_from_grid(solution, palette)
    rating = rate(puzzle, SearchLimits(timeout=seconds_left(until)))
    if rating.status == "unknown":
        raise LimitReached("a unique puzzle was found, but its proof from scratch did not end "
                           "within the time limit", partial=solution)
    if not rating.unique or not is_colour_solution(puzzle, solution):  # pragma: no cover
        raise GridsolveError("internal error: the generated puzzle is not unique; please report")
    changed = sum(a != b for ra, rb in zip(start, solution) for a, b in zip(ra, rb))
    return ColourGenerated(puzzle, solution, start, seed, attempts, changed, rating)


def make_colour_unique(grid: Sequence[str], palette: Sequence[Colour], *,
                       level: Level = "search", seed: int = 0,
                       second: Sequence[str] | None = None,
                       cost: Sequence[Sequence[float]] | None = None,
                       max_attempts: int | None = None,
                       timeout: float | None = None) -> ColourGenerated:
    """Change as few cells of a colour grid as the greedy repair can until its puzzle is
    unique; with ``second`` (each cell's second choice, as ``image.ColourPicture``), a cell
    only changes to it."""
    start, pal = tuple(grid), tuple(palette)
    _check_size(len(start[0]) if start else 0, len(start))
    symbols = {c.symbol for c in pal}
    if any(len(row) != len(start[0]) or set(row) - symbols for row in start):
        raise ValueError("a grid needs rows of equal length made of the palette's symbols")
    if second is not None and (tuple(map(len, second)) != tuple(map(len, start))
                               or any(set(row) - symbols for row in second)):
        raise ValueError("the second choices need the grid's shape and the palette's symbols")
    grids = ColourGrids(pal, None if second is None else (start, tuple(second)))
    until = deadline_of(timeout)
    solution, attempts = _repair(start, level, random.Random(seed), cost, max_attempts, timeout,
                                 grids)
    solution, tries = _prune(start, solution, level, cost, until, grids)
    return _finish(start, solution, pal, seed, attempts + tries, until)


def generate_colour(width: int, height: int, colours: int, *, density: float | None = None,
                    seed: int | None = None, level: Level | Literal["any"] = "any",
                    max_attempts: int | None = None, timeout: float | None = None,
                    picture: bool = False, rounds: int = ROUNDS) -> ColourGenerated:
    """A colour puzzle of this size and ``colours`` inks (the first of ``PALETTE``) whose
    unique solution is proven and that needs exactly ``level`` (``any``: the first unique
    one); the other options as ``generate.generate``."""
    palette = random_palette(colours)

    def draw(fill: float, rng: random.Random,
             until: float | None) -> tuple[Grid, Sequence[Sequence[float]] | None, Grids]:
        if picture:
            start, second, cost = banded_grid(width, height, palette, fill, rng, until)
            return start, cost, ColourGrids(palette, (start, second))
        return random_colour_grid(width, height, palette, fill, rng), None, ColourGrids(palette)

    def finish(start: Grid, solution: Grid, seed: int, attempts: int,
               until: float | None) -> ColourGenerated:
        return _finish(start, solution, palette, seed, attempts, until)

    advice = (" (colour puzzles rarely need search: in our draws only smooth pictures at 40x40 "
              "or larger gave some)" if level == "search" else _advice(level, width, height))
    return rounds_of(width, height, level, density, seed, max_attempts, timeout, picture,
                     rounds, draw, finish, f"{width}x{height} puzzle in {colours} colours",
                     advice)
