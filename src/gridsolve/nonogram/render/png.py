"""Pictures as PNG through Pillow (extra ``image``, imported here only): same layout as the SVG,
colour puzzles included (cells filled and clue numbers written in their colours)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from gridsolve.errors import SolverUnavailable
from gridsolve.nonogram.model import EMPTY, FILLED, UNKNOWN, AnyPuzzle
from gridsolve.nonogram.render.layout import COLOURS, Layout, fitted_layout

if TYPE_CHECKING:
    from PIL import Image

__all__ = ["puzzle_image", "write_png", "load_pillow", "font"]

FONT_FILES = ("DejaVuSans.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "Arial.ttf")


def load_pillow() -> Any:
    """The PIL package, or SolverUnavailable naming the ``image`` extra."""
    try:
        import PIL.Image
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
    for r, text in enumerate(lay.row_clues):
        if lay.row_inks:
            _coloured_row_clue(draw, lay.row_clue_anchor(r), text.split(), lay.row_inks[r],
                               clue_font)
        else:
            draw.text(lay.row_clue_anchor(r), text, fill=COLOURS["ink"], font=clue_font,
                      anchor="rm")
    for c in range(lay.cols):
        inks = lay.col_inks[c] if lay.col_inks else ()
        for i, (n, x, y) in enumerate(lay.col_clue_anchors(c)):
            draw.text((x, y), n, fill=inks[i] if inks else COLOURS["ink"], font=clue_font,
                      anchor="mm")
    return img


def _coloured_row_clue(draw: Any, anchor: tuple[int, int], numbers: list[str],
                       inks: tuple[str, ...], clue_font: Any) -> None:
    """A row clue right-aligned at the anchor, each number in its own colour."""
    x, y = anchor
    space = clue_font.getlength(" ")
    for n, ink in reversed(list(zip(numbers, inks))):
        draw.text((x, y), n, fill=ink, font=clue_font, anchor="rm")
        x -= round(clue_font.getlength(n) + space)


def paint_cells(img: Image.Image, lay: Layout, grid: Sequence[str],
                colours: dict[int, str] | None = None, unknown: str | None = None) -> None:
    """Fill the cells of a grid (a dot on known-empty cells of a partial grid), then the lines.

    ``colours`` optionally gives a highlight colour per cell index, ``unknown`` a fill for
    unknown cells (both for animations)."""
    pil = load_pillow()
    draw = pil.ImageDraw.Draw(img)
    if lay.cell_fills:
        partial = any(ch == UNKNOWN for row in grid for ch in row)
    else:
        partial = any(ch not in (FILLED, EMPTY) for row in grid for ch in row)
    w = len(grid[0]) if grid else 0
    dot = max(1, lay.cell // 10)
    for r, row in enumerate(grid):
        for c, ch in enumerate(row):
            x0, y0, x1, y1 = lay.cell_box(r, c)
            mark = colours.get(r * w + c) if colours else None
            fill = lay.fill_of(ch) if ch != EMPTY else None
            if fill is not None:
                draw.rectangle((x0, y0, x1, y1), fill=mark or fill)
            elif ch == FILLED:
                draw.rectangle((x0, y0, x1, y1), fill=mark or COLOURS["ink"])
            elif ch == EMPTY:
                if mark:
                    draw.rectangle((x0, y0, x1, y1), fill=COLOURS["paper"], outline=mark,
                                   width=max(2, lay.cell // 8))
                if partial or mark:
                    mx, my = (x0 + x1) // 2, (y0 + y1) // 2
                    draw.ellipse((mx - dot, my - dot, mx + dot, my + dot), fill=mark or COLOURS["dot"])
            elif mark or unknown:
                draw.rectangle((x0, y0, x1, y1), fill=mark or unknown)
    for x1, y1, x2, y2, thick in sorted(lay.lines(), key=lambda line: line[4]):
        draw.line((x1, y1, x2, y2), fill=COLOURS["ink"] if thick else COLOURS["thin"],
                  width=2 if thick else 1)


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
