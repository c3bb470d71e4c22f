"""Mirek Olšák's ``.mk`` format (black and white): a size line, rows, ``#``, columns.

    10 5                        height width
    2                           one line per row (0 or an empty line = empty clue)
    ...
    #                           then one line per column
    2 1

Docs: pbnsolve doc/input.md ("OLSAK .MK FORMAT"). See olsak_g.py for ``.g``.
"""

from __future__ import annotations

from gridsolve.errors import ParseError
from gridsolve.nonogram.formats._common import (MAX_DIGITS, SIZE_LINE, clue_lines, logical_lines,
                                               puzzle_from_lines, size_line, take_lines)
from gridsolve.nonogram.model import Puzzle

NAME = "mk"
EXTENSIONS = (".mk",)



def detect(text: str) -> bool:
    """A 'H W' line, H lines, a lone '#', W lines (blank lines at the end aside)?"""
    lines = logical_lines(text[:2_000_000])
    first = next((i for i, s in enumerate(lines) if s.strip()), None)
    if first is None or not (m := SIZE_LINE.match(lines[first])) or max(map(len, m.groups())) > MAX_DIGITS:
        return False
    h, w = int(m.group(1)), int(m.group(2))
    seps = [i for i, s in enumerate(lines) if s.strip() == "#"]
    if len(seps) != 1 or seps[0] - first - 1 != h:
        return False
    tail = lines[seps[0] + 1:]
    return len(tail) >= w and not any(s.strip() for s in tail[w:])


def parse(text: str, source: str | None = None, limits: bool = True) -> Puzzle:
    """Read an Olšák .mk file."""
    lines = [(i + 1, s) for i, s in enumerate(logical_lines(text))]
    w, h, head = size_line(lines, ("height", "width"), source, limits)
    seps = [k for k, (n, s) in enumerate(lines) if s.strip() == "#"]
    if not seps:
        raise ParseError("no '#' line separating row clues from column clues", source)
    if len(seps) > 1:
        raise ParseError("a second '#' line", source, lines[seps[1]][0])
    rows = take_lines(lines[head:seps[0]], h, "row", source, head)
    cols = take_lines(lines[seps[0] + 1:], w, "column", source, lines[seps[0]][0])
    return puzzle_from_lines(rows, cols, source, limits)


def dump(puzzle: Puzzle) -> str:
    """Write a puzzle as .mk."""
    return (f"{puzzle.height} {puzzle.width}\n{clue_lines(puzzle.rows)}\n#\n"
            f"{clue_lines(puzzle.cols)}\n")
