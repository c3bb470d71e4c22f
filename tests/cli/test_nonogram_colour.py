"""Colour puzzles on the command line: exact output of solve (text, --ascii, --json), exit
codes, pictures, stored-goal warnings, --steps and --animate."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

import gridsolve
from gridsolve.nonogram.engine import colour as colour_engine
from gridsolve.nonogram.formats import read_puzzle
from gridsolve.nonogram.model import ColourPuzzle
from tests.cli.test_nonogram import run

PALETTE = [{"name": "white", "rgb": "#ffffff", "symbol": "."},
           {"name": "red", "rgb": "#ff0000", "symbol": "r"},
           {"name": "blue", "rgb": "#0000ff", "symbol": "b"}]

#: rr. / rb. / .bb, worked out by hand from the picture
FLAG: dict[str, Any] = {"rows": [[[2, 1]], [[1, 1], [1, 2]], [[2, 2]]],
        "cols": [[[2, 1]], [[1, 1], [2, 2]], [[1, 2]]]}
FLAG_GRID = ["rr.", "rb.", ".bb"]

EXAMPLE = Path(gridsolve.__file__).parent / "examples" / "mushroom.json"


def puzzle_json(rows: Any, cols: Any, goal: list[str] | None = None) -> str:
    doc: dict[str, Any] = {"format": "gridsolve-nonogram", "version": 1, "palette": PALETTE,
                           "rows": rows, "cols": cols}
    if goal is not None:
        doc["goal"] = goal
    return json.dumps(doc)


@pytest.fixture
def write(tmp_path: Path):  # type: ignore[no-untyped-def]
    def _write(text: str, name: str = "p.json") -> str:
        path = tmp_path / name
        path.write_text(text)
        return str(path)
    return _write


def test_solve_ascii_prints_palette_symbols(capsys, write) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run(capsys, "nonogram", "solve", "--ascii", write(puzzle_json(**FLAG)))
    assert (code, err) == (0, "")
    assert out == "rr.\nrb.\n.bb\n\nstatus: unique solution\n"


def test_solve_unicode_draws_background_as_empty_cells(capsys, write) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, "nonogram", "solve", write(puzzle_json(**FLAG)))
    assert code == 0
    assert out == "rr□\nrb□\n□bb\n\nstatus: unique solution\n"


def test_solve_json_adds_the_palette(capsys, write) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, "nonogram", "solve", "--json", write(puzzle_json(**FLAG)))
    assert code == 0
    doc = json.loads(out)
    assert doc["status"] == "unique"
    assert (doc["width"], doc["height"]) == (3, 3)
    assert doc["solutions"] == [FLAG_GRID]
    assert doc["palette"] == PALETTE
    assert list(doc) == ["status", "width", "height", "solutions", "seconds", "nodes", "exhausted",
                         "palette"]


def test_black_and_white_json_has_no_palette(capsys, write) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run(capsys, "nonogram", "solve", "--json", write("1 1\n3\n--\n2\n1\n2\n", "p.txt"))
    assert code == 0
    assert "palette" not in json.loads(out)


def test_multiple_and_none_exit_codes(capsys, write) -> None:  # type: ignore[no-untyped-def]
    two = puzzle_json([[[1, 1]], [[1, 1]]], [[[1, 1]], [[1, 1]]])  # either diagonal
    code, out, _ = run(capsys, "nonogram", "solve", "--ascii", write(two))
    assert code == 0
    assert out.endswith("status: more than one solution\n")
    assert out.count("solution ") == 2
    # totals agree (one red, one blue), but the top row wants 'rb' and the columns 'br'
    clash = puzzle_json([[[1, 1], [1, 2]], []], [[[1, 2]], [[1, 1]]])
    code, out, _ = run(capsys, "nonogram", "solve", write(clash, "none.json"))
    assert (code, out) == (1, "status: no solution\n")


def test_bad_colour_clue_is_one_line_exit_2(capsys, write) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run(capsys, "nonogram", "solve", write(puzzle_json([[[1, 3]]], [[[1, 1]]])))
    assert (code, out) == (2, "")
    assert err.startswith("gridsolve: error: ") and err.count("\n") == 1


@pytest.mark.parametrize("option", [["--animate", "x.html"], ["--steps", "--animate", "x.gif"]])
def test_animations_draw_colour(capsys, write, tmp_path: Path, option: list[str]) -> None:  # type: ignore[no-untyped-def]
    """--animate takes a colour puzzle (issue 55; it was refused): the file is written."""
    if option[-1].endswith(".gif"):
        pytest.importorskip("PIL")
    target = tmp_path / option[-1]
    code, out, err = run(capsys, "nonogram", "solve", *option[:-1], str(target),
                         write(puzzle_json(**FLAG)))
    assert (code, err) == (0, "")
    assert out.endswith("status: unique solution\n")
    assert target.stat().st_size > 0


def test_steps_of_a_colour_solve(capsys, write) -> None:  # type: ignore[no-untyped-def]
    """--steps watches the colour engine (issue 55): its line steps name the colours."""
    code, out, err = run(capsys, "nonogram", "solve", "--steps", write(puzzle_json(**FLAG)))
    assert (code, err) == (0, "")
    assert out.startswith("round 1\n") and "summary: " in out
    assert "red" in out and "blue" in out


def test_pictures_draw_the_colour_solution(capsys, write, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    svg, png = tmp_path / "out.svg", tmp_path / "out.png"
    code, _, _ = run(capsys, "nonogram", "solve", "--svg", str(svg), write(puzzle_json(**FLAG)))
    assert code == 0
    text = svg.read_text()
    assert "#ff0000" in text and "#0000ff" in text
    image = pytest.importorskip("PIL.Image")
    code, _, _ = run(capsys, "nonogram", "solve", "--png", str(png), write(puzzle_json(**FLAG)))
    assert code == 0
    colours = {rgb for _, rgb in image.open(png).convert("RGB").getcolors(1 << 20)}
    assert {(255, 0, 0), (0, 0, 255)} <= colours


def test_ilp_refuses_colour_sat_solves_it(capsys, write) -> None:  # type: ignore[no-untyped-def]
    path = write(puzzle_json(**FLAG))
    code, out, err = run(capsys, "nonogram", "solve", "--method", "ilp", path)
    assert (code, out) == (2, "") and "black-and-white puzzles only" in err
    pytest.importorskip("pysat")
    code, out, _ = run(capsys, "nonogram", "solve", "--method", "sat", "--ascii", path)
    assert (code, out) == (0, "rr.\nrb.\n.bb\n\nstatus: unique solution\n")


def test_goal_warning_for_a_colour_goal(capsys, write) -> None:  # type: ignore[no-untyped-def]
    wrong = puzzle_json(**FLAG, goal=["rr.", "br.", ".bb"])  # row 2 swapped: breaks its clue
    code, _, err = run(capsys, "nonogram", "solve", write(wrong))
    assert code == 0
    assert "does not satisfy the clue of row 2" in err
    right = puzzle_json(**FLAG, goal=FLAG_GRID)
    code, _, err = run(capsys, "nonogram", "solve", write(right, "ok.json"))
    assert (code, err) == (0, "")


def test_colour_example_is_unique(capsys) -> None:  # type: ignore[no-untyped-def]
    puzzle = read_puzzle(str(EXAMPLE))
    assert isinstance(puzzle, ColourPuzzle) and 4 <= len(puzzle.palette) - 1 <= 4
    assert colour_engine.count(puzzle, 2) == 1
    code, out, _ = run(capsys, "nonogram", "solve", "--ascii", str(EXAMPLE))
    assert code == 0 and out.endswith("status: unique solution\n")


def test_check_colour_unique_multiple_none_and_bad(capsys, write, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    path = write(puzzle_json(**FLAG))
    assert run(capsys, "nonogram", "check", path) == (
        0, f"{path}: no problems found: the solution is unique\n", "")
    two = write(puzzle_json([[[1, 1]], [[1, 1]]], [[[1, 1]], [[1, 1]]]), "two.json")
    assert run(capsys, "nonogram", "check", two) == (
        1, f"{two}: more than one solution; two of them differ in 4 cells (row,column): "
           "(1,1) (1,2) (2,1) (2,2)\n", "")
    none = write(puzzle_json([[[1, 1], [1, 2]], []], [[[1, 2]], [[1, 1]]]), "none.json")
    assert run(capsys, "nonogram", "check", none) == (
        1, f"{none}: no solution: the clues contradict each other\n", "")
    bad = write(puzzle_json([[[4, 1]]], [[[1, 1]]]), "bad.json")
    code, out, err = run(capsys, "nonogram", "check", bad)  # every problem, as black and white
    assert (code, err) == (1, "") and [line.split(": ", 1)[1] for line in out.splitlines()] == [
        "row 1: clue 4r needs 4 cells but the row has 1",
        "colour 'red': row clues fill 4 cells but column clues fill 1"]
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(puzzle_json(**FLAG).encode())))
    assert run(capsys, "nonogram", "check", "-") == (
        0, "<stdin>: no problems found: the solution is unique\n", "")


def test_a_one_colour_puzzle_is_counted_in_the_singular() -> None:
    """'this puzzle has 1 colour' (it said '1 colours')."""
    from gridsolve.errors import GridsolveError
    from gridsolve.nonogram.formats import bw_only
    from gridsolve.nonogram.model import WHITE, Colour, colour_puzzle_from_grid
    puzzle = colour_puzzle_from_grid(("a.", ".a"), (WHITE, Colour("red", (255, 0, 0), "a")))
    with pytest.raises(GridsolveError, match=r"\(this puzzle has 1 colour\)$"):
        bw_only(puzzle, "hints", "give")


@pytest.mark.parametrize("command,said", [
    ("rate", "score: 1/10"),
    ("hint", "line: column 2 (clue 1 red 2 blue): row 1 is red: the first block (1 red) "
             "covers it in both its leftmost (1) and rightmost (1) placements; rows 2-3 are "
             "blue: the second block (2 blue) covers them"),
    ("explain", "Solved by line logic alone: 2 rounds, 8 line steps.")])
def test_person_facing_commands_take_a_colour_file(capsys, write, command: str,  # type: ignore[no-untyped-def]
                                                   said: str) -> None:
    """rate, hint and explain work on colour puzzles (they refused them: issue 55.2)."""
    path = write(puzzle_json(**FLAG))
    code, out, err = run(capsys, "nonogram", command, path)
    assert (code, err) == (0, "")
    assert said in out
