"""Mirek Olšák's ``.g`` format: sections after lines starting with ':' (rows, then columns).

    Bicykl                      text before the first ':' line is a comment
    : rows                      the rest of a ':' line is ignored
    3                           one line per row; an empty line is an empty clue
    ...
    : columns
    7
    ...
    : end                       text after the closing ':' is ignored

A ``#d`` block declares colours and ``#t``/``#T`` declares a hexagonal triddler: both give a
clear error for now (colour clues carry letters, e.g. ``3b``).
Docs: pbnsolve doc/input.md; the comments in Olšák's sample kocka.g.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from gridsolve.errors import ParseError
from gridsolve.nonogram.formats._common import (COLOUR_UNSUPPORTED, Entry, check_size, clue_lines,
                                               default_label, logical_lines, only_entry,
                                               puzzle_from_lines)
from gridsolve.nonogram.model import Puzzle

NAME = "g"
EXTENSIONS = (".g",)
Numbered = list[tuple[int, str]]


def detect(text: str) -> bool:
    """At least two lines starting with ':' (section markers)?"""
    return sum(1 for s in logical_lines(text[:2_000_000]) if s.startswith(":")) >= 2

def parse(text: str, source: str | None = None, limits: bool = True) -> Puzzle:
    """Read a black-and-white Olšák .g file."""
    return only_entry(entries(text, source, limits), source).puzzle

def entries(text: str, source: str | None = None, limits: bool = True) -> Iterator[Entry]:
    """The one puzzle of a .g file."""
    lines = [(i + 1, s) for i, s in enumerate(logical_lines(text))]
    starts = [k for k, (_, s) in enumerate(lines) if s.startswith(":")]
    for n, s in lines[:starts[0] if starts else len(lines)]:
        if s[:2] in ("#t", "#T"):
            raise ParseError("hexagonal triddlers are not supported", source, n)
        if s[:2] in ("#d", "#D"):
            raise ParseError(COLOUR_UNSUPPORTED + " (a '#d' colour block)", source, n)
    if len(starts) < 2:
        raise ParseError("expected a ':' line before the rows and another before the "
                         "columns", source)
    sections: list[Numbered] = []
    for k, start in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(lines)
        sections.append(lines[start + 1:end])
    if len(starts) > 3 or len(starts) == 3 and any(s.strip() for _, s in sections[2]) \
            and len(starts) > 3:
        raise ParseError(f"{len(starts) - 1} clue groups: only rows and columns are "
                         "supported", source, lines[starts[3]][0])
    rows, cols = sections[0], sections[1]
    if len(starts) == 2:
        while cols and not cols[-1][1].strip():
            cols = cols[:-1]
    for n, s in (*rows, *cols):
        if re.search(r"\d[A-Za-z]", s):
            raise ParseError(COLOUR_UNSUPPORTED + f" (clue {s.strip()!r})", source, n)
    check_size(max(len(cols), 1), max(len(rows), 1), source, None, limits)
    puzzle = puzzle_from_lines(rows, cols, source, limits)
    yield Entry(source or "<input>", 0, default_label(source), puzzle, None)

def dump(puzzle: Puzzle) -> str:
    """Write a puzzle as a black-and-white .g file."""
    title = " ".join((puzzle.title or "gridsolve").split())
    if title[:1] in (":", "#"):
        title = " " + title  # a leading ':' or '#' would start a section or a declaration
    return (f"{title}\n: rows\n{clue_lines(puzzle.rows, empty='')}\n: columns\n"
            f"{clue_lines(puzzle.cols, empty='')}\n: end\n")
