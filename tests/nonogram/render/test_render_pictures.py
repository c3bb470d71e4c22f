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
    assert "2 1 1" in texts and "0" in texts


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
