"""Colours as files write them: names, hex codes and RGB triples, turned into a palette.

Every colour format declares its colours differently (webpbn ``<color>``, Olšák's ``#d`` block,
pynogram's ``[colors]``), but they all end the same way: a background, a list of ink colours
each with a key the clues use (a letter or a name), and a glyph the file would like to draw it
with. ``PaletteBuilder`` collects those and makes the model's palette, choosing symbols; then
``colour_result`` returns a black-and-white ``Puzzle`` when the only ink is black on white,
else a ``ColourPuzzle``.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field

from gridsolve.errors import InvalidPuzzle, ParseError
from gridsolve.nonogram.formats._common import (ClueError, build_puzzle, bw_only, check_cells,
                                                clue_line, is_number)
from gridsolve.nonogram.model import (EMPTY, MAX_COLOURS, UNKNOWN, Colour,
                                      ColourPuzzle, Puzzle, RawColourClues)

__all__ = ["NAMED", "rgb_of", "usable_symbol", "PaletteBuilder", "ColourClues", "colour_result",
           "colour_puzzle", "bw_only"]

RGB = tuple[int, int, int]

#: Colour names files use: the common CSS/X11 names, and the Czech ones of Olšák's samples.
NAMED: dict[str, RGB] = {
    "white": (255, 255, 255), "black": (0, 0, 0), "red": (255, 0, 0), "green": (0, 128, 0),
    "lime": (0, 255, 0), "blue": (0, 0, 255), "yellow": (255, 255, 0), "cyan": (0, 255, 255),
    "aqua": (0, 255, 255), "magenta": (255, 0, 255), "fuchsia": (255, 0, 255),
    "orange": (255, 165, 0), "brown": (165, 42, 42), "pink": (255, 192, 203),
    "purple": (128, 0, 128), "violet": (238, 130, 238), "gray": (128, 128, 128),
    "grey": (128, 128, 128), "silver": (192, 192, 192), "lightgray": (211, 211, 211),
    "lightgrey": (211, 211, 211), "darkgray": (169, 169, 169), "darkgrey": (169, 169, 169),
    "navy": (0, 0, 128), "maroon": (128, 0, 0), "olive": (128, 128, 0), "teal": (0, 128, 128),
    "gold": (255, 215, 0), "beige": (245, 245, 220), "tan": (210, 180, 140),
    "khaki": (240, 230, 140), "salmon": (250, 128, 114), "coral": (255, 127, 80),
    "tomato": (255, 99, 71), "crimson": (220, 20, 60), "indigo": (75, 0, 130),
    "turquoise": (64, 224, 208), "skyblue": (135, 206, 235), "lightblue": (173, 216, 230),
    "darkblue": (0, 0, 139), "darkgreen": (0, 100, 0), "lightgreen": (144, 238, 144),
    "darkred": (139, 0, 0), "orchid": (218, 112, 214), "plum": (221, 160, 221),
    "chocolate": (210, 105, 30), "sienna": (160, 82, 45), "peru": (205, 133, 63),
    "ivory": (255, 255, 240), "lavender": (230, 230, 250), "wheat": (245, 222, 179),
    "cream": (255, 253, 208), "darkorange": (255, 140, 0), "limegreen": (50, 205, 50),
    "forestgreen": (34, 139, 34), "royalblue": (65, 105, 225), "steelblue": (70, 130, 180),
    "hotpink": (255, 105, 180), "deeppink": (255, 20, 147), "firebrick": (178, 34, 52),
    "goldenrod": (218, 165, 32), "yellowgreen": (154, 205, 50), "skin": (255, 224, 189),
    # Czech (Olšák's sample files)
    "bila": (255, 255, 255), "cerna": (0, 0, 0), "cervena": (255, 0, 0),
    "modra": (0, 0, 255), "zelena": (0, 128, 0), "zluta": (255, 255, 0),
    "oranzova": (255, 165, 0), "hneda": (165, 42, 42), "ruzova": (255, 192, 203),
    "fialova": (128, 0, 128), "seda": (128, 128, 128), "zlata": (255, 215, 0),
}

_HEX = re.compile(r"#?([0-9a-fA-F]{6}|[0-9a-fA-F]{3})")


def _fallback(name: str) -> RGB:
    """A colour for a name nobody knows: stable (from a checksum), mid-bright, never white."""
    h = zlib.crc32(name.lower().encode())
    return (64 + h % 160, 64 + (h >> 8) % 160, 64 + (h >> 16) % 160)


def _hex(text: str) -> RGB:
    digits = text.lstrip("#")
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    return (int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16))


def rgb_of(spec: str, source: str | None = None, line: int | None = None,
           hex_only: bool = False) -> RGB:
    """The RGB of a colour as files write it: a hex code ('#f60', 'ff6600'), an RGB triple
    ('0, 204, 0'), a name ('red'), or two names joined by '/' or '\\' (a triangle: their mix).

    Unknown names get a stable made-up colour; malformed codes and triples are a ParseError.
    With ``hex_only`` (webpbn) only a hex code is accepted."""
    text = spec.strip()
    known = NAMED.get(text.lower().replace(" ", ""))
    if known is not None and not hex_only:
        return known
    if _HEX.fullmatch(text):
        return _hex(text)
    if hex_only or text.startswith("#"):
        raise ParseError(f"bad colour code {text!r} (expected 3 or 6 hex digits)", source, line)
    if "," in text:
        parts = [p.strip() for p in text.split(",")]
        if len(parts) != 3 or not all(is_number(p) and len(p) <= 3 and int(p) <= 255
                                          for p in parts):
            raise ParseError(f"bad RGB triple {text!r} (expected three numbers 0-255)",
                             source, line)
        return (int(parts[0]), int(parts[1]), int(parts[2]))
    halves = re.split(r"[/\\]", text)
    if len(halves) == 2 and all(halves):
        a, b = (rgb_of(h, source, line) for h in halves)
        return ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2, (a[2] + b[2]) // 2)
    return _fallback(text)


#: Symbols handed out, in order, when a colour's own glyph cannot be used.
_SPARE = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass
class PaletteBuilder:
    """The colours of one file, in declaration order; keys are what the clues write."""

    source: str | None
    background: Colour = field(default_factory=lambda: Colour("white", (255, 255, 255), EMPTY))
    keys: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    rgbs: list[RGB] = field(default_factory=list)
    glyphs: list[str | None] = field(default_factory=list)

    def set_background(self, name: str, rgb: RGB, line: int | None = None) -> None:
        """The background's name (spaces at its ends dropped) and RGB (its symbol is always
        '.')."""
        self.background = self._checked(name.strip(), rgb, EMPTY, line)

    def _checked(self, name: str, rgb: RGB, symbol: str, line: int | None) -> Colour:
        try:
            return Colour(name, rgb, symbol)
        except InvalidPuzzle as exc:
            raise ParseError(str(exc), self.source, line) from None

    def add(self, key: str, name: str, rgb: RGB, glyph: str | None,
            line: int | None = None) -> None:
        """Declare an ink colour (spaces at its name's ends dropped); a key or name declared
        twice is an error."""
        name = self._checked(name.strip(), rgb, "x", line).name
        if key in self.keys:
            raise ParseError(f"colour {key!r} is declared twice", self.source, line)
        if name.lower() in (n.lower() for n in [self.background.name, *self.names]):
            raise ParseError(f"two colours are named {name!r}", self.source, line)
        if len(self.keys) + 1 >= MAX_COLOURS:
            raise ParseError(f"more than {MAX_COLOURS - 1} colours besides the background",
                             self.source, line)
        self.keys.append(key)
        self.names.append(name)
        self.rgbs.append(rgb)
        self.glyphs.append(glyph)

    def index(self, key: str, line: int | None = None, token: str | None = None) -> int:
        """The palette index (from 1) of a colour key, or a ParseError naming the known ones
        (and the clue token at fault, when given)."""
        try:
            return self.keys.index(key) + 1
        except ValueError:
            known = ", ".join(self.keys) or "none"
            at = f"{token!r}: " if token else ""
            raise ParseError(f"{at}unknown colour {key!r} (declared: {known})", self.source,
                             line) from None

    def palette(self) -> tuple[Colour, ...]:
        """The model palette: background first, each ink with its own glyph when that is a
        valid, unused symbol, else the first free spare letter (stable for a given file)."""
        taken = {EMPTY}
        symbols: list[str | None] = []
        for key, glyph in zip(self.keys, self.glyphs):
            key_ok = usable_symbol(key) and not key.isdigit()
            own = next((g for g in (glyph, key if key_ok else None)
                        if g is not None and usable_symbol(g) and g not in taken), None)
            if own is not None:
                taken.add(own)
            symbols.append(own)
        out = [self.background]
        for name, rgb, sym in zip(self.names, self.rgbs, symbols):
            if sym is None:
                sym = next(s for s in _SPARE if s not in taken)
                taken.add(sym)
            out.append(Colour(name, rgb, sym))
        return tuple(out)


def usable_symbol(glyph: str) -> bool:
    """Can this character stand for a colour in grids (one printable character, not space,
    '?' or the background's '.')?"""
    return (len(glyph) == 1 and glyph.isprintable() and not glyph.isspace()
            and glyph not in (UNKNOWN, EMPTY))


#: (length, palette index) pairs of each line, as the file states them.
ColourClues = Sequence[Sequence[tuple[int, int]]]


def colour_result(rows: ColourClues, cols: ColourClues, colours: PaletteBuilder,
                  row_lines: Sequence[int | None] = (), col_lines: Sequence[int | None] = (),
                  title: str | None = None, limits: bool = True) -> Puzzle | ColourPuzzle:
    """The puzzle of colour clues: a black-and-white Puzzle when the only colour is black on
    white (so such files read as before), else a ColourPuzzle; errors point at the clue's
    line."""
    source = colours.source
    check_cells(len(cols), len(rows), source, limits)
    if colours.rgbs in ([], [(0, 0, 0)]) and colours.background.rgb == (255, 255, 255):
        return build_puzzle([[n for n, _ in clue] for clue in rows],
                            [[n for n, _ in clue] for clue in cols], source, row_lines,
                            col_lines, title=title, limits=limits)
    return colour_puzzle(rows, cols, colours, row_lines, col_lines, title)


def colour_puzzle(rows: ColourClues, cols: ColourClues, colours: PaletteBuilder,
                  row_lines: Sequence[int | None] = (), col_lines: Sequence[int | None] = (),
                  title: str | None = None) -> ColourPuzzle:
    """The ColourPuzzle, or a ClueError at the clue's line holding the clues as written (so
    ``check`` can name every problem of them at once, as for black and white)."""
    palette = colours.palette()
    try:
        return ColourPuzzle(rows, cols, palette, title=title)
    except InvalidPuzzle as exc:
        def written(clues: ColourClues) -> tuple[tuple[tuple[int, int], ...], ...]:
            return tuple(tuple((n, c) for n, c in clue) for clue in clues)
        raw = RawColourClues(written(rows), written(cols), palette, colours.source,
                             tuple(row_lines), tuple(col_lines))
        raise ClueError(str(exc), colours.source, clue_line(exc, row_lines, col_lines),
                        raw) from None
