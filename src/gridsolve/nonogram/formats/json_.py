"""gridsolve's own JSON format for one nonogram (the schema is documented here and in README).

    {
      "format": "gridsolve-nonogram",   required, identifies the schema
      "version": 1,                      required; readers refuse versions they do not know
      "title": "Dancer",                 optional string
      "rows": [[2], [2, 1], []],         required: row clues top to bottom ([] = empty line)
      "cols": [[2, 1], [7], ...],        required: column clues left to right
      "goal": [".##..", ...]             optional: the intended solution, '#' filled, '.' empty
    }

A colour puzzle adds a palette (index 0 is the background, whose symbol is '.') and writes
each block as [length, colour index]; its goal is rows of palette symbols:

      "palette": [{"name": "white", "rgb": "#ffffff", "symbol": "."},
                  {"name": "red", "rgb": "#ff0000", "symbol": "r"}],
      "rows": [[[2, 1]], [[1, 1]]],  ...   "goal": ["rr", "r."]

Unknown keys are ignored.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any

from gridsolve.errors import ParseError
from gridsolve.nonogram.formats._colours import (PaletteBuilder, colour_puzzle, rgb_of,
                                                 usable_symbol)
from gridsolve.nonogram.formats._common import (Entry, build_puzzle, check_size, default_label,
                                                load_json, make_goal, only_entry)
from gridsolve.nonogram.formats._json_lines import item_lines, json_line
from gridsolve.nonogram.model import AnyPuzzle, ColourPuzzle, Grid

NAME = "json"
EXTENSIONS = (".json",)
GOAL = True
COLOUR = True
FORMAT_ID = "gridsolve-nonogram"
VERSION = 1


def detect(text: str) -> bool:
    """Is it a JSON object naming our schema?"""
    head = text[:4096].lstrip("\ufeff \t\r\n")
    return head.startswith("{") and f'"{FORMAT_ID}"' in text[:65536]


class _At:
    """Errors about a value of the document, at the line where it starts (worked out only
    for an error: ``json.loads`` keeps no positions)."""

    def __init__(self, text: str, source: str | None) -> None:
        self.text = text
        self.source = source

    def line(self, *path: str | int) -> int | None:
        return json_line(self.text, path)

    def error(self, why: str, *path: str | int) -> ParseError:
        """The error, at the line of the value at ``path`` (none for an empty path)."""
        return ParseError(why, self.source, self.line(*path) if path else None)


def _load(at: _At) -> dict[str, Any]:
    doc = load_json(at.text, at.source)
    if not isinstance(doc, dict):
        raise ParseError("expected a JSON object", at.source, 1)
    if doc.get("format") != FORMAT_ID:
        raise at.error(f'"format" must be "{FORMAT_ID}"', "format")
    if doc.get("version") != VERSION:
        raise at.error(f'unsupported "version" {doc.get("version")!r} (this reader knows '
                       f"{VERSION})", "version")
    return doc


def _clues(doc: dict[str, Any], key: str, at: _At) -> list[list[int]]:
    value = doc.get(key)
    if not isinstance(value, list):
        raise at.error(f'"{key}" must be a list of clues (lists of numbers)', key)
    out = []
    for i, clue in enumerate(value):
        if not isinstance(clue, list) or not all(
                isinstance(n, int) and not isinstance(n, bool) for n in clue):
            if isinstance(clue, list) and any(isinstance(n, list) for n in clue):
                raise at.error(f"{key}[{i}]: [length, colour] blocks need a \"palette\"", key, i)
            raise at.error(f"{key}[{i}]: a clue must be a list of integers", key, i)
        out.append(clue)
    return out


def _colour_clues(doc: dict[str, Any], key: str, ncolours: int,
                  at: _At) -> list[list[tuple[int, int]]]:
    value = doc.get(key)
    if not isinstance(value, list):
        raise at.error(f'"{key}" must be a list of clues (lists of [length, colour])', key)
    out = []
    for i, clue in enumerate(value):
        if not isinstance(clue, list) or not all(
                isinstance(b, list) and len(b) == 2
                and all(isinstance(n, int) and not isinstance(n, bool) for n in b) for b in clue):
            raise at.error(f"{key}[{i}]: a colour clue must be a list of [length, colour] "
                           "pairs of integers", key, i)
        for _, c in clue:
            if not 1 <= c < ncolours:
                raise at.error(f"{key}[{i}]: colour {c} is not in the palette "
                               f"(1..{ncolours - 1})", key, i)
        out.append([(n, c) for n, c in clue])
    return out


def _palette(doc: dict[str, Any], at: _At) -> PaletteBuilder:
    value = doc["palette"]
    if not isinstance(value, list) or len(value) < 2:
        raise at.error('"palette" must list the background and at least one colour', "palette")
    colours = PaletteBuilder(at.source)
    for i, entry in enumerate(value):
        if not isinstance(entry, dict) or not all(
                isinstance(entry.get(k), str) for k in ("name", "rgb", "symbol")):
            raise at.error(f'palette[{i}]: expected {{"name", "rgb", "symbol"}} strings',
                           "palette", i)
        name, symbol = entry["name"], entry["symbol"]
        if not re.fullmatch(r"#[0-9a-fA-F]{6}", entry["rgb"]):
            raise at.error(f'palette[{i}]: "rgb" must be "#rrggbb", got {entry["rgb"]!r}',
                           "palette", i)
        rgb = rgb_of(entry["rgb"], at.source)
        try:
            if i == 0:
                if symbol != ".":
                    raise at.error('palette[0] is the background: its "symbol" must be "."',
                                   "palette", 0)
                colours.set_background(name, rgb)
            else:
                if symbol in colours.keys or not usable_symbol(symbol):
                    raise at.error(f'palette[{i}]: "symbol" must be one character of its own, '
                                   f"got {symbol!r}", "palette", i)
                colours.add(symbol, name, rgb, symbol)
        except ParseError as exc:
            if exc.line is None:
                raise ParseError(exc.why, exc.source, at.line("palette", i)) from None
            raise
    return colours


def entries(text: str, source: str | None = None, limits: bool = True) -> Iterator[Entry]:
    """The one puzzle of a gridsolve JSON document."""
    at = _At(text, source)
    doc = _load(at)
    title = doc.get("title")
    if title is not None and not isinstance(title, str):
        raise at.error('"title" must be a string', "title")
    puzzle: AnyPuzzle
    if doc.get("palette") is not None:
        colours = _palette(doc, at)
        ncolours = len(colours.keys) + 1
        rows = _colour_clues(doc, "rows", ncolours, at)
        cols = _colour_clues(doc, "cols", ncolours, at)
        check_size(max(len(cols), 1), max(len(rows), 1), source, None, limits)
        puzzle = _colour_puzzle(rows, cols, colours, title, at)
    else:
        bw_rows, bw_cols = _clues(doc, "rows", at), _clues(doc, "cols", at)
        check_size(max(len(bw_cols), 1), max(len(bw_rows), 1), source, None, limits)
        try:
            puzzle = build_puzzle(bw_rows, bw_cols, source, title=title, limits=limits)
        except ParseError:  # again, with each clue's line (worked out only now)
            build_puzzle(bw_rows, bw_cols, source, item_lines(text, ("rows",)),
                         item_lines(text, ("cols",)), title, limits)
            raise
    goal: Grid | None = None
    if doc.get("goal") is not None:
        g = doc["goal"]
        if not isinstance(g, list) or not all(isinstance(r, str) for r in g):
            raise at.error('"goal" must be a list of strings of cell symbols', "goal")
        if len(g) != puzzle.height:
            raise at.error(f"goal has {len(g)} rows, the puzzle has {puzzle.height}", "goal")

        def row_line(r: int) -> int | None:
            return at.line("goal", r)
        if isinstance(puzzle, ColourPuzzle):
            symbols = "".join(c.symbol for c in puzzle.palette[1:])
            goal = make_goal(g, puzzle.width, puzzle.height, symbols, ".", source, None,
                             keep=True, row_line=row_line)
        else:
            goal = make_goal(g, puzzle.width, puzzle.height, "#", ".", source, None,
                             row_line=row_line)
    yield Entry(source or "<input>", 0, default_label(source, title), puzzle, goal)


def _colour_puzzle(rows: list[list[tuple[int, int]]], cols: list[list[tuple[int, int]]],
                   colours: PaletteBuilder, title: str | None, at: _At) -> ColourPuzzle:
    """The palette's puzzle, even when its clues use one colour (the file says colour)."""
    try:
        return colour_puzzle(rows, cols, colours, title=title)
    except ParseError:  # again, with each clue's line (worked out only now)
        colour_puzzle(rows, cols, colours, item_lines(at.text, ("rows",)),
                      item_lines(at.text, ("cols",)), title)
        raise


