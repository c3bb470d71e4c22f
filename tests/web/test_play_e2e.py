"""Play mode end to end in Debian's Chromium: mouse, keyboard, check, undo, hints to the end,
and the position kept across a reload. Skips as test_e2e does without a browser."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.test_e2e import ARTIFACTS, CHROMIUM, REPO, browser, page, server  # noqa: F401

from gridsolve.nonogram.backends import analyse  # noqa: E402
from gridsolve.nonogram.formats import parse_puzzle  # noqa: E402

# heavy: a server and a browser (make test-slow runs them)
pytestmark = [pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed"),
              pytest.mark.heavy]

HEART = (REPO / "src" / "gridsolve" / "examples" / "heart.txt").read_text()
SOLUTION = "\n".join(analyse(parse_puzzle(HEART)).solutions[0])


def rows(page: Any) -> str:
    return str(page.get_attribute("#play-board", "data-rows"))


def click_cell(page: Any, r: int, c: int, button: str = "left") -> None:
    left, top, cell = map(float, str(page.get_attribute("#play-board", "data-layout")).split(","))
    page.click("#play-canvas", button=button,
               position={"x": left + (c + 0.5) * cell, "y": top + (r + 0.5) * cell})


def wait_answer(page: Any) -> None:
    page.wait_for_function("() => !document.getElementById('play-message').textContent"
                           ".startsWith('Thinking')", timeout=15000)


def test_play_by_hints_to_the_end(server: str, page: Any) -> None:  # noqa: F811
    page.goto(f"{server}/")
    page.evaluate("() => localStorage.clear()")
    page.reload()
    page.fill("#puzzle-text", HEART)
    page.click("#mode-play")
    page.wait_for_function("() => document.getElementById('play-board').dataset.rows", timeout=10000)
    assert rows(page) == "\n".join(["?" * 9] * 8)
    assert page.is_hidden("#watch-area")

    # mouse: a click fills, a right click marks, a drag along a row fills the cells it crosses
    click_cell(page, 0, 1)
    assert rows(page).split("\n")[0] == "?#???????"
    click_cell(page, 0, 1, "right")
    assert rows(page).split("\n")[0] == "?.???????"
    left, top, cell = map(float, str(page.get_attribute("#play-board", "data-layout")).split(","))
    box = page.locator("#play-canvas").bounding_box()
    page.mouse.move(box["x"] + left + cell / 2, box["y"] + top + 2.5 * cell)
    page.mouse.down()
    page.mouse.move(box["x"] + left + 4.5 * cell, box["y"] + top + 2.5 * cell, steps=6)
    page.mouse.up()
    assert rows(page).split("\n")[2] == "#####????"
    for _ in range(3):
        page.click("#play-undo")
    assert rows(page) == "\n".join(["?" * 9] * 8)
    page.click("#play-redo")
    assert rows(page).split("\n")[0] == "?#???????"
    page.click("#play-undo")

    # keyboard: arrows take the cursor (last at r3c5) to r1c1; space fills it (it is empty
    # in the solution)
    page.focus("#play-canvas")
    for key in ["ArrowUp"] * 3 + ["ArrowLeft"] * 5:
        page.keyboard.press(key)
    page.keyboard.press(" ")
    assert rows(page).split("\n")[0] == "#????????"
    page.click("#play-check")
    page.wait_for_function("() => document.getElementById('play-board').dataset.wrong === '0'",
                           timeout=15000)
    assert "1 wrong cell" in page.text_content("#play-message")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "web-play-check.png"), full_page=True)
    page.click("#play-hint")
    wait_answer(page)
    assert page.text_content("#play-message").startswith("Hint (mistake)")
    page.focus("#play-canvas")
    page.keyboard.press("Control+z")
    assert page.get_attribute("#play-board", "data-wrong") == ""
    page.keyboard.press("h")  # the keys for a hint and for applying it
    wait_answer(page)
    assert page.text_content("#play-message").startswith("Hint (line): row 2 (clue 4 4)")
    page.keyboard.press("a")
    assert rows(page).split("\n")[1] == "####.####"
    page.keyboard.press("Control+z")

    # hints only, to the end: every hinted cell agrees with the solution
    solution = SOLUTION.replace("\n", "")
    for turn in range(60):
        page.click("#play-hint")
        wait_answer(page)
        if page.get_attribute("#play-board", "data-solved") == "true":
            break
        message = page.text_content("#play-message")
        assert message.startswith("Hint (line)"), message
        assert "(clue " in message
        hinted = page.get_attribute("#play-board", "data-hint")
        assert hinted, message
        if turn == 2:
            page.screenshot(path=str(ARTIFACTS / "web-play-hint.png"), full_page=True)
        page.click("#play-apply")
        now = rows(page).replace("\n", "")
        assert all(now[int(c)] == solution[int(c)] for c in hinted.split(","))
        if page.get_attribute("#play-board", "data-solved") == "true":
            break
    assert rows(page) == SOLUTION
    assert page.text_content("#play-message").startswith("Solved in ")
    page.screenshot(path=str(ARTIFACTS / "web-play-solved.png"), full_page=True)

    # the position is kept across a reload
    page.reload()
    page.wait_for_function("() => document.getElementById('play-board').dataset.rows", timeout=10000)
    assert rows(page) == SOLUTION
    assert page.text_content("#play-message").startswith("Welcome back")


def test_page_opens_with_an_example_and_plays_a_generated_level(server: str,  # noqa: F811
                                                                page: Any) -> None:
    page.goto(f"{server}/")
    page.wait_for_function("() => document.getElementById('puzzle-text').value.trim()",
                           timeout=10000)
    assert page.input_value("#puzzle-text") == HEART
    assert page.get_attribute("#board", "data-rows") == "\n".join(["?" * 9] * 8)
    assert "example puzzle" in page.text_content("#message")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "web-opening.png"), full_page=True)
    page.fill("#gen-width", "12")
    page.fill("#gen-height", "12")
    page.select_option("#gen-level", "probe")
    page.check("#gen-picture")
    page.click("#generate")
    page.wait_for_function("() => document.getElementById('message').textContent"
                           ".startsWith('A new')", timeout=15000)
    assert "it needs probing" in page.text_content("#message")
    text = page.input_value("#puzzle-text")
    from gridsolve.nonogram.formats import bw_only
    from gridsolve.nonogram.rate import rate
    assert rate(bw_only(parse_puzzle(text), "this test")).level == "probe"
    page.click("#mode-play")
    page.wait_for_function("() => document.getElementById('play-board').dataset.rows"
                           " === Array(12).fill('?'.repeat(12)).join('\\n')", timeout=10000)
    page.click("#play-hint")
    wait_answer(page)
    assert page.text_content("#play-message").startswith("Hint (")
    page.screenshot(path=str(ARTIFACTS / "web-play-generated.png"), full_page=True)


CLUE_CASES = [  # line, clue, which clue numbers are done
    ("##.?????", [2, 1], [True, False]),
    ("?????.#", [2, 1], [False, True]),
    ("##.#....", [2, 1], [True, True]),
    ("##.##...", [2, 1], [True, False]),  # complete but wrong: only what matches
    ("###.????", [2, 1], [False, False]),
    ("##??????", [2, 1], [False, False]),  # not closed yet
    ("#.?.#.#", [1, 1, 1], [True, True, True]),
    ("........", [], []),
]


def test_clue_numbers_done(server: str, page: Any) -> None:  # noqa: F811
    page.goto(f"{server}/")
    got = page.evaluate("""async (cases) => {
        const { doneBlocks } = await import('/clues.js');
        return cases.map(([line, clue]) => doneBlocks(line, clue));
    }""", [[line, clue] for line, clue, _ in CLUE_CASES])
    assert got == [want for _, _, want in CLUE_CASES]


def test_touch_taps_fill_and_mark(server: str, browser: Any) -> None:  # noqa: F811
    context = browser.new_context(has_touch=True, viewport={"width": 800, "height": 900})
    try:
        page = context.new_page()
        page.goto(f"{server}/")
        page.evaluate("() => localStorage.clear()")
        page.fill("#puzzle-text", HEART)
        page.click("#mode-play")
        page.wait_for_function("() => document.getElementById('play-board').dataset.rows",
                               timeout=10000)
        left, top, cell = map(float, str(page.get_attribute("#play-board", "data-layout"))
                              .split(","))
        at = {"x": left + 1.5 * cell, "y": top + 0.5 * cell}
        page.tap("#play-canvas", position=at)
        assert rows(page).split("\n")[0] == "?#???????"
        page.tap("#play-tool")
        page.tap("#play-canvas", position={"x": at["x"] + cell, "y": at["y"]})
        assert rows(page).split("\n")[0] == "?#.??????"
    finally:
        context.close()
