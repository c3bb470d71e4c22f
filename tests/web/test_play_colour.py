"""Play mode's JSON API on colour puzzles (issue 55): hints and checks in palette symbols,
agreeing with the unique solution, and the solver's steps to watch a colour solve."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from gridsolve.nonogram.backends import analyse  # noqa: E402
from gridsolve.nonogram.formats import parse_puzzle, write_puzzle  # noqa: E402
from gridsolve.nonogram.lines import line_cells  # noqa: E402
from gridsolve.nonogram.model import (Colour, ColourPuzzle, colour_puzzle_from_grid,  # noqa: E402
                                      is_colour_solution)
from gridsolve.web import WebLimits, create_app  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[2] / "src" / "gridsolve" / "examples"
MUSHROOM = (EXAMPLES / "mushroom.json").read_text()

#: A 12x12 of three colours that line logic alone cannot finish (``generate --colours 3
#: --level probe --seed 7``): its hints take a contradiction and the whole-line view too.
SPECKLES = ["....b.rb..r.", ".bbrr...k..b", "..b.r..b.b.k", "r...kbk.r...",
            "...rr.b..kkk", "...k...kr...", "..b..b.b.br.", ".....k.kbbk.",
            ".bkbbb....br", "rr.....b..bk", "b.....r..rb.", "k..rbk...b.."]
PALETTE = (Colour("white", (255, 255, 255), "."), Colour("black", (0, 0, 0), "k"),
           Colour("red", (220, 30, 30), "r"), Colour("blue", (30, 60, 220), "b"))
SPECKLES_TEXT = write_puzzle(colour_puzzle_from_grid(SPECKLES, PALETTE), "json")


@pytest.fixture(scope="module")
def client() -> Any:
    with TestClient(create_app()) as c:
        yield c


def solution_of(text: str) -> str:
    """The puzzle's unique solution as one string of symbols (row-major)."""
    result = analyse(parse_puzzle(text), 2, method="native")
    assert result.status == "unique"
    return "".join(result.solutions[0])


def blank(text: str) -> list[str]:
    puzzle = parse_puzzle(text)
    return ["?" * puzzle.width] * puzzle.height


def test_first_hint_is_a_colour_line_step_that_agrees_with_the_solution(client: Any) -> None:
    res = client.post("/api/nonogram/hint", json={"text": MUSHROOM})
    assert res.status_code == 200, res.text
    out = res.json()
    puzzle = parse_puzzle(MUSHROOM)
    assert isinstance(puzzle, ColourPuzzle)
    assert out["kind"] == "line" and out["cells"]
    solution = solution_of(MUSHROOM)
    assert all(solution[c["row"] * 12 + c["col"]] == c["value"] for c in out["cells"])
    clue = puzzle.rows[out["line"]] if out["line"] < 12 else puzzle.cols[out["line"] - 12]
    assert out["clue"] == [list(b) for b in clue]
    assert {c["value"] for c in out["cells"]} <= {c.symbol for c in puzzle.palette}
    assert "red" in out["reason"] or "green" in out["reason"]  # colours said by name


@pytest.mark.parametrize("text", [MUSHROOM, SPECKLES_TEXT], ids=["mushroom", "speckles"])
def test_hints_alone_reach_the_solution(client: Any, text: str) -> None:
    solution = solution_of(text)
    cells = list("".join(blank(text)))
    width = parse_puzzle(text).width
    kinds = set()
    for _ in range(len(cells) + 1):
        grid = ["".join(cells[i:i + width]) for i in range(0, len(cells), width)]
        out = client.post("/api/nonogram/hint", json={"text": text, "grid": grid}).json()
        kinds.add(out["kind"])
        if out["kind"] == "solved":
            break
        assert out["kind"] in {"line", "whole-line", "contradiction", "guess"}, out
        assert out["cells"], out
        for c in out["cells"]:
            i = c["row"] * width + c["col"]
            assert cells[i] == "?" and solution[i] == c["value"], (out, i)
            cells[i] = c["value"]
    assert "".join(cells) == solution and "solved" in kinds
    done = client.post("/api/nonogram/check", json={"text": text, "grid": grid}).json()
    assert done["kind"] == "solved"
    if text == SPECKLES_TEXT:  # not line logic alone: the other kinds of step were taken
        assert kinds & {"whole-line", "contradiction", "guess"}


