"""The JSON API through Starlette's test client: solves, refusals and the calendar."""

from __future__ import annotations

import random
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():  # newer Starlette prefers httpx2; httpx works the same
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from gridsolve.nonogram.formats import bw_only, parse_puzzle, write_puzzle  # noqa: E402
from gridsolve.nonogram.model import (ColourPuzzle, is_colour_solution, is_solution,  # noqa: E402
                                      puzzle_from_grid)
from gridsolve.nonogram.watch.trace import Step, replay  # noqa: E402
from gridsolve.tiling import calendar as cal  # noqa: E402
from gridsolve.web import WebLimits, create_app  # noqa: E402

EXAMPLES = Path(__file__).resolve().parents[2] / "src" / "gridsolve" / "examples"
DUCK = (EXAMPLES / "duck.txt").read_text()


@pytest.fixture(scope="module")
def client() -> Any:
    with TestClient(create_app()) as c:
        yield c


def random_text(n: int, seed: int) -> str:
    """A random n x n puzzle (usually needs search, with several solutions)."""
    rng = random.Random(seed)
    grid = ["".join(rng.choice("#.") for _ in range(n)) for _ in range(n)]
    return write_puzzle(puzzle_from_grid(grid), "text")


def test_index_lists_every_route(client: Any) -> None:
    doc = client.get("/api/").json()
    paths = {e["path"] for e in doc["endpoints"]}
    assert {"/api/nonogram/solve", "/api/calendar/solutions", "/api/calendar/year"} <= paths
    assert doc["limits"]["max_body_bytes"] == 1024 * 1024
    assert doc["limits"]["max_side"] == 200


def test_page_is_served_with_a_strict_policy(client: Any) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert "nonogram.js" in page.text
    assert "script-src 'self'" in page.headers["content-security-policy"]
    for name in ("nonogram.js", "calendar.js", "style.css", "main.js", "util.js", "board.js"):
        assert client.get(f"/{name}").status_code == 200, name


def test_solve_returns_the_checked_solution_and_steps_that_reach_it(client: Any) -> None:
    res = client.post("/api/nonogram/solve", json={"text": DUCK})
    assert res.status_code == 200, res.text
    out = res.json()
    puzzle = bw_only(parse_puzzle(DUCK), "this test")
    assert out["status"] == "unique"
    assert out["format"] == "text"
    assert is_solution(puzzle, out["solutions"][0])
    assert out["rating"]["level"] in ("line", "probe", "search")
    assert 1 <= out["rating"]["score"] <= 10
    assert out["complete"] is True
    steps = [Step(s["kind"], tuple(zip(s["cells"], s["values"]))) for s in out["steps"]]
    assert {s.kind for s in steps} >= {"line", "solution"}
    *_, (_, final) = replay(puzzle, steps)
    assert list(final) == out["solutions"][0]


def test_solve_reports_multiple_and_none(client: Any) -> None:
    two = client.post("/api/nonogram/solve", json={"text": "1\n1\n--\n1\n1\n"}).json()
    assert two["status"] == "multiple" and len(two["solutions"]) == 2
    none = client.post("/api/nonogram/solve",
                       json={"text": "1 1\n0\n1\n--\n1\n2\n0\n", "steps": False}).json()
    assert none["status"] == "none" and none["solutions"] == []


def test_steps_must_be_a_json_boolean(client: Any) -> None:
    """"false" (a string) asked for the steps: bool("false") is True."""
    res = client.post("/api/nonogram/solve", json={"text": "1\n--\n1\n", "steps": "false"})
    assert res.status_code == 422 and res.json() == {"error": "steps must be true or false"}


def test_colour_puzzle_is_solved_with_its_palette(client: Any) -> None:
    text = (EXAMPLES / "mushroom.json").read_text()
    res = client.post("/api/nonogram/solve", json={"text": text})
    assert res.status_code == 200, res.text
    out = res.json()
    puzzle = parse_puzzle(text)
    assert isinstance(puzzle, ColourPuzzle)
    assert (out["status"], out["format"], out["rating"]["level"]) == ("unique", "json", "line")
    assert len(out["solutions"]) == 1 and is_colour_solution(puzzle, out["solutions"][0])
    assert out["puzzle"]["palette"] == [{"name": c.name, "rgb": c.hex, "symbol": c.symbol}
                                        for c in puzzle.palette]
    assert out["puzzle"]["rows"][0] == [[4, 1]]
    parsed = client.post("/api/nonogram/parse", json={"text": text}).json()
    assert parsed["puzzle"] == out["puzzle"]


