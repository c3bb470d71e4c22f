"""Andrew Makhorin's clue files (his pbnsol solver; webpbn's export calls them ``makhorin``).

    * a comment                 lines starting with '*' are comments
    2 2                         one line per row, top to bottom, numbers separated by spaces
    0                           0 = an empty clue
    1 1
    &                           a lone '&' ends the row clues
    1 1                         one line per column, left to right
    1 1 1

Blank lines are skipped (an empty clue is always written 0). There is no size line: the
counts of lines give the size. Webpbn exports these files without a suffix; we use
``.makhorin``. Docs: webpbn.com/export.cgi; nonogrid reads them (tsionyx/nonogrid parser.rs).
"""

from __future__ import annotations

import re

from gridsolve.errors import ParseError
from gridsolve.nonogram.formats._common import clue_lines, logical_lines, puzzle_from_lines
from gridsolve.nonogram.model import Puzzle

NAME = "makhorin"
EXTENSIONS = (".makhorin",)

_NUMBERS = re.compile(r"^[0-9 \t]+$")


def _content(text: str) -> list[tuple[int, str]]:
    """Numbered lines that are neither blank nor comments."""
    return [(i + 1, s.strip()) for i, s in enumerate(logical_lines(text))
            if s.strip() and not s.lstrip().startswith("*")]


def detect(text: str) -> bool:
    """Number lines, one lone '&' between them, '*' comments?"""
    lines = _content(text[:2_000_000])
    seps = [k for k, (_, s) in enumerate(lines) if s == "&"]
    return (len(seps) == 1 and 0 < seps[0] < len(lines) - 1
            and all(_NUMBERS.match(s) for k, (_, s) in enumerate(lines) if k != seps[0]))


def parse(text: str, source: str | None = None, limits: bool = True) -> Puzzle:
    """Read a Makhorin clue file."""
    lines = _content(text)
    if not lines:
        raise ParseError("empty file: no clues found", source)
    seps = [k for k, (_, s) in enumerate(lines) if s == "&"]
    if not seps:
        raise ParseError("no '&' line separating row clues from column clues", source)
    if len(seps) > 1:
        raise ParseError("a second '&' line", source, lines[seps[1]][0])
    rows, cols = lines[:seps[0]], lines[seps[0] + 1:]
    if not rows or not cols:
        raise ParseError(f"no {'row' if not rows else 'column'} clues around the '&' line",
                         source, lines[seps[0]][0])
    return puzzle_from_lines(rows, cols, source, limits)


def dump(puzzle: Puzzle) -> str:
    """Write a puzzle as a Makhorin clue file."""
    return f"{clue_lines(puzzle.rows)}\n&\n{clue_lines(puzzle.cols)}\n"
