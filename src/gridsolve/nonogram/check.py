"""Problems an author must fix: clues that cannot fit, totals that disagree, no or many solutions;
and a goal stored in a file that the solve contradicts.

Works from the clues as the file states them (``RawClues``, from ``formats.read_clues``), so
it can report every clue problem at once, with its line, where reading a Puzzle stops at the
first one. A colour puzzle's clues (``RawColourClues``) are checked the same way, in the same
words, with each colour's row and column totals compared. Knows the model and the engine,
nothing of files.
"""

from __future__ import annotations

from dataclasses import dataclass

from gridsolve.errors import InvalidPuzzle
from gridsolve.nonogram.engine import SearchLimits, analyse
from gridsolve.nonogram.model import (AnyPuzzle, Colour, ColourPuzzle, Grid, Puzzle, RawClues,
                                      RawColourClues, clue_min_length, clue_of, clue_shown,
                                      colour_clue_min_length, colour_clue_of, columns_of,
                                      is_any_solution, palette_of)

__all__ = ["Problem", "check", "clue_problems", "solution_problems", "goal_warning",
           "MAX_CELLS_SHOWN"]

#: At most this many differing cells are listed in one problem line.
MAX_CELLS_SHOWN = 20


@dataclass(frozen=True)
class Problem:
    """One thing to fix: what is wrong and, when known, the line of the file it is on."""

    message: str
    line: int | None = None

    def text(self, source: str | None) -> str:
        """The problem as one line: ``file:line: message``."""
        where = source or "<input>"
        if self.line is not None:
            where = f"{where}:{self.line}"
        return f"{where}: {self.message}"


def _clue_text(clue: tuple[int, ...]) -> str:
    return clue_shown(map(str, clue))


def _colour_clue_text(clue: tuple[tuple[int, int], ...], palette: tuple[Colour, ...]) -> str:
    """A colour clue as the model writes it: each number followed by its colour's symbol."""
    return clue_shown(str(n) if n == 0 or not 0 < c < len(palette)
                      else f"{n}{palette[c].symbol}" for n, c in clue)


def _line_problem(kind: str, index: int, shown: str, numbers: list[int], need: int,
                  length: int) -> str | None:
    """What is wrong with one line's clue (written ``shown``, needing ``need`` cells)."""
    name = f"{kind} {index + 1}"
    if any(n < 0 for n in numbers):
        return f"{name}: clue {shown}: a block cannot be shorter than 0 cells"
    if 0 in numbers and len(numbers) > 1:
        return f"{name}: clue {shown}: 0 may only stand alone, for an empty line"
    if need > length:
        return f"{name}: clue {shown} needs {need} cells but the {kind} has {length}"
    return None


def _bw_line(kind: str, index: int, clue: tuple[int, ...], length: int) -> str | None:
    return _line_problem(kind, index, _clue_text(clue), list(clue),
                         clue_min_length(tuple(n for n in clue if n)), length)


def _totals(rows: list[int], cols: list[int], what: str, at: int | None) -> list[Problem]:
    """The problem when row clues and column clues fill different numbers of cells."""
    if sum(rows) == sum(cols):
        return []
    return [Problem(f"{what}row clues fill {sum(rows)} cells but column clues fill {sum(cols)}",
                    at)]


def clue_problems(clues: RawClues | RawColourClues) -> list[Problem]:
    """Every clue that cannot fit its line, and row and column totals that disagree (of each
    colour, for a colour puzzle)."""
    if isinstance(clues, RawColourClues):
        return _colour_clue_problems(clues)
    problems = []
    if not clues.rows or not clues.cols:
        return [Problem("a puzzle needs at least one row and one column", clues.total_line)]
    for kind, lines, at, length in (("row", clues.rows, clues.row_lines, len(clues.cols)),
                                    ("column", clues.cols, clues.col_lines, len(clues.rows))):
        for i, clue in enumerate(lines):
            why = _bw_line(kind, i, clue, length)
            if why:
                problems.append(Problem(why, at[i] if i < len(at) else None))
    return problems + _totals([n for c in clues.rows for n in c],
                              [n for c in clues.cols for n in c], "", clues.total_line)


