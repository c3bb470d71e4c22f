"""Naming the lines and cells of a puzzle for people: "row 3", "column 5", "r3c5", "2-4, 7".

Lines are numbered as in the engine: 0..H-1 rows top to bottom, then H..H+W-1 columns left
to right; cells as r*W + c. People count from 1.
"""

from __future__ import annotations

from collections.abc import Iterable

from gridsolve.nonogram.model import AnyPuzzle, Clue, Puzzle

__all__ = ["line_cells", "line_clue", "line_label", "cell_label", "spans", "clue_text",
           "VALUE_WORD"]

#: how a cell value is said
VALUE_WORD = {"#": "filled", ".": "empty", "?": "unknown"}


def line_cells(puzzle: AnyPuzzle, line: int) -> list[int]:
    """The cell indices of a line, in reading order."""
    w, h = puzzle.width, puzzle.height
    if line < h:
        return list(range(line * w, line * w + w))
    return list(range(line - h, w * h, w))


def line_clue(puzzle: Puzzle, line: int) -> Clue:
    """The clue of a line."""
    return puzzle.rows[line] if line < puzzle.height else puzzle.cols[line - puzzle.height]


def line_label(puzzle: AnyPuzzle, line: int) -> str:
    """'row 3' or 'column 5' (counting from 1)."""
    if line < puzzle.height:
        return f"row {line + 1}"
    return f"column {line - puzzle.height + 1}"


def cell_label(puzzle: AnyPuzzle, cell: int) -> str:
    """'r3c5' (counting from 1)."""
    return f"r{cell // puzzle.width + 1}c{cell % puzzle.width + 1}"


def clue_text(clue: Clue) -> str:
    """'3 1', or '0' for an empty line."""
    return " ".join(map(str, clue)) or "0"


def spans(positions: Iterable[int]) -> str:
    """Positions (from 0) as runs counted from 1: [1, 2, 3, 6] -> '2-4, 7'."""
    out: list[str] = []
    run: list[int] = []
    for p in sorted(positions):
        if run and p == run[-1] + 1:
            run.append(p)
            continue
        if run:
            out.append(_run(run))
        run = [p]
    if run:
        out.append(_run(run))
    return ", ".join(out)


def _run(run: list[int]) -> str:
    return f"{run[0] + 1}" if len(run) == 1 else f"{run[0] + 1}-{run[-1] + 1}"
