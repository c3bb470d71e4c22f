"""Grids as text: bare glyphs, or laid out like a printed puzzle with its clues in the margins.

Both come from one list of styled segments, so the plain text and the rich (coloured) text
are the same characters.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from gridsolve.nonogram.model import EMPTY, FILLED, Clue, Puzzle

__all__ = ["grid_text", "clued_text", "grid_rich", "segments", "UNICODE", "ASCII", "STYLES"]

#: glyphs for (filled, empty, unknown)
UNICODE = ("■", "□", "?")
ASCII = ("#", ".", "?")

#: rich styles for the segment kinds
STYLES = {"clue": "cyan", "filled": "bold", "empty": "dim", "unknown": "yellow", "": ""}

Segment = tuple[str, str]  # (text, kind: "clue" | "filled" | "empty" | "unknown" | "")


def _cell_kind(ch: str) -> str:
    return "filled" if ch == FILLED else "empty" if ch == EMPTY else "unknown"


def _glyph(ch: str, glyphs: tuple[str, str, str]) -> str:
    return glyphs[0] if ch == FILLED else glyphs[1] if ch == EMPTY else glyphs[2]


def grid_text(grid: Sequence[str], glyphs: tuple[str, str, str] = UNICODE) -> str:
    """The grid as lines of glyphs, one character per cell."""
    return "\n".join("".join(_glyph(ch, glyphs) for ch in row) for row in grid)


def _numbers(clue: Clue) -> list[str]:
    return [str(n) for n in clue] or ["0"]


def segments(grid: Sequence[str], glyphs: tuple[str, str, str] = UNICODE,
             puzzle: Puzzle | None = None) -> list[list[Segment]]:
    """Lines of styled segments: the bare grid, or with clue margins when given the puzzle.

    With clues, numbers are right-aligned in the left margin and bottom-aligned in the top
    margin; cells are one column each, separated by a space, as wide as the widest number."""
    if puzzle is None:
        return [[(_glyph(ch, glyphs), _cell_kind(ch)) for ch in row] for row in grid]
    cols = [_numbers(c) for c in puzzle.cols]
    rows = [" ".join(_numbers(c)) for c in puzzle.rows]
    cw = max(len(n) for col in cols for n in col)
    depth = max(len(col) for col in cols)
    left = max(len(r) for r in rows)
    lines: list[list[Segment]] = []
    for i in range(depth):
        nums = [col[i - depth + len(col)] if i >= depth - len(col) else "" for col in cols]
        lines.append([(" " * (left + 1), ""), (" ".join(n.rjust(cw) for n in nums).rstrip(), "clue")])
    for r, row in enumerate(grid):
        line: list[Segment] = [(rows[r].rjust(left), "clue")]
        for ch in row:
            line += [(" " * cw, ""), (_glyph(ch, glyphs), _cell_kind(ch))]
        lines.append(line)
    return lines


def clued_text(puzzle: Puzzle, grid: Sequence[str], glyphs: tuple[str, str, str] = UNICODE) -> str:
    """The grid with its clues in the margins, as plain text."""
    return "\n".join("".join(t for t, _ in line).rstrip() for line in segments(grid, glyphs, puzzle))


def grid_rich(grid: Sequence[str], glyphs: tuple[str, str, str] = UNICODE,
              puzzle: Puzzle | None = None) -> Text:
    """The same text as ``grid_text``/``clued_text``, coloured for a terminal (rich)."""
    out = Text()
    for i, line in enumerate(segments(grid, glyphs, puzzle)):
        if i:
            out.append("\n")
        for text, kind in line:
            out.append(text, STYLES[kind])
    out.rstrip()
    return out
