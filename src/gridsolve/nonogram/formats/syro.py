"""Syromolotov's JSolver clue files (webpbn's export calls them ``syro``).

    # a comment                 lines starting with '#' before the clues are comments
    3 1 0                       one line per row, top to bottom; each ends with a 0
    0                           a lone 0 = an empty clue
    #                           a line starting with '#' ends the row clues
    2 0                         one line per column, left to right
    ...
    #                           and one ends the column clues

Blank lines are skipped. There is no size line: the counts of lines give the size. Webpbn
exports these files without a suffix; we use ``.syro``. Docs: webpbn.com/export.cgi;
nonogrid reads them (tsionyx/nonogrid parser.rs); JSolver (sourceforge.net/projects/jsolver).
"""

from __future__ import annotations

import re

from gridsolve.errors import ParseError
from gridsolve.nonogram.formats._common import build_puzzle, logical_lines, parse_numbers
from gridsolve.nonogram.model import Puzzle

NAME = "syro"
EXTENSIONS = (".syro",)

_CLUE = re.compile(r"^(?:[0-9]+[ \t]+)*0$")
Numbered = list[tuple[int, str]]


def _sections(text: str) -> tuple[list[int], list[Numbered]]:
    """The '#' lines after the first clue line, and the runs of clue lines they separate
    (the first run is the rows, the second the columns; '#' lines before are comments)."""
    runs: list[Numbered] = [[]]
    marks: list[int] = []
    for i, s in enumerate(logical_lines(text)):
        s = s.strip()
        if not s:
            continue
        if s.startswith("#"):
            if runs[-1]:
                marks.append(i + 1)
                runs.append([])
            continue
        runs[-1].append((i + 1, s))
    while runs and not runs[-1]:
        runs.pop()
    return marks, runs


def detect(text: str) -> bool:
    """Two runs of clue lines that end in 0, each closed by a '#' line?"""
    marks, runs = _sections(text[:2_000_000])
    return (len(runs) == 2 and len(marks) >= 1
            and all(_CLUE.match(s) for run in runs for _, s in run))


def _clue(text: str, source: str | None, line: int) -> list[int]:
    nums = parse_numbers(text, source, line)
    if not nums or nums[-1] != 0:
        raise ParseError("a clue line must end with 0", source, line)
    return nums[:-1]


def parse(text: str, source: str | None = None, limits: bool = True) -> Puzzle:
    """Read a JSolver clue file."""
    marks, runs = _sections(text)
    if not runs:
        raise ParseError("empty file: no clues found", source)
    if len(runs) == 1:
        if marks:
            raise ParseError("no column clues after the '#' line that ends the row clues",
                             source, marks[0])
        raise ParseError("no '#' line separating row clues from column clues", source)
    if len(runs) > 2:
        raise ParseError("clue lines after the column clues' closing '#' line", source,
                         runs[2][0][0])
    rows, cols = runs
    return build_puzzle([_clue(s, source, n) for n, s in rows],
                        [_clue(s, source, n) for n, s in cols], source,
                        [n for n, _ in rows], [n for n, _ in cols], limits=limits)


def _line(clue: tuple[int, ...]) -> str:
    return " ".join(map(str, (*clue, 0)))


def dump(puzzle: Puzzle) -> str:
    """Write a puzzle as a JSolver clue file."""
    return "\n".join([*map(_line, puzzle.rows), "#", *map(_line, puzzle.cols), "#"]) + "\n"
