"""The text format's empty lines (issue #53.8): an empty line is an empty clue, the first
row's too, as the README says; a title's spacing stays spacing."""

from __future__ import annotations

import random

import pytest

from gridsolve.errors import ParseError
from gridsolve.nonogram.formats import detect_format, parse_puzzle, text
from gridsolve.nonogram.model import Puzzle, puzzle_from_grid


def _blank_written(puzzle: Puzzle) -> str:
    """The text format as a writer that leaves empty clues blank writes it (the last
    column's as 0: blank lines at the end of a file are ignored)."""
    rows = [" ".join(map(str, c)) for c in puzzle.rows]
    cols = [" ".join(map(str, c)) for c in puzzle.cols]
    cols[-1] = cols[-1] or "0"
    return "\n".join(rows) + "\n--\n" + "\n".join(cols) + "\n"


@pytest.mark.parametrize("source,rows,cols", [
    ("\n1\n--\n1\n0\n", ((), (1,)), ((1,), ())),
    ("\n--\n0\n", ((),), ((),)),  # "no row clues before the separator line"
    ("\n\n1\n--\n1\n0\n0\n", ((), (), (1,)), ((1,), (), ())),
    ("1\n\n--\n\n1\n", ((1,), ()), ((), (1,))),
])
def test_an_empty_first_row_is_a_row(source: str, rows: tuple[tuple[int, ...], ...],
                                     cols: tuple[tuple[int, ...], ...]) -> None:
    assert detect_format(source).NAME == "text"
    puzzle = parse_puzzle(source)
    assert (puzzle.rows, puzzle.cols) == (rows, cols)


def test_a_title_keeps_its_spacing() -> None:
    """After a leading comment, blank lines before the first clue are spacing (write 0)."""
    puzzle = parse_puzzle("# a title\n\n1\n--\n1\n")
    assert (puzzle.rows, puzzle.cols) == (((1,),), ((1,),))
    puzzle = parse_puzzle("# a title\n0\n1\n--\n1\n0\n")
    assert (puzzle.rows, puzzle.cols) == (((), (1,)), ((1,), ()))


def test_no_row_at_all_is_still_refused() -> None:
    with pytest.raises(ParseError, match="no row clues before the separator line"):
        parse_puzzle("--\n1\n", "text")


@pytest.mark.parametrize("seed", range(30))
def test_round_trips_of_puzzles_with_an_empty_first_row(seed: int) -> None:
    """Random puzzles whose first row is empty read back the same, written by ``dump``
    (0 for an empty clue) and with blank lines for empty clues."""
    rng = random.Random(seed)
    width, height = rng.randint(1, 8), rng.randint(1, 8)
    grid = ("." * width,) + tuple("".join(rng.choice("#.") for _ in range(width))
                                  for _ in range(height))
    puzzle = puzzle_from_grid(grid)
    assert text.parse(text.dump(puzzle)) == puzzle
    blank = _blank_written(puzzle)
    assert blank.startswith("\n") or puzzle.rows[0]
    assert detect_format(blank).NAME == "text"
    assert parse_puzzle(blank) == puzzle
