"""Pierre Dejoue's picross-solver text format: GRID, ROWS and COLUMNS sections, a clue per line.

    # Source: https://www.nonograms.org/...      '#' lines are comments
    GRID "Fish" (Picross, level 11-G)           a grid starts: its title is the rest of the line
    ROWS
    [ ]                                         one bracketed clue per row (empty: no block)
    [ 5 ]
    [ 2 1 3 ]
    COLUMNS
    [ 2 ]                                       then one per column
    ...

A file may hold several grids, each from its GRID line. Blank lines are ignored. Defined by
the reader in github pierre-dejoue/picross-solver, src/picross/src/picross_io.cpp (the
"native" format; example: inputs/example_input.txt).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from gridsolve.errors import ParseError
from gridsolve.nonogram.formats._common import (Entry, build_puzzle, iter_logical_lines, only_entry,
                                                parse_numbers)
from gridsolve.nonogram.model import AnyPuzzle, Puzzle

NAME = "picross"
EXTENSIONS = (".txt",)

_SECTIONS = ("ROWS", "COLUMNS")
_CLUE = re.compile(r"\[(.*)\]")


def _words(text: str) -> Iterator[tuple[int, str]]:
    """(line number, stripped line) for each line that is neither blank nor a comment."""
    for n, line in enumerate(iter_logical_lines(text), 1):
        s = line.strip()
        if s and not s.startswith("#"):
            yield n, s


def detect(text: str) -> bool:
    """Does the first line that is no comment start with GRID, and a ROWS line follow?"""
    words = _words(text[:2_000_000])
    first = next(words, None)
    return (first is not None and first[1].split()[0] == "GRID"
            and any(s.split()[0] == "ROWS" for _, s in words))


def _title(rest: str) -> str | None:
    """A GRID line's title: the rest of the line, a leading quoted name unquoted."""
    rest = rest.strip()
    m = re.match(r'"([^"]*)"\s*(.*)', rest)
    if m:
        rest = f"{m.group(1)} {m.group(2)}".strip()
    return rest or None


def entries(text: str, source: str | None = None, limits: bool = True) -> Iterator[Entry]:
    """Every grid of a picross-solver file, in file order."""
    grids: list[tuple[int, str | None, dict[str, list[tuple[int, str]]]]] = []
    section: str | None = None
    for n, s in _words(text):
        word, _, rest = s.partition(" ")
        if word == "GRID":
            grids.append((n, _title(rest), {name: [] for name in _SECTIONS}))
            section = None
        elif word in _SECTIONS:
            if not grids:
                raise ParseError(f"{word} before the first GRID line", source, n)
            section = word
        elif s.startswith("["):
            m = _CLUE.fullmatch(s)
            if m is None:
                raise ParseError("a clue line is '[ numbers ]'", source, n)
            if section is None:
                raise ParseError("a clue line outside ROWS and COLUMNS", source, n)
            grids[-1][2][section].append((n, m.group(1)))
        else:
            raise ParseError(f"expected GRID, ROWS, COLUMNS, a '[ ... ]' clue line or a '#' "
                             f"comment, got {s[:40]!r}", source, n)
    if not grids:
        raise ParseError("no GRID line found", source)
    for index, (n, title, lines) in enumerate(grids):
        for name in _SECTIONS:
            if not lines[name]:
                raise ParseError(f"the grid has no {name} clues", source, n)
        rows, cols = lines["ROWS"], lines["COLUMNS"]
        puzzle = build_puzzle([parse_numbers(s, source, k) for k, s in rows],
                              [parse_numbers(s, source, k) for k, s in cols], source,
                              [k for k, _ in rows], [k for k, _ in cols], title=title,
                              limits=limits)
        yield Entry(source or "<input>", index, title or str(index + 1), puzzle, None)


def parse(text: str, source: str | None = None, limits: bool = True) -> AnyPuzzle:
    """Read a picross-solver file holding one grid."""
    return only_entry(entries(text, source, limits), source).puzzle


def dump(puzzle: Puzzle) -> str:
    """Write a puzzle in picross-solver's format (its title on the GRID line)."""
    def clues(lines: tuple[tuple[int, ...], ...]) -> str:
        return "".join(f"[ {' '.join(map(str, c))} ]\n" if c else "[ ]\n" for c in lines)
    title = " ".join((puzzle.title or "").split())
    return f"GRID {title}".rstrip() + f"\nROWS\n{clues(puzzle.rows)}COLUMNS\n{clues(puzzle.cols)}"
