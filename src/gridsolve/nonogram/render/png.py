"""Pictures as PNG through Pillow (extra ``image``, imported here only): same layout as the SVG,
colour puzzles included (cells filled in their colours, light ones outlined; clue numbers on
swatches of their colours)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from gridsolve.errors import GridsolveError, SolverUnavailable
from gridsolve.nonogram.model import EMPTY, FILLED, UNKNOWN, AnyPuzzle
from gridsolve.nonogram.render.layout import COLOURS, Layout, Swatch, fitted_layout, outline_width

if TYPE_CHECKING:
    from PIL import Image

__all__ = ["puzzle_image", "write_png", "load_pillow", "font"]

#: The most pixels of the band of rows paint_cells draws at once (its layers and masks):
#: as many rows as fit, at least one.
BAND_PIXELS = 4_000_000
#: A mask through which a band's dots or rings are pasted costs about a shape per this many
#: of the band's pixels (measured): fewer marked cells than that are drawn as shapes.
MASK_PIXELS = 2000

FONT_FILES = ("DejaVuSans.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "Arial.ttf")


def load_pillow() -> Any:
    """The PIL package, or SolverUnavailable naming the ``image`` extra."""
    try:
        import PIL.Image
        import PIL.ImageChops
        import PIL.ImageColor
        import PIL.ImageDraw
        import PIL.ImageFont
    except ImportError:
        raise SolverUnavailable("Pillow (for PNG and GIF pictures)", "image") from None
    return PIL


def font(size: int, bold: bool = False) -> Any:
    """A scalable sans-serif font of this pixel size (Pillow's own if no system font is found)."""
    pil = load_pillow()
    names = ("DejaVuSans-Bold.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf") \
        if bold else FONT_FILES
    for name in names:
        try:
            return pil.ImageFont.truetype(name, size)
        except OSError:
            continue
    return pil.ImageFont.load_default(size=size)


def draw_frame(lay: Layout, puzzle: AnyPuzzle) -> Image.Image:
    """The blank printed puzzle: paper, title and clues (grid lines are drawn last)."""
    pil = load_pillow()
    img: Image.Image = pil.Image.new("RGB", (lay.width, lay.height), COLOURS["paper"])
    draw = pil.ImageDraw.Draw(img)
    clue_font = font(lay.font)
    if lay.title:
        draw.text((lay.width // 2, lay.cell // 2 + lay.font), lay.title, fill=COLOURS["ink"],
                  font=font(round(lay.font * 1.3), bold=True), anchor="ms")
    stamps = _Stamps(pil, img, clue_font)
    if lay.swatches:
        _draw_swatches(lay, stamps, _Stamps(pil, img, font(lay.column_font)))
        return img
    for r in range(lay.rows):
        y = lay.row_clue_anchor(r)[1]
        for n, _, right in lay.row_number_boxes(r):
            stamps.text((right, y), n, COLOURS["ink"], "rm")
    if lay.column_font != lay.font:
        stamps = _Stamps(pil, img, font(lay.column_font))
    for c in range(lay.cols):
        for n, x, y in lay.col_clue_anchors(c):
            stamps.text((x, y), n, COLOURS["ink"], "mm")
    return img


def _draw_swatches(lay: Layout, rows: _Stamps, cols: _Stamps) -> None:
    """A colour puzzle's clues: each number on a swatch of its colour (outlined when light:
    a pixel wide), in black or white; an empty line's "0" in ink on the paper."""
    def swatch(s: Swatch, stamps: _Stamps) -> None:
        x0, y0, x1, y1 = s.box
        if s.outline:
            stamps.fill(s.outline, s.box)
            x0, y0, x1, y1 = x0 + 1, y0 + 1, x1 - 1, y1 - 1
        stamps.fill(s.fill, (x0, y0, x1, y1))
        stamps.text(s.centre, s.number, s.text, "mm")
    for r in range(lay.rows):
        for s in lay.row_swatches(r):
            swatch(s, rows)
        if lay.row_clues[r] == "0":
            rows.text(lay.row_clue_anchor(r), "0", COLOURS["ink"], "rm")
    for c in range(lay.cols):
        for s in lay.col_swatches(c):
            swatch(s, cols)
        if lay.col_clues[c] == ("0",):
            _, x, y = next(lay.col_clue_anchors(c))
            cols.text((x, y), "0", COLOURS["ink"], "mm")


class _Stamps:
    """Texts drawn once each and pasted wherever they recur, in ink through their drawn
    coverage: the same pixels as drawing each (Pillow draws text by the same blend), and a
    1000x1000 puzzle's 250,000 clue numbers are a few hundred distinct ones (drawing each took
    23 s of its picture's 27). The pastes go to the core image (``Image.im``, which ImageDraw
    draws on) of a picture made here, skipping ``Image.paste``'s checks of its arguments."""

    def __init__(self, pil: Any, img: Image.Image, text_font: Any) -> None:
        self.pil, self.img, self.font = pil, img, text_font
        self.drawn: dict[tuple[str, str], tuple[Image.Image, int, int]] = {}
        self.rgb: dict[str, tuple[int, ...]] = {}

    def text(self, xy: tuple[int, int], text: str, ink: str, anchor: str) -> None:
        """Write ``text`` at ``xy`` as ``draw.text(xy, text, ink, font, anchor)`` would."""
        drawn = self.drawn.get((text, anchor))
        if drawn is None:
            left, top, right, bottom = self.font.getbbox(text, anchor=anchor)
            mask = self.pil.Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
            self.pil.ImageDraw.Draw(mask).text((-left, -top), text, fill=255, font=self.font,
                                               anchor=anchor)
            drawn = self.drawn[text, anchor] = (mask, left, top)
        mask, left, top = drawn
        x, y = xy[0] + left, xy[1] + top  # Image.paste's checks, skipped: 2x as fast here
        self.img.im.paste(self._rgb(ink), (x, y, x + mask.width, y + mask.height), mask.im)

    def fill(self, colour: str, box: tuple[int, int, int, int]) -> None:
        """Fill the box (``x0 <= x < x1``, ``y0 <= y < y1``; nothing if it is empty) with the
        colour, on the core image as the texts are pasted."""
        if box[2] > box[0] and box[3] > box[1]:
            self.img.im.paste(self._rgb(colour), box)

    def _rgb(self, colour: str) -> tuple[int, ...]:
        rgb = self.rgb.get(colour)
        if rgb is None:
            rgb = self.rgb[colour] = self.pil.ImageColor.getrgb(colour)
        return rgb


def paint_cells(img: Image.Image, lay: Layout, grid: Sequence[str],
                colours: dict[int, str] | None = None, unknown: str | None = None) -> None:
    """Fill the cells of a grid (a dot on known-empty cells of a partial grid), then the lines.

    ``colours`` optionally gives a highlight colour per cell index, ``unknown`` a fill for
    unknown cells (both for animations): a highlighted cell takes its colour, and a
    highlighted empty cell is outlined in it, with its dot in it. The grid lines,
    drawn last, cover each cell's edges. The cells are drawn a band of rows at a time
    (BAND_PIXELS), each band as a layer of its fills, then its dots and rings (_through):
    cell by cell, a 1000x1000 grid took seconds, and a deep search's GIF frames, with
    thousands of highlighted cells each, most of their time."""
    if len(grid) != lay.rows or any(len(row) != lay.cols for row in grid):
        raise GridsolveError(f"the grid to draw is not the puzzle's {lay.cols}x{lay.rows}")
    pil = load_pillow()
    symbols = set().union(*map(set, grid))
    partial = UNKNOWN in symbols if lay.cell_fills else bool(symbols - {FILLED, EMPTY})
    fills = lay.fills()
    w, size = lay.cols, lay.cell
    inks = {COLOURS["paper"]: 0}  # a fill -> its index in the palette (a byte of `cells`)
    solid_of = {ch: inks.setdefault(fill, len(inks))
                if ch != EMPTY and (fill := fills.get(ch, unknown)) else 0 for ch in symbols}
    whole = "".join(grid)
    cells = bytearray(whole.translate({ord(ch): i for ch, i in solid_of.items()})
                      .encode("latin-1"))
    dots = bytearray(len(cells))  # 255: a known-empty cell of a partial grid (its dot)
    if partial and EMPTY in symbols:
        dots[:] = whole.translate({ord(ch): 255 if ch == EMPTY else 0
                                   for ch in symbols}).encode("latin-1")
    rings: dict[str, bytearray] = {}  # mark -> 255 where an empty cell is highlighted with it
    for cell, mark in (colours or {}).items():
        if whole[cell] == EMPTY:  # outlined, with a dot of the mark's colour
            dots[cell] = 0
            rings.setdefault(mark, bytearray(len(cells)))[cell] = 255
        else:
            cells[cell] = inks.setdefault(mark, len(inks))
    outlined = _outlined(lay, whole, symbols, colours or {})
    palette = [part for colour in inks for part in pil.ImageColor.getrgb(colour)]
    draw = pil.ImageDraw.Draw(img)
    high = max(1, min(lay.rows, BAND_PIXELS // (w * size * size)))  # rows in a band
    for top in range(0, lay.rows, high):
        rows = min(high, lay.rows - top)
        band = slice(top * w, (top + rows) * w)
        if any(cells[band]):
            layer = pil.Image.frombytes("P", (w, rows), bytes(cells[band]))
            layer.putpalette(palette)
            img.paste(layer.resize((w * size, rows * size), pil.Image.Resampling.NEAREST)
                      .convert("RGB"), (lay.left, lay.top + top * size))
        for line, light in outlined.items():
            _through(pil, img, draw, lay, top, high, light[band], outline_width(size), line,
                     dot=False)
        _through(pil, img, draw, lay, top, high, dots[band], None, COLOURS["dot"])
        for mark, ring in rings.items():
            _through(pil, img, draw, lay, top, high, ring[band], max(2, size // 8), mark)
    for x1, y1, x2, y2, thick in sorted(lay.lines(), key=lambda line: line[4]):
        draw.line((x1, y1, x2, y2), fill=COLOURS["ink"] if thick else COLOURS["thin"],
                  width=2 if thick else 1)


def _outlined(lay: Layout, whole: str, symbols: set[str],
              marks: dict[int, str]) -> dict[str, bytearray]:
    """Outline colour -> 255 for each cell of a colour too light to be seen on the paper
    (a byte per cell of the grid ``whole``), but for highlighted cells; none in cells too
    small for an outline."""
    out: dict[str, bytearray] = {}
    if not outline_width(lay.cell):
        return out
    lines = {sym: line for sym, line in lay.outlines().items() if sym in symbols}
    for line in set(lines.values()):
        table = {ord(ch): 255 if lines.get(ch) == line else 0 for ch in symbols}
        light = out[line] = bytearray(whole.translate(table).encode("latin-1"))
        for cell in marks:
            light[cell] = 0
    return out


def _through(pil: Any, img: Image.Image, draw: Any, lay: Layout, top: int, high: int,
             marked: bytearray, ring: int | None, colour: str, dot: bool = True) -> None:
    """Draw a dot of ``colour`` (and a ring of ``ring`` pixels inside the cell's edge, if
    given, on the paper) on the cells ``marked`` names: a byte per cell of the band of rows
    from ``top`` (bands are ``high`` rows), 255 where marked; without ``dot``, the ring alone
    on the cell as it is (a light cell's outline). A few are drawn as shapes; many, in one
    paste through a mask (a pattern of the drawing in every cell, where they are): a mask
    costs about what a shape does per MASK_PIXELS of the band."""
    size, cols = lay.cell, lay.cols
    rows = len(marked) // cols
    radius = max(1, size // 10) if dot else 0
    if marked.count(255) * MASK_PIXELS < cols * rows * size * size:
        i = marked.find(255)
        while i >= 0:
            x0, y0 = lay.left + i % cols * size, lay.top + (top + i // cols) * size
            if ring:
                draw.rectangle((x0, y0, x0 + size, y0 + size),
                               fill=COLOURS["paper"] if dot else None, outline=colour, width=ring)
            if dot:
                mx, my = (2 * x0 + size) // 2, (2 * y0 + size) // 2
                draw.ellipse((mx - radius, my - radius, mx + radius, my + radius), fill=colour)
            i = marked.find(255, i + 1)
        return
    pattern = _pattern(size, cols, high, radius, ring)
    chosen = pil.Image.frombytes("L", (cols, rows), bytes(marked)).resize(
        (cols * size, rows * size), pil.Image.Resampling.NEAREST)
    mask = pil.ImageChops.multiply(chosen, pattern.crop((0, 0, cols * size, rows * size)))
    img.paste(pil.ImageColor.getrgb(colour), (lay.left, lay.top + top * size), mask)


@lru_cache(maxsize=8)
def _pattern(size: int, cols: int, rows: int, dot: int, ring: int | None) -> Image.Image:
    """``rows`` rows of ``cols`` cells of ``size`` pixels, each with a dot of radius ``dot``
    (none if 0) and a ring of ``ring`` pixels inside its edge, if given, as a mask; kept for
    a GIF's next frames: callers only crop it, and must not change it."""
    pil = load_pillow()
    tile = pil.Image.new("L", (size + 1, size + 1), 0)
    draw = pil.ImageDraw.Draw(tile)
    if ring:
        draw.rectangle((0, 0, size, size), fill=0, outline=255, width=ring)
    mid = size // 2
    if dot:
        draw.ellipse((mid - dot, mid - dot, mid + dot, mid + dot), fill=255)
    pattern: Image.Image = pil.Image.new("L", (cols * size, rows * size), 0)
    for c in range(cols):
        pattern.paste(tile, (c * size, 0))
    for r in range(1, rows):
        pattern.paste(pattern.crop((0, 0, cols * size, size)), (0, r * size))
    return pattern


def puzzle_image(puzzle: AnyPuzzle, grid: Sequence[str] | None = None, cell: int = 20) -> Image.Image:
    """A Pillow image of the puzzle with clues in the margins and the grid filled in (cells
    of ``cell`` pixels, smaller for a puzzle whose picture would pass MAX_PICTURE_PIXELS)."""
    lay = fitted_layout(puzzle, cell)
    img = draw_frame(lay, puzzle)
    paint_cells(img, lay, grid or ["?" * puzzle.width] * puzzle.height)
    return img


def write_png(path: str, puzzle: AnyPuzzle, grid: Sequence[str] | None = None, cell: int = 20) -> None:
    """Write the picture of the puzzle (and grid, if given) to a PNG file."""
    puzzle_image(puzzle, grid, cell).save(path, format="PNG")
