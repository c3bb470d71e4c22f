"""Kyle Keen's two-block format (webpbn export "version 2 of Kyle Keen's Python solver").

    2                           one line per row, top to bottom, numbers separated by spaces
    2 1                         0 = an empty clue
                                one blank line
    2 1                         one line per column, left to right
    7

See webpbn.com/export.cgi. The same layout with a ``--`` or ``#`` separator is the text format.
"""

from __future__ import annotations

import re

from gridsolve.errors import ParseError
from gridsolve.nonogram.formats import cwd
from gridsolve.nonogram.formats._common import clue_lines, logical_lines, puzzle_from_lines
from gridsolve.nonogram.model import Puzzle

NAME = "keen"
EXTENSIONS = (".txt",)

_NUMBERS = re.compile(r"^[0-9 ,\t]*$")
Numbered = list[tuple[int, str]]


def detect(text: str) -> bool:
    """Two blocks of number lines split by one blank-line run (and not a CWD file)?"""
    lines = logical_lines(text[:2_000_000])
    if not all(_NUMBERS.match(s) for s in lines):
        return False
    try:
        split_blocks([(i + 1, s) for i, s in enumerate(lines)], None)
    except ParseError:
        return False
    return not cwd.detect(text)


def split_blocks(lines: Numbered, source: str | None) -> tuple[Numbered, Numbered]:
    """Row lines and column lines of a text whose two blocks are split by blank lines."""
    body = [(n, s.strip()) for n, s in lines]
    filled = [k for k, (_, s) in enumerate(body) if s]
    body = body[filled[0]:filled[-1] + 1] if filled else []
    gaps = [k for k in range(1, len(body)) if not body[k][1] and body[k - 1][1]]
    if not gaps:
        raise ParseError("no blank line separating row clues from column clues", source)
    if len(gaps) > 1:
        raise ParseError("more than one blank-line gap: write 0 for an empty clue, or "
                         "separate rows from columns with a '--' line", source, body[gaps[1]][0])
    k = gaps[0]
    end = next(j for j in range(k, len(body)) if body[j][1])
    return body[:k], body[end:]


def parse(text: str, source: str | None = None, limits: bool = True) -> Puzzle:
    """Read a puzzle in Keen's two-block format."""
    numbered = [(i + 1, s) for i, s in enumerate(logical_lines(text))]
    if not any(s.strip() for _, s in numbered):
        raise ParseError("empty file: no clues found", source)
    rows, cols = split_blocks(numbered, source)
    return puzzle_from_lines(rows, cols, source, limits)


def dump(puzzle: Puzzle) -> str:
    """Write a puzzle in Keen's format (0 for an empty clue)."""
    return f"{clue_lines(puzzle.rows)}\n\n{clue_lines(puzzle.cols)}\n"
