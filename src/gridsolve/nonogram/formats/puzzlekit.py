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
from gridsolve.nonogram.formats._json_lines import json_line
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


def _where(key: str, field: str = "") -> str:
    """The puzzle (and its field) an error inside it names, as the source of a ParseError
    that ``entries`` then places in the file."""
    return f"[{key}] {field}".rstrip()


def _in_file(error: ParseError, text: str, source: str | None, key: str) -> ParseError:
    """An error ``_puzzle`` raised, on the file's line of its field (the problem and
    solution strings hold lines of their own, which the message names)."""
    field = "problem" if error.source == _where(key, "problem") else (
        "solution" if error.source == _where(key, "solution") else "")
    line = json_line(text, ("data", key, field) if field else ("data", key))
    inner = f" line {error.line}" if error.line is not None and field else ""
    return ParseError(f"{error.source}{inner}: {error.why}", source, line)


def _size(line: str, where: str) -> tuple[int, int]:
    parts = line.split()
    if len(parts) != 2:
        raise ParseError(f"the first line must be 'ROWS COLUMNS', got {line!r}", where, 1)
    return (parse_int(parts[0], "the number of rows", where, 1),
            parse_int(parts[1], "the number of columns", where, 1))


def _puzzle(key: str, item: Any, limits: bool) -> tuple[Puzzle, Grid | None]:
    """One puzzle of the data table. Its errors name ``_where(key, field)`` as their source
    and a line inside the field's string."""
    if not isinstance(item, dict) or not isinstance(item.get("problem"), str):
        raise ParseError('each puzzle needs a "problem" string', _where(key))
    where = _where(key, "problem")
    lines = text_lines(item["problem"])
    if not lines:
        raise ParseError("it is empty", where)
    height, width = _size(lines[0], where)
    check_size(width, height, where, 1, limits)
    body = lines[1:]
    if len(body) != width + height:
        raise ParseError(f"{len(body)} clue lines, expected {width} columns + "
                         f"{height} rows", where)
    cols = [parse_numbers(s, where, 2 + i) for i, s in enumerate(body[:width])]
    rows = [parse_numbers(s, where, 2 + width + i) for i, s in enumerate(body[width:])]
    puzzle = build_puzzle(rows, cols, where, [2 + width + i for i in range(height)],
                          [2 + i for i in range(width)], title=key, limits=limits)
    sol = item.get("solution") or ""
    where = _where(key, "solution")
    if not isinstance(sol, str):
        raise ParseError('"solution" must be a string', where)
    if not sol.strip():
        return puzzle, None
    slines = text_lines(sol)
    if _size(slines[0], where) != (height, width):
        raise ParseError(f"the size {slines[0]!r} differs from the problem's", where, 1)
    kept = [i for i in range(1, len(slines)) if slines[i].strip()]
    grid_rows = ["".join(slines[i].split()) for i in kept]
    return puzzle, make_goal(grid_rows, width, height, "x", "-", where, None,
                             row_line=lambda r: kept[r] + 1)


def entries(text: str, source: str | None = None, limits: bool = True) -> Iterator[Entry]:
    """Every puzzle of the dataset, in file order, with its goal when present."""
    for index, (key, item) in enumerate(_load(text, source).items()):
        try:
            puzzle, goal = _puzzle(key, item, limits)
        except ParseError as error:
            raise _in_file(error, text, source, key) from None
        yield Entry(source or "<input>", index, key, puzzle, goal)


def parse(text: str, source: str | None = None, limits: bool = True) -> AnyPuzzle:
    """Read a dataset file holding exactly one puzzle."""
    return only_entry(entries(text, source, limits), source).puzzle
