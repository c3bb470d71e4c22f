"""Helpers shared by the format readers: numbers, size guards, and clean errors."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gridsolve.errors import InvalidPuzzle, ParseError
from gridsolve.nonogram.model import MAX_CELLS, Puzzle

#: Files larger than this are refused unless the caller lifts the limits.
MAX_BYTES = 10 * 1024 * 1024


@dataclass(frozen=True)
class RawClues:
    """The clues as a file states them, before the checks that make them a Puzzle."""

    rows: tuple[tuple[int, ...], ...]
    cols: tuple[tuple[int, ...], ...]
    source: str | None = None
    row_lines: tuple[int | None, ...] = ()
    col_lines: tuple[int | None, ...] = ()
    total_line: int | None = None


class ClueError(ParseError):
    """A file that reads but whose clues make no valid puzzle; ``clues`` holds them as written."""

    def __init__(self, why: str, source: str | None, line: int | None, clues: RawClues) -> None:
        self.clues = clues
        super().__init__(why, source, line)


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
        raw = RawClues(tuple(map(tuple, rows)), tuple(map(tuple, cols)), source,
                       tuple(row_lines), tuple(col_lines), total_line)
        raise ClueError(str(exc), source, line, raw) from None
