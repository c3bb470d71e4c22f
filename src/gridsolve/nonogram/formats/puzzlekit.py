"""The puzzlekit dataset JSON (janko.at puzzles): many puzzles with solutions in one file.

    {"count": N, "count_sol": M, "name": "Nonogram",
     "data": {"<id>_<R>x<C>": {"problem": "R C\\n<C column clues>\\n<R row clues>",
                               "solution": "R C\\n<R lines of x / - separated by spaces>"}}}

See github SmilingWayne/puzzlekit-dataset, ``assets/data/Nonogram``. Note the order: the
``problem`` text lists the column clues before the row clues. An empty ``solution`` means none.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from gridsolve.errors import ParseError
from gridsolve.nonogram.formats._common import (Entry, build_puzzle, check_size, load_json,
                                                make_goal, only_entry, parse_int, parse_numbers)
from gridsolve.nonogram.model import AnyPuzzle, Grid, Puzzle
from gridsolve.numbers import text_lines

NAME = "puzzlekit"
EXTENSIONS = (".json",)


def detect(text: str) -> bool:
    """Is it a JSON object with a "data" table of "problem" strings?"""
    head = text[:4096].lstrip("\ufeff \t\r\n")
    return head.startswith("{") and '"data"' in head and '"problem"' in head


def _load(text: str, source: str | None) -> dict[str, Any]:
    doc = load_json(text, source)
    if not isinstance(doc, dict) or not isinstance(doc.get("data"), dict):
        raise ParseError('expected a JSON object with a "data" object of puzzles', source)
    data: dict[str, Any] = doc["data"]
    return data


def _where(source: str | None, key: str) -> str:
    return f"{source or '<input>'} [{key}]"


def _size(line: str, where: str, what: str) -> tuple[int, int]:
    parts = line.split()
    if len(parts) != 2:
        raise ParseError(f"{what}: first line must be 'ROWS COLUMNS', got {line!r}", where, 1)
    return (parse_int(parts[0], "the number of rows", where, 1),
            parse_int(parts[1], "the number of columns", where, 1))


def _puzzle(key: str, item: Any, source: str | None, limits: bool) -> tuple[Puzzle, Grid | None]:
    where = _where(source, key)
    if not isinstance(item, dict) or not isinstance(item.get("problem"), str):
        raise ParseError('each puzzle needs a "problem" string', where)
    lines = text_lines(item["problem"])
    if not lines:
        raise ParseError("empty problem", where)
    height, width = _size(lines[0], where, "problem")
    check_size(width, height, where, 1, limits)
    body = lines[1:]
    if len(body) != width + height:
        raise ParseError(f"problem has {len(body)} clue lines, expected {width} columns + "
                         f"{height} rows", where)
    cols = [parse_numbers(s, where, 2 + i) for i, s in enumerate(body[:width])]
    rows = [parse_numbers(s, where, 2 + width + i) for i, s in enumerate(body[width:])]
    puzzle = build_puzzle(rows, cols, where, [2 + width + i for i in range(height)],
                          [2 + i for i in range(width)], title=key, limits=limits)
    sol = item.get("solution") or ""
    if not isinstance(sol, str):
        raise ParseError('"solution" must be a string', where)
    if not sol.strip():
        return puzzle, None
    slines = text_lines(sol)
    if _size(slines[0], where, "solution") != (height, width):
        raise ParseError(f"solution size {slines[0]!r} differs from the problem's", where)
    grid_rows = ["".join(s.split()) for s in slines[1:] if s.strip()]
    return puzzle, make_goal(grid_rows, width, height, "x", "-", where, None)


def entries(text: str, source: str | None = None, limits: bool = True) -> Iterator[Entry]:
    """Every puzzle of the dataset, in file order, with its goal when present."""
    for index, (key, item) in enumerate(_load(text, source).items()):
        puzzle, goal = _puzzle(key, item, source, limits)
        yield Entry(source or "<input>", index, key, puzzle, goal)


def parse(text: str, source: str | None = None, limits: bool = True) -> AnyPuzzle:
    """Read a dataset file holding exactly one puzzle."""
    return only_entry(entries(text, source, limits), source).puzzle
