"""Where things go in a picture of a puzzle: margins for the clues, the grid, the title.

Shared by the SVG and PNG writers so both draw the same printed-puzzle layout: row clues
right-aligned in the left margin, column clues bottom-aligned in the top margin, a thick
line every five cells and around the grid. In a colour puzzle each clue number is written on
a swatch of its colour (``Swatch``) in black or white, whichever contrasts more (WCAG 2
relative luminance), and a colour too light to stand out from the paper gets a dark outline
of its own hue, on its swatches and its cells, so every clue reads on paper.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from gridsolve.errors import GridsolveError
from gridsolve.nonogram.model import EMPTY, FILLED, AnyPuzzle, colour_puzzle_of

__all__ = ["Layout", "Swatch", "layout", "fitted_layout", "COLOURS", "drawn_title",
           "MAX_PICTURE_PIXELS", "MIN_CELL", "clue_gap", "number_width", "luminance",
           "contrast", "text_colour", "outline_colour", "outline_width"]

#: The most pixels a picture (a PNG, or each frame of a GIF) is drawn with: a large puzzle is
#: drawn with smaller cells, down to MIN_CELL (36 million: 108 MB of RGB while drawn).
MAX_PICTURE_PIXELS = 36_000_000
MIN_CELL = 3

#: the palette (CSS colours, also understood by Pillow)
COLOURS = {
    "paper": "#ffffff", "ink": "#1a1a1a", "thin": "#9a9a9a", "unknown": "#e4e4e4",
    "dot": "#8a8a8a", "changed": "#2f7fd8", "probe": "#e39b1b", "guess": "#c0392b",
    "undone": "#f4c7c3", "learned": "#27a35a",
}

#: a digit's width as a fraction of the font size: at least a sans-serif digit's advance
#: (DejaVu Sans 0.636, Arial 0.556), so a number's box holds the number as drawn
DIGIT_WIDTH = 0.64
#: the space between two numbers of a row clue, as a fraction of the font size, and at least
#: MIN_CLUE_GAP pixels: a font's space (0.32) let "2 40 1" read as "2 401" and "11 8" as "118"
CLUE_GAP = 0.6
MIN_CLUE_GAP = 3


def number_width(number: str, font: int) -> int:
    """The width in pixels of a clue number's box at this font size."""
    return math.ceil(len(number) * font * DIGIT_WIDTH)


def clue_gap(font: int) -> int:
    """The pixels between two numbers' boxes in a row clue at this font size."""
    return max(MIN_CLUE_GAP, round(font * CLUE_GAP))


