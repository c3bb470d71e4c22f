"""SVG and PNG pictures: well-formed, the right cells filled, printed-puzzle layout."""

from __future__ import annotations

import builtins
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from gridsolve.errors import SolverUnavailable
from gridsolve.nonogram.model import puzzle_from_grid
from gridsolve.nonogram.render import puzzle_svg, write_png
from gridsolve.nonogram.render.layout import layout

SVG = "{http://www.w3.org/2000/svg}"
GRID = ("##.#.#", "######", "......", "..##..", "#....#", ".####.")


def test_svg_is_well_formed_with_one_rect_per_filled_cell() -> None:
    puzzle = puzzle_from_grid(GRID, title="Smile & <friends>")
    root = ET.fromstring(puzzle_svg(puzzle, GRID))
    filled = [r for r in root.iter(SVG + "rect") if r.get("class") == "filled"]
    assert len(filled) == sum(row.count("#") for row in GRID)
    lay = layout(puzzle)
    spots = {(int(r.get("x", 0)), int(r.get("y", 0))) for r in filled}
    assert lay.cell_box(0, 0)[:2] in spots and lay.cell_box(0, 2)[:2] not in spots
    texts = [t.text for t in root.iter(SVG + "text")]
    assert texts[0] == "Smile & <friends>"
    rows = [" ".join(s.text or "" for s in t.iter(SVG + "tspan")) for t in root.iter(SVG + "text")]
    assert "2 1 1" in rows and "0" in rows


def test_svg_lines_thick_every_five_cells() -> None:
    grid = ("#" * 12,) * 7
    root = ET.fromstring(puzzle_svg(puzzle_from_grid(grid), grid))
    widths = [line.get("stroke-width") for line in root.iter(SVG + "line")]
    assert len(widths) == 13 + 8
    assert widths.count("2") == 4 + 3  # x: 0, 5, 10, 12; y: 0, 5, 7


def test_svg_partial_grid_marks_known_empty_cells() -> None:
    puzzle = puzzle_from_grid(GRID)
    partial = tuple(row[:3] + "?" * 3 for row in GRID)
    root = ET.fromstring(puzzle_svg(puzzle, partial))
    dots = list(root.iter(SVG + "circle"))
    assert len(dots) == sum(row[:3].count(".") for row in GRID)


