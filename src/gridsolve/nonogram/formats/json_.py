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

from gridsolve.errors import InvalidPuzzle, ParseError
from gridsolve.nonogram.formats._colours import PaletteBuilder, rgb_of, usable_symbol
from gridsolve.nonogram.formats._common import (Entry, build_puzzle, check_size, default_label,
                                                load_json, make_goal, only_entry)
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


def _load(text: str, source: str | None) -> dict[str, Any]:
    doc = load_json(text, source)
    if not isinstance(doc, dict):
        raise ParseError("expected a JSON object", source)
    if doc.get("format") != FORMAT_ID:
        raise ParseError(f'"format" must be "{FORMAT_ID}"', source)
    if doc.get("version") != VERSION:
        raise ParseError(f'unsupported "version" {doc.get("version")!r} (this reader knows {VERSION})',
                         source)
    return doc


def _clues(doc: dict[str, Any], key: str, source: str | None) -> list[list[int]]:
    value = doc.get(key)
    if not isinstance(value, list):
        raise ParseError(f'"{key}" must be a list of clues (lists of numbers)', source)
    out = []
    for i, clue in enumerate(value):
        if not isinstance(clue, list) or not all(
                isinstance(n, int) and not isinstance(n, bool) for n in clue):
            if isinstance(clue, list) and any(isinstance(n, list) for n in clue):
                raise ParseError(f"{key}[{i}]: [length, colour] blocks need a \"palette\"",
                                 source)
            raise ParseError(f"{key}[{i}]: a clue must be a list of integers", source)
        out.append(clue)
    return out


def _colour_clues(doc: dict[str, Any], key: str, ncolours: int,
                  source: str | None) -> list[list[tuple[int, int]]]:
    value = doc.get(key)
    if not isinstance(value, list):
        raise ParseError(f'"{key}" must be a list of clues (lists of [length, colour])', source)
    out = []
    for i, clue in enumerate(value):
        if not isinstance(clue, list) or not all(
                isinstance(b, list) and len(b) == 2
                and all(isinstance(n, int) and not isinstance(n, bool) for n in b) for b in clue):
            raise ParseError(f"{key}[{i}]: a colour clue must be a list of [length, colour] "
                             "pairs of integers", source)
        for _, c in clue:
            if not 1 <= c < ncolours:
                raise ParseError(f"{key}[{i}]: colour {c} is not in the palette "
                                 f"(1..{ncolours - 1})", source)
        out.append([(n, c) for n, c in clue])
    return out


def _palette(doc: dict[str, Any], source: str | None) -> PaletteBuilder:
    value = doc["palette"]
    if not isinstance(value, list) or len(value) < 2:
        raise ParseError('"palette" must list the background and at least one colour', source)
    colours = PaletteBuilder(source)
    for i, entry in enumerate(value):
        if not isinstance(entry, dict) or not all(
                isinstance(entry.get(k), str) for k in ("name", "rgb", "symbol")):
            raise ParseError(f'palette[{i}]: expected {{"name", "rgb", "symbol"}} strings',
                             source)
        name, symbol = entry["name"], entry["symbol"]
        if not re.fullmatch(r"#[0-9a-fA-F]{6}", entry["rgb"]):
            raise ParseError(f'palette[{i}]: "rgb" must be "#rrggbb", got {entry["rgb"]!r}',
                             source)
        rgb = rgb_of(entry["rgb"], source)
        if i == 0:
            if symbol != ".":
                raise ParseError('palette[0] is the background: its "symbol" must be "."',
                                 source)
            colours.set_background(name, rgb)
        else:
            if symbol in colours.keys or not usable_symbol(symbol):
                raise ParseError(f'palette[{i}]: "symbol" must be one character of its own, '
                                 f"got {symbol!r}", source)
            colours.add(symbol, name, rgb, symbol)
    return colours


def entries(text: str, source: str | None = None, limits: bool = True) -> Iterator[Entry]:
    """The one puzzle of a gridsolve JSON document."""
    doc = _load(text, source)
    title = doc.get("title")
    if title is not None and not isinstance(title, str):
        raise ParseError('"title" must be a string', source)
    puzzle: AnyPuzzle
    if doc.get("palette") is not None:
        colours = _palette(doc, source)
        ncolours = len(colours.keys) + 1
        rows = _colour_clues(doc, "rows", ncolours, source)
        cols = _colour_clues(doc, "cols", ncolours, source)
        check_size(max(len(cols), 1), max(len(rows), 1), source, None, limits)
        puzzle = _colour_puzzle(rows, cols, colours, title, limits)
    else:
        bw_rows, bw_cols = _clues(doc, "rows", source), _clues(doc, "cols", source)
        check_size(max(len(bw_cols), 1), max(len(bw_rows), 1), source, None, limits)
        puzzle = build_puzzle(bw_rows, bw_cols, source, title=title, limits=limits)
    goal: Grid | None = None
    if doc.get("goal") is not None:
        g = doc["goal"]
        if not isinstance(g, list) or not all(isinstance(r, str) for r in g):
            raise ParseError('"goal" must be a list of strings of cell symbols', source)
        if isinstance(puzzle, ColourPuzzle):
            symbols = "".join(c.symbol for c in puzzle.palette[1:])
            goal = make_goal(g, puzzle.width, puzzle.height, symbols, ".", source, None,
                             keep=True)
        else:
            goal = make_goal(g, puzzle.width, puzzle.height, "#", ".", source, None)
    yield Entry(source or "<input>", 0, default_label(source, title), puzzle, goal)


def _colour_puzzle(rows: list[list[tuple[int, int]]], cols: list[list[tuple[int, int]]],
                   colours: PaletteBuilder, title: str | None, limits: bool) -> ColourPuzzle:
    """The palette's puzzle, even when its clues use one colour (the file says colour)."""
    try:
        return ColourPuzzle(rows, cols, colours.palette(), title=title)
    except InvalidPuzzle as exc:
        raise ParseError(str(exc), colours.source) from None


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
