"""gridsolve's own JSON format for one nonogram (the schema is documented here and in README).

    {
      "format": "gridsolve-nonogram",   required, identifies the schema
      "version": 1,                      required; readers refuse versions they do not know
      "title": "Dancer",                 optional string
      "rows": [[2], [2, 1], []],         required: row clues top to bottom ([] = empty line)
      "cols": [[2, 1], [7], ...],        required: column clues left to right
      "goal": [".##..", ...]             optional: the intended solution, '#' filled, '.' empty
    }

Unknown keys are ignored, so later versions can add colours without breaking old readers.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from gridsolve.errors import ParseError
from gridsolve.nonogram.formats._common import (Entry, build_puzzle, check_size, default_label,
                                                make_goal, only_entry)
from gridsolve.nonogram.model import Grid, Puzzle

NAME = "json"
EXTENSIONS = (".json",)
GOAL = True
FORMAT_ID = "gridsolve-nonogram"
VERSION = 1


def detect(text: str) -> bool:
    """Is it a JSON object naming our schema?"""
    head = text[:4096].lstrip("\ufeff \t\r\n")
    return head.startswith("{") and f'"{FORMAT_ID}"' in text[:65536]


def _load(text: str, source: str | None) -> dict[str, Any]:
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ParseError(f"invalid JSON: {exc.msg} (column {exc.colno})", source,
                         exc.lineno) from None
    except RecursionError:
        raise ParseError("invalid JSON: nested too deeply", source) from None
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
            if isinstance(clue, list) and any(isinstance(n, (str, dict)) for n in clue):
                raise ParseError(f"{key}[{i}]: clue numbers must be integers "
                                 "(colour puzzles are not supported yet)", source)
            raise ParseError(f"{key}[{i}]: a clue must be a list of integers", source)
        out.append(clue)
    return out


def entries(text: str, source: str | None = None, limits: bool = True) -> Iterator[Entry]:
    """The one puzzle of a gridsolve JSON document."""
    doc = _load(text, source)
    rows, cols = _clues(doc, "rows", source), _clues(doc, "cols", source)
    title = doc.get("title")
    if title is not None and not isinstance(title, str):
        raise ParseError('"title" must be a string', source)
    check_size(max(len(cols), 1), max(len(rows), 1), source, None, limits)
    puzzle = build_puzzle(rows, cols, source, title=title, limits=limits)
    goal: Grid | None = None
    if doc.get("goal") is not None:
        g = doc["goal"]
        if not isinstance(g, list) or not all(isinstance(r, str) for r in g):
            raise ParseError('"goal" must be a list of strings of "#" and "."', source)
        goal = make_goal(g, puzzle.width, puzzle.height, "#", ".", source, None)
    yield Entry(source or "<input>", 0, default_label(source, title), puzzle, goal)


def parse(text: str, source: str | None = None, limits: bool = True) -> Puzzle:
    """Read one puzzle from gridsolve JSON."""
    return only_entry(entries(text, source, limits), source).puzzle


def dump(puzzle: Puzzle, goal: Grid | None = None) -> str:
    """Write a puzzle (and goal) as gridsolve JSON, one clue per line."""
    def clues(cs: tuple[tuple[int, ...], ...]) -> str:
        return "[\n    " + ",\n    ".join(json.dumps(list(c)) for c in cs) + "\n  ]"
    parts = [f'"format": "{FORMAT_ID}"', f'"version": {VERSION}']
    if puzzle.title is not None:
        parts.append(f'"title": {json.dumps(puzzle.title, ensure_ascii=False)}')
    parts += [f'"rows": {clues(puzzle.rows)}', f'"cols": {clues(puzzle.cols)}']
    if goal is not None:
        parts.append('"goal": [\n    ' + ",\n    ".join(json.dumps(r) for r in goal) + "\n  ]")
    return "{\n  " + ",\n  ".join(parts) + "\n}\n"