def test_png_size_and_pixels(tmp_path: Path) -> None:
    pytest.importorskip("PIL")
    from PIL import Image
    puzzle = puzzle_from_grid(GRID)
    path = tmp_path / "smile.png"
    write_png(str(path), puzzle, GRID, cell=20)
    img = Image.open(path).convert("RGB")
    lay = layout(puzzle, 20)
    assert img.size == (lay.width, lay.height)
    for r, row in enumerate(GRID):
        for c, ch in enumerate(row):
            x0, y0, x1, y1 = lay.cell_box(r, c)
            pixel = img.getpixel(((x0 + x1) // 2 + 3, (y0 + y1) // 2 + 3))
            assert pixel == ((0x1A,) * 3 if ch == "#" else (255, 255, 255)), (r, c)
    assert img.getpixel((1, 1)) == (255, 255, 255)


def test_png_without_pillow_names_the_extra(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    real_import = builtins.__import__

    def no_pil(name: str, *args: Any, **kw: Any) -> Any:
        if name == "PIL" or name.startswith("PIL."):
            raise ImportError(name)
        return real_import(name, *args, **kw)

    monkeypatch.setattr(builtins, "__import__", no_pil)
    with pytest.raises(SolverUnavailable, match=r"gridsolve\[image\]"):
        write_png(str(tmp_path / "x.png"), puzzle_from_grid(GRID), GRID)


def _drawn_cell_by_cell(pil: Any, lay: Any, grid: tuple[str, ...], marks: dict[int, str] | None,
                        unknown: str | None, img: Any) -> None:
    """The picture's cells drawn the plain way, a shape per cell (the reference for the run
    and dot shortcuts of paint_cells); then a light colour's outline on its cells that are not
    highlighted."""
    from gridsolve.nonogram.render.layout import COLOURS, outline_width
    draw = pil.ImageDraw.Draw(img)
    if lay.cell_fills:
        partial = any(ch == "?" for row in grid for ch in row)
    else:
        partial = any(ch not in "#." for row in grid for ch in row)
    dot = max(1, lay.cell // 10)
    for r, row in enumerate(grid):
        for c, ch in enumerate(row):
            x0, y0, x1, y1 = lay.cell_box(r, c)
            mark = (marks or {}).get(r * len(row) + c)
            fill = lay.fill_of(ch) if ch != "." else None
            if fill is not None:
                draw.rectangle((x0, y0, x1, y1), fill=mark or fill)
            elif ch == "#":
                draw.rectangle((x0, y0, x1, y1), fill=mark or COLOURS["ink"])
            elif ch == ".":
                if mark:
                    draw.rectangle((x0, y0, x1, y1), fill=COLOURS["paper"], outline=mark,
                                   width=max(2, lay.cell // 8))
                if partial or mark:
                    mx, my = (x0 + x1) // 2, (y0 + y1) // 2
                    draw.ellipse((mx - dot, my - dot, mx + dot, my + dot),
                                 fill=mark or COLOURS["dot"])
            elif mark or unknown:
                draw.rectangle((x0, y0, x1, y1), fill=mark or unknown)
    lines = lay.outlines()
    for r, row in enumerate(grid):
        for c, ch in enumerate(row):
            if ch in lines and r * len(row) + c not in (marks or {}) and outline_width(lay.cell):
                draw.rectangle(lay.cell_box(r, c), outline=lines[ch],
                               width=outline_width(lay.cell))
    for x1, y1, x2, y2, thick in sorted(lay.lines(), key=lambda line: line[4]):
        draw.line((x1, y1, x2, y2), fill=COLOURS["ink"] if thick else COLOURS["thin"],
                  width=2 if thick else 1)


@pytest.mark.parametrize("cell", [3, 4, 7, 20])
@pytest.mark.parametrize("kind", ["solution", "partial", "marked", "all marked"])
@pytest.mark.parametrize("palette", ["", "a#", "aL"])
@pytest.mark.parametrize("mask_pixels", [0, 2000, 10**9])
def test_png_cells_are_drawn_as_one_shape_per_cell_would_draw_them(
        cell: int, kind: str, palette: str, mask_pixels: int,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """paint_cells draws the cells a band of rows at a time, as layers of fills, then dots and
    the rings of highlighted empty cells as shapes or through masks (MASK_PIXELS 0: always
    shapes; 10**9: always masks): the pixels are those of a shape per cell (black and white,
    and colour puzzles, one of whose colours is written '#'; every highlight colour, on some
    cells or on all; a light colour, L, outlined)."""
    import random
    pytest.importorskip("PIL")
    from gridsolve.nonogram.model import WHITE, Colour, colour_puzzle_from_grid
    from gridsolve.nonogram.render import png
    from gridsolve.nonogram.render.layout import COLOURS
    from gridsolve.nonogram.render.png import draw_frame, load_pillow, paint_cells
    from gridsolve.nonogram.watch.frames import MARKS
    monkeypatch.setattr(png, "BAND_PIXELS", 5 * 23 * cell * cell)  # bands of 5, 5, 5, 2 rows
    monkeypatch.setattr(png, "MASK_PIXELS", mask_pixels)
    pil = load_pillow()
    rng = random.Random(cell)
    symbols = (palette or "#") + "." + ("" if kind == "solution" else "?")
    grid = tuple("".join(rng.choice(symbols) for _ in range(23)) for _ in range(17))
    picture = tuple(row.replace("?", ".") for row in grid)
    if palette:
        inks = (WHITE,) + tuple(Colour(f"c{i}", (250, 240, 200) if symbol == "L"
                                       else (60 * i, 200 - 50 * i, 90), symbol)
                                for i, symbol in enumerate(palette, 1))
        puzzle: Any = colour_puzzle_from_grid(picture, inks)
    else:
        puzzle = puzzle_from_grid(picture)
    lay = layout(puzzle, cell)
    highlights = [COLOURS[m] for m in MARKS]
    marks = {i: rng.choice(highlights) for i in range(23 * 17)
             if kind == "all marked" or rng.random() < 0.1} if "marked" in kind else None
    unknown = COLOURS["unknown"] if "marked" in kind else None
    fast, plain = draw_frame(lay, puzzle), draw_frame(lay, puzzle)
    paint_cells(fast, lay, grid, marks, unknown)
    _drawn_cell_by_cell(pil, lay, grid, marks, unknown, plain)
    assert fast.tobytes() == plain.tobytes()


def test_png_clue_numbers_are_the_pixels_of_drawn_text() -> None:
    """Clue numbers are drawn once each and pasted (_Stamps): the same pixels as drawing the
    text at each place, for every anchor the pictures use, overlaps included."""
    pytest.importorskip("PIL")
    from gridsolve.nonogram.render.png import _Stamps, font, load_pillow
    pil = load_pillow()
    for size in (6, 12, 17):
        text_font = font(size)
        plain = pil.Image.new("RGB", (120, 60), "#ffffff")
        stamped = plain.copy()
        stamps = _Stamps(pil, stamped, text_font)
        draw = pil.ImageDraw.Draw(plain)
        for i, (text, anchor, ink) in enumerate([("1", "mm", "#1a1a1a"), ("12", "rm", "#c0392b"),
                                                 ("1", "mm", "#1a1a1a"), ("307", "ms", "#2f7fd8"),
                                                 ("12", "rm", "#1a1a1a")]):
            xy = (20 + 13 * i, 15 + 7 * (i % 3))
            draw.text(xy, text, fill=ink, font=text_font, anchor=anchor)
            stamps.text(xy, text, ink, anchor)
        assert stamped.tobytes() == plain.tobytes()
        assert plain.tobytes() != pil.Image.new("RGB", (120, 60), "#ffffff").tobytes()


def test_png_of_a_grid_of_another_size_is_one_clear_error() -> None:
    """A grid that is not the puzzle's size is refused (drawing by runs and dot masks needs
    the layout's rows and columns)."""
    pytest.importorskip("PIL")
    from gridsolve.errors import GridsolveError
    from gridsolve.nonogram.render.png import draw_frame, paint_cells
    puzzle = puzzle_from_grid(GRID)
    lay = layout(puzzle)
    for grid in [(), GRID[:5], GRID[:5] + ("#####",), GRID[:5] + ("#######",)]:
        with pytest.raises(GridsolveError, match="not the puzzle's 6x6"):
            paint_cells(draw_frame(lay, puzzle), lay, grid)


def test_a_long_title_is_cut_in_pictures() -> None:
    """A picture draws at most TITLE_CHARS characters of a title (a 300,000-character title
    made a 3x2 puzzle's PNG 1.7 million pixels wide); the puzzle keeps its whole title."""
    from gridsolve.nonogram.render.layout import TITLE_CHARS, drawn_title
    title = "long " * 100_000
    puzzle = puzzle_from_grid(("#.#", ".#."), title=title)
    lay = layout(puzzle)
    assert lay.title is not None and len(lay.title) == TITLE_CHARS and lay.title.endswith("...")
    assert lay.width < 20 * TITLE_CHARS and puzzle.title == title
    assert drawn_title("short\ttitle") == "short title"
    root = ET.fromstring(puzzle_svg(puzzle, ("#.#", ".#.")))
    assert [t.text for t in root.iter(SVG + "text")][0] == lay.title