def test_colour_puzzle_multiple_none_and_picture(client: Any) -> None:
    two = "[colors]\nr = (red) %\n[clues]\nrows = 1r, 1r\ncolumns = 1r, 1r\n"
    out = client.post("/api/nonogram/solve", json={"text": two, "format": "pynogram"}).json()
    assert out["status"] == "multiple"
    assert sorted(map(tuple, out["solutions"])) == [("%.", ".%"), (".%", "%.")]
    clash = "[colors]\nr = (red) %\nb = (blue) *\n[clues]\nrows = 1r 1b, 0\ncolumns = 1b, 1r\n"
    out = client.post("/api/nonogram/solve", json={"text": clash, "format": "pynogram"}).json()
    assert (out["status"], out["solutions"]) == ("none", [])
    svg = client.post("/api/nonogram/render", json={"text": two, "format": "pynogram",
                                                    "solved": True})
    assert svg.status_code == 200 and "#ff0000" in svg.text


def test_unreadable_puzzle_is_422_with_one_line(client: Any) -> None:
    res = client.post("/api/nonogram/solve", json={"text": "3\n--\n1\n"})
    assert res.status_code == 422
    message = res.json()["error"]
    assert message and "\n" not in message
    assert client.post("/api/nonogram/solve", json={"text": ""}).status_code == 422
    assert client.post("/api/nonogram/solve", content=b"not json").status_code == 422
    bad = client.post("/api/nonogram/solve", json={"text": DUCK, "format": "nope"})
    assert bad.status_code == 422 and "unknown format" in bad.json()["error"]


def test_body_over_one_megabyte_is_413(client: Any) -> None:
    res = client.post("/api/nonogram/solve", json={"text": "1\n" * 600_000})
    assert res.status_code == 413
    assert "larger than 1024 KB" in res.json()["error"]


def test_chunked_body_over_the_limit_is_413_too(client: Any) -> None:
    def chunks() -> Any:
        for _ in range(20):
            yield b" " * 100_000

    res = client.post("/api/nonogram/parse", content=chunks(),
                      headers={"content-type": "application/json"})
    assert res.status_code == 413


def test_puzzle_over_200_by_200_is_422(client: Any) -> None:
    text = "\n".join(["1"] * 201) + "\n--\n" + "\n".join(["1"] * 201) + "\n"
    res = client.post("/api/nonogram/parse", json={"text": text})
    assert res.status_code == 422
    assert "201x201" in res.json()["error"] and "200x200" in res.json()["error"]


def test_solve_past_the_budget_answers_unknown_with_the_cells_proven() -> None:
    """Issue 54: a budget that runs out is an answer (200, status unknown, the cells proven so
    far), not a 408, which browsers send again by themselves."""
    rng = random.Random(60)
    grid = ["".join(rng.choice("#.") for _ in range(60)) for _ in range(60)]
    text = write_puzzle(puzzle_from_grid(grid), "text")
    with TestClient(create_app(WebLimits(budget=0.001))) as c:
        for steps in (True, False):
            res = c.post("/api/nonogram/solve", json={"text": text, "steps": steps})
            assert res.status_code == 200, res.text[:200]
            out = res.json()
            assert (out["status"], out["rating"], out["steps"]) == ("unknown", None, [])
            partial = out["partial"]
            assert len(partial) == 60 and all(len(row) == 60 for row in partial)
            assert "?" in "".join(partial)
            # a proven cell holds in every solution, the grid the clues came from among them
            assert all(p in ("?", g) for prow, grow in zip(partial, grid)
                       for p, g in zip(prow, grow))
            assert all(is_solution(puzzle_from_grid(grid), s) for s in out["solutions"])
        picture = c.post("/api/nonogram/render", json={"text": text, "solved": True})
    assert picture.status_code == 200 and picture.text.startswith("<svg")


def test_a_finished_solve_carries_its_partial_grid_too(client: Any) -> None:
    out = client.post("/api/nonogram/solve", json={"text": DUCK, "steps": False}).json()
    assert out["status"] == "unique" and out["partial"] == out["solutions"][0]


def test_generate_gives_a_unique_puzzle(client: Any) -> None:
    res = client.post("/api/nonogram/generate", json={"width": 8, "height": 6, "seed": 3})
    assert res.status_code == 200, res.text
    out = res.json()
    assert (out["puzzle"]["width"], out["puzzle"]["height"]) == (8, 6)
    solved = client.post("/api/nonogram/solve", json={"text": out["text"], "steps": False}).json()
    assert solved["status"] == "unique"
    big = client.post("/api/nonogram/generate", json={"width": 500, "height": 5})
    assert big.status_code == 422