def _colour_clue_problems(clues: RawColourClues) -> list[Problem]:
    """``clue_problems`` of a colour puzzle: blocks of the same colour need a gap between
    them, blocks of different colours do not."""
    if not clues.rows or not clues.cols:
        return [Problem("a puzzle needs at least one row and one column", clues.total_line)]
    problems = []
    for kind, lines, at, length in (("row", clues.rows, clues.row_lines, len(clues.cols)),
                                    ("column", clues.cols, clues.col_lines, len(clues.rows))):
        for i, clue in enumerate(lines):
            need = colour_clue_min_length(tuple(b for b in clue if b[0]))
            why = _line_problem(kind, i, _colour_clue_text(clue, clues.palette),
                                [n for n, _ in clue], need, length)
            if why:
                problems.append(Problem(why, at[i] if i < len(at) else None))
    for ci in range(1, len(clues.palette)):
        problems += _totals([n for c in clues.rows for n, k in c if k == ci],
                            [n for c in clues.cols for n, k in c if k == ci],
                            f"colour {clues.palette[ci].name!r}: ", clues.total_line)
    return problems


def _cells(a: Grid, b: Grid) -> str:
    """The cells (row, column, from 1) where two grids differ, shortened when many."""
    diff = [f"({r + 1},{c + 1})" for r, (ra, rb) in enumerate(zip(a, b))
            for c, (x, y) in enumerate(zip(ra, rb)) if x != y]
    shown = " ".join(diff[:MAX_CELLS_SHOWN])
    more = f" and {len(diff) - MAX_CELLS_SHOWN} more" if len(diff) > MAX_CELLS_SHOWN else ""
    return f"{len(diff)} cells (row,column): {shown}{more}"


def solution_problems(puzzle: AnyPuzzle, limits: SearchLimits = SearchLimits()) -> list[Problem]:
    """No solution, more than one (with the cells where two differ), or undecided in time."""
    result = analyse(puzzle, 2, limits)
    if result.status == "none":
        return [Problem("no solution: the clues contradict each other")]
    if result.status == "multiple":
        a, b = result.solutions[:2]
        return [Problem(f"more than one solution; two of them differ in {_cells(a, b)}")]
    if result.status == "unknown":
        return [Problem("could not decide whether the solution is unique within the limit")]
    return []


def check(clues: RawClues | RawColourClues,
          limits: SearchLimits = SearchLimits()) -> list[Problem]:
    """Every problem found: clue problems first; the solutions only when the clues are sound."""
    problems = clue_problems(clues)
    if problems:
        return problems
    puzzle: AnyPuzzle
    try:
        if isinstance(clues, RawColourClues):
            puzzle = ColourPuzzle(clues.rows, clues.cols, clues.palette)
        else:
            puzzle = Puzzle(clues.rows, clues.cols)
    except InvalidPuzzle as exc:
        return [Problem(str(exc), clues.total_line)]
    return solution_problems(puzzle, limits)


def _first_difference(a: Grid, b: Grid) -> tuple[int, int]:
    return next((r + 1, c + 1) for r, (x, y) in enumerate(zip(a, b))
                for c, (p, q) in enumerate(zip(x, y)) if p != q)


def goal_warning(puzzle: AnyPuzzle, goal: Grid | None, source: str,
                 solutions: tuple[Grid, ...], status: str) -> str | None:
    """A warning line when the goal stored in ``source`` is wrong, given the solve's outcome.

    Wrong means: it breaks a clue, it differs from the unique solution, or the solver found
    none although the goal satisfies the clues. ``None`` when there is no goal or it is right.
    """
    if goal is None:
        return None
    where = f"goal stored in {source}"
    if not is_any_solution(puzzle, goal):
        pal = palette_of(puzzle)

        def clue(line: str) -> object:
            return clue_of(line) if pal is None else colour_clue_of(line, pal)
        row = next((r + 1 for r, (line, want) in enumerate(zip(goal, puzzle.rows))
                    if clue(line) != want), None)
        if row is not None:
            return f"{where} does not satisfy the clue of row {row}"
        col = next(c + 1 for c, (line, want) in enumerate(zip(columns_of(goal), puzzle.cols))
                   if clue(line) != want)
        return f"{where} does not satisfy the clue of column {col}"
    if status == "unique" and solutions[0] != goal:
        r, c = _first_difference(solutions[0], goal)
        return f"{where} differs from the solution at row {r} col {c}"
    if status == "none":
        return f"{where} satisfies the clues, but the solver found no solution"
    return None
