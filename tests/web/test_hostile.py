"""Issue 21: every web error is JSON with a 4xx status (a 500 only for a bug, still JSON and
without a traceback). The app answered plain-text 500 to odd Unicode digits in ``?limit=``,
huge numbers and deeply nested JSON bodies, and read '١' as 1."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():  # newer Starlette prefers httpx2; httpx works the same
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from gridsolve.web import api, create_app  # noqa: E402
from gridsolve.web.app import INTERNAL  # noqa: E402

DEEP = "[" * 100_000 + "]" * 100_000
LONG = "9" * 5000

#: (method, path, JSON body text or None, expected status)
HOSTILE = [
    ("GET", "/api/calendar/solutions?limit=²", None, 422),
    ("GET", "/api/calendar/solutions?limit=١", None, 422),
    ("GET", "/api/calendar/solutions?limit=" + LONG, None, 422),
    ("GET", "/api/calendar/solutions?date=Oct%20²", None, 422),
    ("GET", "/api/calendar/solutions?date=Oct%20٣", None, 422),
    ("GET", "/api/calendar/solutions?date=2026-1٠-06", None, 422),
    ("GET", "/api/calendar/solutions?date=Oct%20" + LONG, None, 422),
    ("POST", "/api/nonogram/solve", '{"text": "1 ²\\n--\\n1\\n1"}', 422),
    ("POST", "/api/nonogram/solve", '{"text": "1 １\\n--\\n1\\n1"}', 422),
    ("POST", "/api/nonogram/solve", '{"text": "' + LONG + '\\n--\\n1"}', 422),
    ("POST", "/api/nonogram/solve", DEEP, 422),
    ("POST", "/api/nonogram/solve", '{"text": ' + DEEP + "}", 422),
    ("POST", "/api/nonogram/solve", '{"text": "1\\n--\\n1", "n": ' + LONG + "}", 422),
    ("POST", "/api/nonogram/solve", '{"text": "1\\n--\\n1", "format": ["x"]}', 422),
    ("POST", "/api/nonogram/parse", '{"text": "1\\n--\\n1", "format": {"a": 1}}', 422),
    ("POST", "/api/nonogram/generate", '{"width": "²"}', 422),
    ("POST", "/api/nonogram/generate", '{"width": "١"}', 422),
    ("POST", "/api/nonogram/generate", '{"width": "' + LONG + '"}', 422),
    ("POST", "/api/nonogram/generate", '{"seed": "-²"}', 422),
    ("POST", "/api/nonogram/hint", '{"text": "1\\n--\\n1", "grid": ' + DEEP + "}", 422),
    # a lone surrogate ("\ud800" is legal JSON): expat and the response's UTF-8 failed (500)
    ("POST", "/api/nonogram/parse", '{"text": "<?xml version=\\"1.0\\"?><puzzleset/><!-- \\ud800 -->"}',
     422),
    ("POST", "/api/nonogram/solve", '{"text": "title \\"x\\ud800\\"\\nwidth 1\\nheight 1"}', 422),
    ("GET", "/api/no/such/path", None, 404),
    ("DELETE", "/api/nonogram/solve", None, 405),
]


@pytest.fixture(scope="module")
def client() -> Any:
    with TestClient(create_app(), raise_server_exceptions=False) as c:
        yield c


def _json_error(response: Any, status: int) -> str:
    assert response.status_code == status, response.text[:200]
    assert response.headers["content-type"] == "application/json"
    message = response.json()["error"]
    assert isinstance(message, str) and message and "\n" not in message
    assert "Traceback" not in response.text
    return str(message)


@pytest.mark.parametrize("method,path,body,status", HOSTILE,
                         ids=[f"{m} {p[:40]} {(b or '')[:30]}" for m, p, b, _ in HOSTILE])
def test_hostile_request_is_a_json_4xx(client: Any, method: str, path: str, body: str | None,
                                       status: int) -> None:
    response = client.request(method, path, content=body,
                              headers={"content-type": "application/json"})
    _json_error(response, status)


def test_whole_numbers_as_the_cli_takes_them(client: Any) -> None:
    """A width as text is read as the CLI reads it: spaces around it and a sign allowed."""
    for width in ("+3", " 3\n", "3", 3):
        response = client.post("/api/nonogram/generate",
                               json={"width": width, "height": 2, "seed": 1})
        assert response.status_code == 200, (width, response.text[:200])
        assert len(response.json()["puzzle"]["cols"]) == 3
    for width in ("-3", "+-3", "++3", "3.0", "0x3"):
        _json_error(client.post("/api/nonogram/generate", json={"width": width}), 422)


def test_unforeseen_error_is_a_json_500_without_traceback(client: Any, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    async def broken(*args: object) -> None:
        raise RuntimeError("secret internals /etc/passwd")
    monkeypatch.setattr(api, "ROUTES", [("/api/nonogram/solve", ["POST"], broken)])
    with TestClient(create_app(), raise_server_exceptions=False) as c:
        response = c.post("/api/nonogram/solve", json={"text": "1\n--\n1"})
    assert _json_error(response, 500) == INTERNAL
    assert "secret" not in response.text


def test_library_error_not_wrapped_is_a_422(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from gridsolve.errors import InvalidPuzzle

    async def refuses(*args: object) -> None:
        raise InvalidPuzzle("row 1: clue 3 needs 3 cells\nbut the row has 2")
    monkeypatch.setattr(api, "ROUTES", [("/api/nonogram/solve", ["POST"], refuses)])
    with TestClient(create_app(), raise_server_exceptions=False) as c:
        response = c.post("/api/nonogram/solve", json={"text": "1\n--\n1"})
    assert _json_error(response, 422) == "row 1: clue 3 needs 3 cells but the row has 2"


def test_a_title_with_a_lone_surrogate_is_sent_escaped(client: Any) -> None:
    """A JSON puzzle's title "\\ud800" (an escape inside the pasted text) reaches the
    response, which UTF-8 cannot encode: it is written with ASCII escapes (was a 500)."""
    text = '{"format": "gridsolve-nonogram", "version": 1, "title": "a\\ud800", "rows": [[1]], "cols": [[1]]}'
    for path in ("/api/nonogram/parse", "/api/nonogram/solve"):
        res = client.post(path, json={"text": text})
        assert res.status_code == 200, res.text[:200]
        assert res.json()["puzzle"]["title"] == "a\ud800"


def test_a_client_gone_mid_body_is_a_400_not_a_logged_bug() -> None:
    """Starlette's ClientDisconnect (the client left before its body ended) is not a server
    bug: no 500 and nothing logged as unexpected."""
    from starlette.requests import ClientDisconnect

    from gridsolve.web.app import error_of
    assert error_of(ClientDisconnect(), "/api/nonogram/solve")[0] == 400


def test_check_past_the_budget_is_408_not_right_so_far() -> None:
    """With a budget too small for the solve, the check cannot name wrong cells: it must not
    answer "no mistakes so far" (it did, and kept that verdict for the puzzle)."""
    from gridsolve.nonogram import hints
    from gridsolve.nonogram.model import puzzle_from_grid
    from gridsolve.web import WebLimits
    import random
    rng = random.Random(7)
    grid = tuple("".join(rng.choice("#.") for _ in range(40)) for _ in range(40))
    text = "\n".join(" ".join(map(str, c)) or "0" for c in puzzle_from_grid(grid).rows) + "\n--\n" + \
        "\n".join(" ".join(map(str, c)) or "0" for c in puzzle_from_grid(grid).cols) + "\n"
    wrong = ["." + "?" * 39] + ["?" * 40] * 39
    with TestClient(create_app(WebLimits(budget=1e-6)), raise_server_exceptions=False) as c:
        res = c.post("/api/nonogram/check", json={"text": text, "grid": wrong})
    assert res.status_code == 408, res.text[:200]
    assert all(kept.status != "unknown" for kept in hints._kept.values())  # none is kept


def test_puzzle_text_is_read_off_the_event_loop(client: Any, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Reading a pasted puzzle runs in a worker thread, as solves do: a 1 MB text takes
    seconds to read, and on the event loop it held up every other request (found by a fuzz
    audit: GET /api/ took 5.4 s behind eight of them)."""
    import asyncio

    from gridsolve.web import payloads, play_api
    loops: list[bool] = []
    read = payloads.puzzle_of

    def spy(body: Any, limits: Any) -> Any:
        try:
            asyncio.get_running_loop()
            loops.append(True)
        except RuntimeError:  # no event loop in this thread: a worker
            loops.append(False)
        return read(body, limits)
    monkeypatch.setattr(api, "_puzzle", spy)
    monkeypatch.setattr(play_api, "puzzle_of", spy)
    for path in ("parse", "solve", "render", "hint", "check"):
        res = client.post(f"/api/nonogram/{path}", json={"text": "1\n--\n1"})
        assert res.status_code == 200, (path, res.text[:200])
    assert loops == [False] * 5
