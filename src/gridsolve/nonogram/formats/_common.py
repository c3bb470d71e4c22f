"""Helpers shared by the format readers: numbers, size guards, and clean errors."""

from __future__ import annotations

from collections.abc import Sequence

from gridsolve.errors import InvalidPuzzle, ParseError
from gridsolve.nonogram.model import MAX_CELLS, Puzzle

#: Files larger than this are refused unless the caller lifts the limits.
MAX_BYTES = 10 * 1024 * 1024


def parse_numbers(text: str, source: str | None, line: int) -> list[int]:
    """Numbers separated by spaces, tabs or commas; a clear error for anything else."""
    out = []
    for tok in text.replace(",", " ").split():
        try:
            n = int(tok)
        except ValueError:
            raise ParseError(f"{tok!r} is not a number", source, line) from None
        if n < 0:
            raise ParseError(f"clue numbers cannot be negative, got {n}", source, line)
        out.append(n)
    return out


def build_puzzle(rows: Sequence[Sequence[int]], cols: Sequence[Sequence[int]],
                 source: str | None, row_lines: Sequence[int | None] = (),
                 col_lines: Sequence[int | None] = (), title: str | None = None,
                 limits: bool = True, total_line: int | None = None) -> Puzzle:
    """Make a Puzzle, turning a validation failure into a ParseError at the clue's line."""
    if limits and len(rows) * len(cols) > MAX_CELLS:
        raise ParseError(f"puzzle is {len(cols)}x{len(rows)}, over the 1000x1000 limit "
                         "(use --no-limits to read it anyway)", source)
    try:
        return Puzzle(rows, cols, title=title)
    except InvalidPuzzle as exc:
        line = total_line
        if exc.where is not None:
            kind, i = exc.where
            lines = row_lines if kind == "row" else col_lines
            line = lines[i] if i < len(lines) else None
        raise ParseError(str(exc), source, line) from None