def test_render_svg_of_the_solution(client: Any) -> None:
    res = client.post("/api/nonogram/render", json={"text": DUCK, "as": "svg", "solved": True})
    assert res.status_code == 200
    assert res.headers["content-type"].startswith("image/svg+xml")
    assert res.text.startswith("<svg") and res.text.count("<rect") > 50
    blank = client.post("/api/nonogram/render", json={"text": DUCK, "as": "svg"}).text
    assert blank.count("<rect") < res.text.count("<rect")


def test_render_png(client: Any) -> None:
    pytest.importorskip("PIL")
    res = client.post("/api/nonogram/render", json={"text": DUCK, "as": "png", "solved": True})
    assert res.status_code == 200 and res.content[:8] == b"\x89PNG\r\n\x1a\n"


def test_calendar_solutions_are_tilings_of_the_date(client: Any) -> None:
    res = client.get("/api/calendar/solutions", params={"date": "2026-10-06"})
    assert res.status_code == 200, res.text
    out = res.json()
    assert out["date"] == "Oct 6" and out["count"] == 7 and out["listed"] == 7
    labels = {(r, c): label for r, c, label in out["board"]["labels"]}
    assert sorted(labels[tuple(c)] for c in out["open"]) == ["6", "Oct"]
    board = {tuple(c) for c in out["board"]["open"]}
    for tiling in out["solutions"]:
        covered = [tuple(c) for pl in tiling for c in pl["cells"]]
        assert len(covered) == len(set(covered))
        assert set(covered) == board - {tuple(c) for c in out["open"]}
        assert sorted(pl["piece"] for pl in tiling) == list(range(len(out["pieces"])))


def test_calendar_limit_keeps_the_exact_count(client: Any) -> None:
    out = client.get("/api/calendar/solutions", params={"date": "Jan 25", "limit": 3}).json()
    assert out["listed"] == 3 and out["count"] == 216


def test_calendar_refuses_bad_dates_and_editions(client: Any) -> None:
    assert client.get("/api/calendar/solutions", params={"date": "Feb 30"}).status_code == 422
    bad = client.get("/api/calendar/solutions", params={"edition": "../etc"})
    assert bad.status_code == 422 and "unknown edition" in bad.json()["error"]


def test_year_heatmap_counts_match_the_library(client: Any) -> None:
    out = client.get("/api/calendar/year").json()
    counts = cal.count_all("original")
    assert len(out["days"]) == 366
    for row in out["days"]:
        assert row["mean"] == counts[cal.CalendarDay(row["month"], row["day"])]
        assert row["colour"].startswith("#") and len(row["colour"]) == 7
    assert out["lo"] == min(r["mean"] for r in out["days"])


