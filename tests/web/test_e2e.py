"""End to end: the real server on loopback, driven by Debian's Chromium through Playwright.

Skips when playwright or a chromium binary is missing (``.ci/run`` installs Debian's package
as root). Never downloads a browser. Screenshots go to ``test-artifacts/``.
"""

from __future__ import annotations

import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

from gridsolve.nonogram.formats import parse_puzzle  # noqa: E402
from gridsolve.nonogram.backends import analyse  # noqa: E402
from gridsolve.web import create_app  # noqa: E402
from gridsolve.web.limits import WebLimits  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts"
#: The test server's time budget (seconds): far past what any page asks of it.
BUDGET = 120.0
DUCK = (REPO / "src" / "gridsolve" / "examples" / "duck.txt").read_text()
CHROMIUM = next((p for p in ("/usr/bin/chromium", shutil.which("chromium")) if p and Path(p).exists()), None)
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]

# heavy: a server and a browser (make test-slow runs them)
pytestmark = [pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed"),
              pytest.mark.heavy]


@contextmanager
def served(server: Any) -> Iterator[str]:
    """A uvicorn server on a free loopback port, in a thread; its address; always stopped."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        for _ in range(200):
            if server.started:
                break
            time.sleep(0.05)
        else:
            pytest.fail("the server did not start within 10 s")
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The app under uvicorn, as a plain server (``served``), with a budget no busy machine
    reaches (the year's heatmap took over the default 10 s with the other core loaded; the
    budget's own answer, 408, is test_e2e_timeout's)."""
    config = uvicorn.Config(create_app(WebLimits(budget=BUDGET)), log_level="warning",
                            lifespan="off")
    with served(uvicorn.Server(config)) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless, with no network beyond loopback; always closed."""
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture()
def page(browser: Any) -> Iterator[Any]:
    p = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    p.errors = errors
    p.on("pageerror", lambda exc: errors.append(str(exc)))
    p.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    try:
        yield p
    finally:
        p.close()
    assert not errors, errors


def test_paste_solve_and_watch(server: str, page: Any) -> None:
    page.goto(f"{server}/")
    page.fill("#puzzle-text", DUCK)
    page.locator("#speed").fill("14")
    page.click("#solve")
    expected = "\n".join(analyse(parse_puzzle(DUCK)).solutions[0])
    page.wait_for_function(
        "want => document.getElementById('board').dataset.rows === want", arg=expected, timeout=15000)
    assert page.text_content("#status") == "unique solution"
    assert "/10" in page.text_content("#summary")
    page.click("#to-start")
    assert set(page.get_attribute("#board", "data-rows")) == {"?", "\n"}
    assert page.text_content("#step-label").startswith("step 0 of ")
    page.click("#step")
    assert "line logic on" in page.text_content("#step-label")
    page.click("#back")
    assert set(page.get_attribute("#board", "data-rows")) == {"?", "\n"}
    page.click("#to-end")
    assert page.get_attribute("#board", "data-rows") == expected
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "web-nonogram.png"), full_page=True)
    with page.expect_download(timeout=10000) as info:
        page.click("#download-svg")
    assert info.value.suggested_filename == "puzzle.svg"
    picture = Path(info.value.path()).read_text()
    assert picture.startswith("<svg") and picture.count("<rect") > 100


def test_bad_puzzle_shows_the_message(server: str, page: Any) -> None:
    page.goto(f"{server}/")
    page.fill("#puzzle-text", "3\n--\n1\n")
    page.click("#solve")
    page.wait_for_selector("#message.error", timeout=10000)
    assert "needs 3 cells" in page.text_content("#message")
    assert page.errors == ["Failed to load resource: the server responded with a status of 422 "
                           "(Unprocessable Entity)"]
    page.errors.clear()


def test_calendar_solution_hints_and_heatmap(server: str, page: Any) -> None:
    page.goto(f"{server}/#calendar")
    page.fill("#cal-date", "2026-10-06")
    page.click("#cal-show")
    page.wait_for_function(  # a function, not a bare expression: that would need eval (CSP)
        "() => document.getElementById('cal-message').textContent.startsWith('Oct 6')",
        timeout=15000)
    assert "7 solutions" in page.text_content("#cal-message")
    assert page.locator("#cal-board rect[data-piece]").count() == 41
    page.click("#cal-hide")
    assert page.locator("#cal-board rect[data-piece]").count() == 0
    page.click("#cal-hint")
    first = page.locator("#cal-board rect[data-piece]").count()
    assert 4 <= first <= 6
    page.click("#cal-next")
    assert "solution 2 of 7" in page.text_content("#cal-index")
    page.click("#cal-all")
    assert page.locator("#cal-board rect[data-piece]").count() == 41
    page.wait_for_selector("#heatmap g.day", timeout=15000)
    assert page.locator("#heatmap g.day").count() == 366
    page.hover("#heatmap g.day[data-month='10'][data-day='6']")
    assert page.text_content("#heatmap-info") == "Oct 6: 7 solutions"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "web-calendar.png"), full_page=True)


def test_two_solutions_can_both_be_seen(server: str, page: Any) -> None:
    page.goto(f"{server}/")
    page.fill("#puzzle-text", "1\n1\n--\n1\n1\n")
    page.click("#solve")
    page.wait_for_function("() => document.getElementById('status')", timeout=10000)
    assert page.text_content("#status") == "more than one solution"
    page.wait_for_function(
        "() => document.getElementById('step-label').textContent.includes('showing solution 1')",
        timeout=10000)
    first = page.get_attribute("#board", "data-rows")
    page.click("#other-solution")
    second = page.get_attribute("#board", "data-rows")
    assert {first, second} == {"#.\n.#", ".#\n#."}


def test_colour_puzzle_is_drawn_in_its_colours(server: str, page: Any) -> None:
    text = (REPO / "src" / "gridsolve" / "examples" / "mushroom.json").read_text()
    puzzle = parse_puzzle(text)
    expected = "\n".join(analyse(puzzle).solutions[0])
    page.goto(f"{server}/")
    page.fill("#puzzle-text", text)
    page.click("#solve")
    page.wait_for_function(
        "want => document.getElementById('board').dataset.rows === want", arg=expected, timeout=15000)
    assert page.text_content("#status") == "unique solution"
    assert "4 colours" in page.text_content("#summary")
    seen = page.evaluate("""() => {
        const c = document.getElementById('board-canvas');
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        const out = new Set();
        for (let i = 0; i < d.length; i += 4) out.add('#' + [d[i], d[i + 1], d[i + 2]]
            .map((v) => v.toString(16).padStart(2, '0')).join(''));
        return [...out];
    }""")
    assert {c.hex for c in puzzle.palette[1:]} <= set(seen)  # type: ignore[union-attr]
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "web-nonogram-colour.png"), full_page=True)
