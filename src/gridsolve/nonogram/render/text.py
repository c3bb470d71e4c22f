"""Grids as text: bare glyphs, or laid out like a printed puzzle with its clues in the margins.

Both come from one list of styled segments, so the plain text and the rich (coloured) text
are the same characters. A colour grid shows each cell by its palette symbol and each clue
number with its colour's symbol after it ('3r'); rich text paints both in the colour's RGB.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from gridsolve.nonogram.model import (EMPTY, FILLED, UNKNOWN, AnyPuzzle, Clue, Colour, ColourPuzzle,
                                      colour_puzzle_of,
                                      Puzzle)

if TYPE_CHECKING:
    from rich.text import Text

__all__ = ["grid_text", "clued_text", "grid_rich", "segments", "UNICODE", "ASCII", "STYLES"]

#: glyphs for (filled, empty, unknown)
UNICODE = ("■", "□", "?")
ASCII = ("#", ".", "?")

#: rich styles for the segment kinds
STYLES = {"clue": "cyan", "filled": "bold", "empty": "dim", "unknown": "yellow", "": ""}

Segment = tuple[str, str]  # (text, kind: "clue" | "filled" | "empty" | "unknown" | "")
#                             or, in colour, a rich style of its own ("bold #ff0000")


def _cell_kind(ch: str) -> str:
    return "filled" if ch == FILLED else "empty" if ch == EMPTY else "unknown"


def _glyph(ch: str, glyphs: tuple[str, str, str]) -> str:
    return glyphs[0] if ch == FILLED else glyphs[1] if ch == EMPTY else glyphs[2]


def grid_text(grid: Sequence[str], glyphs: tuple[str, str, str] = UNICODE,
              palette: Sequence[Colour] | None = None) -> str:
    """The grid as lines of glyphs, one character per cell (palette symbols for a colour
    grid, given its palette)."""
    return "\n".join("".join(t for t, _ in line) for line in segments(grid, glyphs, None, palette))


def _numbers(clue: Clue) -> list[str]:
    return [str(n) for n in clue] or ["0"]


def _ink(colour: Colour) -> str:
    """The rich style of a colour's cells and clue numbers (near-black ones in the terminal's
    own text colour, as black-and-white grids are, so they show on dark terminals too)."""
    r, g, b = colour.rgb
    return "bold" if 0.299 * r + 0.587 * g + 0.114 * b < 48 else f"bold {colour.hex}"


def _colour_cell(ch: str, glyphs: tuple[str, str, str], ink: dict[str, str]) -> Segment:
    if ch == EMPTY:
        return glyphs[1], "empty"
    if ch in ink:
        return ch, ink[ch]
    return glyphs[2], "unknown"


def _colour_numbers(puzzle: ColourPuzzle, clue: tuple[tuple[int, int], ...]) -> list[Segment]:
    pal = puzzle.palette
    return [(f"{n}{pal[c].symbol}", _ink(pal[c])) for n, c in clue] or [("0", "clue")]


def _colour_segments(grid: Sequence[str], glyphs: tuple[str, str, str],
                     palette: Sequence[Colour], puzzle: ColourPuzzle | None) -> list[list[Segment]]:
    """``segments`` for a colour grid: the same layout, each number and cell in its colour."""
    ink = {c.symbol: _ink(c) for c in palette[1:]}
    if puzzle is None:
        return [[_colour_cell(ch, glyphs, ink) for ch in row] for row in grid]
    cols = [_colour_numbers(puzzle, c) for c in puzzle.cols]
    rows = [_colour_numbers(puzzle, c) for c in puzzle.rows]
    cw = max(len(n) for col in cols for n, _ in col)
    depth = max(len(col) for col in cols)
    left = max(len(" ".join(n for n, _ in r)) for r in rows)
    lines: list[list[Segment]] = []
    for i in range(depth):
        line: list[Segment] = [(" " * (left + 1), "")]
        for j, col in enumerate(cols):
            n, kind = col[i - depth + len(col)] if i >= depth - len(col) else ("", "")
            line += [(" " if j else "", ""), (n.rjust(cw), kind)]
        while not line[-1][0].strip():
            line.pop()
        lines.append(line)
    for r, row in enumerate(grid):
        width = len(" ".join(n for n, _ in rows[r]))
        line = [(" " * (left - width), "")]
        for k, seg in enumerate(rows[r]):
            line += [(" " if k else "", ""), seg]
        for ch in row:
            line += [(" " * cw, ""), _colour_cell(ch, glyphs, ink)]
        lines.append(line)
    return lines


def segments(grid: Sequence[str], glyphs: tuple[str, str, str] = UNICODE,
             puzzle: AnyPuzzle | None = None,
             palette: Sequence[Colour] | None = None) -> list[list[Segment]]:
    """Lines of styled segments: the bare grid, or with clue margins when given the puzzle.

    With clues, numbers are right-aligned in the left margin and bottom-aligned in the top
    margin; cells are one column each, separated by a space, as wide as the widest number.
    A colour puzzle (or a bare grid with its ``palette``) draws palette symbols."""
    colour = None if puzzle is None else colour_puzzle_of(puzzle)
    if colour is not None:
        return _colour_segments(grid, glyphs, colour.palette, colour)
    if palette is not None:
        return _colour_segments(grid, glyphs, palette, None)
    if puzzle is None:
        return [[(_glyph(ch, glyphs), _cell_kind(ch)) for ch in row] for row in grid]
    header, rows, cw = _margins(cast(Puzzle, puzzle))  # (not a colour puzzle)
    lines: list[list[Segment]] = [[(" " * (len(rows[0]) + 1), ""), (h, "clue")] for h in header]
    for r, row in enumerate(grid):
        line: list[Segment] = [(rows[r], "clue")]
        for ch in row:
            line += [(" " * cw, ""), (_glyph(ch, glyphs), _cell_kind(ch))]
        lines.append(line)
    return lines


def _margins(puzzle: Puzzle) -> tuple[list[str], list[str], int]:
    """The clue margins of a black-and-white grid: the top margin's lines (after the left
    margin's width and a space), each row's left margin (right-aligned), and the width of a
    cell (the widest number)."""
    cols = [_numbers(c) for c in puzzle.cols]
    rows = [" ".join(_numbers(c)) for c in puzzle.rows]
    cw = max(len(n) for col in cols for n in col)
    depth = max(len(col) for col in cols)
    left = max(len(r) for r in rows)
    header = [" ".join((col[i - depth + len(col)] if i >= depth - len(col) else "").rjust(cw)
                       for col in cols).rstrip() for i in range(depth)]
    return header, [r.rjust(left) for r in rows], cw


def clued_text(puzzle: AnyPuzzle, grid: Sequence[str],
               glyphs: tuple[str, str, str] = UNICODE) -> str:
    """The grid with its clues in the margins, as plain text (a black-and-white grid a row
    at a time: 1000x1000 in a tenth of the time of its segments)."""
    if colour_puzzle_of(puzzle) is not None:
        return "\n".join("".join(t for t, _ in line).rstrip()
                         for line in segments(grid, glyphs, puzzle))
    header, rows, cw = _margins(cast(Puzzle, puzzle))  # (not a colour puzzle)
    cell = {ch: " " * cw + _glyph(ch, glyphs) for ch in (FILLED, EMPTY, UNKNOWN)}
    unknown = cell[UNKNOWN]
    lines = [(" " * (len(rows[0]) + 1) + h).rstrip() for h in header]
    lines += [(margin + "".join([cell.get(ch, unknown) for ch in row])).rstrip()
              for margin, row in zip(rows, grid, strict=True)]
    return "\n".join(lines)


def grid_rich(grid: Sequence[str], glyphs: tuple[str, str, str] = UNICODE,
              puzzle: AnyPuzzle | None = None, palette: Sequence[Colour] | None = None) -> Text:
    """The same text as ``grid_text``/``clued_text``, coloured for a terminal (rich)."""
    from rich.text import Text  # only for a colour terminal: plain output never loads rich
    out = Text()
    for i, line in enumerate(segments(grid, glyphs, puzzle, palette)):
        if i:
            out.append("\n")
        for text, kind in line:
            out.append(text, STYLES.get(kind, kind))
    out.rstrip()
    return out
