"""Row clues in pictures: numbers far enough apart that no two read as one (issue 54.8)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from gridsolve.nonogram.model import puzzle_from_grid
from gridsolve.nonogram.render import puzzle_svg
from gridsolve.nonogram.render.layout import MIN_CELL, MIN_CLUE_GAP, layout

WIDTH = 45
#: rows whose clues ran together: "2 40 1" read as "2 401", "11 8" as "118"
GRID = ("##." + "#" * 40 + ".#", ("#" * 11 + "." + "#" * 8).ljust(WIDTH, "."),
        "#.#.#.#".ljust(WIDTH, "."))
PUZZLE = puzzle_from_grid(GRID)
CELLS = range(MIN_CELL, 41)


def test_row_clue_numbers_are_a_gap_apart_at_every_cell_size() -> None:
    """Consecutive numbers' boxes are at least MIN_CLUE_GAP and half the font apart, and in
    the margin left of the grid."""
    for cell in CELLS:
        lay = layout(PUZZLE, cell)
        for r in range(lay.rows):
            boxes = lay.row_number_boxes(r)
            assert " ".join(n for n, _, _ in boxes) == lay.row_clues[r]
            assert boxes[0][1] >= 0 and boxes[-1][2] < lay.left
            for (_, _, right), (_, left, _) in zip(boxes, boxes[1:]):
                assert left - right >= max(MIN_CLUE_GAP, lay.font / 2), (cell, r)


def test_number_boxes_hold_the_numbers_as_drawn() -> None:
    """A box is at least as wide as the drawn number, so the gap between boxes is blank."""
    pytest.importorskip("PIL")
    from gridsolve.nonogram.render.png import font
    for cell in CELLS:
        lay = layout(PUZZLE, cell)
        text_font = font(lay.font)
        for r in range(lay.rows):
            for n, left, right in lay.row_number_boxes(r):
                assert text_font.getlength(n) <= right - left, (cell, n)


def _blank_runs(cell: int) -> list[list[int]]:
    """Per row, the widths of the blank runs of pixel columns between inked ones in its clue."""
    from gridsolve.nonogram.render.png import puzzle_image
    img = puzzle_image(PUZZLE, GRID, cell).convert("L")
    pixels = img.tobytes()  # one byte per pixel, row by row
    lay = layout(PUZZLE, cell)
    out = []
    for r in range(lay.rows):
        ys = range(lay.top + r * cell + 1, lay.top + (r + 1) * cell - 1)
        inked = [any(pixels[y * img.width + x] < 160 for y in ys) for x in range(lay.left - 1)]
        first = inked.index(True)
        runs, blank = [], 0
        for ink in inked[first:]:
            if ink and blank:
                runs.append(blank)
            blank = 0 if ink else blank + 1
        out.append(runs)
    return out


@pytest.mark.parametrize("cell", [6, 10, 14, 20, 30])
def test_png_row_clues_have_a_wide_blank_between_numbers_only(cell: int) -> None:
    """In the drawn PNG, the blanks wider than 0.4 of the font are exactly the ones between
    numbers (inside "40" or "11" the blank is narrower)."""
    pytest.importorskip("PIL")
    font = layout(PUZZLE, cell).font
    wide = [[b for b in runs if b >= max(3, 0.4 * font)] for runs in _blank_runs(cell)]
    assert [len(w) for w in wide] == [2, 1, 3]


def test_svg_places_each_number_of_a_row_clue() -> None:
    """The SVG writes each number at its box's right end, not the clue as one string."""
    lay = layout(PUZZLE, 10)
    root = ET.fromstring(puzzle_svg(PUZZLE, GRID, cell=10))
    svg = "{http://www.w3.org/2000/svg}"
    placed = [[(s.text, int(s.get("x", -1))) for s in t.iter(svg + "tspan")]
              for t in root.iter(svg + "text")]
    for r in range(lay.rows):
        assert [(n, right) for n, _, right in lay.row_number_boxes(r)] in placed


#: columns clued 20, 10 and 12 side by side: "20 10 12" ran together as "201012"
COLUMNS = puzzle_from_grid(tuple("#" + ("#" if r < 10 else ".") + ("#" if r < 12 else ".")
                                 for r in range(20)))


def test_two_digit_column_numbers_side_by_side_are_a_gap_apart() -> None:
    """From the cell size at which two digits and a gap fit at the smallest font (12 px), the
    column font shrinks as needed so next columns' numbers keep MIN_CLUE_GAP between them
    (in narrower cells they may touch: the font stops at 6 px)."""
    from gridsolve.nonogram.render.layout import number_width
    assert [c for c in COLUMNS.cols] == [(20,), (10,), (12,)]
    for cell in range(12, 41):
        lay = layout(COLUMNS, cell)
        assert 6 <= lay.column_font <= lay.font
        boxes = [(x - number_width(n, lay.column_font) / 2, x + number_width(n, lay.column_font) / 2)
                 for c in range(lay.cols) for n, x, _ in lay.col_clue_anchors(c)]
        for (_, right), (left, _) in zip(boxes, boxes[1:]):
            assert left - right >= MIN_CLUE_GAP, cell


def test_png_column_numbers_side_by_side_have_a_blank_between() -> None:
    pytest.importorskip("PIL")
    from gridsolve.nonogram.render.layout import clue_gap
    from gridsolve.nonogram.render.png import puzzle_image
    for cell in (12, 16, 20, 26, 30):
        img = puzzle_image(COLUMNS, None, cell).convert("L")
        pixels = img.tobytes()
        lay = layout(COLUMNS, cell)
        _, _, y = next(lay.col_clue_anchors(0))
        ys = range(y - lay.column_font // 3, y + lay.column_font // 3)
        inked = [any(pixels[yy * img.width + x] < 160 for yy in ys)
                 for x in range(lay.left, lay.left + 3 * cell)]
        runs, blank, started = [], 0, False
        for ink in inked:
            if ink and started and blank:
                runs.append(blank)
            started = started or ink
            blank = 0 if ink else blank + 1
        # a blank of clue_gap between the numbers; inside "20" or "12" it is narrower
        assert len([b for b in runs if b >= clue_gap(lay.column_font)]) == 2, (cell, runs)
