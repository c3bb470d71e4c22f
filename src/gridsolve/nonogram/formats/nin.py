"""Jakub Wilk's ``.nin`` format (his `nonogram` solver; also read by pbnsolve and nonogrid).

    6 3                         width height (the reverse of Olšák's .mk "height width")
    3 2                         one line per row, top to bottom, numbers separated by spaces
    1 2 1
    2 3
    3                           then one line per column, left to right
    1 1
    ...

An empty clue is written ``0`` (an empty line inside the clues is read as one too).
Some files people download (jwilk's data142.nin) write their clue block twice: the whole
block repeated line for line after the clues is read once, with an InputWarning; any other
text after the clues is an error.
Docs: nonogram(1) "DATA FORMAT" (github jwilk-archive/nonogram, doc/manpage.pod);
pbnsolve doc/input.md ("JAKUB WILK'S .NIN FORMAT"); webpbn's export page (``nin``).
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Sequence

from gridsolve.errors import InputWarning, ParseError
from gridsolve.nonogram.formats._common import (MAX_DIGITS, SIZE_LINE, clue_lines, logical_lines,
                                               puzzle_from_lines, size_line, take_lines)
from gridsolve.nonogram.model import Puzzle

NAME = "nin"
EXTENSIONS = (".nin",)

_NUMBERS = re.compile(r"^[0-9 \t]+$")


def _clue(line: str) -> str:
    """A clue line as a comparable word: its numbers one space apart, '0' when blank."""
    return " ".join(line.split()) or "0"


def _repeated(block: Sequence[str], rest: Sequence[str]) -> bool:
    """Are ``rest`` (the non-blank lines after the clue block) the block again, line for line,
    once or more? (Only a whole block: a few lines that happen to match a clue are no proof.)"""
    return bool(rest) and len(rest) % len(block) == 0 and all(
        _clue(s) == block[i % len(block)] for i, s in enumerate(rest))


def detect(text: str) -> bool:
    """A 'W H' line followed by exactly H + W lines of numbers (then only blank lines), or by
    that clue block repeated line for line?"""
    lines = logical_lines(text[:2_000_000])
    while lines and not lines[-1].strip():
        lines.pop()
    first = next((i for i, s in enumerate(lines) if s.strip()), None)
    if first is None or not (m := SIZE_LINE.match(lines[first])):
        return False
    if max(map(len, m.groups())) > MAX_DIGITS:
        return False
    body = lines[first + 1:]
    w, h = int(m.group(1)), int(m.group(2))
    if not (w + h > 0 and len(body) >= w + h and all(_NUMBERS.match(s) for s in body[:w + h])):
        return False
    rest = [s for s in body[w + h:] if s.strip()]
    return not rest or _repeated([_clue(s) for s in body[:w + h]], rest)


def parse(text: str, source: str | None = None, limits: bool = True) -> Puzzle:
    """Read a .nin file (a clue block written again after it is read once, with a warning)."""
    lines = [(i + 1, s) for i, s in enumerate(logical_lines(text))]
    w, h, head = size_line(lines, ("width", "height"), source, limits)
    body = lines[head:]
    extra = [(n, s) for n, s in body[h + w:] if s.strip()]
    if extra and len(body) >= h + w:
        if _repeated([_clue(s) for _, s in body[:h + w]], [s for _, s in extra]):
            warnings.warn(InputWarning(
                f"{source or '<input>'}:{extra[0][0]}: the clue block is written again from "
                f"this line to line {extra[-1][0]}; read once"), stacklevel=2)
            body = body[:h + w]
        elif len(body[h:h + w]) == w:
            raise ParseError(f"more than {w} column lines, and what follows them does not "
                             "repeat the clues", source, extra[0][0])
    rows = take_lines(body[:h], h, "row", source, head)
    cols = take_lines(body[h:], w, "column", source, rows[-1][0])
    return puzzle_from_lines(rows, cols, source, limits)


def dump(puzzle: Puzzle) -> str:
    """Write a puzzle as .nin (0 for an empty clue)."""
    return (f"{puzzle.width} {puzzle.height}\n{clue_lines(puzzle.rows)}\n"
            f"{clue_lines(puzzle.cols)}\n")
