"""The page on a phone (390 x 844, Debian's Chromium): no sideways scroll of the page, the
header whole, the grid near the top with cells a finger can hit (panned inside its box when
the puzzle is large), and a grid that stays put while the text around it changes (issue
54.7). Screenshots go to ``test-artifacts/web-phone-*.png``. Skips without a browser."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.test_e2e import ARTIFACTS, CHROMIUM, browser, server  # noqa: F401

from gridsolve.nonogram.formats import write_puzzle  # noqa: E402
from gridsolve.nonogram.generate import generate  # noqa: E402

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")]

WIDTH, HEIGHT = 390, 844
#: A 25 x 25 puzzle with a unique solution that line logic reaches.
BIG = write_puzzle(generate(25, 25, seed=54, level="line").puzzle, "text")
#: Where the grid must start at the latest: the upper third of the screen.
NEAR_TOP = HEIGHT / 3
MIN_CELL = 24


@pytest.fixture()
def phone(browser: Any) -> Iterator[Any]:  # noqa: F811
    """A page in a phone's viewport, touch and all; fails on any script error."""
    context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT}, is_mobile=True,
                                  has_touch=True, device_scale_factor=2)
    p = context.new_page()
    errors: list[str] = []
    p.on("pageerror", lambda exc: errors.append(str(exc)))
    p.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    try:
        yield p
    finally:
        context.close()
    assert not errors, errors


def no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= WIDTH, f"the page is {width} px wide"


def box(page: Any, selector: str) -> dict[str, float]:
    return dict(page.locator(selector).bounding_box())


def grid_checks(page: Any, frame: str, canvas: str) -> None:
    """The grid (its clues included) starts near the top, its cells are big enough, and its
    box pans."""
    at = box(page, canvas)
    down = at["y"] + page.evaluate("() => window.scrollY")
    assert 0 <= down < NEAR_TOP, f"the grid starts {down:.0f} px down the page"
    assert 0 <= at["y"] < HEIGHT / 2, "the grid is out of sight after the answer came"
    _, _, cell = map(float, str(page.get_attribute(frame, "data-layout")).split(","))
    assert cell >= MIN_CELL
    outer = box(page, frame)
    assert outer["x"] >= 0 and outer["x"] + outer["width"] <= WIDTH
    pans = page.evaluate("""(sel) => {
        const b = document.querySelector(sel), s = getComputedStyle(b);
        return b.scrollWidth > b.clientWidth && ['auto', 'scroll'].includes(s.overflowX);
    }""", frame)
    assert pans, "a 25x25 grid at finger size is wider than a phone: its box must pan"


def test_the_header_is_whole(server: str, phone: Any) -> None:  # noqa: F811
    phone.goto(f"{server}/")
    no_sideways_scroll(phone)
    for selector in ("header h1", "#tab-nonogram", "#tab-calendar", ".apilink"):
        b = box(phone, selector)
        assert b["x"] >= 0 and b["x"] + b["width"] <= WIDTH, selector
        assert b["y"] >= 0 and b["y"] + b["height"] <= 120, selector
    hit = phone.evaluate("""() => {
        const r = document.querySelector('.apilink').getBoundingClientRect();
        const e = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        return e && e.closest('.apilink') !== null;
    }""")
    assert hit


def test_watching_a_big_puzzle_on_a_phone(server: str, phone: Any) -> None:  # noqa: F811
    phone.goto(f"{server}/")
    phone.fill("#puzzle-text", BIG)
    phone.locator("#speed").fill("14")
    phone.click("#solve")
    phone.wait_for_function("() => document.getElementById('status')", timeout=15000)
    grid_checks(phone, "#board", "#board-canvas")
    no_sideways_scroll(phone)
    phone.click("#to-start")
    y0 = box(phone, "#board-canvas")["y"]
    phone.click("#step")    # the label grows from "step 0 of n" to a sentence
    assert "line logic on" in phone.text_content("#step-label")
    assert box(phone, "#board-canvas")["y"] == y0
    phone.click("#to-end")
    phone.evaluate("() => window.scrollTo(0, 0)")
    ARTIFACTS.mkdir(exist_ok=True)
    phone.screenshot(path=str(ARTIFACTS / "web-phone-solve.png"))


def test_playing_a_big_puzzle_on_a_phone(server: str, phone: Any) -> None:  # noqa: F811
    phone.goto(f"{server}/")
    phone.evaluate("() => localStorage.clear()")
    phone.fill("#puzzle-text", BIG)
    phone.click("#mode-play")
    phone.wait_for_function("() => document.getElementById('play-board').dataset.rows",
                            timeout=10000)
    grid_checks(phone, "#play-board", "#play-canvas")
    no_sideways_scroll(phone)
    y0 = box(phone, "#play-canvas")["y"]
    phone.click("#play-hint")
    phone.wait_for_function("() => document.getElementById('play-board').dataset.hint",
                            timeout=15000)
    assert phone.text_content("#play-message").startswith("Hint")
    assert box(phone, "#play-canvas")["y"] == y0, "the grid moved when the hint appeared"
    phone.click("#play-apply")
    filled = str(phone.get_attribute("#play-board", "data-rows"))
    assert "#" in filled
    no_sideways_scroll(phone)

    # a finger draws with fill or mark (two fingers pinch) and pans with the move tool
    touch = "() => getComputedStyle(document.getElementById('play-canvas')).touchAction"
    assert phone.evaluate(touch) == "pinch-zoom"
    phone.tap("#play-tool")
    phone.tap("#play-tool")
    assert phone.text_content("#play-tool").startswith("Tool: move")
    assert phone.evaluate(touch) == "auto"
    left, top, cell = map(float, str(phone.get_attribute("#play-board", "data-layout")).split(","))
    phone.tap("#play-canvas", position={"x": left + cell / 2, "y": top + cell / 2})
    assert phone.get_attribute("#play-board", "data-rows") == filled
    phone.tap("#play-tool")
    assert phone.text_content("#play-tool").startswith("Tool: fill")
    phone.tap("#play-canvas", position={"x": left + cell / 2, "y": top + cell / 2})
    assert phone.get_attribute("#play-board", "data-rows") != filled
    phone.evaluate("() => window.scrollTo(0, 0)")
    ARTIFACTS.mkdir(exist_ok=True)
    phone.screenshot(path=str(ARTIFACTS / "web-phone-play.png"))


def test_the_calendar_on_a_phone(server: str, phone: Any) -> None:  # noqa: F811
    phone.goto(f"{server}/#calendar")
    phone.wait_for_function(
        "() => document.getElementById('heatmap-info').textContent.startsWith('Fewest')",
        timeout=60000)
    no_sideways_scroll(phone)
    for selector in ("#cal-board svg", "#heatmap svg"):
        b = box(phone, selector)
        assert b["x"] >= 0 and b["x"] + b["width"] <= WIDTH, selector
    day = dict(phone.locator("#heatmap g.day rect").first.bounding_box())
    assert day["width"] >= 18, "a day of the heatmap is too small to tap"
    ARTIFACTS.mkdir(exist_ok=True)
    phone.screenshot(path=str(ARTIFACTS / "web-phone-calendar.png"), full_page=True)
