"""The Generate form's Colours in Debian's Chromium (issue 55): a colour puzzle generated from
the form lands in the box as JSON, is unique, and opens in play with its colour palette; then
back to 1 colour, a black-and-white one with the fill tool. Skips as test_e2e does."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.test_e2e import ARTIFACTS, CHROMIUM, browser, page, server  # noqa: F401
from tests.web.test_play_e2e import rows, wait_answer  # noqa: E402

from gridsolve.nonogram.backends import analyse  # noqa: E402
from gridsolve.nonogram.formats import parse_puzzle  # noqa: E402
from gridsolve.nonogram.model import ColourPuzzle, Puzzle  # noqa: E402

# heavy: a server and a browser (make test-slow runs them)
pytestmark = [pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed"),
              pytest.mark.heavy]


def generate(page: Any, colours: int) -> str:
    """Press Generate with this many colours; the message it answers with."""
    page.fill("#gen-colours", str(colours))
    page.evaluate("() => { document.getElementById('message').textContent = ''; }")
    page.click("#generate")
    page.wait_for_function("() => { const t = document.getElementById('message').textContent;"
                           " return t && !t.startsWith('Generating'); }", timeout=30000)
    return str(page.text_content("#message"))


def test_generate_in_colour_from_the_form_and_play_it(server: str, page: Any) -> None:  # noqa: F811
    page.goto(f"{server}/")
    page.evaluate("() => localStorage.clear()")
    page.wait_for_function("() => document.getElementById('puzzle-text').value.trim()",
                           timeout=10000)
    assert page.input_value("#gen-colours") == "1"
    page.fill("#gen-width", "10")
    page.fill("#gen-height", "9")
    page.select_option("#gen-level", "line")
    message = generate(page, 3)
    assert message.startswith("A new 10\u00d79 puzzle in 3 colours"), message
    puzzle = parse_puzzle(page.input_value("#puzzle-text"))
    assert isinstance(puzzle, ColourPuzzle) and len(puzzle.palette) == 4
    assert analyse(puzzle, 2, method="sat").status == "unique"
    page.click("#mode-play")
    page.wait_for_function("() => document.getElementById('play-board').dataset.rows"
                           " === Array(9).fill('?'.repeat(10)).join('\\n')", timeout=10000)
    assert page.is_visible("#play-palette") and page.is_hidden("#play-tool")
    paints = page.eval_on_selector_all("#play-palette .paint", "bs => bs.map(b => b.dataset.paint)")
    assert paints == [c.symbol for c in puzzle.palette[1:]] + [".", "?", "move"]
    page.click("#play-hint")
    wait_answer(page)
    assert page.text_content("#play-message").startswith("Hint ("), rows(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "web-generate-colour.png"), full_page=True)

    # back to one colour while playing: a black-and-white puzzle, the fill tool, no palette
    message = generate(page, 1)
    assert message.startswith("A new 10\u00d79 puzzle (seed"), message
    assert isinstance(parse_puzzle(page.input_value("#puzzle-text")), Puzzle)
    page.wait_for_function("() => document.getElementById('play-palette').hidden", timeout=10000)
    assert page.is_visible("#play-tool")

    # a bad number is the server's one line, in red
    message = generate(page, 11)
    assert message == "colours must be a whole number from 1 to 10"
    assert page.get_attribute("#message", "class") == "error"
    assert page.errors == ["Failed to load resource: the server responded with a status of 422 "
                           "(Unprocessable Entity)"]
    page.errors.clear()  # the 422 the browser logs
