"""pynogram's INI-like files and nonogrid's TOML: a ``[clues]`` section with columns and rows.

    [clues]
    columns = 3 1, 1 1 1        clues separated by commas and/or new lines
        1 1 1, '1 3'            quotes (also triple quotes, as in nonogrid's TOML) are ignored
    rows = 4, 1, 4, 1, 4        0 is an empty clue; '#' or ';' starts a comment

A value goes on until the next ``key =`` line or ``[section]``. A ``[colors]`` section that
defines colours, or clues with colour suffixes (``2r``), give a clear error for now.
Docs: the comments in pynogram/examples/hello.txt (tsionyx/pynogram) and nonogrid's examples.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from gridsolve.errors import ParseError
from gridsolve.nonogram.formats._common import (COLOUR_UNSUPPORTED, Entry, build_puzzle,
                                                default_label, logical_lines, only_entry,
                                                parse_numbers)
from gridsolve.nonogram.model import Puzzle

NAME = "pynogram"
EXTENSIONS = (".txt", ".ini", ".toml")

_SECTION = re.compile(r"^\s*\[\s*([\w.-]+)\s*\]\s*$")
_KEY = re.compile(r"^\s*([\w-]+)\s*=\s*(.*)$")
_CLUES = re.compile(r"^[ \t]*\[[ \t]*clues[ \t]*\][ \t]*\r?$", re.M | re.I)
Numbered = list[tuple[int, str]]


def detect(text: str) -> bool:
    """Is there a ``[clues]`` section?"""
    return _CLUES.search(text[:2_000_000]) is not None


def _uncomment(line: str) -> str:
    return re.split(r"[#;]", line, maxsplit=1)[0]


def _sections(text: str) -> dict[str, dict[str, Numbered]]:
    """section -> key -> numbered value lines (comments removed)."""
    out: dict[str, dict[str, Numbered]] = {}
    section: dict[str, Numbered] | None = None
    current: Numbered | None = None
    for n, raw in enumerate(logical_lines(text), 1):
        line = _uncomment(raw)
        if m := _SECTION.match(line):
            section = out.setdefault(m.group(1).lower(), {})
            current = None
        elif section is not None and (m := _KEY.match(line)):
            current = section.setdefault(m.group(1).lower(), [])
            current.append((n, m.group(2)))
        elif current is not None:
            current.append((n, line))
    return out


def _clues(value: Numbered, key: str, source: str | None) -> tuple[list[list[int]], list[int]]:
    clues, lines = [], []
    for n, line in value:
        for item in re.sub(r"[\"']", " ", line).split(","):
            if not item.strip():
                continue
            if re.search(r"\d[A-Za-z]", item):
                raise ParseError(f"{COLOUR_UNSUPPORTED} (clue {item.strip()!r})", source, n)
            clues.append(parse_numbers(item, source, n))
            lines.append(n)
    if not clues:
        raise ParseError(f"'{key}' has no clues", source, value[0][0] if value else None)
    return clues, lines


def entries(text: str, source: str | None = None, limits: bool = True) -> Iterator[Entry]:
    """The one puzzle of a pynogram/nonogrid file."""
    sections = _sections(text)
    colours = sections.get("colors", {})
    for key, value in colours.items():
        body = " ".join(s for _, s in value)
        if key != "defs" or re.search(r"\w", body.replace("[", "").replace("]", "")):
            raise ParseError(COLOUR_UNSUPPORTED + " (a [colors] section)", source, value[0][0])
    clues = sections.get("clues")
    if clues is None:
        raise ParseError("no [clues] section", source)
    for key in ("rows", "columns"):
        if key not in clues:
            raise ParseError(f"[clues] has no '{key} =' entry", source)
    rows, row_lines = _clues(clues["rows"], "rows", source)
    cols, col_lines = _clues(clues["columns"], "columns", source)
    puzzle = build_puzzle(rows, cols, source, row_lines, col_lines, limits=limits)
    yield Entry(source or "<input>", 0, default_label(source), puzzle, None)


def parse(text: str, source: str | None = None, limits: bool = True) -> Puzzle:
    """Read a pynogram or nonogrid puzzle."""
    return only_entry(entries(text, source, limits), source).puzzle
