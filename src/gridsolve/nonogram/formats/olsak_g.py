"""Mirek Olšák's ``.g`` format: sections after lines starting with ':' (rows, then columns).

    Bicykl                      text before the first ':' line is a comment
    : rows                      the rest of a ':' line is ignored
    3                           one line per row; an empty line is an empty clue
    ...
    : columns
    7
    ...
    : end                       text after the closing ':' is ignored

A ``#d`` block before the first ':' declares colours, one per line (``r:&  red  cervena``:
the letter clues use, the glyph to draw it, an X11 name or ``#rrggbb``, a comment); clue
numbers then carry the letter (``3r``), and a number without one is in the colour declared
as ``1``. ``#t``/``#T`` declares a hexagonal triddler, and a ``<``/``>`` comment a glued
triangle (Malované křížovky): both are refused with a clear error.
Docs: pbnsolve doc/input.md; the comments in Olšák's sample kocka.g.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from gridsolve.errors import ParseError
from gridsolve.nonogram.formats._colours import PaletteBuilder, colour_result, rgb_of
from gridsolve.nonogram.formats._common import (Entry, check_size, clue_lines, default_label,
                                                logical_lines, only_entry, read_number, shown)
from gridsolve.nonogram.model import FILLED, AnyPuzzle, Puzzle

NAME = "g"
EXTENSIONS = (".g",)
Numbered = list[tuple[int, str]]


def detect(text: str) -> bool:
    """At least two lines starting with ':' (section markers)?"""
    return sum(1 for s in logical_lines(text[:2_000_000]) if s.startswith(":")) >= 2

def parse(text: str, source: str | None = None, limits: bool = True) -> AnyPuzzle:
    """Read an Olšák .g file (black-and-white, or colour with a '#d' block)."""
    return only_entry(entries(text, source, limits), source).puzzle


_DECLARATION = re.compile(r"^[ \t]*(\S):(.)[ \t]*(\S+)[ \t]*(.*)$")


def _declarations(block: Numbered, source: str | None) -> PaletteBuilder:
    """The colours of a '#d' block: ``<inchar>:<outchar> <word_XPM> [comment]``.

    '0' declares the background (white if absent), '1' the colour of numbers without a
    letter; a word_XPM is a colour name, ``#rrggbb``, or two names split by '/' or '\\'
    (griddlers.net triangles, which behave as colours of their own)."""
    colours = PaletteBuilder(source)
    for n, s in block:
        if not s.strip() or s.startswith("#"):
            continue
        m = _DECLARATION.match(s)
        if m is None:
            raise ParseError(f"{s.strip()!r} is not a colour declaration "
                             "('<letter>:<glyph> <colour> [comment]')", source, n)
        key, glyph, word, comment = m.groups()
        if comment[:2] and all(c in "<>" for c in comment[:2]):
            raise ParseError("glued triangles (a '<'/'>' declaration) are not supported: "
                             "their blocks follow rules no colour nonogram states", source, n)
        rgb = rgb_of(word, source, n)
        if key == "0":
            colours.set_background(word, rgb)
        elif key.isdigit() and key != "1" or key == ",":
            raise ParseError(f"{key!r} cannot name a colour (digits other than 0 and 1, and "
                             "commas, are not allowed)", source, n)
        else:
            colours.add(key, word, rgb, glyph, n)
    return colours


def _colour_clues(lines: Numbered, colours: PaletteBuilder, source: str | None
                  ) -> list[list[tuple[int, int]]]:
    """Clue lines of numbers, each followed by an optional colour letter ('3r')."""
    out = []
    for n, s in lines:
        clue = []
        for tok in s.replace(",", " ").split():
            m = re.fullmatch(r"([0-9]+)([^0-9]?)", tok)
            if m is None:
                raise ParseError(f"{shown(tok)} is not a clue (a number, then a colour letter if "
                                 "any)", source, n)
            key = m.group(2) or "1"
            if key == "1" and "1" not in colours.keys:
                raise ParseError(f"{tok!r} has no colour letter, and the '#d' block declares "
                                 "no default colour ('1:')", source, n)
            clue.append((read_number(m.group(1), "", source, n), colours.index(key, n)))
        out.append(clue)
    return out


def entries(text: str, source: str | None = None, limits: bool = True) -> Iterator[Entry]:
    """The one puzzle of a .g file."""
    lines = [(i + 1, s) for i, s in enumerate(logical_lines(text))]
    starts = [k for k, (_, s) in enumerate(lines) if s.startswith(":")]
    head = lines[:starts[0] if starts else len(lines)]
    colours: PaletteBuilder | None = None
    for k, (n, s) in enumerate(head):
        if s[:2] in ("#t", "#T"):
            raise ParseError("hexagonal triddlers are not supported", source, n)
        if s[:2] in ("#d", "#D") and colours is None:
            colours = _declarations(head[k + 1:], source)
    if len(starts) < 2:
        raise ParseError("expected a ':' line before the rows and another before the "
                         "columns", source)
    sections: list[Numbered] = []
    for k, start in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(lines)
        sections.append(lines[start + 1:end])
    if len(starts) > 3:
        raise ParseError(f"{len(starts) - 1} clue groups: only rows and columns are "
                         "supported", source, lines[starts[3]][0])
    rows, cols = sections[0], sections[1]
    if len(starts) == 2:
        while cols and not cols[-1][1].strip():
            cols = cols[:-1]
    check_size(max(len(cols), 1), max(len(rows), 1), source, None, limits)
    if colours is None:
        colours = PaletteBuilder(source)
        colours.add("1", "black", (0, 0, 0), FILLED)
    puzzle = colour_result(_colour_clues(rows, colours, source),
                           _colour_clues(cols, colours, source), colours,
                           [n for n, _ in rows], [n for n, _ in cols], limits=limits)
    yield Entry(source or "<input>", 0, default_label(source), puzzle, None)


#: The first line is a free title, which detection by content could take for another
#: format's: ``write_puzzle`` hands ``dump`` a test of that.
FREE_TITLE = True


def dump(puzzle: Puzzle, read_back: Callable[[str], bool] = lambda text: True) -> str:
    """Write a puzzle as a black-and-white .g file.

    The title is the first line. A title that would make the file look like another format
    to detection (a tournament '$1', a pynogram '[clues]') is written after '- ', and if even
    that does not help, the file is titled 'gridsolve': a file without its extension must
    still read back as .g. ``read_back`` says whether a text is detected as .g;
    ``write_puzzle`` gives it (this module cannot import detection), and without it the
    title is written as it is."""
    title = " ".join((puzzle.title or "gridsolve").split())
    if title[:1] in (":", "#"):
        title = " " + title  # a leading ':' or '#' would start a section or a declaration
    body = (f"\n: rows\n{clue_lines(puzzle.rows, empty='')}\n: columns\n"
            f"{clue_lines(puzzle.cols, empty='')}\n: end\n")
    for first in (title, "- " + title.strip()):
        if read_back(first + body):
            return first + body
    return "gridsolve" + body
