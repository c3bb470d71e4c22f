"""Jakub Wilk's ``.nin`` format (his `nonogram` solver; also read by pbnsolve and nonogrid).

    6 3                         width height (the reverse of Olšák's .mk "height width")
    3 2                         one line per row, top to bottom, numbers separated by spaces
    1 2 1
    2 3
    3                           then one line per column, left to right
    1 1
    ...

An empty clue is written ``0`` (an empty line inside the clues is read as one too).
Docs: nonogram(1) "DATA FORMAT" (github jwilk-archive/nonogram, doc/manpage.pod);
pbnsolve doc/input.md ("JAKUB WILK'S .NIN FORMAT"); webpbn's export page (``nin``).
"""

from __future__ import annotations

import re

from gridsolve.nonogram.formats._common import (MAX_DIGITS, SIZE_LINE, clue_lines, logical_lines,
                                               puzzle_from_lines, size_line, take_lines)
from gridsolve.nonogram.model import Puzzle

NAME = "nin"
EXTENSIONS = (".nin",)

_NUMBERS = re.compile(r"^[0-9 \t]+$")


def detect(text: str) -> bool:
    """A 'W H' line followed by exactly H + W lines of numbers (then only blank lines)?"""
    lines = logical_lines(text[:2_000_000])
    while lines and not lines[-1].strip():
        lines.pop()
    first = next((i for i, s in enumerate(lines) if s.strip()), None)
    if first is None or not (m := SIZE_LINE.match(lines[first])):
        return False
    if max(map(len, m.groups())) > MAX_DIGITS:
        return False
    body = lines[first + 1:]
    return (len(body) == int(m.group(1)) + int(m.group(2)) > 0
            and all(_NUMBERS.match(s) for s in body))


def parse(text: str, source: str | None = None, limits: bool = True) -> Puzzle:
    """Read a .nin file."""
    lines = [(i + 1, s) for i, s in enumerate(logical_lines(text))]
    w, h, head = size_line(lines, ("width", "height"), source, limits)
    body = lines[head:]
    rows = take_lines(body[:h], h, "row", source, head)
    cols = take_lines(body[h:], w, "column", source, rows[-1][0])
    return puzzle_from_lines(rows, cols, source, limits)


def dump(puzzle: Puzzle) -> str:
    """Write a puzzle as .nin (0 for an empty clue)."""
    return (f"{puzzle.width} {puzzle.height}\n{clue_lines(puzzle.rows)}\n"
            f"{clue_lines(puzzle.cols)}\n")
