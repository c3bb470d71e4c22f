"""Colour puzzles drawn: text (plain and rich), SVG and PNG, and ``nonogram show``."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from gridsolve.nonogram.formats import write_puzzle
from gridsolve.nonogram.model import Colour, colour_puzzle_from_grid
from gridsolve.nonogram.render import ASCII, clued_text, grid_rich, grid_text, puzzle_svg
from gridsolve.nonogram.render.layout import layout

SVG = "{http://www.w3.org/2000/svg}"
PALETTE = (Colour("white", (255, 255, 255), "."), Colour("red", (200, 30, 40), "r"),
           Colour("teal", (0, 128, 128), "t"))
GRID = ("rr.", "rtt", ".t.")
PUZZLE = colour_puzzle_from_grid(GRID, PALETTE, title="Tiny")


def test_clued_text_exact() -> None:
    assert clued_text(PUZZLE, GRID, ASCII) == "\n".join([
        "         1r",
        "      2r 2t 1t",
        "   2r  r  r  .",
        "1r 2t  r  t  t",
        "   1t  .  t  .",
    ])


def test_grid_text_draws_symbols_and_unknowns() -> None:
    assert grid_text(("r?.", "rtt"), palette=PALETTE) == "r?□\nrtt"
    assert grid_text(GRID, ASCII, PALETTE) == "\n".join(GRID)


def test_rich_text_paints_each_colour() -> None:
    text = grid_rich(GRID, ASCII, PUZZLE)
    assert text.plain == clued_text(PUZZLE, GRID, ASCII)
    styles = {text.plain[s.start:s.end]: str(s.style) for s in text.spans}
    assert styles["2r"] == "bold #c81e28" and styles["1t"] == "bold #008080"
    assert styles["r"] == "bold #c81e28" and styles["t"] == "bold #008080"


def test_svg_fills_cells_and_writes_clues_in_palette_colours() -> None:
    root = ET.fromstring(puzzle_svg(PUZZLE, GRID))
    filled = [r for r in root.iter(SVG + "rect") if r.get("class") == "filled"]
    fills = sorted(r.get("fill") or "" for r in filled)
    assert fills == sorted(["#c81e28"] * 3 + ["#008080"] * 3)
    lay = layout(PUZZLE)
    at = {(r.get("x"), r.get("y")): r.get("fill") for r in filled}
    x, y, _, _ = lay.cell_box(1, 2)
    assert at[(str(x), str(y))] == "#008080"
    swatches = [r.get("fill") for r in root.iter(SVG + "rect") if r.get("class") == "swatch"]
    assert swatches[:3] == ["#c81e28", "#c81e28", "#008080"]  # row clues first: 2r, 1r 2t
    assert len(swatches) == sum(map(len, PUZZLE.rows + PUZZLE.cols))
    numbers = [(t.text, t.get("fill")) for t in root.iter(SVG + "text")][1:]  # after the title
    assert numbers[:3] == [("2", "#ffffff"), ("1", "#ffffff"), ("2", "#ffffff")]


def test_svg_partial_colour_grid_dots_known_background() -> None:
    root = ET.fromstring(puzzle_svg(PUZZLE, ("r??", "???", ".??")))
    assert len([r for r in root.iter(SVG + "rect") if r.get("class") == "filled"]) == 1
    assert len(list(root.iter(SVG + "circle"))) == 1


def test_png_cell_centres_have_the_palette_colours(tmp_path: Path) -> None:
    pil = pytest.importorskip("PIL.Image")
    from gridsolve.nonogram.render import write_png
    path = tmp_path / "tiny.png"
    write_png(str(path), PUZZLE, GRID, cell=20)
    img = pil.open(path).convert("RGB")
    lay = layout(PUZZLE, 20)
    for r, row in enumerate(GRID):
        for c, ch in enumerate(row):
            x0, y0, x1, y1 = lay.cell_box(r, c)
            want = PALETTE[PUZZLE.colour_index(ch)].rgb
            assert img.getpixel(((x0 + x1) // 2, (y0 + y1) // 2)) == want, (r, c)


def test_show_cli_prints_colours_and_clues(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    from gridsolve.cli import main
    path = tmp_path / "tiny.xml"
    path.write_text(write_puzzle(PUZZLE, "webpbn", GRID))
    svg = tmp_path / "tiny.svg"
    assert main(["nonogram", "show", str(path), "--ascii", "--svg", str(svg)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == ("Tiny: 3x3, 2 colours on white "
                                   "(red r #c81e28, teal t #008080)")
    assert "\n".join(out.splitlines()[1:]) == clued_text(PUZZLE, GRID, ASCII)
    assert "#008080" in svg.read_text()
    assert main(["nonogram", "show", str(path), "--ascii", "--blank"]) == 0
    assert capsys.readouterr().out.splitlines()[4].endswith("?  ?  ?")


def test_rate_explain_solve_and_check_take_colour(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 55: every command takes a colour puzzle (rate and explain refused it before)."""
    from gridsolve.cli import main
    path = tmp_path / "tiny.json"
    path.write_text(write_puzzle(PUZZLE, "json", GRID))
    for command in (["rate"], ["explain"], ["solve"], ["check"]):
        assert main(["nonogram", *command, str(path)]) == 0, command
        out, err = capsys.readouterr()
        assert out and "black-and-white puzzles only" not in err + out, command
