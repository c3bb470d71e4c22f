"""The model's and the readers' fast paths (issue 56: a batch of 200 tournament puzzles checks
392 grids and builds 10,000 clues) answer exactly as the plain rules they stand in for: the
solution check as the clue of every line, the clue check as ``_clean_clue`` of each, a block
of clue lines as ``parse_numbers`` of each line."""

from __future__ import annotations

import random
from typing import Any, cast

import pytest

from gridsolve.errors import InvalidPuzzle, ParseError
from gridsolve.nonogram.formats import _common, tournament
from gridsolve.nonogram.generate import random_grid
from gridsolve.nonogram.model import (EMPTY, FILLED, Puzzle, clue_of, columns_of, is_solution,
                                      puzzle_from_grid)


def by_definition(puzzle: Puzzle, grid: tuple[str, ...]) -> bool:
    """Is ``grid`` a solution, by the definition: its shape, its cells, each line's clue."""
    if len(grid) != puzzle.height or any(len(r) != puzzle.width for r in grid):
        return False
    if any(c not in (FILLED, EMPTY) for r in grid for c in r):
        return False
    return ([clue_of(r) for r in grid] == list(puzzle.rows)
            and [clue_of(c) for c in columns_of(grid)] == list(puzzle.cols))


def near_misses(grid: tuple[str, ...], rng: random.Random) -> list[tuple[str, ...]]:
    """The grid, and grids next to it: a cell flipped, a cell unknown or foreign, a row cut
    short or too long, a row missing, the grid transposed."""
    r, c = rng.randrange(len(grid)), rng.randrange(len(grid[0]))

    def cell(ch: str) -> tuple[str, ...]:
        return (*grid[:r], grid[r][:c] + ch + grid[r][c + 1:], *grid[r + 1:])
    flipped = EMPTY if grid[r][c] == FILLED else FILLED
    return [grid, cell(flipped), cell("?"), cell(" "), cell("x"),
            (*grid[:r], grid[r][:-1], *grid[r + 1:]), (*grid[:r], grid[r] + EMPTY, *grid[r + 1:]),
            grid[:-1], columns_of(grid)]


def test_the_solution_check_is_the_definition() -> None:
    rng = random.Random(56)
    for _ in range(300):
        w, h = rng.randint(1, 12), rng.randint(1, 12)
        grid = random_grid(w, h, rng.choice((0.0, 0.3, 0.5, 0.8, 1.0)), rng)
        puzzle = puzzle_from_grid(grid)
        assert is_solution(puzzle, grid)
        other = puzzle_from_grid(random_grid(w, h, 0.5, rng))
        for cand in near_misses(grid, rng):
            assert is_solution(puzzle, cand) == by_definition(puzzle, cand), (grid, cand)
            assert is_solution(other, cand) == by_definition(other, cand), (grid, cand)


def test_clues_of_plain_ints_and_of_anything_else_read_alike() -> None:
    assert Puzzle([(2,), [1, 1], (), [0]], [[1], [1], [1, 1]]).rows == ((2,), (1, 1), (), ())
    assert Puzzle([(n for n in (1, 1))], [[1], [], [1]]).rows == ((1, 1),)
    cases: list[tuple[Any, str]] = [
        ([[1], [True]], "row 2: clue numbers must be integers, got True"),
        ([[1], [1, -1]], "row 2: clue numbers cannot be negative, got -1"),
        ([[1], [1, 0]], "row 2: 0 may only stand alone, for an empty line"),
        ([[1], ["1"]], "row 2: clue numbers must be integers, got '1'"),
        ([[1], [1.0]], "row 2: clue numbers must be integers, got 1.0"),
        ([[1], [3]], "row 2: clue 3 needs 3 cells but the row has 2"),
        ([[1, "x"], 5], "row 1: clue numbers must be integers, got 'x'")]
    for rows, why in cases:
        with pytest.raises(InvalidPuzzle) as caught:
            Puzzle(rows, [[1], [1]])
        assert str(caught.value) == why
    with pytest.raises(TypeError):
        Puzzle(cast(Any, [[1], 5]), [[1], [1]])


BLOCK = ["1 2", "3\t4", "", "5,6", " 7 ", "123456789"]


def test_a_block_of_clue_lines_reads_as_each_line() -> None:
    assert _common.parse_number_lines(BLOCK, "f", 10) == [
        _common.parse_numbers(s, "f", 10 + i) for i, s in enumerate(BLOCK)]


@pytest.mark.parametrize("bad", ["x", "-1", "1234567890", "1 ²"])
def test_a_bad_line_in_a_block_is_named_as_alone(bad: str) -> None:
    lines = [*BLOCK[:3], bad, *BLOCK[3:]]
    with pytest.raises(ParseError) as alone:
        _common.parse_numbers(bad, "f", 13)
    with pytest.raises(ParseError) as in_block:
        _common.parse_number_lines(lines, "f", 10)
    assert (str(in_block.value), in_block.value.line) == (str(alone.value), 13)


def test_a_plain_tournament_file_is_read_a_block_at_a_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The lines of a plain file are checked a block at once, not one by one."""
    rng = random.Random(3)
    text = tournament.dump_many([puzzle_from_grid(random_grid(25, 25, 0.5, rng))
                                 for _ in range(3)])
    calls: list[str] = []
    plain = _common.parse_numbers

    def counted(s: str, source: str | None, line: int) -> list[int]:
        calls.append(s)
        return plain(s, source, line)
    monkeypatch.setattr(_common, "parse_numbers", counted)
    monkeypatch.setattr(tournament, "parse_numbers", counted, raising=False)  # (line by line)
    entries = list(tournament.entries(text, "t.txt"))
    assert len(entries) == 3 and not calls
    bad = text.replace("\t", "\tx", 1)  # a line that is no numbers: read line by line
    with pytest.raises(ParseError):
        list(tournament.entries(bad, "t.txt"))
    assert calls