def parse(text: str, source: str | None = None, limits: bool = True) -> AnyPuzzle:
    """Read one puzzle from gridsolve JSON."""
    return only_entry(entries(text, source, limits), source).puzzle


def dump(puzzle: AnyPuzzle, goal: Grid | None = None) -> str:
    """Write a puzzle (and goal) as gridsolve JSON, one clue per line."""
    import json  # here: reading goes through load_json; only writing needs json itself

    def clues(cs: Sequence[Sequence[Any]]) -> str:
        return "[\n    " + ",\n    ".join(
            json.dumps([list(b) if isinstance(b, tuple) else b for b in c]) for c in cs) + "\n  ]"
    parts = [f'"format": "{FORMAT_ID}"', f'"version": {VERSION}']
    if puzzle.title is not None:
        parts.append(f'"title": {json.dumps(puzzle.title, ensure_ascii=False)}')
    if isinstance(puzzle, ColourPuzzle):
        parts.append('"palette": [\n    ' + ",\n    ".join(
            json.dumps({"name": c.name, "rgb": c.hex, "symbol": c.symbol}, ensure_ascii=False)
            for c in puzzle.palette) + "\n  ]")
    parts += [f'"rows": {clues(puzzle.rows)}', f'"cols": {clues(puzzle.cols)}']
    if goal is not None:
        parts.append('"goal": [\n    ' + ",\n    ".join(
            json.dumps(r, ensure_ascii=False) for r in goal) + "\n  ]")
    return "{\n  " + ",\n  ".join(parts) + "\n}\n"