#: WCAG 2's thresholds: text needs 4.5:1 against what is behind it (level AA), a shape that
#: must be seen (a light cell or swatch on the paper) 3:1 (non-text contrast)
TEXT_CONTRAST = 4.5
SHAPE_CONTRAST = 3.0
#: the text colours a swatch's number is written in: pure black and white, as only they
#: reach 4.5:1 on every colour (the ink, #1a1a1a, falls to 4.2:1 on a mid grey)
TEXT_DARK, TEXT_LIGHT = "#000000", "#ffffff"


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    h = hex_colour.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def luminance(hex_colour: str) -> float:
    """WCAG 2 relative luminance of a "#rrggbb" colour: 0 for black, 1 for white."""
    def linear(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = map(linear, _rgb(hex_colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two "#rrggbb" colours, from 1 (the same) to 21."""
    la, lb = sorted((luminance(a), luminance(b)))
    return (lb + 0.05) / (la + 0.05)


@lru_cache(maxsize=256)  # a few colours, asked for once per clue number
def text_colour(fill: str) -> str:
    """Black or white, whichever reads better on ``fill`` (at least 4.58:1 on any colour)."""
    return TEXT_DARK if contrast(TEXT_DARK, fill) >= contrast(TEXT_LIGHT, fill) else TEXT_LIGHT


@lru_cache(maxsize=256)
def outline_colour(fill: str) -> str | None:
    """A dark outline for a colour too light to be seen on the paper (under 3:1 against it):
    the colour itself darkened until it stands 4.5:1 against the paper; None for the others."""
    paper = COLOURS["paper"]
    if contrast(fill, paper) >= SHAPE_CONTRAST:
        return None
    r, g, b = _rgb(fill)
    for k in range(1, 21):  # 5% darker a step: black (21:1) at the end
        f = 1 - k / 20
        shade = f"#{round(r * f):02x}{round(g * f):02x}{round(b * f):02x}"
        if contrast(shade, paper) >= TEXT_CONTRAST:
            return shade
    return "#000000"


def outline_width(cell: int) -> int:
    """The width of a light cell's outline, drawn inside it (the grid line covers its outer
    pixel): 0 in cells of under 6 pixels, where it would hide the colour."""
    return 0 if cell < 6 else max(2, cell // 10 + 1)


@dataclass(frozen=True)
class Swatch:
    """A colour clue's number as drawn: a box of the block's colour (``x0 <= x < x1``,
    ``y0 <= y < y1``) with a dark outline when the colour is light, and the number centred on
    it in black or white."""

    number: str
    box: tuple[int, int, int, int]
    fill: str
    outline: str | None
    text: str

    @property
    def centre(self) -> tuple[int, int]:
        """Where the number's middle goes."""
        x0, y0, x1, y1 = self.box
        return (x0 + x1) // 2, (y0 + y1) // 2


def _swatch(number: str, box: tuple[int, int, int, int], fill: str) -> Swatch:
    return Swatch(number, box, fill, outline_colour(fill), text_colour(fill))


@dataclass(frozen=True)
class Layout:
    """Pixel geometry of one picture (all integers, origin at the top left)."""

    cell: int
    font: int
    left: int
    top: int
    width: int
    height: int
    rows: int
    cols: int
    row_clues: tuple[str, ...]
    col_clues: tuple[tuple[str, ...], ...]
    slot: int
    title: str | None
    row_inks: tuple[tuple[str, ...], ...] = ()
    col_inks: tuple[tuple[str, ...], ...] = ()
    cell_fills: tuple[tuple[str, str], ...] = ()
    #: the font size of the column clues: ``font``, or smaller so that numbers side by side
    #: in next columns stay clue_gap apart (0: ``font``)
    col_font: int = 0

    @property
    def column_font(self) -> int:
        """The font size the column clues are written in."""
        return self.col_font or self.font

    def fills(self) -> dict[str, str]:
        """The fill (CSS hex) of each symbol drawn filled: a colour puzzle's palette, and ink
        for '#' unless the palette colours it."""
        out = dict(self.cell_fills)
        out.setdefault(FILLED, COLOURS["ink"])
        return out

    def fill_of(self, symbol: str) -> str | None:
        """The RGB fill (CSS hex) of a colour symbol, or None (black-and-white grids)."""
        return next((fill for sym, fill in self.cell_fills if sym == symbol), None)

    def outlines(self) -> dict[str, str]:
        """The outline (CSS hex) of each cell symbol whose colour is too light to be seen on
        the paper (none in black and white, nor the background's '.')."""
        return {sym: line for sym, fill in self.cell_fills
                if sym != EMPTY and (line := outline_colour(fill)) is not None}

    @property
    def swatches(self) -> bool:
        """Are the clue numbers written on swatches of their colours (a colour puzzle)?"""
        return bool(self.row_inks)

    def _inset(self) -> int:
        return max(1, self.cell // 10)

    def row_swatches(self, r: int) -> tuple[Swatch, ...]:
        """The swatches of row r's clue numbers (none for an empty line's "0"): each number's
        box widened into the gap around it, a cell high less a margin above and below."""
        if not self.swatches or self.row_clues[r] == "0":
            return ()
        pad = max(0, (clue_gap(self.font) - 2) // 2)
        y0 = self.top + r * self.cell + self._inset()
        y1 = self.top + (r + 1) * self.cell - self._inset()
        return tuple(_swatch(n, (left - pad, y0, right + pad, y1), ink)
                     for (n, left, right), ink in zip(self.row_number_boxes(r), self.row_inks[r]))

    def col_swatches(self, c: int) -> tuple[Swatch, ...]:
        """The swatches of column c's clue numbers (none for "0"): a cell wide less a margin
        each side, a slot high less a pixel above and below."""
        if not self.swatches or self.col_clues[c] == ("0",):
            return ()
        x0 = self.left + c * self.cell + self._inset()
        x1 = self.left + (c + 1) * self.cell - self._inset()
        out = []
        for (n, _, y), ink in zip(self.col_clue_anchors(c), self.col_inks[c]):
            y0 = y - self.slot // 2  # the top of the number's slot
            out.append(_swatch(n, (x0, y0 + 1, x1, y0 + self.slot - 1), ink))
        return tuple(out)

    def cell_box(self, r: int, c: int) -> tuple[int, int, int, int]:
        """Top-left x, y and bottom-right x, y of a cell."""
        x, y = self.left + c * self.cell, self.top + r * self.cell
        return x, y, x + self.cell, y + self.cell

    def row_clue_anchor(self, r: int) -> tuple[int, int]:
        """Right end, vertical middle of row r's clue text."""
        return self.left - self.cell // 3, self.top + r * self.cell + self.cell // 2

    def row_number_boxes(self, r: int) -> tuple[tuple[str, int, int], ...]:
        """(number, left x, right x) of each number of row r's clue, right-aligned at the
        anchor, clue_gap pixels apart: where the pictures write them, one by one."""
        x = self.row_clue_anchor(r)[0]
        gap = clue_gap(self.font)
        boxes: list[tuple[str, int, int]] = []
        for n in reversed(self.row_clues[r].split()):
            width = number_width(n, self.font)
            boxes.append((n, x - width, x))
            x -= width + gap
        return tuple(reversed(boxes))

    def col_clue_anchors(self, c: int) -> Iterator[tuple[str, int, int]]:
        """(number, x middle, y middle) for each number of column c, bottom-aligned."""
        nums = self.col_clues[c]
        x = self.left + c * self.cell + self.cell // 2
        bottom = self.top - self.cell // 4
        for i, n in enumerate(nums):
            yield n, x, bottom - (len(nums) - i) * self.slot + self.slot // 2

    def lines(self) -> Iterator[tuple[int, int, int, int, bool]]:
        """Grid lines as (x1, y1, x2, y2, thick); thick every 5 cells and at the border."""
        x0, y0 = self.left, self.top
        x1, y1 = x0 + self.cols * self.cell, y0 + self.rows * self.cell
        for c in range(self.cols + 1):
            x = x0 + c * self.cell
            yield x, y0, x, y1, c % 5 == 0 or c == self.cols
        for r in range(self.rows + 1):
            y = y0 + r * self.cell
            yield x0, y, x1, y, r % 5 == 0 or r == self.rows


#: What a picture's title cannot hold: control characters (no glyph; not allowed in SVG's XML),
#: lone surrogates (not in UTF-8; Pillow's text layout fails on them) and U+FFFE, U+FFFF.
_UNDRAWABLE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


def drawn_title(title: str | None) -> str | None:
    """The title as a picture shows it: on one line (line breaks and tabs become spaces), with
    U+FFFD for each character it cannot hold, and at most TITLE_CHARS characters (then "...").
    The puzzle keeps its title as read."""
    if not title:
        return title
    one_line = " ".join(title.splitlines()).replace("\t", " ")
    if len(one_line) > TITLE_CHARS:
        one_line = one_line[:TITLE_CHARS - 3].rstrip() + "..."
    return _UNDRAWABLE.sub("\ufffd", one_line)


#: The most characters of a title a picture draws (a 300,000-character title made a 3x2
#: puzzle's PNG 1.7 million pixels wide).
TITLE_CHARS = 200


#: the smallest font column clues are shrunk to (below it digits are no longer legible)
MIN_FONT = 6


def column_font_size(cols: tuple[tuple[str, ...], ...], cell: int, font: int) -> int:
    """The largest font size, at most ``font`` and at least MIN_FONT, at which the widest
    column number and a clue_gap fit in a cell: numbers side by side in next columns ("20"
    and "10") then cannot read as one ("2010"); in cells too narrow even at MIN_FONT they
    may touch."""
    digits = max(len(n) for col in cols for n in col)
    size = font
    while size > MIN_FONT and number_width("0" * digits, size) + clue_gap(size) > cell:
        size -= 1
    return size


def layout(puzzle: AnyPuzzle, cell: int = 20) -> Layout:
    """The layout of a puzzle drawn with cells of ``cell`` pixels."""
    font = max(MIN_FONT, round(cell * 0.6))
    inks: dict[str, tuple[tuple[str, ...], ...]] = {}
    fills: tuple[tuple[str, str], ...] = ()
    colour = colour_puzzle_of(puzzle)
    if colour is not None:
        pal = colour.palette
        rows = tuple(" ".join(str(n) for n, _ in c) or "0" for c in colour.rows)
        cols = tuple(tuple(str(n) for n, _ in c) or ("0",) for c in colour.cols)
        hexes = [c.hex for c in pal]  # (worked out by Colour.hex each time it is asked)
        inks = {key: tuple(tuple(hexes[k] for _, k in c) or (COLOURS["ink"],) for c in clues)
                for key, clues in (("row_inks", colour.rows), ("col_inks", colour.cols))}
        fills = tuple((c.symbol, c.hex) for c in pal)
    else:
        rows = tuple(" ".join(map(str, c)) or "0" for c in puzzle.rows)
        cols = tuple(tuple(map(str, c)) or ("0",) for c in puzzle.cols)
    slot = max(font + 2, round(cell * 0.8))
    col_font = column_font_size(cols, cell, font)
    pad = cell // 2
    gap = clue_gap(font)
    left = pad + max(sum(number_width(n, font) + gap for n in t.split()) - gap
                     for t in rows) + cell // 3
    title = drawn_title(puzzle.title)
    title_h = round(cell * 1.6) if title else 0
    top = pad + title_h + max(len(c) for c in cols) * slot + cell // 4
    width = left + puzzle.width * cell + pad
    if title:
        width = max(width, round(len(title) * font * 1.3 * 0.72) + 2 * pad)
    return Layout(cell=cell, font=font, left=left, top=top, width=width,
                  height=top + puzzle.height * cell + pad,
                  rows=puzzle.height, cols=puzzle.width, row_clues=rows, col_clues=cols,
                  slot=slot, title=title, cell_fills=fills, col_font=col_font, **inks)


def fitted_layout(puzzle: AnyPuzzle, cell: int = 20, max_pixels: int = MAX_PICTURE_PIXELS,
                  size: Callable[[Layout], tuple[int, int]] = lambda lay: (lay.width, lay.height),
                  what: str = "the picture", instead: str = "draw the puzzle as SVG or text"
                  ) -> Layout:
    """The layout with the largest cells, at most ``cell`` pixels, whose picture (``size``
    says how large it is drawn from a layout) has at most ``max_pixels``; GridsolveError
    (naming ``what`` and what to do ``instead``) when even cells of MIN_CELL pixels make it
    larger."""
    while True:
        lay = layout(puzzle, cell)
        width, height = size(lay)
        pixels = width * height
        if pixels <= max_pixels:
            return lay
        if cell <= MIN_CELL:
            raise GridsolveError(f"{what} would be {width}x{height} pixels, over "
                                 f"{max_pixels:,} even with {MIN_CELL}-pixel cells: {instead}")
        cell = max(MIN_CELL, min(cell - 1, int(cell * (max_pixels / pixels) ** 0.5)))
