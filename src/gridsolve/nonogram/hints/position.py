"""A hint's step, and the position it is taken from: the puzzle's lines over its cells."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any, Literal

from gridsolve.nonogram.hints.kinds import AnyClue, CellKind, Line, kind_for
from gridsolve.nonogram.lines import line_cells, line_label
from gridsolve.nonogram.model import EMPTY, UNKNOWN, AnyPuzzle, ColourPuzzle, Grid
from gridsolve.nonogram.watch.explain import Forced, line_work

HintKind = Literal["line", "whole-line", "contradiction", "guess", "solved", "mistake",
                   "no-solution"]
#: The kinds of step, simplest first (the ends follow).
KINDS: tuple[HintKind, ...] = ("line", "whole-line", "contradiction", "guess", "solved",
                               "mistake", "no-solution")

Cell = tuple[int, str]  # (cell index r*W + c, value: a symbol of the puzzle's grids)


@dataclass(frozen=True)
class Hint:
    """One step: its kind, the reason in words, and what it sets.

    ``cells`` are (index r*W + c, value) pairs the step sets; ``line`` is the line that forces
    them (for a contradiction or a mistake, the line that cannot fit); ``probe`` the assumed
    (cell, value) of a contradiction (in a colour puzzle the value is the symbols of every
    colour the cell was assumed to be: 'g.', green or empty); ``forced`` the per-cell reasons
    of a line step (positions along the line); ``wrong`` the set cells that differ from the
    unique solution. Values are the symbols of the puzzle's grids (a colour's symbol, '.'
    empty)."""

    kind: HintKind
    reason: str
    cells: tuple[Cell, ...] = ()
    line: int = -1
    clue: AnyClue = ()
    probe: Cell | None = None
    forced: tuple[Forced, ...] = ()
    wrong: tuple[int, ...] = ()

    def as_json(self, width: int) -> dict[str, Any]:
        """The step as JSON: cells as {row, col, value} (from 0), the wrong cells as {row, col}."""
        def where(c: int) -> dict[str, int]:
            return {"row": c // width, "col": c % width}
        return {"kind": self.kind, "reason": self.reason,
                "cells": [dict(where(c), value=v) for c, v in self.cells],
                "line": self.line, "clue": [list(b) if isinstance(b, tuple) else b
                                            for b in self.clue],
                "probe": dict(where(self.probe[0]), value=self.probe[1]) if self.probe else None,
                "wrong": [where(c) for c in self.wrong]}


class _Position:
    """The puzzle's lines over a mutable copy of the position's cells (states of the
    puzzle's ``CellKind``)."""

    def __init__(self, puzzle: AnyPuzzle, grid: Grid) -> None:
        self.puzzle = puzzle
        self.kind: CellKind = kind_for(puzzle)
        self.cells = self.kind.states("".join(grid))
        self.lines = [line_cells(puzzle, i) for i in range(puzzle.height + puzzle.width)]
        self.clues = [clue_of_line(puzzle, i) for i in range(len(self.lines))]
        self._take = [itemgetter(*cells) for cells in self.lines]
        self._moved: list[tuple[int, Line, Line]] | None = None

    def cheap_first(self) -> list[int]:
        """The lines, those with the smallest solver tables (cells times blocks) first: a
        look over every line that the clock stops has then looked at the most lines (one
        row of 100,000 cells, half of them set, takes seconds to solve)."""
        return sorted(range(len(self.lines)), key=lambda i: line_work(self.clues[i], self.lines[i]))

    def moved(self, until: float | None) -> Iterator[tuple[int, Line, Line]]:
        """The lines one line solve changes, cheapest first, as (line, before, after);
        LimitReached when the clock stops a solve. A look that went over every line is kept
        (the cells never change): the crossing step after the line step solves none again."""
        if self._moved is not None:
            yield from self._moved
            return
        found = []
        for i in self.cheap_first():
            before = self.line(i)
            if not self.kind.unknowns(before):
                continue
            after = self.kind.solve(self.clues[i], before, until)
            if after is None or after == before:
                continue
            found.append((i, before, after))
            yield i, before, after
        self._moved = found

    def line(self, i: int, cells: Sequence[object] | None = None) -> Line:
        return self.kind.join(self._take[i](self.cells if cells is None else cells))

    def unknowns(self, i: int) -> int:
        """How many cells of line i are not known yet."""
        return self.kind.unknowns(self.line(i))

    def crossing(self, cell: int) -> tuple[int, int]:
        """The row and the column through a cell."""
        w = self.puzzle.width
        return cell // w, self.puzzle.height + cell % w

    def name(self, i: int) -> str:
        """'row 3 (clue 3 1)'; in colour 'row 3 (clue 3 red 1 cream)'."""
        return f"{line_label(self.puzzle, i)} (clue {self.kind.clue_text(self.clues[i])})"

    def symbols(self) -> list[str]:
        """The cells as a person's grid shows them ('?' for a cell not known yet)."""
        if isinstance(self.kind.unknown, str):  # (black and white: the states are symbols)
            return self.cells
        return [self.kind.symbol(v) for v in self.cells]


def clue_of_line(puzzle: AnyPuzzle, i: int) -> AnyClue:
    """The clue of line i (rows first, then columns)."""
    return puzzle.rows[i] if i < puzzle.height else puzzle.cols[i - puzzle.height]


def _clean(puzzle: AnyPuzzle, grid: Sequence[str] | None) -> Grid:
    """The position as rows of symbols: '#', '.', '?' ('x' and 'X' read as empty); in a
    colour puzzle its palette's symbols and '?' ('x' and 'X' read as empty unless the
    palette has them)."""
    if grid is None:
        return tuple(UNKNOWN * puzzle.width for _ in range(puzzle.height))
    symbols = ({c.symbol for c in puzzle.palette} if isinstance(puzzle, ColourPuzzle)
               else {"#", EMPTY})
    rows = tuple(row if "x" in symbols else row.replace("x", EMPTY) for row in grid)
    rows = tuple(row if "X" in symbols else row.replace("X", EMPTY) for row in rows)
    if len(rows) != puzzle.height or any(len(r) != puzzle.width for r in rows):
        raise ValueError(f"the grid must be {puzzle.height} rows of {puzzle.width} cells")
    if set("".join(rows)) - symbols - {UNKNOWN}:
        shown = ", ".join(f"'{s}'" for s in sorted(symbols | {"x"}))
        raise ValueError(f"grid cells must be {shown} or '?'")
    return rows


def _rows(pos: _Position) -> Grid:
    w = pos.puzzle.width
    cells = pos.symbols()
    return tuple("".join(cells[i:i + w]) for i in range(0, len(cells), w))


def wrong_cells(solution: Sequence[str], cells: Sequence[str]) -> tuple[int, ...]:
    """The set cells (index r*W + c) that differ from the solution."""
    flat = "".join(solution)
    return tuple(i for i, (v, s) in enumerate(zip(cells, flat)) if v != UNKNOWN and v != s)


def apply_hint(grid: Sequence[str], step: Hint) -> Grid:
    """The position after the step's cells are set."""
    width = len(grid[0]) if grid else 0
    cells = list("".join(grid))
    for c, v in step.cells:
        cells[c] = v
    return tuple("".join(cells[i:i + width]) for i in range(0, len(cells), width))
