"""POST /api/nonogram/generate with colours (issue 55): a colour puzzle whose uniqueness the
response states and the SAT backend confirms, black and white by default, and every bad
colours value a one-line 422."""

from __future__ import annotations

import json
import warnings
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():  # newer Starlette prefers httpx2; httpx works the same
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from gridsolve.nonogram.backends import analyse  # noqa: E402
from gridsolve.nonogram.formats import parse_puzzle  # noqa: E402
from gridsolve.nonogram.generate_colour import MAX_COLOURS  # noqa: E402
from gridsolve.nonogram.model import ColourPuzzle, Puzzle  # noqa: E402
from gridsolve.web import create_app  # noqa: E402
from gridsolve.web.payloads import to_puzzle_json  # noqa: E402


@pytest.fixture(scope="module")
def client() -> Any:
    with TestClient(create_app()) as c:
        yield c


@pytest.mark.parametrize("body", [
    {"width": 10, "height": 8, "colours": 3, "seed": 1},
    {"width": 12, "height": 12, "colours": "3", "seed": 7, "level": "probe", "picture": True},
])
def test_colours_3_gives_a_unique_colour_puzzle(client: Any, body: dict[str, Any]) -> None:
    res = client.post("/api/nonogram/generate", json=body)
    assert res.status_code == 200, res.text
    out = res.json()
    assert out["status"] == "unique"
    puzzle = parse_puzzle(out["text"])
    assert isinstance(puzzle, ColourPuzzle)
    assert (puzzle.width, puzzle.height) == (body["width"], body["height"])
    assert [c["name"] for c in out["puzzle"]["palette"]] == ["white", "black", "red", "blue"]
    assert json.loads(json.dumps(to_puzzle_json(puzzle))) == out["puzzle"]  # the text's puzzle
    used = {ink for clue in [*puzzle.rows, *puzzle.cols] for _, ink in clue}
    assert len(used) > 1  # more than one ink in the clues: a colour puzzle, not a recoloured one
    proof = analyse(puzzle, 2, method="sat")
    assert proof.status == "unique" and len(proof.solutions) == 1
    assert out["rating"]["level"] == body.get("level", out["rating"]["level"])


def test_colours_1_or_none_is_black_and_white(client: Any) -> None:
    for body in ({"width": 6, "height": 5, "seed": 3},
                 {"width": 6, "height": 5, "seed": 3, "colours": 1}):
        out = client.post("/api/nonogram/generate", json=body).json()
        assert isinstance(parse_puzzle(out["text"]), Puzzle)
        assert "palette" not in out["puzzle"] and out["status"] == "unique"


@pytest.mark.parametrize("value", [0, -1, MAX_COLOURS + 1, 1000, "x", 2.5, True, None, [3]])
def test_bad_colours_are_a_one_line_422(client: Any, value: Any) -> None:
    res = client.post("/api/nonogram/generate", json={"width": 5, "height": 5, "colours": value})
    assert res.status_code == 422
    error = res.json()["error"]
    assert error.startswith("colours must be a whole number from 1") and "\n" not in error


def test_the_index_names_the_most_colours(client: Any) -> None:
    doc = client.get("/api/").json()
    assert doc["limits"]["max_colours"] == MAX_COLOURS
    schema = doc["schema"]["$defs"]["GenerateBody"]["properties"]
    assert "colours" in schema
