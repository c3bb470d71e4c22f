"""The ``ish`` clue files of webpbn's export: row clues, a blank line, column clues, with
comma-separated numbers and ``#`` comments.

    # a comment                 lines starting with '#' are comments
    3,1                         one line per row, top to bottom; 0 = an empty clue
    2
                                one blank line
    1,1                         one line per column, left to right
    ...

Kyle Keen's format (keen.py) is the same layout with spaces; both read either separator.
Webpbn exports these files without a suffix; we use ``.ish``. Docs: webpbn.com/export.cgi;
nonogrid reads them (tsionyx/nonogrid parser.rs: "'ish' and 'ss' has comma-separated blocks").
"""

from __future__ import annotations

import re

from gridsolve.errors import ParseError
from gridsolve.nonogram.formats._common import logical_lines, puzzle_from_lines
from gridsolve.nonogram.formats.keen import split_blocks
from gridsolve.nonogram.model import Puzzle

NAME = "ish"
EXTENSIONS = (".ish",)

_NUMBERS = re.compile(r"^[0-9 ,\t]*$")
Numbered = list[tuple[int, str]]


def _lines(text: str) -> Numbered:
    """Numbered lines without the comment lines."""
    return [(i + 1, s) for i, s in enumerate(logical_lines(text))
            if not s.lstrip().startswith("#")]


def detect(text: str) -> bool:
    """Clues in two blocks split by a blank line, '#' comments allowed? (Keen's format,
    tried first, takes such files when they have no comments: the puzzle is the same.)"""
    lines = _lines(text[:2_000_000])
    if not all(_NUMBERS.match(s) for _, s in lines):
        return False
    try:
        split_blocks(lines, None)
    except ParseError:
        return False
    return True


def parse(text: str, source: str | None = None, limits: bool = True) -> Puzzle:
    """Read an ish clue file."""
    lines = _lines(text)
    clue_at = [k for k, (_, s) in enumerate(lines) if s.strip()]
    if not clue_at:
        raise ParseError("empty file: no clues found", source)
    if clue_at[-1] - clue_at[0] + 1 == len(clue_at) and clue_at[-1] + 1 < len(lines):
        raise ParseError("no column clues after the blank line that ends the row clues",
                         source, lines[clue_at[-1] + 1][0])
    rows, cols = split_blocks(lines, source)
    return puzzle_from_lines(rows, cols, source, limits)


def _line(clue: tuple[int, ...]) -> str:
    return ",".join(map(str, clue)) or "0"


def dump(puzzle: Puzzle) -> str:
    """Write a puzzle as an ish clue file."""
    rows, cols = map(_line, puzzle.rows), map(_line, puzzle.cols)
    return "\n".join(rows) + "\n\n" + "\n".join(cols) + "\n"
