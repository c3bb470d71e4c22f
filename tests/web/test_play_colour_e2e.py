"""Colour play end to end in Debian's Chromium (issue 55): the palette by mouse, keys and
touch, check and undo, a colour puzzle played to "Solved" by hints only, the solver's colour
steps replayed, and the swatches' text and outline colours as the printed pictures choose
them. Skips as test_e2e does without a browser."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.test_e2e import ARTIFACTS, CHROMIUM, REPO, browser, page, server  # noqa: F401
from tests.web.test_play_colour import SPECKLES_TEXT  # noqa: E402
from tests.web.test_play_e2e import click_cell, rows, wait_answer  # noqa: E402

from gridsolve.nonogram.backends import analyse  # noqa: E402
from gridsolve.nonogram.formats import parse_puzzle  # noqa: E402
from gridsolve.nonogram.render.layout import outline_colour, text_colour  # noqa: E402

# heavy: a server and a browser (make test-slow runs them)
pytestmark = [pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed"),
              pytest.mark.heavy]

MUSHROOM = (REPO / "src" / "gridsolve" / "examples" / "mushroom.json").read_text()


def solution_of(text: str) -> str:
    return "\n".join(analyse(parse_puzzle(text)).solutions[0])


def open_play(page: Any, text: str) -> None:
    """The page in play mode on this puzzle, from a clean slate."""
    page.evaluate("() => localStorage.clear()")
    page.fill("#puzzle-text", text)
    page.click("#mode-play")
    page.wait_for_function("() => document.getElementById('play-board').dataset.rows",
                           timeout=10000)


def test_colour_palette_check_and_undo(server: str, page: Any) -> None:  # noqa: F811
    page.goto(f"{server}/")
    open_play(page, MUSHROOM)
    assert rows(page) == "\n".join(["?" * 12] * 12)
    assert page.is_hidden("#play-tool") and page.is_visible("#play-palette")
    paints = page.eval_on_selector_all("#play-palette .paint", "bs => bs.map(b => b.dataset.paint)")
    assert paints == ["r", "w", "t", "g", ".", "?", "move"]
    # the swatches' numbers: black or white by WCAG contrast; the cream one outlined darker
    look = page.eval_on_selector_all("#play-palette .paint", """bs => bs.slice(0, 4).map(b => {
        const s = getComputedStyle(b);
        return [b.textContent, s.color, s.borderTopColor]; })""")
    assert [t for t, _, _ in look] == ["1", "2", "3", "4"]
    assert look[0][1] == "rgb(255, 255, 255)" and look[1][1] == "rgb(0, 0, 0)"  # red, cream
    assert look[1][2] != "rgb(255, 244, 214)"  # cream's border is not cream: an outline

    page.click("#play-palette [data-paint='r']")
    click_cell(page, 0, 4)  # a click paints the chosen colour...
    assert rows(page).split("\n")[0] == "????r???????"
    click_cell(page, 0, 4)  # ...and again clears it
    assert rows(page).split("\n")[0] == "????????????"
    click_cell(page, 0, 0, "right")  # a right click marks empty
    assert rows(page).split("\n")[0] == ".???????????"
    left, top, cell = map(float, str(page.get_attribute("#play-board", "data-layout")).split(","))
    box = page.locator("#play-canvas").bounding_box()
    page.mouse.move(box["x"] + left + 4.5 * cell, box["y"] + top + 0.5 * cell)
    page.mouse.down()  # a drag along row 1 paints red the cells it crosses
    page.mouse.move(box["x"] + left + 7.5 * cell, box["y"] + top + 0.5 * cell, steps=6)
    page.mouse.up()
    assert rows(page).split("\n")[0] == ".???rrrr????"
    page.focus("#play-canvas")  # the cursor is at r1c8; key 2 paints it cream: a mistake
    page.keyboard.press("ArrowDown")
    page.keyboard.press("2")
    assert rows(page).split("\n")[1] == "???????w????"
    assert page.get_attribute("#play-palette [data-paint='w']", "aria-pressed") == "true"
    page.click("#play-check")
    page.wait_for_function("() => document.getElementById('play-board').dataset.wrong === '19'",
                           timeout=15000)
    assert "1 wrong cell" in page.text_content("#play-message")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "web-play-colour-check.png"), full_page=True)
    page.focus("#play-canvas")
    page.keyboard.press("Control+z")
    assert rows(page).split("\n")[1] == "?" * 12 and page.get_attribute("#play-board",
                                                                        "data-wrong") == ""
    page.click("#play-check")
    page.wait_for_function("() => document.getElementById('play-message').textContent"
                           " === 'No mistakes so far.'", timeout=15000)
    for _ in range(4):  # the drag, the mark, the clearing click, the paint
        page.click("#play-undo")
    assert rows(page) == "\n".join(["?" * 12] * 12)
    assert page.is_disabled("#play-undo")


@pytest.mark.parametrize("name, text", [("mushroom", MUSHROOM), ("speckles", SPECKLES_TEXT)])
def test_colour_puzzle_played_to_solved_by_hints_only(server: str, page: Any,  # noqa: F811
                                                       name: str, text: str) -> None:
    page.goto(f"{server}/")
    open_play(page, text)
    want = solution_of(text)
    solution = want.replace("\n", "")
    kinds = set()
    for turn in range(200):
        page.click("#play-hint")
        wait_answer(page)
        if page.get_attribute("#play-board", "data-solved") == "true":
            break
        message = page.text_content("#play-message")
        kind = message.split(")")[0].removeprefix("Hint (")
        assert kind in {"line", "whole-line", "contradiction", "guess"}, message
        kinds.add(kind)
        hinted = page.get_attribute("#play-board", "data-hint")
        assert hinted, message
        if turn == 3:
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"web-play-colour-hint-{name}.png"),
                            full_page=True)
        page.click("#play-apply")
        now = rows(page).replace("\n", "")
        assert all(now[int(c)] == solution[int(c)] for c in hinted.split(",")), message
        if page.get_attribute("#play-board", "data-solved") == "true":
            break
    assert rows(page).replace("?", ".") == want  # (cells left open count as empty, as in b&w)
    assert page.text_content("#play-message").startswith("Solved in ")
    assert page.text_content("#play-timer").count(":") == 1
    if name == "speckles":
        assert kinds & {"whole-line", "contradiction"}, kinds
    page.screenshot(path=str(ARTIFACTS / f"web-play-colour-solved-{name}.png"), full_page=True)
    page.reload()  # the position is kept
    page.wait_for_function("() => document.getElementById('play-board').dataset.rows",
                           timeout=10000)
    assert rows(page).replace("?", ".") == want
    assert page.text_content("#play-message").startswith("Welcome back")


def test_colour_play_by_touch_on_a_phone(server: str, browser: Any) -> None:  # noqa: F811
    context = browser.new_context(has_touch=True, is_mobile=True, device_scale_factor=2,
                                  viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto(f"{server}/")
        open_play(page, MUSHROOM)
        assert page.locator("#play-palette .paint").first.bounding_box()["width"] >= 44
        page.tap("#play-palette [data-paint='g']")
        left, top, cell = map(float, str(page.get_attribute("#play-board", "data-layout"))
                              .split(","))
        assert cell >= 24  # a finger's cell
        page.tap("#play-canvas", position={"x": left + 0.5 * cell, "y": top + 11.5 * cell})
        assert rows(page).split("\n")[11] == "g" + "?" * 11
        page.tap("#play-palette [data-paint='.']")
        page.tap("#play-canvas", position={"x": left + 0.5 * cell, "y": top + 0.5 * cell})
        assert rows(page).split("\n")[0] == "." + "?" * 11
        page.tap("#play-hint")
        wait_answer(page)
        assert page.text_content("#play-message").startswith("Hint (line)")
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "web-play-colour-phone.png"), full_page=True)
    finally:
        context.close()


def test_colour_solve_is_replayed_step_by_step(server: str, page: Any) -> None:  # noqa: F811
    page.goto(f"{server}/")
    page.fill("#puzzle-text", MUSHROOM)
    page.click("#solve")
    want = solution_of(MUSHROOM)
    page.wait_for_function("want => document.getElementById('board').dataset.rows === want",
                           arg=want, timeout=15000)
    assert "1/10 (line)" in page.text_content("#summary")
    page.click("#to-start")
    page.click("#step")
    label = page.text_content("#step-label")
    assert label.startswith("step 1 of 31") and "narrows the colours" in label, label
    for _ in range(30):
        page.click("#step")
        shown = str(page.get_attribute("#board", "data-rows")).replace("\n", "")
        assert all(c == "?" or c == s for c, s in zip(shown, want.replace("\n", "")))
    assert page.get_attribute("#board", "data-rows") == want
    assert "a solution: every clue is satisfied" in page.text_content("#step-label")
    assert page.is_visible("#watch-area .legend .colour-only")
    assert page.is_hidden("#watch-area .legend .bw-only")


def test_colour_probes_are_replayed_with_colour_names(server: str, page: Any) -> None:  # noqa: F811
    page.goto(f"{server}/")
    page.fill("#puzzle-text", SPECKLES_TEXT)
    page.click("#solve")
    page.wait_for_function("want => document.getElementById('board').dataset.rows === want",
                           arg=solution_of(SPECKLES_TEXT), timeout=15000)
    page.click("#to-start")
    for _ in range(400):
        page.click("#step")
        label = page.text_content("#step-label")
        if "probe: suppose" in label:
            break
    assert label.split(" is ")[-1] in {"empty", "black", "red", "blue"}, label
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "web-watch-colour-probe.png"), full_page=True)


def test_swatch_colours_match_the_printed_pictures(server: str, page: Any) -> None:  # noqa: F811
    colours = ["#ffffff", "#fff4d6", "#cc2222", "#d2b48c", "#2e8b57", "#777777", "#808080",
               "#ffff00", "#00ffff", "#1e3cdc", "#000000", "#f0e68c"]
    page.goto(f"{server}/")
    got = page.evaluate("""async (cs) => {
        const b = await import('/board.js');
        return cs.map((c) => [b.textOn(c), b.outlineOf(c)]);
    }""", colours)
    assert got == [[text_colour(c), outline_colour(c)] for c in colours]
