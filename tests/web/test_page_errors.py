"""The page after a failure, in Debian's Chromium: what belonged to the previous input is
cleared or greyed out (issue 54.5), and the heatmap's caption prints numbers for people
(54.6). Skips as test_e2e does without a browser."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.web.test_e2e import CHROMIUM, DUCK, REPO, browser, page, server  # noqa: F401

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed")]

HEART = (REPO / "src" / "gridsolve" / "examples" / "heart.txt").read_text()


def refuse(status: int, message: str) -> Any:
    """A route handler answering every request with this JSON error."""
    return lambda route: route.fulfill(status=status, content_type="application/json",
                                       body=json.dumps({"error": message}))


def solve_duck(page: Any) -> None:
    page.fill("#puzzle-text", DUCK)
    page.click("#solve")
    page.wait_for_function("() => document.getElementById('status')", timeout=15000)
    assert page.text_content("#status") == "unique solution"
    assert page.locator("#board.stale").count() == 0


def assert_result_gone(page: Any) -> None:
    """The summary of the previous solve is cleared, its grid greyed, its downloads off."""
    assert page.text_content("#summary") == ""
    assert page.locator("#board.stale").count() == 1
    assert page.is_disabled("#download-svg") and page.is_disabled("#download-png")


def test_an_unreadable_puzzle_clears_the_previous_result(server: str, page: Any) -> None:  # noqa: F811
    page.goto(f"{server}/")
    solve_duck(page)
    page.fill("#puzzle-text", "hello world")
    page.click("#solve")
    page.wait_for_selector("#message.error", timeout=10000)
    assert "unknown puzzle format" in page.text_content("#message")
    assert_result_gone(page)
    page.errors.clear()   # the 422 the browser logs
    solve_duck(page)      # a good puzzle brings a live result back


def test_a_failed_request_clears_the_previous_result(server: str, page: Any) -> None:  # noqa: F811
    page.goto(f"{server}/")
    solve_duck(page)
    page.route("**/api/nonogram/solve", lambda route: route.abort())   # dropped, timed out
    page.click("#solve")
    page.wait_for_selector("#message.error", timeout=10000)
    assert_result_gone(page)
    page.unroute("**/api/nonogram/solve")
    solve_duck(page)
    page.route("**/api/nonogram/solve", refuse(503, "the server is busy; try again"))
    page.click("#solve")
    page.wait_for_function(
        "() => document.getElementById('message').textContent.includes('busy')", timeout=10000)
    assert_result_gone(page)
    page.errors.clear()


def test_editing_the_text_greys_the_result_it_no_longer_matches(server: str, page: Any) -> None:  # noqa: F811
    page.goto(f"{server}/")
    solve_duck(page)
    page.fill("#puzzle-text", HEART)
    assert page.locator("#board.stale").count() == 1
    assert page.locator("#summary.stale").count() == 1
    page.fill("#puzzle-text", DUCK)
    assert page.locator("#board.stale, #summary.stale").count() == 0


def test_a_failed_play_start_greys_the_board_behind(server: str, page: Any) -> None:  # noqa: F811
    page.goto(f"{server}/")
    page.evaluate("() => localStorage.clear()")
    solve_duck(page)
    page.fill("#puzzle-text", "hello world")
    page.click("#mode-play")
    page.wait_for_selector("#message.error", timeout=10000)
    assert page.is_visible("#watch-area")
    assert_result_gone(page)
    page.errors.clear()


def test_a_failed_hint_takes_the_old_hint_away(server: str, page: Any) -> None:  # noqa: F811
    page.goto(f"{server}/")
    page.evaluate("() => localStorage.clear()")
    page.fill("#puzzle-text", HEART)
    page.click("#mode-play")
    page.wait_for_function("() => document.getElementById('play-board').dataset.rows", timeout=10000)
    page.click("#play-hint")
    page.wait_for_function("() => document.getElementById('play-board').dataset.hint", timeout=15000)
    page.route("**/api/nonogram/hint", refuse(503, "the server is busy; try again"))
    page.click("#play-hint")
    page.wait_for_selector("#play-message.error", timeout=10000)
    assert "busy" in page.text_content("#play-message")
    assert page.get_attribute("#play-board", "data-hint") == ""
    assert page.is_disabled("#play-apply")
    page.errors.clear()


def test_a_calendar_error_clears_the_previous_date(server: str, page: Any) -> None:  # noqa: F811
    page.goto(f"{server}/#calendar")
    page.select_option("#cal-edition", "original")
    page.fill("#cal-date", "2026-10-06")
    page.click("#cal-show")
    page.wait_for_function(
        "() => document.getElementById('cal-message').textContent.startsWith('Oct 6')", timeout=15000)
    assert page.locator("#cal-board rect[data-piece]").count() == 41
    page.route("**/api/calendar/solutions*", refuse(503, "the server is busy; try again"))
    page.fill("#cal-date", "2026-10-07")
    page.click("#cal-show")
    page.wait_for_selector("#cal-message.error", timeout=10000)
    assert page.locator("#cal-board rect").count() == 0
    assert page.text_content("#cal-index") == ""
    page.errors.clear()


def test_the_heatmap_caption_prints_numbers_for_people(server: str, page: Any) -> None:  # noqa: F811
    page.goto(f"{server}/#calendar")
    page.select_option("#cal-edition", "weekday")
    page.wait_for_function(
        "() => document.getElementById('heatmap').dataset.edition === 'weekday'"
        " && document.getElementById('heatmap-info').textContent.startsWith('Fewest')",
        timeout=180_000)  # (the weekday year's counts: seconds, minutes on a busy machine)
    caption = page.text_content("#heatmap-info")
    assert not re.search(r"\d\.\d\d", caption), caption
    assert caption.startswith("Fewest 167.6, most 6,055.6 solutions a date"), caption
    page.hover("#heatmap g.day[data-month='1'][data-day='1']")
    words = page.text_content("#heatmap-info")
    assert re.fullmatch(r"Jan 1: [\d,]+(\.\d)? solutions on average over the weekdays "
                        r"\([\d,]+ to [\d,]+\)", words), words
