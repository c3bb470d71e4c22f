"""pynogram's INI-like files and nonogrid's TOML: a ``[clues]`` section with columns and rows.

    [clues]
    columns = 3 1, 1 1 1        clues separated by commas and/or new lines
        1 1 1, '1 3'            quotes (also triple quotes, as in nonogrid's TOML) are ignored
    rows = 4, 1, 4, 1, 4        0 is an empty clue; '#' or ';' starts a comment

    [colors]
    b = (blue) *                pynogram: key = (name, RGB triple or hex code) glyph
    defs = ['r = (red) %']      nonogrid's TOML: the same definitions in a list

A value goes on until the next ``key =`` line or ``[section]``. Clue numbers carry the key of
their colour (``2b``); a number without one is black.
Docs: the comments in pynogram/examples/hello.txt (tsionyx/pynogram) and nonogrid's examples.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from gridsolve.errors import ParseError
from gridsolve.nonogram.formats._common import (Entry, default_label, logical_lines, only_entry,
                                                read_number, shown)
from gridsolve.nonogram.model import FILLED, AnyPuzzle

if TYPE_CHECKING:  # the colour readers' helpers load when a file is read: detection needs none
    from gridsolve.nonogram.formats._colours import PaletteBuilder

NAME = "pynogram"
EXTENSIONS = (".txt", ".ini", ".toml")

#: The reader's patterns, compiled when a file is read (by re's cache): detection needs only
#: ``_CLUES``, and every .txt file is tried (issue 56).
_SECTION = r"^\s*\[\s*([\w.-]+)\s*\]\s*$"
_KEY = r"^\s*([\w-]+)\s*=\s*(.*)$"
_CLUES = re.compile(r"^[ \t]*\[[ \t]*clues[ \t]*\][ \t]*\r?$", re.M | re.I)
Numbered = list[tuple[int, str]]


def detect(text: str) -> bool:
    """Is there a ``[clues]`` section?"""
    head = text[:2_000_000]
    return "[" in head and _CLUES.search(head) is not None  # (most files hold no "[")


def _uncomment(line: str) -> str:
    return re.split(r"[#;]", line, maxsplit=1)[0]


def _sections(text: str, source: str | None) -> dict[str, dict[str, Numbered]]:
    """section -> key -> numbered value lines (comments removed); a section or a key given
    twice is refused (pynogram's TOML and INI readers refuse them too)."""
    out: dict[str, dict[str, Numbered]] = {}
    section: dict[str, Numbered] | None = None
    name = ""
    current: Numbered | None = None
    for n, raw in enumerate(logical_lines(text), 1):
        line = _uncomment(raw)
        if m := re.match(_SECTION, line):
            name = m.group(1).lower()
            if name in out:
                raise ParseError(f"a second [{name}] section", source, n)
            section = out[name] = {}
            current = None
        elif section is not None and (m := re.match(_KEY, line)):
            key = m.group(1) if name == "colors" else m.group(1).lower()  # colour keys: as is
            if key in section:
                raise ParseError(f"'{key}' is given twice in [{name}]", source, n)
            current = section[key] = [(n, m.group(2))]
        elif current is not None:
            current.append((n, line))
    return out


#: The colour of a number without a suffix (pynogram's default).
_DEFAULT = ""

_DEFINITION = r"^\s*([\w-]+)\s*=\s*\(([^)]*)\)\s*(\S?)\s*$"


def _colour(colours: PaletteBuilder, key: str, spec: str, n: int) -> None:
    """Declare one ``key = (description) glyph`` colour; the description is a name, an RGB
    triple or a hex code, and names the colour when it is a plain word."""
    m = re.match(_DEFINITION, f"{key} = {spec}")
    if m is None:
        raise ParseError(f"{key} = {spec.strip()}: expected 'name = (colour) glyph'",
                         colours.source, n)
    key, desc, glyph = m.groups()
    from gridsolve.nonogram.formats._colours import rgb_of
    rgb = rgb_of(desc, colours.source, n)
    name = desc.strip() if re.fullmatch(r"[A-Za-z][\w ]*", desc.strip()) else key
    colours.add(key, name, rgb, glyph or None, n)


def _palette(section: dict[str, Numbered], source: str | None) -> PaletteBuilder:
    """The ``[colors]`` of pynogram (one ``key = (colour) glyph`` per key) or of nonogrid
    (``defs = ['key = (colour) glyph', ...]``)."""
    from gridsolve.nonogram.formats._colours import PaletteBuilder
    colours = PaletteBuilder(source)
    for key, value in section.items():
        if key == "defs":
            for n, line in value:
                for quoted in re.findall(r"'([^']*)'|\"([^\"]*)\"", line):
                    k, _, spec = "".join(quoted).partition("=")
                    _colour(colours, k.strip(), spec, n)
        else:
            _colour(colours, key, " ".join(s for _, s in value), value[0][0])
    return colours


def _clues(value: Numbered, key: str, colours: PaletteBuilder
           ) -> tuple[list[list[tuple[int, int]]], list[int]]:
    clues, lines = [], []
    for n, line in value:
        for item in re.sub(r"[\"']", " ", line).split(","):
            if not item.strip():
                continue
            clue = []
            for tok in item.split():
                m = re.fullmatch(r"([0-9]+)([^0-9\s]\S*)?", tok)
                if m is None:
                    raise ParseError(f"{shown(tok)} is not a number", colours.source, n)
                colour = m.group(2) or _DEFAULT
                if colour == _DEFAULT and _DEFAULT not in colours.keys:
                    colours.add(_DEFAULT, "black", (0, 0, 0), FILLED, n)
                number = read_number(m.group(1), "", colours.source, n)
                clue.append((number, colours.index(colour, n, tok)))
            clues.append(clue)
            lines.append(n)
    if not clues:
        raise ParseError(f"'{key}' has no clues", colours.source, value[0][0] if value else None)
    return clues, lines


def entries(text: str, source: str | None = None, limits: bool = True) -> Iterator[Entry]:
    """The one puzzle of a pynogram/nonogrid file."""
    sections = _sections(text, source)
    colours = _palette(sections.get("colors", {}), source)
    clues = sections.get("clues")
    if clues is None:
        raise ParseError("no [clues] section", source)
    for key in ("rows", "columns"):
        if key not in clues:
            raise ParseError(f"[clues] has no '{key} =' entry", source)
    rows, row_lines = _clues(clues["rows"], "rows", colours)
    cols, col_lines = _clues(clues["columns"], "columns", colours)
    from gridsolve.nonogram.formats._colours import colour_result
    puzzle = colour_result(rows, cols, colours, row_lines, col_lines, limits=limits)
    yield Entry(source or "<input>", 0, default_label(source), puzzle, None)


def parse(text: str, source: str | None = None, limits: bool = True) -> AnyPuzzle:
    """Read a pynogram or nonogrid puzzle."""
    return only_entry(entries(text, source, limits), source).puzzle
