"""The CWD format of QNonograms and Sukhoy's solver: height, width, rows, a blank line, columns.

    10                          height (number of rows)
    5                           width (number of columns)
    2                           one line per row (0 = empty clue)
    ...
                                a blank line
    2 1                         one line per column
    ...

Docs: pbnsolve doc/input.md ("MESHCHERYAKOV AND SUKHOY'S .CWD FORMAT").
"""

from __future__ import annotations

import re

from gridsolve.errors import ParseError
from gridsolve.nonogram.formats._common import (MAX_DIGITS, check_size, clue_lines, is_number,
                                               logical_lines, parse_int, puzzle_from_lines,
                                               take_lines)
from gridsolve.nonogram.model import Puzzle

NAME = "cwd"
EXTENSIONS = (".cwd",)


def detect(text: str) -> bool:
    """Two lone numbers H and W, H lines, a blank line, W lines?"""
    lines = logical_lines(text[:2_000_000])
    # (blanks as int() takes them: re's \s also matches \x1c-\x1f, which int() refuses)
    if len(lines) < 3 or not all(re.fullmatch(r"[ \t]*[0-9]{1,6}[ \t\r]*", s) for s in lines[:2]):
        return False
    h, w = int(lines[0]), int(lines[1])
    rest = lines[2:]
    if not (h and w and len(rest) >= h + 1 + w and not rest[h].strip()
            and all(s.strip() for s in rest[:h]) and not any(s.strip() for s in rest[h + 1 + w:])):
        return False
    rows, cols = _total(rest[:h]), _total(rest[h + 1:h + 1 + w])
    return rows is not None and rows == cols  # a Keen file cannot pass this


def _total(lines: list[str]) -> int | None:
    """Cells filled by these clue lines (None if they are not all numbers)."""
    toks = [tok for s in lines for tok in s.replace(",", " ").split()]
    if not all(is_number(tok) and len(tok) <= MAX_DIGITS for tok in toks):
        return None
    return sum(map(int, toks))


def parse(text: str, source: str | None = None, limits: bool = True) -> Puzzle:
    """Read a CWD file."""
    lines = [(i + 1, s) for i, s in enumerate(logical_lines(text))]
    if len(lines) < 2:
        raise ParseError("expected the height and the width on the first two lines", source)
    h = parse_int(lines[0][1], "the height (line 1)", source, 1)
    w = parse_int(lines[1][1], "the width (line 2)", source, 2)
    check_size(w, h, source, 1, limits)
    rows = lines[2:2 + h]
    if len(rows) < h:
        raise ParseError(f"expected {h} row lines, found {len(rows)}", source, len(lines))
    after = lines[2 + h:]
    if not after or after[0][1].strip():
        raise ParseError("expected a blank line after the row clues", source,
                         after[0][0] if after else len(lines))
    cols = take_lines(after[1:], w, "column", source, after[0][0])
    return puzzle_from_lines(rows, cols, source, limits)


def dump(puzzle: Puzzle) -> str:
    """Write a puzzle as CWD."""
    return (f"{puzzle.height}\n{puzzle.width}\n{clue_lines(puzzle.rows)}\n\n"
            f"{clue_lines(puzzle.cols)}\n")
