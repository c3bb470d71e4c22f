"""The TAAI/TCGA/ICGA tournament format: ``$n`` headers, tab-separated clues, columns first.

    $1                          one header per puzzle, numbered from 1
    2<TAB>1<TAB>3               25 column clues (left to right, each read top to bottom)
    ...                         then 25 row clues (top to bottom); an empty line is an
                                empty clue

The boards are 25x25 (see github zxkyjimmy/NonogramRecord and the tournaments' boardgen.py);
a block of 2N lines is read as an NxN puzzle. A file without ``$`` headers holds one puzzle.

Solutions live in a separate file of the same shape: ``$n``, then one line per row of
TAB-separated ``0``/``1``. ``iter_entries`` on ``.../question/X.txt`` takes the goals from
``.../solution/X.txt`` when that file exists.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator

from gridsolve.errors import ParseError
from gridsolve.nonogram.formats._common import (Entry, build_puzzle, default_label,
                                                logical_lines, make_goal, only_entry,
                                                parse_number_lines)
from gridsolve.nonogram.model import AnyPuzzle, Grid, Puzzle

NAME = "tournament"
EXTENSIONS = (".txt",)
SIDE = 25

_HEADER = re.compile(r"^\$([0-9]+)\s*$")
_NUMBERS = re.compile(r"^[0-9 \t]*$")


def detect(text: str) -> bool:
    """Does it start with a ``$n`` line, or is it 50 lines of TAB-separated numbers?"""
    lines = logical_lines(text[:20000])
    first = next((s for s in lines if s.strip()), "")
    if _HEADER.match(first.strip()):
        return True
    body = logical_lines(text)
    while body and not body[-1].strip():
        body.pop()
    return (len(body) == 2 * SIDE and any("\t" in s for s in body)
            and all(_NUMBERS.match(s) for s in body))


def _blocks(lines: list[str], source: str | None) -> Iterator[tuple[str, int, list[str]]]:
    """(label, line number of the first body line, body lines) for each ``$n`` block."""
    starts = [(i, m.group(1)) for i, s in enumerate(lines)
              if "$" in s and (m := _HEADER.match(s.strip()))]  # ("$" first: 50 lines a puzzle)
    if not starts:
        yield default_label(source), 1, lines
        return
    junk = next((i for i in range(starts[0][0]) if lines[i].strip()), None)
    if junk is not None:
        raise ParseError("text before the first '$n' header", source, junk + 1)
    seen: set[str] = set()
    for k, (start, label) in enumerate(starts):
        if label in seen:
            raise ParseError(f"a second puzzle ${label}", source, start + 1)
        seen.add(label)
        end = starts[k + 1][0] if k + 1 < len(starts) else len(lines)
        yield label, start + 2, lines[start + 1:end]


def _side(body: list[str], source: str | None, line: int) -> int:
    """The side N of a square puzzle given as 2N clue lines (trailing blank lines allowed)."""
    used = len(body)
    while used and not body[used - 1].strip():
        used -= 1
    if used <= 2 * SIDE <= len(body):
        return SIDE
    if used % 2:
        lines = "1 clue line" if used == 1 else f"{used} clue lines"
        raise ParseError(f"{lines}: a puzzle needs an even number, its N columns then its N "
                         f"rows ({2 * SIDE} for the tournaments' {SIDE}x{SIDE})",
                         source, line + used - 1 if used else line)
    return used // 2


def entries(text: str, source: str | None = None, limits: bool = True) -> Iterator[Entry]:
    """Every puzzle of a tournament file, in order."""
    lines = logical_lines(text)
    for index, (label, first, body) in enumerate(_blocks(lines, source)):
        n = _side(body, source, first)
        if n == 0:
            raise ParseError(f"puzzle ${label} has no clue lines", source, first - 1)
        cols = parse_number_lines(body[:n], source, first)
        rows = parse_number_lines(body[n:2 * n], source, first + n)
        puzzle = build_puzzle(rows, cols, source,
                              row_lines=[first + n + i for i in range(n)],
                              col_lines=[first + i for i in range(n)],
                              limits=limits, total_line=first - 1)
        yield Entry(source or "<input>", index, label, puzzle, None)


def parse(text: str, source: str | None = None, limits: bool = True) -> AnyPuzzle:
    """Read a file holding one tournament puzzle."""
    return only_entry(entries(text, source, limits), source).puzzle


class Goals:
    """The goals of a tournament solution file by puzzle label, each read (and checked) when
    first asked for: picking one puzzle of a thousand reads one goal, not a thousand."""

    def __init__(self, text: str, source: str | None = None) -> None:
        self.source = source
        self.blocks = {label: (first, body)
                       for label, first, body in _blocks(logical_lines(text), source)}
        self.made: dict[str, Grid] = {}

    def get(self, label: str, default: Grid | None = None) -> Grid | None:
        if label not in self.blocks:
            return default
        if label not in self.made:
            self.made[label] = self._goal(*self.blocks[label])
        return self.made[label]

    def _goal(self, first: int, body: list[str]) -> Grid:
        while body and not body[-1].strip():
            body = body[:-1]
        rows = []
        for i, s in enumerate(body):
            cells = s.split()
            if any(c not in ("0", "1") for c in cells):
                raise ParseError("solution lines hold only 0 and 1", self.source, first + i)
            rows.append("".join(cells))
        width = len(rows[0]) if rows else 0
        return make_goal(rows, width, len(rows), "1", "0", self.source, first)


def parse_solutions(text: str, source: str | None = None) -> Goals:
    """The goals of a tournament solution file, by puzzle label (read as asked for)."""
    return Goals(text, source)


def solution_path(path: str) -> str | None:
    """``.../solution/X.txt`` for a question file ``.../question/X.txt``, if it exists."""
    folder, name = os.path.split(path)
    if os.path.basename(folder) != "question":
        return None
    cand = os.path.join(os.path.dirname(folder), "solution", name)
    return cand if os.path.isfile(cand) else None


def dump(puzzle: Puzzle) -> str:
    """Write one puzzle as a ``$1`` block (columns first, TAB-separated)."""
    return dump_many([puzzle])


def dump_many(puzzles: list[Puzzle]) -> str:
    """Write puzzles as ``$1``, ``$2``, ... blocks."""
    out = []
    for k, p in enumerate(puzzles, 1):
        if p.width != p.height:
            raise ParseError(f"the tournament format holds square puzzles only, not {p.size}")
        out.append(f"${k}")
        empty = "" if p.width == SIDE else "0"  # only 2x25 lines make trailing blanks safe
        out.extend("\t".join(map(str, c)) or empty for c in (*p.cols, *p.rows))
    return "\n".join(out) + "\n"
