"""Animations of a solve: an animated GIF (Pillow, extra ``image``) or a self-contained HTML player.

``write_animation`` picks by the file name (.gif, .html). A GIF shows at most ``max_frames``
steps, spread evenly over the solve (always the first and the last); the HTML player keeps
every recorded step and can step back and forth. A colour puzzle is drawn as its pictures
are (cells in their colours, clue numbers on swatches); a highlighted colour cell keeps its
colour inside a ring of the highlight's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from gridsolve.errors import GridsolveError
from gridsolve.nonogram.model import EMPTY, UNKNOWN, AnyPuzzle
from gridsolve.nonogram.render.layout import COLOURS, Layout, fitted_layout
from gridsolve.nonogram.watch.frames import Frame, frames

if TYPE_CHECKING:
    from gridsolve.nonogram.watch.trace import Step

__all__ = ["write_animation", "write_gif", "gif_layout", "pick"]

#: a GIF is widened to fit its captions up to this many pixels
MAX_GIF_WIDTH = 900
#: The most pixels of one GIF frame (smaller cells past it) and of all its frames together
#: (fewer frames past it): a frame is held as one byte a pixel until the file is written.
MAX_FRAME_PIXELS = 2_500_000
GIF_PIXELS = 150_000_000
#: The widest and tallest a GIF can be (its sizes are 16-bit numbers).
GIF_MAX_SIDE = 65_535


def pick(n: int, most: int) -> list[int]:
    """At most ``most`` indexes out of range(n), evenly spread, keeping the first and last."""
    if n <= most:
        return list(range(n))
    if most < 2:
        return [n - 1]
    return sorted({round(i * (n - 1) / (most - 1)) for i in range(most)})


def fixed_palette(pil: Any, extra: Sequence[str] = ()) -> Any:
    """A palette image with our colours, a grey ramp (for smooth text) and ``extra`` colours
    (a colour puzzle's fills and outlines, as many as fit in 256), for fast GIF frames."""
    rgb: list[int] = []
    for colour in COLOURS.values():
        rgb += [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    for level in range(0, 256, 8):
        rgb += [level] * 3
    for colour in extra:
        if len(rgb) < 768:
            rgb += [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    pal = pil.Image.new("P", (1, 1))
    pal.putpalette(rgb + [0] * (768 - len(rgb)))
    return pal


def _band(cell: int) -> int:
    """The height of a frame's caption band."""
    return round(cell * 1.4)


def _frame_size(lay: Layout) -> tuple[int, int]:
    """The largest a GIF frame of this layout is drawn: its caption band below, and as wide
    as MAX_GIF_WIDTH when a caption needs it."""
    return max(lay.width, MAX_GIF_WIDTH), lay.height + _band(lay.cell)


def gif_layout(puzzle: AnyPuzzle, cell: int = 16) -> Layout:
    """The layout of a GIF's frames (cells smaller for a large puzzle), or GridsolveError when
    even MIN_CELL cells make a frame over MAX_FRAME_PIXELS, or wider or taller than a GIF can
    be (GIF_MAX_SIDE): the CLI asks before it solves."""
    lay = fitted_layout(puzzle, cell, MAX_FRAME_PIXELS, _frame_size, "each frame of the GIF",
                        "write an .html animation instead")
    width, height = _frame_size(lay)
    if max(width, height) > GIF_MAX_SIDE:
        raise GridsolveError(f"each frame of the GIF would be {width}x{height} pixels, over the "
                             f"{GIF_MAX_SIDE:,} a side a GIF can have: write an .html animation "
                             "instead")
    return lay


def ring_cells(pil: Any, img: Any, lay: Layout, rings: dict[int, str]) -> None:
    """A ring of its highlight's colour inside each of these cells (a colour puzzle's settled
    cells, which keep their colour), as the player draws them."""
    draw = pil.ImageDraw.Draw(img)
    size, width = lay.cell, max(2, lay.cell // 8)
    for cell, colour in rings.items():
        x0, y0, _, _ = lay.cell_box(cell // lay.cols, cell % lay.cols)
        draw.rectangle((x0 + 1, y0 + 1, x0 + size - 1, y0 + size - 1), outline=colour, width=width)


def write_gif(path: str, puzzle: AnyPuzzle, steps: Sequence[Step], cell: int = 16,
              max_frames: int = 300, ms: int = 150, note: str = "") -> None:
    """Write an animated GIF of the steps (the blank puzzle first, the last step held). Each
    frame (the picture, its caption band, at most MAX_GIF_WIDTH wide for the caption) has at
    most MAX_FRAME_PIXELS (smaller cells for a large puzzle; GridsolveError past MIN_CELL),
    and the frames together at most GIF_PIXELS (fewer frames for a large one): every frame
    is held in memory until the file is written."""
    from gridsolve.nonogram.render.png import draw_frame, font, load_pillow, paint_cells
    pil = load_pillow()
    lay = gif_layout(puzzle, cell)
    cell = lay.cell
    band = _band(cell)
    frame_width, frame_height = _frame_size(lay)
    max_frames = max(2, min(max_frames, GIF_PIXELS // (frame_width * frame_height)))
    text_font = font(max(9, round(cell * 0.6)))
    wanted = set(pick(len(steps), max_frames - 1))
    chosen = list(frames(puzzle, steps, grids=wanted, only=wanted))
    opening = f"{puzzle.width}x{puzzle.height} puzzle{note}"
    longest = max(text_font.getlength(f.caption) for f in chosen) if chosen else 0
    width = max(lay.width, min(MAX_GIF_WIDTH, round(max(longest, text_font.getlength(opening)) + cell)))
    paper = pil.Image.new("RGB", (width, lay.height + band), COLOURS["paper"])
    paper.paste(draw_frame(lay, puzzle), (0, 0))
    colours = {kind: COLOURS[kind] for kind in ("changed", "probe", "learned", "guess", "undone")}
    extra = [fill for _, fill in lay.cell_fills] + list(lay.outlines().values())
    palette = fixed_palette(pil, extra)

    def picture(frame: Frame | None) -> Any:
        img = paper.copy()
        grid = frame.grid if frame else ("?" * puzzle.width,) * puzzle.height
        marks = {cell_: colours[m] for cell_, m in frame.marks.items()} if frame else {}
        rings: dict[int, str] = {}
        if lay.cell_fills:  # a settled colour cell keeps its colour, ringed
            w = puzzle.width
            rings = {c: m for c, m in marks.items() if grid[c // w][c % w] not in (EMPTY, UNKNOWN)}
            marks = {c: m for c, m in marks.items() if c not in rings}
        paint_cells(img, lay, grid, marks, COLOURS["unknown"])
        ring_cells(pil, img, lay, rings)
        pil.ImageDraw.Draw(img).text((lay.cell // 2, lay.height + band // 2),
                                     frame.caption if frame else opening,
                                     fill=COLOURS["ink"], font=text_font, anchor="lm")
        return img.quantize(palette=palette, dither=pil.Image.Dither.NONE)

    images = [picture(None)] + [picture(f) for f in chosen]
    durations = [ms * 4] + [ms] * len(chosen)
    durations[-1] = max(ms, 3000)
    images[0].save(path, format="GIF", save_all=True, append_images=images[1:],
                   duration=durations, loop=0, disposal=1)


def write_animation(path: str, puzzle: AnyPuzzle, steps: Sequence[Step], complete: bool = True) -> None:
    """Write a GIF or HTML animation, by the file name's ending."""
    note = "" if complete else " (recording stopped early)"
    if path.lower().endswith(".gif"):
        write_gif(path, puzzle, steps, note=note)
        return
    from gridsolve.nonogram.watch.player import animation_html
    html = animation_html(puzzle, steps, note)
    with open(path, "w", encoding="utf-8") as f:
        f.write(html)
