"""Text rendering: bare grids and grids with clue margins, plain and rich."""

from __future__ import annotations

from gridsolve.nonogram.model import Puzzle, puzzle_from_grid
from gridsolve.nonogram.render import ASCII, UNICODE, clued_text, grid_rich, grid_text

GRID = ("#.#.", "###.", "....", "..##")


def test_grid_text_glyphs() -> None:
    assert grid_text(("#.?",), ASCII) == "#.?"
    assert grid_text(("#.?", "..#"), UNICODE) == "■□?\n□□■"


def test_clued_text_small_puzzle() -> None:
    puzzle = puzzle_from_grid(GRID)
    assert clued_text(puzzle, GRID, ASCII) == "\n".join([
        "        2",
        "    2 1 1 1",
        "1 1 # . # .",
        "  3 # # # .",
        "  0 . . . .",
        "  2 . . # #",
    ])


def test_clued_text_two_digit_columns_widen_every_cell() -> None:
    grid = ("#.#",) * 11 + ("#..",)
    text = clued_text(puzzle_from_grid(grid), grid, ASCII).splitlines()
    assert text[0] == "    12  0 11"
    assert text[1] == "1 1  #  .  #"
    assert text[-1] == "  1  #  .  ."
    assert len(text) == 13


def test_rich_text_has_the_same_characters() -> None:
    puzzle = Puzzle([[1, 1], [3], [], [2]], [[2], [1], [2, 1], [1]])
    plain = clued_text(puzzle, GRID, UNICODE)
    rich = grid_rich(GRID, UNICODE, puzzle)
    assert rich.plain == plain
    assert any(span.style == "bold" for span in rich.spans)
    assert grid_rich(GRID, ASCII).plain == grid_text(GRID, ASCII)
