"""Play mode's JSON API: the hint is the library's step, the check names the wrong cells."""

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

from gridsolve.nonogram.engine import analyse  # noqa: E402
from gridsolve.nonogram.formats import bw_only, parse_puzzle  # noqa: E402
from gridsolve.nonogram.hints import hint  # noqa: E402
from gridsolve.web import create_app  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[2] / "src" / "gridsolve" / "examples"
HEART = (EXAMPLES / "heart.txt").read_text()


@pytest.fixture(scope="module")
def client() -> Any:
    with TestClient(create_app()) as c:
        yield c


def test_hint_is_the_library_step(client: Any) -> None:
    grid = ["?" * 9, "####x####"] + ["?" * 9] * 6
    res = client.post("/api/nonogram/hint", json={"text": HEART, "grid": grid})
    assert res.status_code == 200, res.text
    out = res.json()
    step = hint(bw_only(parse_puzzle(HEART), "this test"), grid)
    assert out["kind"] == step.kind == "line" and out["reason"] == step.reason
    assert out["cells"] == [{"row": c // 9, "col": c % 9, "value": v} for c, v in step.cells]
    solution = analyse(parse_puzzle(HEART)).solutions[0]
    assert all(solution[c["row"]][c["col"]] == c["value"] for c in out["cells"])
    empty = client.post("/api/nonogram/hint", json={"text": HEART}).json()
    assert empty["kind"] == "line" and empty["line"] == 1 and empty["clue"] == [4, 4]


def test_check_names_the_wrong_cells(client: Any) -> None:
    grid = ["#" + "?" * 8] + ["?" * 9] * 7
    out = client.post("/api/nonogram/check", json={"text": HEART, "grid": grid}).json()
    assert out["kind"] == "mistake" and out["wrong"] == [{"row": 0, "col": 0}]
    fine = client.post("/api/nonogram/check", json={"text": HEART, "grid": ["?" * 9] * 8}).json()
    assert fine == {"kind": "ok", "reason": "no mistakes so far", "wrong": [], "line": -1}
    solution = list(analyse(parse_puzzle(HEART)).solutions[0])
    done = client.post("/api/nonogram/check", json={"text": HEART, "grid": solution}).json()
    assert done["kind"] == "solved"


@pytest.mark.parametrize("body, why", [
    ({"grid": ["?" * 9] * 7}, "grid must be 8 rows of 9 cells"),
    ({"grid": ["?" * 8 + "a"] + ["?" * 9] * 7}, "grid must be 8 rows of 9 cells"),
    ({"grid": "###"}, "grid must be an array of row strings"),
])
def test_bad_positions_are_refused_in_one_line(client: Any, body: dict[str, Any],
                                               why: str) -> None:
    res = client.post("/api/nonogram/hint", json={"text": HEART, **body})
    assert res.status_code == 422 and why in res.json()["error"]

