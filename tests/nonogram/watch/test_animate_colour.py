"""Animations of colour solves (issue 55): the HTML player and the GIF draw each settled cell
in its palette colour, clue numbers on swatches, and captions name the colours."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import gridsolve
from gridsolve.nonogram.formats import parse_puzzle, read_puzzle
from gridsolve.nonogram.model import ColourPuzzle, is_colour_solution
from gridsolve.nonogram.render.layout import COLOURS
from gridsolve.nonogram.watch.animate import gif_layout, write_gif
from gridsolve.nonogram.watch.frames import frames
from gridsolve.nonogram.watch.trace import trace_solve
from tests.cli.test_nonogram import run

MUSHROOM = Path(gridsolve.__file__).parent / "examples" / "mushroom.json"

#: either diagonal of red: the search guesses, and its last frame holds the guess
DIAGONALS = parse_puzzle(json.dumps({
    "format": "gridsolve-nonogram", "version": 1,
    "palette": [{"name": "white", "rgb": "#ffffff", "symbol": "."},
                {"name": "red", "rgb": "#ff0000", "symbol": "r"}],
    "rows": [[[1, 1]], [[1, 1]]], "cols": [[[1, 1]], [[1, 1]]]}))


def _mushroom() -> ColourPuzzle:
    puzzle = read_puzzle(str(MUSHROOM))
    assert isinstance(puzzle, ColourPuzzle)
    return puzzle


def _player(html: str) -> dict[str, Any]:
    """The data the player page embeds."""
    found = re.search(r"^const D = (.*);$", html, re.M)
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    return int(hex_colour[1:3], 16), int(hex_colour[3:5], 16), int(hex_colour[5:7], 16)


def test_html_animation_of_a_colour_puzzle_ends_on_its_colours(capsys, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    puzzle = _mushroom()
    out = tmp_path / "mushroom.html"
    code, _, err = run(capsys, "nonogram", "solve", str(MUSHROOM), "--animate", str(out))
    assert (code, err) == (0, "")
    data = _player(out.read_text(encoding="utf-8"))
    state = [0] * (puzzle.width * puzzle.height)
    for _, changes, _, _ in data["steps"]:
        for i in range(0, len(changes), 3):
            assert state[changes[i]] == changes[i + 1]
            state[changes[i]] = changes[i + 2]
    # a code is 1 + the palette index (1: the background, drawn as today's empty)
    symbols = [c.symbol for c in puzzle.palette]
    grid = ["".join(symbols[v - 1] for v in state[r * puzzle.width:(r + 1) * puzzle.width])
            for r in range(puzzle.height)]
    assert 0 not in state and is_colour_solution(puzzle, grid)
    fills = data["fills"]
    assert fills[:2] == [None, None]
    assert fills[2:] == [c.hex for c in puzzle.palette[1:]]
    # every clue number is on a swatch of its block's colour, none written in ink
    blocks = [(str(n), puzzle.palette[k].hex) for clues in (puzzle.rows, puzzle.cols)
              for clue in clues for n, k in clue]
    assert sorted((s[0], s[5]) for s in data["swatches"]) == sorted(blocks)
    assert data["rowClues"] == data["colClues"] == []
    # the light cream is outlined (as in the pictures), and the captions name the colours
    assert data["outlines"][symbols.index("w") + 1] is not None
    assert any("red" in step[0] and "cream" in step[0] for step in data["steps"])


def test_gif_animation_of_a_colour_puzzle_ends_on_its_colours(capsys, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("PIL")
    from PIL import Image
    puzzle = _mushroom()
    out = tmp_path / "mushroom.gif"
    code, _, err = run(capsys, "nonogram", "solve", str(MUSHROOM), "--animate", str(out))
    assert (code, err) == (0, "")
    grid = trace_solve(puzzle)[0].solutions[0]
    lay = gif_layout(puzzle)
    fill = {c.symbol: c.hex for c in puzzle.palette} | {".": COLOURS["paper"]}
    with Image.open(out) as img:
        img.seek(getattr(img, "n_frames", 1) - 1)
        last = img.convert("RGB")
    for r, row in enumerate(grid):
        for c, symbol in enumerate(row):
            x0, y0, x1, y1 = lay.cell_box(r, c)
            assert last.getpixel(((x0 + x1) // 2, (y0 + y1) // 2)) == _rgb(fill[symbol]), (r, c)


def test_a_colour_guess_is_captioned_and_ringed_keeping_its_colour(tmp_path: Path) -> None:
    _, trace = trace_solve(DIAGONALS)
    shown = list(frames(DIAGONALS, trace.steps))
    captions = [f.caption for f in shown]
    assert "guess (depth 1): r1c1 is red (not empty)" in captions
    assert "round 1: row 1 (clue 1r): red 2" in captions
    assert shown[-1].grid == ("r.", ".r") and shown[-1].marks == {0: "guess"}
    pytest.importorskip("PIL")
    from PIL import Image
    path = tmp_path / "diagonals.gif"
    write_gif(str(path), DIAGONALS, trace.steps)
    lay = gif_layout(DIAGONALS)
    x0, y0, x1, y1 = lay.cell_box(0, 0)
    with Image.open(path) as img:
        img.seek(getattr(img, "n_frames", 1) - 1)
        last = img.convert("RGB")
    assert last.getpixel(((x0 + x1) // 2, (y0 + y1) // 2)) == _rgb("#ff0000")  # its colour
    assert last.getpixel((x0 + 2, (y0 + y1) // 2)) == _rgb(COLOURS["guess"])  # in a ring
