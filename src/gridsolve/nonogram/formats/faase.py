"""Frans Faase's solver input (webpbn's export calls it ``faase``): sections headed ``rows``
and ``columns``.

    width 5                     optional size lines before the sections, checked if given
    height 3
    rows                        a line 'rows', then one line per row, top to bottom
    2                           numbers separated by spaces (or commas); 0 = an empty clue
    1 1
    0
    columns                     a line 'columns', then one line per column, left to right
    1
    ...

Blank lines and lines starting with '#' are skipped; there is no size line needed: the
counts of lines give the size. Simpson's .non (webpbn ``ss``) has the same sections, with
commas and required width/height. Webpbn exports these files without a suffix; we use
``.faase``. Docs: webpbn.com/export.cgi; nonogrid reads them (tsionyx/nonogrid parser.rs).
"""

from __future__ import annotations

import re

from gridsolve.errors import ParseError
from gridsolve.nonogram.formats._common import (check_size, clue_lines, logical_lines,
                                               parse_int, puzzle_from_lines)
from gridsolve.nonogram.model import Puzzle

NAME = "faase"
EXTENSIONS = (".faase",)

_SECTIONS = ("rows", "columns")
_SIZE = re.compile(r"^(width|height)\s+(\S+)$", re.IGNORECASE)
_NUMBERS = re.compile(r"^[0-9 ,\t]+$")
Numbered = list[tuple[int, str]]


def _split(text: str, source: str | None
           ) -> tuple[Numbered, dict[str, Numbered], dict[str, int]]:
    """The header lines and the lines of each section, numbered, blanks and comments out,
    and the line of each section's 'rows' or 'columns' line."""
    head: Numbered = []
    sections: dict[str, Numbered] = {}
    starts: dict[str, int] = {}
    current = head
    for i, s in enumerate(logical_lines(text)):
        s = s.strip()
        if not s or s.startswith("#"):
            continue
        if s.lower() in _SECTIONS:
            if s.lower() in sections:
                raise ParseError(f"a second '{s.lower()}' line", source, i + 1)
            current = sections[s.lower()] = []
            starts[s.lower()] = i + 1
        else:
            current.append((i + 1, s))
    return head, sections, starts


def detect(text: str) -> bool:
    """A 'rows' line and a 'columns' line, each followed by number lines only?"""
    try:
        head, sections, _ = _split(text[:2_000_000], None)
    except ParseError:
        return False
    return (set(sections) == set(_SECTIONS) and all(sections.values())
            and all(_NUMBERS.match(s) for lines in sections.values() for _, s in lines)
            and all(_SIZE.match(s) for _, s in head))


def parse(text: str, source: str | None = None, limits: bool = True) -> Puzzle:
    """Read a Faase clue file."""
    head, sections, starts = _split(text, source)
    missing = [k for k in _SECTIONS if not sections.get(k)]
    if missing and missing[0] in starts:
        raise ParseError(f"the '{missing[0]}' line is followed by no clue lines", source,
                         starts[missing[0]])
    if missing:
        raise ParseError(f"no '{missing[0]}' section (a '{missing[0]}' line followed by "
                         "its clue lines)", source)
    rows, cols = sections["rows"], sections["columns"]
    for n, s in head:
        m = _SIZE.match(s)
        if m is None:
            raise ParseError(f"unexpected line before 'rows': {s[:40]!r}", source, n)
        size = parse_int(m.group(2), m.group(1).lower(), source, n)
        found = len(rows) if m.group(1).lower() == "height" else len(cols)
        if size != found:
            what = "row" if m.group(1).lower() == "height" else "column"
            raise ParseError(f"{m.group(1).lower()} {size}, but {found} {what} lines follow",
                             source, n)
    check_size(len(cols), len(rows), source, None, limits)
    return puzzle_from_lines(rows, cols, source, limits)


def dump(puzzle: Puzzle) -> str:
    """Write a puzzle as a Faase clue file (with its size lines)."""
    return (f"width {puzzle.width}\nheight {puzzle.height}\nrows\n{clue_lines(puzzle.rows)}\n"
            f"columns\n{clue_lines(puzzle.cols)}\n")
