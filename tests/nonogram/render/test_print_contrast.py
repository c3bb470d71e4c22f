"""Colour pictures that print: every clue number reads against what is behind it (WCAG 2,
4.5:1 at least) in SVG, PNG and the notebook's picture, and a colour too light to be seen on
white paper (under 3:1) is outlined, on its clue swatches and its cells (issue 55.4).

The contrast is worked out here from the WCAG formula, apart from the renderer's own, and
read from what the pictures draw: the SVG's elements, the PNG's pixels."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from gridsolve.nonogram.formats import read_puzzle
from gridsolve.nonogram.model import WHITE, Colour, ColourPuzzle, colour_puzzle_from_grid
from gridsolve.nonogram.render import puzzle_svg
from gridsolve.nonogram.render.layout import Layout, clue_gap, layout, number_width

SVG = "{http://www.w3.org/2000/svg}"
PAPER = (255, 255, 255)
MUSHROOM_FILE = Path(__file__).resolve().parents[3] / "src/gridsolve/examples/mushroom.json"
_READ = read_puzzle(str(MUSHROOM_FILE))
assert isinstance(_READ, ColourPuzzle)
MUSHROOM: ColourPuzzle = _READ
MUSHROOM_GRID = ("....rrrr....", "..rrwwrrrr..", ".rrrwwrrwwr.", ".rrrrrrrwwr.",
                 "rrwwrrrrrrrr", "rrwwrrrwwrrr", "rrrrrrrwwrrr", "....tttt....",
                 "....tttt....", "...tttttt...", ".g.tttttt.g.", "gggggggggggg")
#: light colours (yellow, an off-white, sky, cream), a mid grey, a dark one; an empty row and
#: column ("0"), two-digit clues
LIGHT_PALETTE = (WHITE, Colour("yellow", (255, 255, 0), "y"), Colour("ghost", (240, 240, 240), "g"),
                 Colour("sky", (135, 206, 235), "s"), Colour("cream", (255, 244, 214), "w"),
                 Colour("grey", (128, 128, 128), "m"), Colour("navy", (0, 0, 128), "n"))
LIGHT_GRID = ("yyyyyyyyyyyy.g", "ysgwmn.nmwgsy.", "..............", "gggggggggggg.y",
              "wwwwwwwwwwww.s", "smnwgy.ysgwm.w", "nnnnnnnnnnnn.m")
LIGHT = colour_puzzle_from_grid(LIGHT_GRID, LIGHT_PALETTE, title="Light")
PUZZLES = {"mushroom": (MUSHROOM, MUSHROOM_GRID), "light": (LIGHT, LIGHT_GRID)}


def rgb(colour: str) -> tuple[int, int, int]:
    h = colour.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def ratio(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    """WCAG 2 contrast ratio of two RGB colours."""
    def lum(c: tuple[int, ...]) -> float:
        lin = [(v / 255) / 12.92 if v / 255 <= 0.04045 else ((v / 255 + 0.055) / 1.055) ** 2.4
               for v in c[:3]]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_the_formula() -> None:
    assert ratio((0, 0, 0), PAPER) == pytest.approx(21)
    assert ratio(rgb("#777777"), PAPER) == pytest.approx(4.48, abs=0.01)
    assert ratio(rgb("#fff4d6"), PAPER) < 1.2  # the mushroom's cream: unreadable on white


def svg_clues(svg: str) -> list[tuple[str, tuple[int, ...], tuple[int, ...]]]:
    """(number, its text colour, the colour behind it) for every clue number of an SVG: behind
    it the swatch drawn under its anchor, if any, else the paper."""
    root = ET.fromstring(svg)
    group = next(g for g in root.iter(SVG + "g") if g.get("class") == "clues")
    ink = rgb(group.get("fill") or "#000000")
    boxes = [(float(r.get("x") or 0), float(r.get("y") or 0), float(r.get("width") or 0),
              float(r.get("height") or 0), rgb(r.get("fill") or "#ffffff"))
             for r in root.iter(SVG + "rect")
             if r.get("class") not in ("paper", None) and r.get("fill") != "none"]
    out: list[tuple[str, tuple[int, ...], tuple[int, ...]]] = []
    for text in group.iter(SVG + "text"):
        spans = list(text.iter(SVG + "tspan")) or [text]
        for span in spans:
            x, y = float(span.get("x") or text.get("x") or 0), float(text.get("y") or 0)
            fill = span.get("fill") or text.get("fill")
            colour = rgb(fill) if fill else ink
            under = [f for bx, by, bw, bh, f in boxes if bx <= x <= bx + bw and by <= y <= by + bh]
            out.append((span.text or "", colour, under[-1] if under else PAPER))
    return out


@pytest.mark.parametrize("name", sorted(PUZZLES))
@pytest.mark.parametrize("cell", [9, 20, 33])
def test_every_svg_clue_number_reads_on_what_is_behind_it(name: str, cell: int) -> None:
    puzzle, grid = PUZZLES[name]
    for shown in (None, grid):
        clues = svg_clues(puzzle_svg(puzzle, shown, cell))
        assert len(clues) == sum(max(len(c), 1) for c in puzzle.rows + puzzle.cols)
        for number, text, behind in clues:
            assert ratio(text, behind) >= 4.5, (number, text, behind)


def test_the_notebook_picture_reads_too() -> None:
    from gridsolve.notebook import puzzle_picture
    for puzzle, _ in PUZZLES.values():
        for number, text, behind in svg_clues(puzzle_picture(puzzle)):
            assert ratio(text, behind) >= 4.5, (number, text, behind)


def test_colour_clues_stand_on_swatches_of_their_colours() -> None:
    root = ET.fromstring(puzzle_svg(MUSHROOM))
    swatches = [r.get("fill") for r in root.iter(SVG + "rect") if r.get("class") == "swatch"]
    palette = [c.hex for c in MUSHROOM.palette]
    assert swatches == [palette[k] for clue in MUSHROOM.rows + MUSHROOM.cols for _, k in clue]


def test_light_swatches_and_cells_are_outlined_in_the_svg() -> None:
    """A fill under 3:1 on the paper has a stroke of at least 3:1 on the paper around it (a
    swatch's own stroke; a cell's outline, on the same cell); the others none."""
    root = ET.fromstring(puzzle_svg(LIGHT, LIGHT_GRID))
    rects = list(root.iter(SVG + "rect"))

    def centre(r: ET.Element) -> tuple[float, float]:
        return (float(r.get("x") or 0) + float(r.get("width") or 0) / 2,
                float(r.get("y") or 0) + float(r.get("height") or 0) / 2)
    outlines = {centre(r): r.get("stroke") for r in rects if r.get("class") == "outline"}
    seen = {"swatch": 0, "filled": 0}
    for r in rects:
        kind = r.get("class")
        if kind not in seen:
            continue
        fill = rgb(r.get("fill") or "")
        light = ratio(fill, PAPER) < 3
        stroke = r.get("stroke") if kind == "swatch" else outlines.get(centre(r))
        assert (stroke is not None) == light, (kind, fill)
        if stroke:
            assert ratio(rgb(stroke), PAPER) >= 3
            seen[kind] += 1
    assert seen["swatch"] >= 20 and seen["filled"] >= 30


def _region(img: Any, box: tuple[int, int, int, int]) -> list[tuple[int, ...]]:
    x0, y0, x1, y1 = box
    return [pixel(img, x, y) for y in range(y0, y1) for x in range(x0, x1)]


def pixel(img: Any, x: int, y: int) -> tuple[int, ...]:
    return tuple(img.getpixel((x, y)))


def _number_regions(lay: Layout) -> list[tuple[str, tuple[int, int, int, int]]]:
    """Where each clue number is written, as the layout of black-and-white puzzles places it
    (a swatch holds the same place): row numbers in their boxes, column numbers in their
    slots, each a couple of pixels inside the cell's band."""
    out = []
    for r in range(lay.rows):
        y0, y1 = lay.top + r * lay.cell + 2, lay.top + (r + 1) * lay.cell - 2
        for n, left, right in lay.row_number_boxes(r):
            out.append((n, (left, y0, right, y1)))
    for c in range(lay.cols):
        x0, x1 = lay.left + c * lay.cell + 2, lay.left + (c + 1) * lay.cell - 2
        for n, _, y in lay.col_clue_anchors(c):
            out.append((n, (x0, y - lay.slot // 2 + 2, x1, y + lay.slot // 2 - 2)))
    return out


@pytest.mark.parametrize("name", sorted(PUZZLES))
@pytest.mark.parametrize("cell", [14, 20, 30])
def test_every_png_clue_number_reads_on_what_is_behind_it(name: str, cell: int) -> None:
    """Behind a number: the commonest colour where it is written; the number: its pixels,
    of which the strongest stands at least 4.5:1 against that (the number's core; its
    anti-aliased edge is softer)."""
    pytest.importorskip("PIL")
    from gridsolve.nonogram.render.png import puzzle_image
    puzzle, grid = PUZZLES[name]
    img = puzzle_image(puzzle, grid, cell)
    for number, box in _number_regions(layout(puzzle, cell)):
        pixels = _region(img, box)
        behind = Counter(pixels).most_common(1)[0][0]
        best = max(ratio(p, behind) for p in pixels)
        assert best >= 4.5, (number, box, behind)


def test_light_png_swatches_and_cells_are_outlined() -> None:
    """On a light swatch, its edge is dark (3:1 on the paper) and its middle its colour; a
    light cell likewise, inside the grid lines."""
    pytest.importorskip("PIL")
    from gridsolve.nonogram.render.png import puzzle_image
    cell = 20
    lay = layout(LIGHT, cell)
    img = puzzle_image(LIGHT, LIGHT_GRID, cell)
    light = {c.symbol: c.rgb for c in LIGHT_PALETTE[1:] if ratio(c.rgb, PAPER) < 3}
    assert set(light) == {"y", "g", "s", "w"}
    checked = 0
    for swatch in [s for r in range(lay.rows) for s in lay.row_swatches(r)] + \
                  [s for c in range(lay.cols) for s in lay.col_swatches(c)]:
        x0, y0, _, y1 = swatch.box
        edge = pixel(img, x0, (y0 + y1) // 2)
        if rgb(swatch.fill) in light.values():
            assert ratio(edge, PAPER) >= 3 and pixel(img, x0 + 2, y0 + 2) == rgb(swatch.fill)
            checked += 1
        else:
            assert edge == rgb(swatch.fill)
    for r, row in enumerate(LIGHT_GRID):
        for c, ch in enumerate(row):
            x0, y0, x1, y1 = lay.cell_box(r, c)
            if ch in light:
                assert ratio(pixel(img, x0 + 2, (y0 + y1) // 2), PAPER) >= 3, (r, c)
                assert pixel(img, (x0 + x1) // 2, (y0 + y1) // 2) == light[ch]
                checked += 1
    assert checked >= 50


@pytest.mark.parametrize("cell", [3, 6, 9, 14, 20, 31])
def test_swatches_hold_their_numbers_and_stay_apart(cell: int) -> None:
    """A swatch is as wide as its number's box at least, inside its line's band, clear of the
    grid and of the next swatch."""
    lay = layout(LIGHT, cell)
    for r in range(lay.rows):
        swatches = lay.row_swatches(r)
        for s in swatches:
            x0, y0, x1, y1 = s.box
            assert x1 - x0 >= number_width(s.number, lay.font) and x0 >= 0 and x1 <= lay.left
            assert lay.top + r * cell <= y0 < y1 <= lay.top + (r + 1) * cell
        for a, b in zip(swatches, swatches[1:]):
            assert b.box[0] - a.box[2] >= min(2, clue_gap(lay.font))
    for c in range(lay.cols):
        swatches = lay.col_swatches(c)
        for s in swatches:
            x0, y0, x1, y1 = s.box
            assert lay.left + c * cell <= x0 < x1 <= lay.left + (c + 1) * cell
            assert y1 <= lay.top and x1 - x0 >= 1
        for a, b in zip(swatches, swatches[1:]):
            assert b.box[1] >= a.box[3] + 2
    assert lay.row_swatches(2) == () and lay.row_clues[2] == "0"


def test_black_and_white_clues_stay_ink_on_paper() -> None:
    """Black and white has no swatches: its numbers are the ink (17:1 on the paper)."""
    from gridsolve.nonogram.model import puzzle_from_grid
    grid = ("##.#", "....", ".###")
    root = ET.fromstring(puzzle_svg(puzzle_from_grid(grid), grid))
    assert not [r for r in root.iter(SVG + "rect") if r.get("class") in ("swatch", "outline")]
    assert {(t, c) for _, t, c in svg_clues(puzzle_svg(puzzle_from_grid(grid)))} == {
        (rgb("#1a1a1a"), PAPER)}


def test_a_one_colour_puzzle_in_black_reads_white_on_black() -> None:
    puzzle = colour_puzzle_from_grid(("k.k", "kkk"), (WHITE, Colour("black", (0, 0, 0), "k")))
    assert isinstance(puzzle, ColourPuzzle)
    assert {(t, c) for _, t, c in svg_clues(puzzle_svg(puzzle))} == {((255,) * 3, (0, 0, 0))}