def test_busy_server_refuses_solves_beyond_the_queue(monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    from gridsolve.web import api

    entered, release = threading.Event(), threading.Event()

    def slow_solve(puzzle: Any, limits: WebLimits, steps: bool) -> dict[str, Any]:
        entered.set()
        release.wait(10)
        return {"status": "unique"}

    monkeypatch.setattr(api, "solve_payload", slow_solve)
    codes: list[int] = []
    with TestClient(create_app(WebLimits(max_solves=1, max_waiting=0))) as c:
        first = threading.Thread(target=lambda: codes.append(
            c.post("/api/nonogram/solve", json={"text": DUCK}).status_code))
        first.start()
        try:
            assert entered.wait(10)
            busy = c.post("/api/nonogram/solve", json={"text": DUCK})
            assert busy.status_code == 503 and "busy" in busy.json()["error"]
        finally:
            release.set()
            first.join(10)
    assert codes == [200]


def test_only_the_page_files_are_served(client: Any) -> None:
    for path in ("/static/index.html", "/../pyproject.toml", "/%2e%2e/api.py", "/app.py"):
        assert client.get(path).status_code == 404, path


def test_generate_past_the_budget_is_408() -> None:
    with TestClient(create_app(WebLimits(budget=0.001))) as c:
        res = c.post("/api/nonogram/generate", json={"width": 40, "height": 40, "seed": 1})
    assert res.status_code == 408
    assert "budget" in res.json()["error"]


def test_calendar_year_past_the_budget_is_408() -> None:
    from gridsolve.web import calendar_api

    calendar_api._years.pop("weekday", None)
    with TestClient(create_app(WebLimits(budget=0.001))) as c:
        res = c.get("/api/calendar/year", params={"edition": "weekday"})
    assert res.status_code == 408


POSTS = ["/api/nonogram/parse", "/api/nonogram/solve", "/api/nonogram/render",
         "/api/nonogram/hint", "/api/nonogram/check"]


@pytest.mark.parametrize("fmt", [None, "", [], {}, 0, False])
@pytest.mark.parametrize("path", POSTS)
def test_a_format_that_is_not_a_name_is_refused(client: Any, path: str, fmt: Any) -> None:
    """Issue 53: null, "", [] and {} were all taken as auto."""
    res = client.post(path, json={"text": "1\n--\n1\n", "format": fmt})
    assert res.status_code == 422, res.text[:200]
    assert res.json()["error"].startswith("unknown format; choose one of auto, json, ")


@pytest.mark.parametrize("solved", ["x", 1.5, [1], 1, "true", None])
def test_render_solved_must_be_a_boolean(client: Any, solved: Any) -> None:
    res = client.post("/api/nonogram/render", json={"text": DUCK, "solved": solved})
    assert res.status_code == 422 and res.json() == {"error": "solved must be true or false"}


@pytest.mark.parametrize("seed", ["", " ", "x", 1.5, True, -1, 2**32])
def test_a_seed_that_is_not_a_whole_number_is_refused(client: Any, seed: Any) -> None:
    """Issue 53: seed "" was a random seed."""
    res = client.post("/api/nonogram/generate", json={"width": 5, "height": 5, "seed": seed})
    assert res.status_code == 422, res.text[:200]
    assert res.json()["error"].startswith("seed must be a whole number")


def test_a_missing_seed_or_null_is_random(client: Any) -> None:
    for body in ({"width": 5, "height": 5}, {"width": 5, "height": 5, "seed": None}):
        assert client.post("/api/nonogram/generate", json=body).status_code == 200


def test_unknown_fields_are_refused_by_name(client: Any) -> None:
    res = client.post("/api/nonogram/solve", json={"text": DUCK, "step": False})
    assert res.status_code == 422
    assert res.json() == {"error": "unknown field 'step' in the request body; this route takes "
                                   "text, format, steps"}


def test_the_schema_at_api_is_the_one_bodies_are_checked_against(client: Any) -> None:
    schema = client.get("/api/").json()["schema"]
    defs = schema["$defs"]
    for path, ref in schema["routes"].items():
        body = defs[ref["$ref"].rsplit("/", 1)[1]]
        assert body["type"] == "object" and body["additionalProperties"] is False, path
        for name, prop in body["properties"].items():  # every field says what it must be
            assert prop.get("description"), (path, name)
    solve = defs[schema["routes"]["/api/nonogram/solve"]["$ref"].rsplit("/", 1)[1]]
    assert solve["required"] == ["text"]
    assert solve["properties"]["steps"]["type"] == "boolean"
    assert {"auto", "text", "non"} <= set(solve["properties"]["format"]["enum"])
    assert set(schema["routes"]) == {p for p, m, _ in api_routes() if "POST" in m}


def api_routes() -> list[Any]:
    from gridsolve.web import api
    return api.ROUTES


@pytest.mark.parametrize("path", ["/", "/api/", "/api/nonogram/formats", "/nonogram.js",
                                  "/api/no/such/path"])
def test_every_response_forbids_framing(client: Any, path: str) -> None:
    res = client.get(path)
    assert res.headers["x-frame-options"] == "DENY"
    assert "frame-ancestors 'none'" in res.headers["content-security-policy"]
    refused = client.post("/api/nonogram/solve", json={"text": ""})
    assert refused.status_code == 422 and refused.headers["x-frame-options"] == "DENY"


def test_a_body_that_never_ends_is_a_json_408() -> None:
    """The body must come within body_timeout seconds (a slow client held a worker for ever)."""
    import anyio

    from gridsolve.web.payloads import read_json

    class Slow:
        headers = {"content-length": "100"}

        class url:
            path = "/api/nonogram/solve"

        async def stream(self) -> Any:
            yield b'{"te'
            await anyio.sleep(30)
            yield b'xt": "1"}'

    async def read() -> Any:
        return await read_json(Slow(), WebLimits(body_timeout=0.05))  # type: ignore[arg-type]

    from gridsolve.web.limits import ApiError
    with pytest.raises(ApiError) as info:
        anyio.run(read)
    assert info.value.status == 408 and "did not arrive within 0.05 s" in info.value.message
