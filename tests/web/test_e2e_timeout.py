"""Issue 54: a solve that runs out of time is shown once, plainly, in Debian's Chromium.

The server answered 408 at its budget and Chromium sent the POST again by itself: two solves,
twice the wait. Now the answer is a 200 with status "unknown" and the cells proven so far.
Skips when playwright or a chromium binary is missing; never downloads a browser.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

from gridsolve.nonogram.formats import write_puzzle  # noqa: E402
from gridsolve.nonogram.model import puzzle_from_grid  # noqa: E402
from gridsolve.web import WebLimits, create_app  # noqa: E402
from gridsolve.web.server import make_server  # noqa: E402
from tests.web.test_e2e import CHROMIUM, FLAGS, served  # noqa: E402


pytestmark = [pytest.mark.heavy,  # a server and a browser (make test-slow runs them)
              pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")]

#: A random 60x60 (fixed seed): far more than a 1 ms budget can settle.
RNG = random.Random(60)
GRID = ["".join(RNG.choice("#.") for _ in range(60)) for _ in range(60)]


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The app with a 1 ms budget, served as ``gridsolve serve`` serves it, in a thread."""
    with served(make_server(create_app(WebLimits(budget=0.001)), WebLimits())) as url:
        yield url


def test_a_solve_out_of_time_is_asked_once_and_shows_the_cells_proven(server: str) -> None:
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        try:
            page: Any = browser.new_page(viewport={"width": 1280, "height": 900})
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            solves: list[str] = []
            page.on("request", lambda req: solves.append(req.method)
                    if req.url.endswith("/api/nonogram/solve") else None)
            page.goto(f"{server}/")
            page.fill("#puzzle-text", write_puzzle(puzzle_from_grid(GRID), "text"))
            page.click("#solve")
            page.wait_for_function(
                "() => document.getElementById('message').textContent.includes('time limit')",
                timeout=15000)
            message = page.text_content("#message")
            assert message == ("No answer within the time limit; the cells shown are the ones "
                               "proven so far.")
            assert "error" not in (page.get_attribute("#message", "class") or "")
            assert page.text_content("#status") == "not known: the time limit came first"
            rows = page.get_attribute("#board", "data-rows").split("\n")
            assert len(rows) == 60 and "?" in "".join(rows)
            assert all(shown in ("?", cell) for row, want in zip(rows, GRID)
                       for shown, cell in zip(row, want))  # only proven cells are shown
            page.wait_for_timeout(500)  # a second request, if any, would have gone by now
            assert solves == ["POST"]
            assert not errors, errors
        finally:
            browser.close()
