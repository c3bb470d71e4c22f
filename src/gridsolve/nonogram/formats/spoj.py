"""The SPOJ JCROSS input: a puzzle count, then per puzzle "H W", H row lines, W column lines.

    3                           number of puzzles
    10 5                        height width
    3 0                         each clue line ends with 0 (a lone 0 = empty clue)
    ...

See nonogrid's examples/spoj/puzzles.txt (SPOJ problem JCROSS).
"""

from __future__ import annotations

from collections.abc import Iterator

from gridsolve.errors import ParseError
from gridsolve.nonogram.formats._common import (Entry, build_puzzle, check_size, logical_lines,
                                                only_entry, parse_int, parse_numbers)
from gridsolve.nonogram.model import AnyPuzzle

NAME = "spoj"
EXTENSIONS = (".txt", ".in")


def detect(text: str) -> bool:
    """Does the text follow SPOJ's layout: only number lines, a lone count of at least one
    puzzle, then per puzzle an 'H W' line and H + W clue lines each ending in 0, and nothing
    after the last (as far as the first 2 MB tell)? Text, Keen and Makhorin files can start
    like one (a lone number, two numbers, lines of 0), so the whole layout is walked."""
    head = text[:2_000_000]
    cut = len(head) < len(text)
    lines = [s.split() for s in logical_lines(head) if s.strip()]
    if cut and lines:
        lines.pop()                      # the cut may have split the last line
    if len(lines) < 3 or not all(len(t) <= 9 and t.isascii() and t.isdigit()
                                 for toks in lines for t in toks):
        return False
    if len(lines[0]) != 1 or int(lines[0][0]) < 1:
        return False
    at = 1
    for _ in range(int(lines[0][0])):
        if at >= len(lines):
            return cut
        if len(lines[at]) != 2:
            return False
        size = int(lines[at][0]) + int(lines[at][1])
        block = lines[at + 1:at + 1 + size]
        if any(toks[-1] != "0" for toks in block):
            return False
        if len(block) < size:
            return cut
        at += 1 + size
    return at == len(lines)


def _clue(text: str, source: str | None, line: int) -> list[int]:
    nums = parse_numbers(text, source, line)
    if not nums or nums[-1] != 0:
        raise ParseError("a clue line must end with 0", source, line)
    return nums[:-1] or [0]


def entries(text: str, source: str | None = None, limits: bool = True) -> Iterator[Entry]:
    """Every puzzle of a SPOJ input file."""
    lines = [(i + 1, s) for i, s in enumerate(logical_lines(text)) if s.strip()]
    if not lines:
        raise ParseError("empty file: no puzzles found", source)
    count = parse_int(lines[0][1], "the number of puzzles", source, lines[0][0])
    at = 1
    for index in range(count):
        if at >= len(lines):
            raise ParseError(f"the file promises {count} puzzles but holds {index}", source)
        n, head = lines[at]
        size = head.split()
        if len(size) != 2:
            raise ParseError(f"expected 'HEIGHT WIDTH' for puzzle {index + 1}", source, n)
        h, w = (parse_int(v, "the size", source, n) for v in size)
        check_size(w, h, source, n, limits)
        block = lines[at + 1:at + 1 + h + w]
        if len(block) < h + w:
            raise ParseError(f"puzzle {index + 1} needs {h + w} clue lines, the file ends "
                             f"after {len(block)}", source, n)
        rows, cols = block[:h], block[h:]
        puzzle = build_puzzle([_clue(s, source, k) for k, s in rows],
                              [_clue(s, source, k) for k, s in cols], source,
                              [k for k, _ in rows], [k for k, _ in cols], limits=limits)
        yield Entry(source or "<input>", index, str(index + 1), puzzle, None)
        at += 1 + h + w
    if at < len(lines):
        raise ParseError(f"text after the {count} puzzles the file announces", source,
                         lines[at][0])


def parse(text: str, source: str | None = None, limits: bool = True) -> AnyPuzzle:
    """Read a SPOJ file holding one puzzle."""
    return only_entry(entries(text, source, limits), source).puzzle