def test_check_names_the_wrong_colour_cells(client: Any) -> None:
    solution = solution_of(MUSHROOM)
    assert solution[0] == "." and solution[4] == "r" and solution[16] == "w"
    grid = blank(MUSHROOM)
    grid[0] = "r???w???????"  # r1c1 should be white, r1c5 red
    grid[1] = "????w???????"  # r2c5 is cream: right
    out = client.post("/api/nonogram/check", json={"text": MUSHROOM, "grid": grid}).json()
    assert out["kind"] == "mistake"
    assert out["wrong"] == [{"row": 0, "col": 0}, {"row": 0, "col": 4}]
    step = client.post("/api/nonogram/hint", json={"text": MUSHROOM, "grid": grid}).json()
    assert step["kind"] == "mistake" and step["cells"] == []
    fine = ["x???r???????", "????w???????"] + grid[2:]  # 'x' is the background too
    out = client.post("/api/nonogram/check", json={"text": MUSHROOM, "grid": fine}).json()
    assert out == {"kind": "ok", "reason": "no mistakes so far", "wrong": [], "line": -1}


@pytest.mark.parametrize("row, why", [
    ("#" + "?" * 11, "each '.', 'r', 'w', 't', 'g', 'x' or '?'"),  # '#' is no mushroom colour
    ("?" * 11, "grid must be 12 rows of 12 cells"),
])
def test_a_symbol_outside_the_palette_is_refused_in_one_line(client: Any, row: str,
                                                             why: str) -> None:
    grid = [row] + blank(MUSHROOM)[1:]
    res = client.post("/api/nonogram/hint", json={"text": MUSHROOM, "grid": grid})
    assert res.status_code == 422 and why in res.json()["error"]
    assert "\n" not in res.json()["error"]


def replayed(steps: list[dict[str, Any]], size: int) -> str:
    cells = ["?"] * size
    for step in steps:
        assert len(step["cells"]) == len(step["values"])
        for c, v in zip(step["cells"], step["values"]):
            cells[c] = v
    return "".join(cells)


@pytest.mark.parametrize("text", [MUSHROOM, SPECKLES_TEXT], ids=["mushroom", "speckles"])
def test_a_colour_solve_has_the_engines_steps_to_the_solution(client: Any, text: str) -> None:
    out = client.post("/api/nonogram/solve", json={"text": text}).json()
    puzzle = parse_puzzle(text)
    assert isinstance(puzzle, ColourPuzzle)
    solution = solution_of(text)
    steps = out["steps"]
    assert out["complete"] and steps and steps[-1]["kind"] == "solution"
    symbols = {c.symbol for c in puzzle.palette} | {"?"}
    probing = False
    for step in steps:  # outside a probe and before any guess, every cell set is the solution's
        assert set(step["values"]) <= symbols, step
        probing = step["kind"] == "try" or (probing and step["kind"] != "retract")
        if not probing and not step.get("probing") and step["kind"] in {"line", "learn"}:
            assert all(solution[c] == v for c, v in zip(step["cells"], step["values"])), step
        if step["kind"] == "line":
            assert set(step["cells"]) <= set(line_cells(puzzle, step["line"]))
    final = replayed(steps, len(solution))
    assert final == solution
    width = puzzle.width
    assert is_colour_solution(puzzle, [final[i:i + width] for i in range(0, len(final), width)])
    kinds = {s["kind"] for s in steps}
    if text == MUSHROOM:
        assert kinds == {"line", "solution"} and out["rating"]["level"] == "line"
    else:
        assert {"try", "retract", "learn"} <= kinds and out["rating"]["level"] == "probe"


def test_colour_steps_stop_at_the_step_limit() -> None:
    with TestClient(create_app(WebLimits(max_steps=5))) as small:
        out = small.post("/api/nonogram/solve", json={"text": MUSHROOM}).json()
    assert len(out["steps"]) == 5 and out["complete"] is False
    assert out["status"] == "unique" and len(out["solutions"]) == 1
    with TestClient(create_app()) as client:
        off = client.post("/api/nonogram/solve", json={"text": MUSHROOM, "steps": False}).json()
    assert off["steps"] == [] and off["rating"]["level"] == "line"


def test_a_colour_guess_names_the_colour_it_takes_away(client: Any) -> None:
    """A random 8x8 of three colours has several solutions: the search guesses, and its
    second branch says which colour it took away (``excluded``)."""
    import random

    rng = random.Random(8)
    grid = ["".join(rng.choice("kbr") if rng.random() < 0.7 else "." for _ in range(8))
            for _ in range(8)]
    text = write_puzzle(colour_puzzle_from_grid(grid, PALETTE), "json")
    out = client.post("/api/nonogram/solve", json={"text": text}).json()
    assert out["status"] == "multiple" and out["complete"]
    guesses = [s for s in out["steps"] if s["kind"] == "guess"]
    assert guesses and all(s["value"] in ".kbr?" for s in guesses)
    second = [s for s in guesses if "excluded" in s]
    assert second and all(s["excluded"] in ".kbr" and s["excluded"] != s["value"]
                          for s in second)
    assert sum(s["kind"] == "solution" for s in out["steps"]) == 2
