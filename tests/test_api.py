"""The public API: what ``import gridsolve`` offers is pinned, and it works with plain lists."""

from __future__ import annotations

import pytest

import gridsolve
import gridsolve.tiling


def test_all_is_pinned() -> None:
    assert sorted(gridsolve.__all__) == sorted([
        "GridsolveError", "InvalidPuzzle", "LimitReached", "ParseError", "MissingFile",
        "SolverUnavailable", "AnyPuzzle", "PuzzleSource",
        "Grid", "Puzzle", "Colour", "ColourPuzzle", "Result", "SearchLimits", "Entry", "Rating",
        "METHODS",
        "solve", "first", "count", "unique", "is_solution", "puzzle_from_grid",
        "read_puzzle", "read_entry", "iter_entries", "parse_puzzle", "write_puzzle",
        "generate", "rate",
    ])
    for name in gridsolve.__all__:
        assert hasattr(gridsolve, name), name


def test_solve_from_plain_lists() -> None:
    result = gridsolve.solve(rows=[[1], [3]], cols=[[1], [2], [1]])
    assert result.status == "unique"
    assert result.solutions == ((".#.", "###"),)
    for method in ("native", "auto"):
        assert gridsolve.solve(rows=[[1], [1]], cols=[[1], [1]], method=method).status == "multiple"
    assert gridsolve.count(rows=[[1]] * 4, cols=[[1]] * 4) == 24
    assert gridsolve.unique(rows=[[2]], cols=[[1], [1]])
    assert gridsolve.first(rows=[[2], [0]], cols=[[1], [0], [1]]) is None


def test_colour_puzzles() -> None:
    red = gridsolve.Colour("red", (255, 0, 0), "r")
    blue = gridsolve.Colour("blue", (0, 0, 255), "b")
    white = gridsolve.Colour("white", (255, 255, 255), ".")
    puzzle = gridsolve.ColourPuzzle([[(1, 1), (1, 2)], [(1, 2)]], [[(1, 1)], [(2, 2)]],
                                    (white, red, blue))
    for method in ("native", "auto", "sat"):
        result = gridsolve.solve(puzzle, method=method)
        assert result.status == "unique"
        assert result.solutions == (("rb", ".b"),)
    assert gridsolve.first(puzzle) == ("rb", ".b")
    assert gridsolve.count(puzzle) == 1
    assert gridsolve.unique(puzzle)
    with pytest.raises(gridsolve.GridsolveError, match="black-and-white puzzles only"):
        gridsolve.solve(puzzle, method="ilp")


def test_bad_calls() -> None:
    with pytest.raises(TypeError):
        gridsolve.solve(rows=[[1]])
    with pytest.raises(gridsolve.InvalidPuzzle):
        gridsolve.solve(rows=[[3]], cols=[[1], [1]])
    # a NaN timeout compared false with every deadline (no limit at all); no solutions to
    # look for answered "unknown": both are the caller's mistake, said at once
    with pytest.raises(ValueError, match="NaN"):
        gridsolve.solve(rows=[[1]], cols=[[1]], timeout=float("nan"))
    for bad in (0, -1, True, 2.5):
        with pytest.raises(ValueError, match="max_solutions"):
            gridsolve.solve(rows=[[1]], cols=[[1]], max_solutions=bad)  # type: ignore[arg-type]


def test_calendar_api() -> None:
    assert "count_all" in dir(gridsolve.tiling) and "solutions" in dir(gridsolve.tiling)


def test_is_solution_refuses_what_is_not_a_complete_grid() -> None:
    """The independent checker: wrong clues, wrong sizes, and any cell but '#' and '.'."""
    from gridsolve import Puzzle, is_solution
    puzzle = Puzzle([[1, 1], [3]], [[2], [1], [2]])
    assert is_solution(puzzle, ("#.#", "###"))
    for grid in [("#.#", "##."), ("#.#",), ("#.#", "####"), ("#?#", "###"), ("#x#", "###"),
                 ("# #", "###"), ("#.#", "#\u0661#")]:
        assert not is_solution(puzzle, grid), grid
