"""Issue 21: the web API, given hostile bodies, texts, numbers and query strings, answers with
JSON: a result, or a 4xx whose error is one line; never a 500, never a traceback."""

from __future__ import annotations

import json
import warnings
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():  # newer Starlette prefers httpx2; httpx works the same
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from gridsolve.nonogram.formats import FORMATS  # noqa: E402
from gridsolve.web import WebLimits, create_app  # noqa: E402
from tests.fuzz import FAST_FEW, NUMBERS, SLOW, TEXT, one_line, soup  # noqa: E402
from tests.tiling.test_fuzz_tiling import DATES  # noqa: E402

#: A small budget: a hostile text that happens to be a hard puzzle answers 408 at once.
CLIENT = TestClient(create_app(WebLimits(budget=0.5, max_generate_side=8)),
                    raise_server_exceptions=False)

#: JSON values of every kind, hostile strings and numbers among them.
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 50) | st.floats(allow_nan=True)
    | st.sampled_from(NUMBERS) | soup(6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(soup(3), inner, max_size=3),
    max_leaves=8)
KEYS = st.sampled_from(["text", "format", "grid", "width", "height", "seed", "density",
                        "level", "picture", "as", "solved", "steps"])
BODIES = st.dictionaries(KEYS, VALUES, max_size=5)
POSTS = st.sampled_from(["/api/nonogram/parse", "/api/nonogram/solve", "/api/nonogram/hint",
                         "/api/nonogram/check", "/api/nonogram/render",
                         "/api/nonogram/generate"])


def json_answer(response: Any) -> None:
    """A JSON result, or a JSON 4xx with a one-line error; never a 500."""
    assert response.status_code < 500, response.text[:300]
    if response.headers.get("content-type", "").startswith("image/"):
        return  # a picture from /render
    assert response.headers["content-type"] == "application/json", response.text[:300]
    payload = response.json()
    if response.status_code >= 400:
        assert one_line(payload["error"]), payload


def post(path: str, body: dict[str, Any] | bytes) -> None:
    content = body if isinstance(body, bytes) else json.dumps(body).encode()
    json_answer(CLIENT.post(path, content=content,
                            headers={"content-type": "application/json"}))


@FAST_FEW
@given(text=TEXT, fmt=st.sampled_from(["auto", *FORMATS]))
def test_parse_never_fails(text: str, fmt: str) -> None:
    post("/api/nonogram/parse", {"text": text, "format": fmt})


@FAST_FEW
@given(path=POSTS, body=BODIES)
def test_posts_never_fail(path: str, body: dict[str, Any]) -> None:
    post(path, body)


@FAST_FEW
@given(path=POSTS, raw=st.binary(max_size=40) | soup(20).map(str.encode))
def test_raw_bodies_never_fail(path: str, raw: bytes) -> None:
    post(path, raw)


@FAST_FEW
@given(limit=st.sampled_from(NUMBERS) | soup(4), date=DATES,
       edition=st.sampled_from(["original", "weekday"]) | soup(3))
def test_calendar_queries_never_fail(limit: str, date: str, edition: str) -> None:
    params = {"limit": limit, "date": date, "edition": edition}
    json_answer(CLIENT.get("/api/calendar/solutions", params=params))


@pytest.mark.slow
@settings(SLOW, max_examples=1000)
@given(text=TEXT, path=POSTS, body=BODIES, limit=st.sampled_from(NUMBERS) | soup(4),
       date=DATES)
def test_web_never_fails_long(text: str, path: str, body: dict[str, Any], limit: str,
                              date: str) -> None:
    post("/api/nonogram/parse", {"text": text})
    post(path, body)
    json_answer(CLIENT.get("/api/calendar/solutions", params={"limit": limit, "date": date}))
